import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow } from '../../platform/db/rows.js';
import type { InvoiceRow } from './model.js';

/**
 * The program's next invoice number, taken in the caller's transaction. The upsert takes the
 * counter row's lock until the commit: a second transaction waits, then counts on from the
 * committed number, and a rollback gives the number back, so numbers have neither gaps nor twins.
 */
export async function nextNumber(db: Queryable, programId: string): Promise<number> {
  const row = await db.get<{ last_number: number }>(
    `INSERT INTO invoice_counters (program_id, last_number) VALUES (?, 1)
     ON CONFLICT (program_id) DO UPDATE SET last_number = invoice_counters.last_number + 1
     RETURNING last_number`,
    [programId],
  );
  return Number(row!.last_number);
}

export async function insert(db: Queryable, row: InvoiceRow): Promise<void> {
  await insertRow(db, 'invoices', row);
}

export function get(db: Queryable, programId: string, id: string): Promise<InvoiceRow | undefined> {
  return db.get<InvoiceRow>('SELECT * FROM invoices WHERE program_id = ? AND id = ?', [programId, id]);
}

export function ofPayout(db: Queryable, programId: string, payoutId: string, partnerId: string): Promise<InvoiceRow | undefined> {
  return db.get<InvoiceRow>('SELECT * FROM invoices WHERE program_id = ? AND payout_id = ? AND partner_id = ?', [
    programId,
    payoutId,
    partnerId,
  ]);
}

export const list = lister<InvoiceRow>('invoices', { partner_id: 'partner_id', payout_id: 'payout_id', created_at: 'created_at' });
