import { states } from '../domain/state-machines.js';
import { dateTime, oneOf, text } from '../http/list-query.js';
import { present, type Resource } from '../http/render.js';
import * as commissions from '../store/commissions.js';
import type { CommissionRow } from '../store/commissions.js';
import { readRoutes } from './crud.js';

export function renderCommission(row: CommissionRow): Resource {
  return {
    id: row.id,
    type: 'commission',
    attributes: present({
      state: row.state,
      amount: row.amount,
      currency: row.currency,
      partner_id: row.partner_id,
      referral_id: row.referral_id,
      // Present only in the states they belong to (seed §3).
      reject_reason: row.state === 'rejected' ? row.reject_reason : null,
      paid_at: row.state === 'paid' ? row.paid_at : null,
      state_set_at: row.state_set_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }),
  };
}

export const commissionRoutes = [
  ...readRoutes({
    plural: 'commissions',
    type: 'commission',
    get: commissions.get,
    list: commissions.list,
    render: renderCommission,
    filters: {
      state_eq: oneOf(states('commission')),
      partner_id_eq: text,
      created_at_lt: dateTime,
      created_at_gt: dateTime,
      state_set_at_lt: dateTime,
      state_set_at_gt: dateTime,
    },
  }),
];
