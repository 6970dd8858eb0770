import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow } from '../../platform/db/rows.js';
import type { CreditNoteRow, InvoiceRow } from './model.js';

/**
 * The program's next invoice number, taken in the caller's transaction. The upsert takes the
 * counter row's lock until the commit: a second transaction waits, then counts on from the
 * committed number, and a rollback gives the number back, so numbers have neither gaps nor twins.
 */
export async function nextNumber(
  db: Queryable,
  programId: string,
  counter: 'invoice_counters' | 'credit_note_counters' = 'invoice_counters',
): Promise<number> {
  const row = await db.get<{ last_number: number }>(
    `INSERT INTO ${counter} (program_id, last_number) VALUES (?, 1)
     ON CONFLICT (program_id) DO UPDATE SET last_number = ${counter}.last_number + 1
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

export async function insertCreditNote(db: Queryable, row: CreditNoteRow): Promise<void> {
  await insertRow(db, 'credit_notes', row);
}

export function getCreditNote(db: Queryable, programId: string, id: string): Promise<CreditNoteRow | undefined> {
  return db.get<CreditNoteRow>('SELECT * FROM credit_notes WHERE program_id = ? AND id = ?', [programId, id]);
}

/** The invoice's credit notes, in number order. */
export function creditNotesOf(db: Queryable, invoiceId: string): Promise<CreditNoteRow[]> {
  return db.all<CreditNoteRow>('SELECT * FROM credit_notes WHERE invoice_id = ? ORDER BY number', [invoiceId]);
}

/** Each payout's invoice and credit notes, by payout id (the dashboard's payout run): invoices first, then by number. */
export async function documentsOf(
  db: Queryable,
  programId: string,
  payoutIds: readonly string[],
): Promise<{ payout_id: string; type: 'invoice' | 'credit_note'; id: string; label: string }[]> {
  if (payoutIds.length === 0) return [];
  const marks = payoutIds.map(() => '?').join(', ');
  const rows = await db.all<{ payout_id: string; type: 'invoice' | 'credit_note'; id: string; label: string; number: number }>(
    `SELECT payout_id, 'invoice' AS type, id, label, number FROM invoices WHERE program_id = ? AND payout_id IN (${marks})
     UNION ALL
     SELECT payout_id, 'credit_note' AS type, id, label, number FROM credit_notes WHERE program_id = ? AND payout_id IN (${marks})
     ORDER BY type DESC, number`,
    [programId, ...payoutIds, programId, ...payoutIds],
  );
  return rows.map(({ payout_id, type, id, label }) => ({ payout_id, type, id, label }));
}

export const listCreditNotes = lister<CreditNoteRow>('credit_notes', {
  partner_id: 'partner_id',
  payout_id: 'payout_id',
  invoice_id: 'invoice_id',
  created_at: 'created_at',
});
