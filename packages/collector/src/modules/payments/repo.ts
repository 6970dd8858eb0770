import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow } from '../../platform/db/rows.js';

export interface PaymentRow {
  id: string;
  program_id: string;
  /** The company's own id for the payment; unique per program. */
  idempotency_key: string;
  /** SHA-256 of the request as understood, to tell a replay from a changed request. */
  request_hash: string;
  /** Null once the person was erased (DELETE /v1/referrals/:id, tally forget). */
  referral_id: string | null;
  commission_id: string;
  /** What earns the commission: the charge less tax, in minor units. */
  amount: number;
  currency: string;
  /** When the customer paid (Stripe's time; the request's for POST /v1/payments). */
  occurred_at: number;
  /** The charge the amount came from, tax included: refunds are shares of it. */
  gross: number;
  /** How much of `gross` was refunded (or lost in a dispute), and that share of `amount`. */
  refunded_gross: number;
  refunded: number;
  /** The commission it earned at first, before any refund reduced it. */
  earned: number;
  /** The promotion code that credited it, when one did (modules/codes). */
  discount_code_id: string | null;
  /** 1 when it was its referral's first payment: the referral became a paying customer. */
  first_of_referral: number;
  created_at: number;
  updated_at: number;
}

export async function insert(db: Queryable, row: PaymentRow): Promise<void> {
  await insertRow(db, 'payments', row);
}

export function get(db: Queryable, programId: string, id: string): Promise<PaymentRow | undefined> {
  return db.get<PaymentRow>('SELECT * FROM payments WHERE program_id = ? AND id = ?', [programId, id]);
}

export function findByKey(db: Queryable, programId: string, key: string): Promise<PaymentRow | undefined> {
  return db.get<PaymentRow>('SELECT * FROM payments WHERE program_id = ? AND idempotency_key = ?', [programId, key]);
}

/** Newest first; by the referral the payment credited (payments_list, payments_referral). */
export const list = lister<PaymentRow>('payments', { referral_id: 'referral_id', created_at: 'created_at' });

export function findByCommission(db: Queryable, commissionId: string): Promise<PaymentRow | undefined> {
  return db.get<PaymentRow>('SELECT * FROM payments WHERE commission_id = ?', [commissionId]);
}

/** When the referral's earliest payment was made, if it has one: recurring limits count from it. */
export async function firstOccurredAt(db: Queryable, referralId: string): Promise<number | undefined> {
  const row = await db.get<{ t: number | null }>('SELECT MIN(occurred_at) AS t FROM payments WHERE referral_id = ?', [referralId]);
  return row?.t === null || row?.t === undefined ? undefined : Number(row.t);
}

export async function setRefunded(db: Queryable, id: string, refundedGross: number, refunded: number, now: number): Promise<void> {
  await db.run('UPDATE payments SET refunded_gross = ?, refunded = ?, updated_at = ? WHERE id = ?', [refundedGross, refunded, now, id]);
}
