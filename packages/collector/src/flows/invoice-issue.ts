// A paid payout's invoices: one per partner it paid, issued in the transaction that records it
// paid (the reaction to `payout.paid`, flows/reactions.ts), so an invoice number is taken if and
// only if the payout is committed paid. Partners in id order, so numbers follow one rule.

import type { Queryable } from '../platform/db/db.js';
import * as payouts from '../modules/payouts/repo.js';
import * as commissions from '../modules/commissions/repo.js';
import { findProgram } from '../modules/programs/service.js';
import { getPartner } from '../modules/partners/service.js';
import { issueInvoice } from '../modules/invoices/service.js';
import type { InvoiceLine, Party } from '../modules/invoices/model.js';
import type { InvoiceRow } from '../modules/invoices/model.js';
import type { CommissionRow } from '../modules/commissions/model.js';
import { append } from '../core/lists.js';

/** Who is named on an invoice: the billing name where one is given, else the record's name. */
interface Billed {
  name: string;
  billing_name: string | null;
  billing_address: string | null;
  billing_vat_id: string | null;
}

export const partyOf = (r: Billed): Party => ({ name: r.billing_name ?? r.name, address: r.billing_address, vatId: r.billing_vat_id });

const lineOf = (c: CommissionRow): InvoiceLine => ({
  commissionId: c.id,
  date: c.created_at,
  description: c.clawback_of ? `Clawback of a refunded commission (${c.clawback_of})` : (c.reward_description ?? 'Commission'),
  amount: c.amount,
});

/** Issues the invoices of a payout batch just marked paid; resolves to them, in number order. */
export async function invoicesForBatch(tx: Queryable, programId: string, batchId: string, now: number): Promise<InvoiceRow[]> {
  const batch = await payouts.getBatch(tx, batchId);
  const program = await findProgram(tx, programId);
  if (!batch || batch.paid_at === null || !program) return [];
  const byPartner = new Map<string, CommissionRow[]>();
  for (const item of await payouts.batchItems(tx, batchId)) {
    const c = await commissions.get(tx, programId, item.commission_id);
    if (c) append(byPartner, item.partner_id, c);
  }
  const issued: InvoiceRow[] = [];
  for (const partnerId of [...byPartner.keys()].sort()) {
    const partner = await getPartner(tx, programId, partnerId);
    const lines = byPartner
      .get(partnerId)!
      .sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1))
      .map(lineOf);
    const input = { programId, partnerId, payoutId: batchId, currency: batch.currency, paidAt: batch.paid_at };
    issued.push(await issueInvoice(tx, { ...input, customer: partyOf(program), supplier: partyOf(partner), lines }, now));
  }
  return issued;
}
