// The one way a payout run's item reaches an outcome, whichever provider told it: the item's
// conditional move, then what it means to the ledger and who hears of it (flows/payout-send.ts).

import type { Tx } from '../platform/db/db.js';
import { emit } from '../events/emit.js';
import * as payouts from '../modules/payouts/repo.js';
import { payBatched, returnBatched, unbatchCommissions } from '../modules/commissions/ledger.js';
import * as runs from '../modules/payout-runs/repo.js';
import type { ItemRow, ItemState } from '../modules/payout-runs/model.js';
import { renderItem } from '../modules/payout-runs/present.js';

/** Moves the item, conditional on the state read, and does what the move means to the ledger; false when it moved before. */
export async function settle(
  tx: Tx,
  programId: string,
  item: ItemRow,
  to: ItemState,
  changes: Partial<ItemRow>,
  now: number,
): Promise<boolean> {
  if (!(await runs.moveItem(tx, item, to, changes, now))) return false;
  const after = { ...item, ...changes, state: to, state_set_at: now };
  if (to === 'paid') {
    for (const c of await payouts.batchItems(tx, item.id)) await payBatched(tx, programId, c.commission_id, now);
    await payouts.markBatchPaid(tx, item.id, now);
    await emit(tx, programId, 'payout.paid', renderItem(after), now);
  } else {
    if (item.state === 'paid') await returnBatched(tx, programId, item.id, now);
    else await unbatchCommissions(tx, item.id);
    await emit(tx, programId, 'payout.failed', renderItem(after), now);
  }
  return true;
}

/**
 * The item read under its lock, for a move decided on its state: two outcomes of one payout
 * at once in two processes (paid, and returned) then apply one after the other. Without it,
 * the second read the item before the first committed, and its conditional move lost it.
 */
export async function lockedItem(tx: Tx, programId: string, id: string): Promise<ItemRow | undefined> {
  await tx.lock(`payout-item:${id}`);
  return runs.getItem(tx, programId, id);
}

/** The item as it is now, when it is still the processing attempt `item` was read in; else undefined (answered meanwhile by another send). */
export async function stillSending(tx: Tx, programId: string, item: ItemRow): Promise<ItemRow | undefined> {
  const now = await lockedItem(tx, programId, item.id);
  return now?.state === 'processing' && now.sender_batch_id === item.sender_batch_id ? now : undefined;
}
