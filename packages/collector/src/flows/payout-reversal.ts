// A paid Stripe payout's transfer reversed, in part or whole (docs/payouts.md, "Reversals";
// decision 0377). Each reversal is applied once by Stripe's id, whatever event lists it and in
// whatever order: in part, the payout stays paid, its reversed total grows, and the amount is
// owed to the partner again as a commission with the reason, credited on the invoice; reversed
// whole, the payout is returned (its commissions payable again), and what earlier parts owed
// again is clawed back, so the partner is owed the payout's amount once.

import type { Tx } from '../platform/db/db.js';
import * as runs from '../modules/payout-runs/repo.js';
import type { ItemRow } from '../modules/payout-runs/model.js';
import * as commissions from '../modules/commissions/repo.js';
import { clawBack, newCommission, recordCommission } from '../modules/commissions/ledger.js';
import { lockedItem, settle } from './payout-settle.js';
import { creditPayout } from './credit-notes.js';

export interface TransferReversal {
  transfer: string;
  item: string;
  /** Stripe says nothing is left (`reversed`): returned even if its list is cut short. */
  full: boolean;
  reversals: readonly { id: string; amount: number }[];
}

/** Returns the paid item, and takes back what its earlier partial reversals owed the partner again. */
async function returnWhole(tx: Tx, programId: string, item: ItemRow, now: number): Promise<void> {
  await settle(tx, programId, item, 'returned', { reason: 'transfer reversed', amount_reversed: item.amount }, now);
  for (const r of await runs.reversalsOf(tx, item.id)) {
    const owed = r.commission_id ? await commissions.get(tx, programId, r.commission_id) : undefined;
    if (owed && owed.state !== 'rejected') await clawBack(tx, owed, -Number(owed.amount), now);
  }
}

/** A part reversed: owed to the partner again (payable now, by the next run), and credited on the invoice. */
async function owePart(tx: Tx, programId: string, item: ItemRow, r: { id: string; amount: number }, now: number): Promise<void> {
  const reason = `Reversed by Stripe from payout ${item.id} (${r.id})`;
  const row = newCommission(programId, item.partner_id, null, r.amount, item.currency, now, { reward_description: reason });
  await recordCommission(tx, row, now);
  await runs.setReversalCommission(tx, item.id, r.id, row.id);
  await creditPayout(
    tx,
    programId,
    item,
    { cause: r.id, amount: r.amount, reason: `Stripe reversal ${r.id} of transfer ${item.provider_item_id}` },
    now,
  );
}

/** Applies the reversals not applied yet; what came of it, or undefined when nothing changed (not a paid payout of ours, or seen). */
export async function transferReversed(
  tx: Tx,
  programId: string,
  fact: TransferReversal,
  now: number,
): Promise<'returned' | 'partial' | undefined> {
  // Under the item's lock, as every outcome is (decision 0374): a concurrent RETURNED or reversal waits.
  const item = await lockedItem(tx, programId, fact.item);
  if (item?.method !== 'stripe_connect' || item.provider_item_id !== fact.transfer || item.state !== 'paid') return undefined;
  const fresh: { id: string; amount: number }[] = [];
  for (const r of fact.reversals) {
    const row = { item_id: item.id, reversal_id: r.id, program_id: programId, amount: r.amount, commission_id: null, created_at: now };
    if (await runs.recordReversal(tx, row)) fresh.push(r);
  }
  if (fresh.length === 0 && !fact.full) return undefined;
  const total = await runs.addReversed(
    tx,
    item.id,
    fresh.reduce((sum, r) => sum + r.amount, 0),
  );
  if (total === undefined) return undefined;
  if (fact.full || total >= item.amount) {
    await returnWhole(tx, programId, item, now);
    return 'returned';
  }
  for (const r of fresh) await owePart(tx, programId, item, r, now);
  return 'partial';
}
