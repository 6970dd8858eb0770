// How a payment is shown, by the API and in the events that carry it (docs/api.md §8, §28):
// a pure function of the row, so a webhook's record is the API's own.

import type { PaymentRow } from './repo.js';
import type { PaymentPayload } from '../../events/types.js';

export function renderPayment(row: PaymentRow): PaymentPayload {
  return {
    id: row.id,
    type: 'payment',
    attributes: {
      amount: row.amount,
      currency: row.currency,
      idempotency_key: row.idempotency_key,
      refunded: Number(row.refunded),
      paid_at: Number(row.occurred_at),
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
    relationships: {
      commission: { data: { id: row.commission_id, type: 'commission' } },
      referral: { data: row.referral_id ? { id: row.referral_id, type: 'referral' } : null },
    },
  };
}
