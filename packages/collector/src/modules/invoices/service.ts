// Self-billing invoices: one per partner and paid payout, numbered per program without gaps
// (docs/payouts.md#invoices). Issued in the transaction that records the payout paid, from a
// plain input, so whatever pays (a PayPal file, a provider's run) issues them the same way.

import { fail, found } from '../../platform/errors.js';
import type { Queryable } from '../../platform/db/db.js';
import { uuidv7 } from '../../core/ids.js';
import { minorUnit } from '../../core/money.js';
import * as invoices from './repo.js';
import type { InvoiceData, InvoiceInput, InvoiceRow } from './model.js';
import { invoicePdf } from './pdf.js';

/** INV-2026-000042: the year the payout was paid, then the program's number. */
export const labelOf = (number: number, paidAt: number): string =>
  `INV-${new Date(paidAt * 1000).getUTCFullYear()}-${String(number).padStart(6, '0')}`;

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
  return invoicePdf({
    label: row.label,
    currency: row.currency,
    amount: Number(row.amount),
    paidAt: Number(row.paid_at),
    payoutId: row.payout_id,
    data: dataOf(row),
  });
}

/** The file name a download gets. */
export const fileName = (row: InvoiceRow): string => `${row.label}.pdf`;

export const listInvoices = invoices.list;
