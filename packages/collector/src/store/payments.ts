import type { Queryable } from './db.js';
import { lister } from './list.js';
import { insertRow } from './rows.js';

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
  amount: number;
  currency: string;
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

export async function existsForReferral(db: Queryable, referralId: string): Promise<boolean> {
  return (await db.get('SELECT 1 AS x FROM payments WHERE referral_id = ? LIMIT 1', [referralId])) !== undefined;
}

export function findByCommission(db: Queryable, commissionId: string): Promise<PaymentRow | undefined> {
  return db.get<PaymentRow>('SELECT * FROM payments WHERE commission_id = ?', [commissionId]);
}
