// An invoice and a credit note as the API shows them (GET /v1/invoices, /v1/credit_notes, the portal's lists): pure functions of the row.

import type { Resource } from '../../platform/resource.js';
import type { CreditNoteRow, InvoiceRow } from './model.js';
import { creditDataOf, dataOf } from './service.js';

const party = (p: { name: string; address: string | null; vatId: string | null }) => ({
  name: p.name,
  address: p.address,
  vat_id: p.vatId,
});

export function renderInvoice(row: InvoiceRow): Resource {
  const data = dataOf(row);
  return {
    id: row.id,
    type: 'invoice',
    attributes: {
      number: Number(row.number),
      label: row.label,
      partner_id: row.partner_id,
      payout_id: row.payout_id,
      currency: row.currency,
      amount: Number(row.amount),
      paid_at: Number(row.paid_at),
      customer: party(data.customer),
      supplier: party(data.supplier),
      lines: data.lines.map((l) => ({ commission_id: l.commissionId, date: l.date, description: l.description, amount: l.amount })),
      created_at: Number(row.created_at),
    },
  };
}

export function renderCreditNote(row: CreditNoteRow): Resource {
  const data = creditDataOf(row);
  return {
    id: row.id,
    type: 'credit_note',
    attributes: {
      number: Number(row.number),
      label: row.label,
      partner_id: row.partner_id,
      payout_id: row.payout_id,
      invoice_id: row.invoice_id,
      invoice_label: data.corrects.label,
      cause: row.cause,
      reason: data.reason,
      currency: row.currency,
      amount: Number(row.amount),
      issued_at: Number(row.issued_at),
      customer: party(data.customer),
      supplier: party(data.supplier),
      lines: data.lines.map((l) => ({ date: l.date, description: l.description, amount: l.amount })),
      created_at: Number(row.created_at),
    },
  };
}
