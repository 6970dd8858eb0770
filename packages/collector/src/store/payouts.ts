import type { Queryable } from './db.js';
import { insertRow } from './rows.js';

/** A pending commission that can be paid out: its partner's partnership is accepted. */
export interface PayableRow {
  commission_id: string;
  partner_id: string;
  partner_name: string;
  paypal_email: string | null;
  amount: number;
  currency: string;
}

export function payable(db: Queryable, programId: string, currency: string | null): Promise<PayableRow[]> {
  const params = currency === null ? [programId] : [programId, currency];
  // NULLS FIRST: the engines' defaults differ (SQLite first, PostgreSQL last).
  return db.all<PayableRow>(
    `SELECT c.id AS commission_id, c.partner_id, pa.name AS partner_name, pa.paypal_email, c.amount, c.currency
       FROM commissions c
       JOIN partners pa ON pa.id = c.partner_id
       JOIN partnerships ps ON ps.program_id = c.program_id AND ps.partner_id = c.partner_id
      WHERE c.program_id = ? AND c.state = 'pending' AND ps.state = 'accepted' ${currency === null ? '' : 'AND c.currency = ?'}
      ORDER BY c.currency, pa.paypal_email NULLS FIRST, c.partner_id, c.created_at, c.id`,
    params,
  );
}

export interface BatchRow {
  id: string;
  program_id: string;
  currency: string;
  created_at: number;
  paid_at: number | null;
}

export interface ItemRow {
  batch_id: string;
  commission_id: string;
  partner_id: string;
  amount: number;
}

export async function insertBatch(db: Queryable, batch: BatchRow, items: readonly ItemRow[]): Promise<void> {
  await insertRow(db, 'payout_batches', batch);
  for (const item of items) await insertRow(db, 'payout_items', item);
}

export function getBatch(db: Queryable, id: string): Promise<BatchRow | undefined> {
  return db.get<BatchRow>('SELECT * FROM payout_batches WHERE id = ?', [id]);
}

/** The batch's commissions with their state now. */
export function batchItems(db: Queryable, batchId: string): Promise<Array<ItemRow & { state: string }>> {
  return db.all(
    `SELECT i.*, c.state FROM payout_items i JOIN commissions c ON c.id = i.commission_id
      WHERE i.batch_id = ? ORDER BY i.commission_id`,
    [batchId],
  );
}

/** Marks the batch paid unless it already was; false if it was. */
export async function markBatchPaid(db: Queryable, id: string, now: number): Promise<boolean> {
  return (await db.run('UPDATE payout_batches SET paid_at = ? WHERE id = ? AND paid_at IS NULL', [now, id])) === 1;
}
