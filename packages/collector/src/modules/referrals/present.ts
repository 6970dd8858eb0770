// How a referral is shown, by the API and in the events that carry it (docs/api.md §8, §28):
// a pure function of the row, so a webhook's record is the API's own.

import { present, type Resource } from '../../platform/resource.js';
import type { ReferralRow } from './repo.js';

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
