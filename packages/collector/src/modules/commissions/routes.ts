import { z } from 'zod';
import { createCommission, updateCommission } from '../../flows/commission-entry.js';
import { states } from '../../core/state-machines.js';
import { dateTime, oneOf, text } from '../../platform/http/list-query.js';
import * as commissions from './repo.js';
import { route } from '../../api/route.js';
import { one } from '../../platform/http/schemas.js';
import { readRoutes } from '../../api/crud.js';
import { exportRoute } from '../../api/export.js';
import { amount, currency, state } from '../../api/fields.js';
import { renderCommission } from './present.js';
import { commissionSchema } from './schemas.js';

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

const filters = {
  state_eq: oneOf(states('commission')),
  review_eq: oneOf(['held', 'approved', 'rejected']),
  partner_id_eq: text,
  created_at_lt: dateTime,
  created_at_gt: dateTime,
  state_set_at_lt: dateTime,
  state_set_at_gt: dateTime,
};

/** The CSV's columns: the attributes of a commission as the API renders it, minus the review's detail. */
const EXPORT_COLUMNS = [
  'state',
  'amount',
  'currency',
  'partner_id',
  'referral_id',
  'reject_reason',
  'paid_at',
  'payable_at',
  'on_hold',
  'tier',
  'tier_of',
  'clawback_of',
  'payout_batch_id',
  'reward_id',
  'reward_description',
  'state_set_at',
  'created_at',
  'updated_at',
];

export const commissionRoutes = [
  // Before /v1/commissions/:id, which would take "export" for an id.
  exportRoute({ plural: 'commissions', list: commissions.list, render: renderCommission, filters, columns: EXPORT_COLUMNS }),
  ...readRoutes({
    plural: 'commissions',
    type: 'commission',
    get: commissions.get,
    list: commissions.list,
    render: renderCommission,
    schema: commissionSchema,
    filters,
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
