import { z } from 'zod';
import { moveReferral } from './service.js';
import { eraseReferral } from '../../flows/erasure.js';
import { states } from '../../core/state-machines.js';
import { dateTime, oneOf, text } from '../../platform/http/list-query.js';
import * as referrals from './repo.js';
import { route } from '../../api/route.js';
import { one } from '../../platform/http/schemas.js';
import { readRoutes } from '../../api/crud.js';
import { emailFilter, state } from '../../api/fields.js';
import { renderReferral } from './present.js';
import { referralSchema } from './schemas.js';

export const referralRoutes = [
  ...readRoutes({
    plural: 'referrals',
    type: 'referral',
    get: referrals.get,
    list: referrals.list,
    render: (row) => renderReferral(row),
    schema: referralSchema,
    filters: {
      state_eq: oneOf(states('referral')),
      review_eq: oneOf(['held', 'approved', 'rejected']),
      email_eq: emailFilter,
      partner_id_eq: text,
      created_at_lt: dateTime,
      created_at_gt: dateTime,
      state_set_at_lt: dateTime,
      state_set_at_gt: dateTime,
    },
  }),
  route({
    method: 'patch',
    path: '/v1/referrals/:id',
    summary: 'Move a referral: converted → paid → churned, or to rejected',
    access: 'secret',
    body: z.strictObject({ state: state('referral') }),
    status: 200,
    response: one(referralSchema),
    async handle({ db, program, params, body, now }) {
      const row = await moveReferral(db, program.id, params.id ?? '', body.state, now);
      return { status: 200, body: { data: renderReferral(row) } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/referrals/:id',
    summary: 'Erase a person: the referral, its clicks, and its link from commissions and payments',
    access: 'secret',
    status: 204,
    async handle({ db, program, params, now }) {
      await eraseReferral(db, program.id, params.id ?? '', now);
      return { status: 204 };
    },
  }),
];
