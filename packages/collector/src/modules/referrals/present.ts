// How a referral is shown, by the API and in the events that carry it (docs/api.md §8, §28):
// a pure function of the row, so a webhook's record is the API's own.

import { present } from '../../platform/resource.js';
import type { ReferralRow } from './repo.js';
import type { ReferralPayload } from '../../events/types.js';
import { reviewOf } from '../../core/review.js';

/**
 * The conversion record: the person a partner referred, with its review for the owner
 * (`withReview` false for the public tracker's answer: a flood must not learn what it tripped).
 */
export function renderReferral(row: ReferralRow, withReview = true): ReferralPayload {
  return {
    id: row.id,
    type: 'referral',
    attributes: present({
      email: row.email,
      uid: row.uid,
      state: row.state,
      state_set_at: row.state_set_at,
      ...(withReview ? reviewOf(row) : {}),
      created_at: row.created_at,
      updated_at: row.updated_at,
    }),
    relationships: { partnership: { data: { id: row.partnership_id, type: 'partnership' } } },
  };
}
