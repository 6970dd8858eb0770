// Self-billing invoices: one per partner and paid payout, numbered per program without gaps
// (docs/payouts.md#invoices). Issued in the transaction that records the payout paid, from a
// plain input, so whatever pays (a PayPal file, a provider's run) issues them the same way.

import { fail, found } from '../../platform/errors.js';
import type { Queryable } from '../../platform/db/db.js';
import { uuidv7 } from '../../core/ids.js';
import { minorUnit } from '../../core/money.js';
import * as invoices from './repo.js';
import type { CreditNoteData, CreditNoteRow, DocumentLine, InvoiceData, InvoiceInput, InvoiceRow } from './model.js';
import { CREDIT_TITLE, day, documentPdf, TITLE } from './pdf.js';

/** INV-2026-000042: the year the payout was paid, then the program's number (CN- for a credit note, the year it was issued). */
export const labelOf = (number: number, paidAt: number, prefix = 'INV'): string =>
  `${prefix}-${new Date(paidAt * 1000).getUTCFullYear()}-${String(number).padStart(6, '0')}`;

/**
 * Issues the invoice of `input`, in the caller's transaction (the one that records the payout
 * paid), or returns the one already issued for that payout and partner: a number is taken once.
 */
export async function issueInvoice(tx: Queryable, input: InvoiceInput, now: number): Promise<InvoiceRow> {
  const issued = await invoices.ofPayout(tx, input.programId, input.payoutId, input.partnerId);
  if (issued) return issued;
  if (input.lines.length === 0) throw fail('invalid_field', `payout ${input.payoutId} pays partner ${input.partnerId} nothing to invoice`);
  if (minorUnit(input.currency) === undefined) throw fail('invalid_field', `no minor unit known for currency ${input.currency}`);
  const number = await invoices.nextNumber(tx, input.programId);
  const data: InvoiceData = { customer: input.customer, supplier: input.supplier, lines: [...input.lines] };
  const row: InvoiceRow = {
    id: uuidv7(),
    program_id: input.programId,
    partner_id: input.partnerId,
    payout_id: input.payoutId,
    number,
    label: labelOf(number, input.paidAt),
    currency: input.currency,
    amount: input.lines.reduce((sum, l) => sum + l.amount, 0),
    paid_at: input.paidAt,
    data: JSON.stringify(data),
    created_at: now,
  };
  await invoices.insert(tx, row);
  return row;
}

export async function getInvoice(db: Queryable, programId: string, id: string): Promise<InvoiceRow> {
  return found(await invoices.get(db, programId, id), 'invoice', id);
}

/** One partner's invoice, or a 404 for anyone else's: the portal's reads. */
export async function partnerInvoice(db: Queryable, programId: string, partnerId: string, id: string): Promise<InvoiceRow> {
  const row = await invoices.get(db, programId, id);
  if (row?.partner_id !== partnerId) throw fail('not_found', `no invoice ${id}`);
  return row;
}

export const dataOf = (row: InvoiceRow): InvoiceData => JSON.parse(row.data) as InvoiceData;

/** The invoice's PDF, the same bytes every time. */
export function pdfOf(row: InvoiceRow): Promise<Buffer> {
  const paidAt = Number(row.paid_at);
  return documentPdf({
    title: TITLE,
    label: row.label,
    currency: row.currency,
    amount: Number(row.amount),
    date: paidAt,
    heading: [`Invoice number: ${row.label}`, `Date: ${day(paidAt)}`, `Payout: ${row.payout_id}`],
    note: 'Issued by the customer on behalf of the supplier (self-billing), for the commissions below.',
    data: dataOf(row),
  });
}

/** The file name a download gets. */
export const fileName = (row: { label: string }): string => `${row.label}.pdf`;

export function invoiceOfPayout(db: Queryable, programId: string, payoutId: string, partnerId: string): Promise<InvoiceRow | undefined> {
  return invoices.ofPayout(db, programId, payoutId, partnerId);
}

/** What a credit note takes back: `rest`, what is left of the invoice (the payout returned), or an amount (a reversal). */
export type Credit = { cause: 'returned'; amount: 'rest'; reason: string } | { cause: string; amount: number; reason: string };

const negated = (l: DocumentLine): DocumentLine => ({ date: l.date, description: l.description, amount: -l.amount });

/** The lines of a credit note: the invoice's lines taken back, less what earlier notes took; or the one part reversed. */
function creditLines(invoice: InvoiceRow, earlier: readonly CreditNoteRow[], credit: Credit, take: number, now: number): DocumentLine[] {
  if (credit.amount !== 'rest') return [{ date: now, description: credit.reason, amount: -take }];
  const already = earlier.map((e) => ({
    date: Number(e.issued_at),
    description: `Already credited by ${e.label}`,
    amount: -Number(e.amount),
  }));
  return [...dataOf(invoice).lines.map(negated), ...already];
}

/**
 * Issues a credit note correcting `invoice`, in the caller's transaction, once per invoice and
 * cause (the same cause again returns the note issued). It never credits more than is left of
 * the invoice; undefined when nothing is. The invoice itself is never changed.
 */
export async function issueCreditNote(tx: Queryable, invoice: InvoiceRow, credit: Credit, now: number): Promise<CreditNoteRow | undefined> {
  const earlier = await invoices.creditNotesOf(tx, invoice.id);
  const issued = earlier.find((e) => e.cause === credit.cause);
  if (issued) return issued;
  const left = Number(invoice.amount) + earlier.reduce((sum, e) => sum + Number(e.amount), 0);
  const take = credit.amount === 'rest' ? left : Math.min(credit.amount, left);
  if (take <= 0) return undefined;
  const number = await invoices.nextNumber(tx, invoice.program_id, 'credit_note_counters');
  const { customer, supplier } = dataOf(invoice);
  const data: CreditNoteData = {
    customer,
    supplier,
    lines: creditLines(invoice, earlier, credit, take, now),
    corrects: { id: invoice.id, label: invoice.label, paidAt: Number(invoice.paid_at) },
    reason: credit.reason,
    whole: credit.amount === 'rest',
  };
  const row: CreditNoteRow = {
    id: uuidv7(),
    program_id: invoice.program_id,
    partner_id: invoice.partner_id,
    payout_id: invoice.payout_id,
    invoice_id: invoice.id,
    cause: credit.cause,
    number,
    label: labelOf(number, now, 'CN'),
    currency: invoice.currency,
    amount: -take,
    issued_at: now,
    data: JSON.stringify(data),
    created_at: now,
  };
  await invoices.insertCreditNote(tx, row);
  return row;
}

export const creditDataOf = (row: CreditNoteRow): CreditNoteData => JSON.parse(row.data) as CreditNoteData;

export async function getCreditNote(db: Queryable, programId: string, id: string): Promise<CreditNoteRow> {
  return found(await invoices.getCreditNote(db, programId, id), 'credit_note', id);
}

/** One partner's credit note, or a 404 for anyone else's: the portal's reads. */
export async function partnerCreditNote(db: Queryable, programId: string, partnerId: string, id: string): Promise<CreditNoteRow> {
  const row = await invoices.getCreditNote(db, programId, id);
  if (row?.partner_id !== partnerId) throw fail('not_found', `no credit note ${id}`);
  return row;
}

/** The credit note's PDF, the same bytes every time: dated when it was issued. */
export function creditPdfOf(row: CreditNoteRow): Promise<Buffer> {
  const data = creditDataOf(row);
  const issued = Number(row.issued_at);
  const how = data.whole ? 'in full (what it had not yet credited)' : 'in part';
  return documentPdf({
    title: CREDIT_TITLE,
    label: row.label,
    currency: row.currency,
    amount: Number(row.amount),
    date: issued,
    heading: [
      `Credit note number: ${row.label}`,
      `Date: ${day(issued)}`,
      `Corrects invoice: ${data.corrects.label} of ${day(data.corrects.paidAt)}`,
      `Payout: ${row.payout_id}`,
    ],
    note: `Issued by the customer on behalf of the supplier (self-billing), cancelling invoice ${data.corrects.label} ${how}: ${data.reason}.`,
    data,
  });
}

export const listCreditNotes = invoices.listCreditNotes;
export const documentsOf = invoices.documentsOf;

export const listInvoices = invoices.list;
