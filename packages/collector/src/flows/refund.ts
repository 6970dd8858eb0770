// Refunds and disputes after a payment: what the partner earned shrinks with what the
// customer got back. A commission not yet paid is reduced in place (or rejected, when
// all was refunded); one already paid, or held by an open payout batch, gets a negative
// commission, a clawback, which the next payout nets against what the partner is owed.

import type { Tx } from '../platform/db/db.js';
import type { CommissionRow } from '../modules/commissions/model.js';
import * as payments from '../modules/payments/repo.js';
import type { PaymentRow } from '../modules/payments/repo.js';
import { getCommission } from './commission-entry.js';
import { holdCommission, takeBackTo } from '../modules/commissions/ledger.js';
import { refundRevenue } from '../modules/payments/revenue.js';
import { keptShare } from '../core/money.js';

export interface RefundResult {
  payment: PaymentRow;
  /** The payment's commission as it is now. */
  commission: CommissionRow;
  /** Every clawback of that commission so far, this refund's last if it made one. */
  clawbacks: CommissionRow[];
}

/**
 * Brings the payment to `refundedGross` of its charge refunded (a running total, as
 * Stripe's `amount_refunded` is: the same total again changes nothing, so a retried
 * event is harmless) and the partner's earnings to the unrefunded share of what the
 * payment earned at first.
 */
export async function applyRefund(tx: Tx, given: PaymentRow, refundedGross: number, now: number): Promise<RefundResult> {
  const payment = await lockPayment(tx, given);
  const commission = await getCommission(tx, payment.program_id, payment.commission_id);
  const after = await refundRevenue(tx, payment, commission.partner_id, refundedGross, now);
  // Rejected (by hand, or beyond the recurring limit): nothing was earned to take back; a
  // refund only ever takes back, and a larger total credited than due never grows again.
  const taken = await takeBackTo(tx, commission, keptShare(payment.earned, after.refunded_gross, after.gross), 'refunded', now);
  return { payment: after, ...taken };
}

/**
 * The payment as it is once its refunds are this transaction's turn: another process
 * refunding it at the same moment has committed by then, so what it wrote is read here.
 */
export async function lockPayment(tx: Tx, payment: PaymentRow): Promise<PaymentRow> {
  await tx.lock(`refunds:${payment.id}`);
  return (await payments.get(tx, payment.program_id, payment.id)) ?? payment;
}

/** A dispute opened (`hold` true) or closed: the payment's pending commissions wait meanwhile. */
export async function holdForDispute(tx: Tx, payment: PaymentRow, hold: boolean, now: number): Promise<number> {
  return holdCommission(tx, payment.program_id, payment.commission_id, hold, now);
}
