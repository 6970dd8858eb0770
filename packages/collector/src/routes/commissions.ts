import { z } from 'zod';
import { createCommission, updateCommission } from '../domain/commissions.js';
import { states } from '../domain/state-machines.js';
import { dateTime, oneOf, text } from '../http/list-query.js';
import * as commissions from '../store/commissions.js';
import { route } from '../http/route.js';
import { one, resource, unixTime } from '../http/schemas.js';
import { readRoutes } from './crud.js';
import { amount, currency, state } from './fields.js';
import { renderCommission } from '../views/records.js';

export const commissionSchema = resource('commission', {
  state: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  partner_id: z.string(),
  referral_id: z.string().optional(),
  reject_reason: z.string().optional(),
  paid_at: unixTime.optional(),
  payable_at: unixTime.meta({ description: 'When a payout may take it: its payment plus the holding period' }),
  on_hold: z.boolean().meta({ description: 'Its payment is disputed: no payout takes it meanwhile' }),
  clawback_of: z.string().optional().meta({ description: 'For a negative commission: the commission whose refunded share it takes back' }),
  state_set_at: unixTime,
  created_at: unixTime,
  updated_at: unixTime,
});

const createBody = z.strictObject({
  partner_id: z.string().min(1).max(64),
  amount,
  currency,
  referral_id: z.string().min(1).max(64).nullish(),
});

const updateBody = z.strictObject({
  state: state('commission'),
  reject_reason: z.string().trim().min(1).max(500).nullish(),
});

export const commissionRoutes = [
  ...readRoutes({
    plural: 'commissions',
    type: 'commission',
    get: commissions.get,
    list: commissions.list,
    render: renderCommission,
    schema: commissionSchema,
    filters: {
      state_eq: oneOf(states('commission')),
      partner_id_eq: text,
      created_at_lt: dateTime,
      created_at_gt: dateTime,
      state_set_at_lt: dateTime,
      state_set_at_gt: dateTime,
    },
  }),
  route({
    method: 'post',
    path: '/v1/commissions',
    summary: 'Record a one-off commission by hand',
    access: 'secret',
    body: createBody,
    status: 201,
    response: one(commissionSchema),
    async handle({ db, program, body, now }) {
      const row = await createCommission(db, program.id, body, now);
      return { status: 201, headers: { Location: `/v1/commissions/${row.id}` }, body: { data: renderCommission(row) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/commissions/:id',
    summary: 'Pay or reject a pending commission',
    access: 'secret',
    body: updateBody,
    status: 200,
    response: one(commissionSchema),
    async handle({ db, program, params, body, now }) {
      const row = await updateCommission(db, program.id, params.id ?? '', body, now);
      return { status: 200, body: { data: renderCommission(row) } };
    },
  }),
];
