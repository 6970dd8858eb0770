// A review decision as the API and its webhook event show it.

import type { DecisionRow } from './repo.js';
import type { DecisionPayload } from '../../events/types.js';

export function renderDecision(row: DecisionRow): DecisionPayload {
  return {
    id: row.id,
    type: 'review_decision',
    attributes: {
      referral_id: row.referral_id,
      commission_id: row.commission_id ?? null,
      partner_id: row.partner_id,
      decision: row.decision,
      reason: row.reason,
      decided_by: row.decided_by,
      created_at: row.created_at,
    },
  };
}
