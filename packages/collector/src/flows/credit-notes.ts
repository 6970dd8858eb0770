// Credit notes of a run's payout whose money came back after it was paid (docs/payouts.md,
// "Credit notes"): what was left of its invoice when it is returned (a reaction to
// payout.failed), or the part a Stripe reversal took (flows/payout-reversal.ts). A payout with
// no invoice (returned before it was paid) gets none.

import type { Queryable } from '../platform/db/db.js';
import { type Credit, invoiceOfPayout, issueCreditNote } from '../modules/invoices/service.js';
import type { CreditNoteRow } from '../modules/invoices/model.js';

export async function creditPayout(
  tx: Queryable,
  programId: string,
  payout: { id: string; partner_id: string },
  credit: Credit,
  now: number,
): Promise<CreditNoteRow | undefined> {
  const invoice = await invoiceOfPayout(tx, programId, payout.id, payout.partner_id);
  return invoice && issueCreditNote(tx, invoice, credit, now);
}
