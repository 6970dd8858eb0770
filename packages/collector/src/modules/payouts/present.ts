// How a payout batch is shown, by the API and in the events that carry it (docs/api.md §8, §28):
// a pure function of the row, so a webhook's record is the API's own.

import type { BatchSummary } from './repo.js';
import type { PayoutPayload } from '../../events/types.js';

/** A payout batch: what one export made, and whether it was paid or cancelled. */
export function renderBatch(b: BatchSummary): PayoutPayload {
  return {
    id: b.id,
    type: 'payout_batch' as const,
    attributes: {
      currency: b.currency,
      state: b.paid_at !== null ? ('paid' as const) : b.cancelled_at !== null ? ('cancelled' as const) : ('open' as const),
      amount: b.amount,
      commissions: b.commissions,
      partners: b.partners,
      created_at: b.created_at,
      ...(b.paid_at === null ? {} : { paid_at: b.paid_at }),
      ...(b.cancelled_at === null ? {} : { cancelled_at: b.cancelled_at }),
    },
  };
}
