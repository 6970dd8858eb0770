// An invoice as the API shows it (GET /v1/invoices, the portal's list): a pure function of the row.

import type { Resource } from '../../platform/resource.js';
import type { InvoiceRow } from './model.js';
import { dataOf } from './service.js';

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
