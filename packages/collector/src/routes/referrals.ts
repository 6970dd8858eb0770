import { normalizeEmail } from '../domain/email.js';
import { states } from '../domain/state-machines.js';
import { dateTime, oneOf, text, transformed } from '../http/list-query.js';
import { present, type Resource } from '../http/render.js';
import * as referrals from '../store/referrals.js';
import type { ReferralRow } from '../store/referrals.js';
import { readRoutes } from './crud.js';

/** The conversion record: the person a partner referred. */
export function renderReferral(row: ReferralRow): Resource {
  return {
    id: row.id,
    type: 'referral',
    attributes: present({
      email: row.email,
      uid: row.uid,
      state: row.state,
      state_set_at: row.state_set_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }),
    relationships: { partnership: { data: { id: row.partnership_id, type: 'partnership' } } },
  };
}

export const referralRoutes = [
  ...readRoutes({
    plural: 'referrals',
    type: 'referral',
    get: referrals.get,
    list: referrals.list,
    render: renderReferral,
    filters: {
      state_eq: oneOf(states('referral')),
      email_eq: transformed('e-mail address, compared normalized', normalizeEmail),
      partner_id_eq: text,
      created_at_lt: dateTime,
      created_at_gt: dateTime,
      state_set_at_lt: dateTime,
      state_set_at_gt: dateTime,
    },
  }),
];
