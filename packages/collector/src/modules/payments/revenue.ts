// What a refund takes out of revenue: the refunded share of the payment's amount, kept
// on the payment so every refund after the first takes only what is new.

import type { Queryable } from '../../platform/db/db.js';
import * as payments from './repo.js';
import type { PaymentRow } from './repo.js';
import { addDelta } from '../../events/deltas.js';
import { shareOf } from '../../core/money.js';

/**
 * Records that `refundedGross` of the payment's charge is refunded now (never less than
 * before), and takes the new share out of revenue in the payment's own bucket. Resolves
 * to the payment as it is now.
 */
export async function refundRevenue(
  db: Queryable,
  payment: PaymentRow,
  partnerId: string,
  refundedGross: number,
  now: number,
): Promise<PaymentRow> {
  const gross = Math.min(Math.max(refundedGross, payment.refunded_gross), payment.gross);
  if (gross === payment.refunded_gross) return payment;
  const refunded = shareOf(payment.amount, gross, payment.gross);
  await payments.setRefunded(db, payment.id, gross, refunded, now);
  const taken = refunded - payment.refunded;
  if (taken !== 0) {
    await addDelta(db, {
      program_id: payment.program_id,
      partner_id: partnerId,
      at: payment.created_at,
      currency: payment.currency,
      revenue: -taken,
    });
  }
  return { ...payment, refunded_gross: gross, refunded, updated_at: now };
}
