// Payout runs through Wise (docs/payouts.md, "Wise"): each Wise item quoted, transferred and
// funded, every step's answer committed before the next, so a resend after a lost answer
// picks up where the last one stopped; and Wise's transfers#state-change webhooks, verified,
// each state of a transfer applied once.

import { fail } from '../platform/errors.js';
import type { Db, Tx } from '../platform/db/db.js';
import * as runs from '../modules/payout-runs/repo.js';
import type { ItemRow } from '../modules/payout-runs/model.js';
import {
  createTransfer,
  fund,
  quote,
  stateChangeOf,
  transferState,
  UNFUNDED,
  verifyWiseSignature,
  type WiseAccount,
  wiseMove,
} from '../modules/payout-runs/wise.js';
import { settingsOf } from '../modules/payout-methods/service.js';
import { lockedItem, settle, stillSending } from './payout-settle.js';

/** The program's Wise token and profile (its payout settings), or a conflict saying how to set them. */
export async function wiseAccountOf(db: Db, programId: string, apiUrl: string | undefined): Promise<WiseAccount> {
  const s = await settingsOf(db, programId);
  if (!s.wiseApiToken || !s.wiseProfileId) {
    throw fail(
      'conflict',
      'the program has no Wise API token and profile: set them with PATCH /v1/program/payout_settings to pay through Wise',
    );
  }
  return { token: s.wiseApiToken, profile: s.wiseProfileId, apiUrl };
}

/** Each item paid in turn; an item Wise refuses fails alone, no answer stops the send (the run is resent). */
export async function payWise(
  db: Db,
  programId: string,
  items: readonly ItemRow[],
  account: WiseAccount | undefined,
  now: number,
): Promise<void> {
  if (!account) return;
  for (const item of items) await payOne(db, programId, account, item, now);
}

async function failItem(db: Db, programId: string, item: ItemRow, reason: string, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await stillSending(tx, programId, item);
    if (current) await settle(tx, programId, current, 'failed', { reason: `wise: ${reason}` }, now);
  });
}

async function payOne(db: Db, programId: string, a: WiseAccount, item: ItemRow, now: number): Promise<void> {
  let transfer: { transferId: string; status: string };
  if (item.provider_item_id === null) {
    const priced = await quote(a, item);
    const made = 'failed' in priced ? priced : await createTransfer(a, item, priced.quoteId);
    if ('failed' in made) return failItem(db, programId, item, made.failed, now);
    const fee = 'failed' in priced ? null : priced.fee;
    const kept = await db.transaction(async (tx) =>
      (await stillSending(tx, programId, item)) ? runs.recordTransfer(tx, item.id, made.transferId, fee) : 0,
    );
    // Another send of the same attempt recorded it first, and funds it.
    if (kept === 0) return;
    transfer = made;
  } else {
    // Recorded by an earlier send whose funding went unanswered: Wise says whether it was funded.
    transfer = { transferId: item.provider_item_id, status: await transferState(a, item.provider_item_id) };
  }
  const funded = transfer.status === UNFUNDED ? await fund(a, transfer.transferId) : true;
  // Refused, yet funded meanwhile by another send: the funding stands.
  if (funded !== true && (await transferState(a, transfer.transferId)) === UNFUNDED) {
    return failItem(db, programId, item, funded.failed, now);
  }
  await db.transaction(async (tx) => {
    const current = await stillSending(tx, programId, item);
    if (!current || current.funded_at !== null) return;
    await runs.markFunded(tx, item.id, now);
    // A transfer found already past its funding (its webhook came before we knew its id).
    if (transfer.status !== UNFUNDED) await applyState(tx, programId, { ...current, funded_at: now }, transfer.status, now);
  });
}

/** A Wise transfer's state applied to its item, when that state moves it. */
async function applyState(tx: Tx, programId: string, item: ItemRow, state: string, now: number): Promise<boolean> {
  const to = wiseMove(state, item.state);
  if (!to) return false;
  return settle(tx, programId, item, to, { reason: to === 'paid' ? null : `wise: ${state}` }, now);
}

/** Each item's transfer read again and its state applied (a webhook missed, or Wise's subscription made late). */
export async function refreshWise(db: Db, programId: string, items: readonly ItemRow[], a: WiseAccount, now: number): Promise<void> {
  for (const item of items) {
    const state = await transferState(a, item.provider_item_id!);
    await db.transaction(async (tx) => {
      const current = await lockedItem(tx, programId, item.id);
      // Retried since: its transfer is another one now.
      if (current?.provider_item_id === item.provider_item_id) await applyState(tx, programId, current, state, now);
    });
  }
}

/**
 * A Wise webhook for the program, verified, then applied: each transfer's state once (Wise
 * may deliver one twice, or out of order; the item's conditional moves order them).
 */
export async function wiseWebhook(
  db: Db,
  programId: string,
  raw: string,
  header: (name: string) => string | undefined,
  publicKey: string | undefined,
  now: number,
): Promise<{ duplicate: boolean; applied: boolean }> {
  verifyWiseSignature(publicKey, raw, header('x-signature-sha256'));
  const change = stateChangeOf(raw);
  // Other event types (balance deposits, say) are acknowledged and left alone.
  if (!change) return { duplicate: false, applied: false };
  return db.transaction(async (tx) => {
    const found = await runs.itemByProviderId(tx, programId, 'wise', change.transferId);
    const item = found && (await lockedItem(tx, programId, found.id));
    // A transfer of no payout of ours, or one whose id a resend has yet to record (it reads the state then).
    if (!item) return { duplicate: false, applied: false };
    const key = `${change.transferId}:${change.state}`;
    if (!(await runs.firstTime(tx, 'wise', key, programId, 'transfers#state-change', now))) return { duplicate: true, applied: false };
    return { duplicate: false, applied: await applyState(tx, programId, item, change.state, now) };
  });
}
