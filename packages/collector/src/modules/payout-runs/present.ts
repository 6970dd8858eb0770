// How a payout run and its items are shown by the API, and an item in the payout events.

import type { PayoutPayload } from '../../events/types.js';
import type { ItemRow, RunRow } from './model.js';

export function renderItem(i: ItemRow): PayoutPayload & { attributes: Record<string, unknown> } {
  return {
    id: i.id,
    type: 'payout' as const,
    attributes: {
      run_id: i.run_id,
      partner_id: i.partner_id,
      currency: i.currency,
      amount: i.amount,
      method: i.method,
      address: i.address,
      state: i.state,
      provider_batch_id: i.provider_batch_id,
      provider_item_id: i.provider_item_id,
      provider_fee: i.provider_fee,
      amount_reversed: Number(i.amount_reversed),
      reason: i.reason,
      state_set_at: i.state_set_at,
      created_at: i.created_at,
    },
  };
}

/** A run with how many of its items are in each state. */
export function renderRun(r: RunRow, byState: Record<string, number>) {
  return {
    id: r.id,
    type: 'payout_run' as const,
    attributes: {
      provider: r.provider,
      state: r.state,
      attempt: r.attempt,
      items: byState,
      created_by: r.created_by,
      approved_by: r.approved_by,
      created_at: r.created_at,
      approved_at: r.approved_at,
      sent_at: r.sent_at,
    },
  };
}
