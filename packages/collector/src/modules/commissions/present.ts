// How a commission is shown, by the API and in the events that carry it (docs/api.md §8, §28):
// a pure function of the row, so a webhook's record is the API's own.

import { present } from '../../platform/resource.js';
import type { CommissionRow } from './model.js';
import { reviewOf } from '../../core/review.js';
import type { CommissionPayload } from '../../events/types.js';

export function renderCommission(row: CommissionRow): CommissionPayload {
  return {
    id: row.id,
    type: 'commission',
    attributes: present({
      state: row.state,
      amount: row.amount,
      currency: row.currency,
      partner_id: row.partner_id,
      referral_id: row.referral_id,
      // Present only in the states they belong to (docs/api.md §8.3).
      reject_reason: row.state === 'rejected' ? row.reject_reason : null,
      paid_at: row.state === 'paid' ? row.paid_at : null,
      payable_at: Number(row.payable_at),
      on_hold: Number(row.on_hold) === 1,
      ...reviewOf(row),
      clawback_of: row.clawback_of,
      // 2: the recruiter's share of a recruit's commission, `tier_of` (docs/two-tier.md).
      tier: row.tier_of ? 2 : 1,
      tier_of: row.tier_of,
      // Still `pending` while an open batch holds it (the states are the spec's): the batch says where it went.
      payout_batch_id: row.payout_batch_id,
      reward_id: row.reward_id,
      reward_description: row.reward_description,
      state_set_at: row.state_set_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }),
  };
}
