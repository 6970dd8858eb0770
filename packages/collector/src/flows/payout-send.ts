// A payout run (docs/payouts.md, "Payout runs"): made of what is payable by the CSV export's
// own rules, approved by an owner, sent to the provider, and settled item by item from the
// provider's answers and verified webhooks. Each item is a payout_batches row too (same id,
// run_id set), so its commissions are claimed, paid, freed and counted by the ledger exactly
// as an exported batch's are. Every provider state is applied by a conditional move of the
// item, once, whatever the order: returned is final, and paid only ever moves to returned.

import { fail } from '../platform/errors.js';
import type { Db, Queryable, Tx } from '../platform/db/db.js';
import { uuidv7 } from '../core/ids.js';
import { majorUnits, minorUnit } from '../core/money.js';
import * as payouts from '../modules/payouts/repo.js';
import { batchCommission, batchListed } from '../modules/commissions/ledger.js';
import * as runs from '../modules/payout-runs/repo.js';
import type { ItemRow, ItemState, RunRow } from '../modules/payout-runs/model.js';
import { EVENT_STATUS, itemStatus, paypalClient, type PaypalItemStatus, verifyWebhook } from '../modules/payout-runs/paypal.js';
import { transfer } from '../modules/payout-runs/stripe.js';
import { type MethodView, methodViews } from '../modules/payout-methods/service.js';
import { findProgram } from '../modules/programs/service.js';
import type { PayableRow } from '../modules/payouts/repo.js';
import { group, notDue, type Skipped, signedMajor, total } from './payout-run.js';
import { lockedItem, settle, stillSending } from './payout-settle.js';
import { payWise, refreshWise, wiseAccountOf } from './payout-wise.js';
import { append } from '../core/lists.js';

export interface PayoutAddress {
  method: 'paypal' | 'stripe_connect' | 'wise';
  /** A PayPal e-mail address, a Stripe connected account's id (acct_…), or a Wise recipient's id. */
  address: string;
}

/** Where the providers' APIs are: PayPal's, and Stripe's and Wise's when not api.stripe.com and api.wise.com. */
export interface PayoutApis {
  paypal: string;
  stripe: string | undefined;
  wise: string | undefined;
}

/**
 * How and where a partner is paid: the seam for payout methods (issue 44, item 1). For now a
 * partner with a PayPal e-mail is paid through PayPal; none: not payable by a run.
 */
export function payoutMethodOf(partner: { paypal_email: string | null }): PayoutAddress | undefined {
  return partner.paypal_email ? { method: 'paypal', address: partner.paypal_email } : undefined;
}

/**
 * Where a run pays the partner in `currency`: their connected account or Wise recipient when
 * that is their chosen method and ready (else why not); PayPal at the address they chose once
 * it is confirmed; otherwise PayPal at the partner record's address, which only the owner sets
 * (decision 0373).
 */
function payeeOf(view: MethodView, partner: PayableRow, currency: string): PayoutAddress | Skipped['reason'] | undefined {
  const { row, method: chosen } = view;
  if (chosen.method === 'wise') {
    if (!chosen.ready || !chosen.wiseRecipientId) return `wise not ready: ${chosen.reason ?? 'no recipient'}`;
    // A recipient's bank account takes one currency, and a run pays without converting.
    if (chosen.wiseCurrency !== currency) return `wise recipient takes ${chosen.wiseCurrency ?? 'another currency'}, not ${currency}`;
    return { method: 'wise', address: chosen.wiseRecipientId };
  }
  if (chosen.method === 'stripe_connect') {
    return chosen.ready && chosen.stripeAccountId
      ? { method: 'stripe_connect', address: chosen.stripeAccountId }
      : `stripe_connect not ready: ${chosen.reason ?? 'no account'}`;
  }
  if (row?.method === 'paypal' && chosen.ready && row.paypal_email) return { method: 'paypal', address: row.paypal_email };
  return payoutMethodOf(partner);
}

export interface MadeRun {
  run: RunRow;
  skipped: Skipped[];
}

/** One partner's payout in one currency, before the run is written: where it goes and its commissions. */
interface Planned {
  partnerId: string;
  currency: string;
  to: PayoutAddress;
  owed: PayableRow[];
}

/**
 * Partners a run reads, plans and writes at once (issue 47): a run over 100,000 partners
 * holds one page in memory and writes it in a few statements, not several per commission.
 */
export const RUN_PAGE = 500;

/** The payable commissions of the program's accepted partners, a page of partners at a time. */
async function* payablePages(tx: Queryable, programId: string, now: number): AsyncGenerator<PayableRow[]> {
  for (let after = ''; ; ) {
    const page = await payouts.acceptedPartners(tx, programId, after, RUN_PAGE);
    if (page.length === 0) return;
    after = page.at(-1)!;
    const rows = await payouts.payable(tx, programId, now, { partnerIds: page });
    if (rows.length > 0) yield rows;
  }
}

/** What of a page is payable, by partner and currency, and who is skipped and why: reads only. */
async function planPage(tx: Queryable, programId: string, rows: PayableRow[], skipped: Skipped[]): Promise<Planned[]> {
  const planned: Planned[] = [];
  const views = await methodViews(tx, programId, new Map(rows.map((r) => [r.partner_id, r.paypal_email])));
  for (const [code, byPartner] of group(rows)) {
    for (const [partnerId, owed] of byPartner) {
      const first = owed[0]!;
      const payee = payeeOf(views.get(partnerId)!, first, code);
      const to = typeof payee === 'object' ? payee : undefined;
      const known = minorUnit(code) !== undefined;
      const reason = !known ? 'unknown currency' : typeof payee === 'string' ? payee : !to ? 'no paypal_email' : notDue(owed, code);
      if (reason || !to) {
        const amount = known ? signedMajor(total(owed), code) : String(total(owed));
        skipped.push({ partnerId, name: first.partner_name, currency: code, amount, reason: reason ?? 'no paypal_email' });
        continue;
      }
      planned.push({ partnerId, currency: code, to, owed });
    }
  }
  return planned;
}

/** Writes a page's planned payouts of `run`: their payout_batches rows, items and commissions, held by them, in a few statements. */
async function writePage(tx: Tx, run: RunRow, planned: readonly Planned[], now: number): Promise<void> {
  const programId = run.program_id;
  const items: ItemRow[] = planned.map(({ partnerId, currency, to, owed }) => ({
    id: uuidv7(),
    run_id: run.id,
    program_id: programId,
    partner_id: partnerId,
    currency,
    amount: total(owed),
    method: to.method,
    address: to.address,
    state: 'pending',
    sender_batch_id: null,
    provider_batch_id: null,
    provider_item_id: null,
    reason: null,
    provider_fee: null,
    funded_at: null,
    amount_reversed: 0,
    state_set_at: now,
    created_at: now,
  }));
  await payouts.insertBatches(
    tx,
    items.map((i) => ({
      id: i.id,
      program_id: programId,
      currency: i.currency,
      created_at: now,
      paid_at: null,
      cancelled_at: null,
      run_id: run.id,
    })),
  );
  await runs.insertItems(tx, items);
  await payouts.insertItems(
    tx,
    planned.flatMap(({ partnerId, to, owed }, n) =>
      owed.map((c) => ({
        batch_id: items[n]!.id,
        commission_id: c.commission_id,
        partner_id: partnerId,
        amount: c.amount,
        paypal_email: to.method === 'paypal' ? to.address : null,
      })),
    ),
  );
  const held = items.map((i, n) => ({ ...i, commissions: planned[n]!.owed.length }));
  if (!(await batchListed(tx, held))) throw fail('conflict', 'a commission changed while the run was made; make it again');
}

/**
 * The one path a run is made by, an owner's or the schedule's, in the caller's transaction:
 * a draft run of what is payable now, one item per partner and currency holding its
 * commissions, read and written a page of partners at a time; with nothing payable, no run
 * (`run` undefined) and nothing written.
 */
export async function draftRun(
  tx: Tx,
  programId: string,
  by: string,
  now: number,
): Promise<MadeRun | { run: undefined; skipped: Skipped[] }> {
  // The export's lock: a run and an export never net the same commissions at once.
  await tx.lock(`payouts:${programId}`);
  const skipped: Skipped[] = [];
  const run: RunRow = {
    id: uuidv7(),
    program_id: programId,
    provider: 'paypal',
    state: 'draft',
    attempt: 0,
    created_by: by,
    approved_by: null,
    created_at: now,
    approved_at: null,
    sent_at: null,
  };
  let written = false;
  for await (const rows of payablePages(tx, programId, now)) {
    const planned = await planPage(tx, programId, rows, skipped);
    if (planned.length === 0) continue;
    // The run is written with its first payout: nothing payable writes nothing.
    if (!written) await runs.insertRun(tx, run);
    written = true;
    await writePage(tx, run, planned, now);
  }
  return written ? { run, skipped } : { run: undefined, skipped };
}

/** Makes a draft run of what is payable now (an admin's call); nothing payable is a 409 saying who was skipped. */
export async function makeRun(db: Db, programId: string, by: string, now: number): Promise<MadeRun> {
  return db.transaction(async (tx) => {
    const made = await draftRun(tx, programId, by, now);
    if (made.run) return made;
    const why = made.skipped.map((s) => `${s.name} (${s.currency}): ${s.reason}`).join('; ');
    throw fail('conflict', `nothing is payable now, so no run was made${why ? `; not payable: ${why}` : ''}`);
  });
}

async function findRun(db: Queryable, programId: string, id: string): Promise<RunRow> {
  const run = await runs.getRun(db, programId, id);
  if (!run) throw fail('not_found', `no payout run ${id}`);
  return run;
}

/** A run's items an answer shows at once: a run over 100,000 partners is read a page at a time. */
export const ITEMS_SHOWN = 1000;

/** A run with its counts of items by state and one page of its items (ITEMS_SHOWN a page, from 1). */
export async function runWithItems(
  db: Queryable,
  programId: string,
  id: string,
  page = 1,
): Promise<{ run: RunRow; counts: Record<string, number>; items: ItemRow[] }> {
  const run = await findRun(db, programId, id);
  const [counts, items] = await Promise.all([runs.itemCounts(db, id), runs.itemsPage(db, id, ITEMS_SHOWN, (page - 1) * ITEMS_SHOWN)]);
  return { run, counts, items };
}

/** An owner approves a draft run; it can then be sent. */
export async function approveRun(db: Db, programId: string, id: string, by: string, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    const run = await findRun(tx, programId, id);
    if (run.state !== 'draft') throw fail('conflict', `payout run ${id} is ${run.state}, not a draft`);
    if (!(await runs.moveRun(tx, run, { state: 'approved', approved_by: by, approved_at: now })))
      throw fail('conflict', `payout run ${id} changed meanwhile`);
  });
}

const senderBatchId = (run: RunRow, currency: string, attempt: number) => `${run.id}-${currency}-${attempt}`;

/**
 * Sends an approved run, or resumes a sent one: its pending items become processing under
 * the attempt's sender_batch_id (committed first, so a crash after PayPal's answer resends
 * the same id, which PayPal refuses as a duplicate and we read instead).
 */
export async function sendRun(db: Db, programId: string, id: string, apis: PayoutApis, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    const run = await findRun(tx, programId, id);
    if (run.state === 'draft') throw fail('conflict', `payout run ${id} is not approved yet`);
    if (run.state === 'approved' && !(await runs.moveRun(tx, run, { state: 'sent', attempt: 1, sent_at: now }))) {
      throw fail('conflict', `payout run ${id} changed meanwhile`);
    }
    await startPending(tx, { ...run, attempt: run.state === 'approved' ? 1 : run.attempt }, now);
  });
  await deliver(db, programId, id, apis, now);
}

/** Sends a sent run's failed items again, as a new attempt (a new sender_batch_id); paid, processing and returned items stay. */
export async function retryRun(db: Db, programId: string, id: string, apis: PayoutApis, now: number): Promise<number> {
  const again = await db.transaction(async (tx) => {
    const run = await findRun(tx, programId, id);
    if (run.state !== 'sent') throw fail('conflict', `payout run ${id} was not sent yet`);
    const failed = (await runs.itemsOf(tx, id)).filter((i) => i.state === 'failed');
    if (failed.length === 0) throw fail('conflict', `payout run ${id} has no failed item to retry`);
    if (!(await runs.moveRun(tx, run, { attempt: run.attempt + 1 }))) throw fail('conflict', `payout run ${id} changed meanwhile`);
    for (const item of failed) {
      // Its commissions went back to payable when it failed: take them again, all or none.
      for (const c of await payouts.batchItems(tx, item.id)) {
        const held = { id: c.commission_id, program_id: programId, partner_id: item.partner_id, currency: item.currency, amount: c.amount };
        if (!(await batchCommission(tx, held, item.id))) {
          throw fail('conflict', `commission ${c.commission_id} of payout ${item.id} changed since it failed; make a new run instead`);
        }
      }
      // A new attempt: what the last one was told (its ids, fee and refusal) no longer describes it.
      const fresh = {
        provider_batch_id: null,
        provider_item_id: null,
        sender_batch_id: null,
        provider_fee: null,
        funded_at: null,
        amount_reversed: 0,
        reason: null,
      };
      await runs.moveItem(tx, item, 'pending', fresh, now);
    }
    await startPending(tx, { ...run, attempt: run.attempt + 1 }, now);
    return failed.length;
  });
  await deliver(db, programId, id, apis, now);
  return again;
}

async function startPending(tx: Queryable, run: RunRow, now: number): Promise<void> {
  for (const item of await runs.itemsOf(tx, run.id)) {
    if (item.state === 'pending')
      await runs.moveItem(tx, item, 'processing', { sender_batch_id: senderBatchId(run, item.currency, run.attempt) }, now);
  }
}

async function client(db: Queryable, programId: string, apiUrl: string) {
  const account = await runs.paypalAccount(db, programId);
  if (!account) throw fail('conflict', 'the program has no PayPal credentials: set them with PATCH /v1/integrations/paypal');
  return paypalClient(apiUrl, { clientId: account.client_id, clientSecret: account.client_secret });
}

/**
 * One Stripe transfer per Stripe item not yet answered, one Wise transfer (funded) per Wise
 * item not yet funded, and one PayPal batch per sender_batch_id not yet answered; then each
 * batch read back and applied.
 */
async function deliver(db: Db, programId: string, runId: string, apis: PayoutApis, now: number): Promise<void> {
  const unanswered = (await runs.itemsOf(db, runId)).filter((i) => i.state === 'processing' && i.sender_batch_id);
  const toPaypal = unanswered.filter((i) => i.method === 'paypal' && i.provider_batch_id === null);
  const toWise = unanswered.filter((i) => i.method === 'wise' && i.funded_at === null);
  // The PayPal and Wise settings are checked before any money moves through Stripe.
  const paypal = toPaypal.length > 0 ? await client(db, programId, apis.paypal) : undefined;
  const wise = toWise.length > 0 ? await wiseAccountOf(db, programId, apis.wise) : undefined;
  await transferAll(
    db,
    programId,
    unanswered.filter((i) => i.method === 'stripe_connect' && i.provider_item_id === null),
    apis.stripe,
    now,
  );
  await payWise(db, programId, toWise, wise, now);
  if (!paypal) return;
  const waiting = new Map<string, ItemRow[]>();
  for (const item of toPaypal) append(waiting, item.sender_batch_id!, item);
  const batches = new Set<string>();
  for (const [sender, items] of waiting) {
    const { payoutBatchId } = await paypal.createBatch(
      sender,
      items.map((i) => ({
        senderItemId: i.id,
        receiver: i.address,
        value: majorUnits(i.amount, i.currency),
        currency: i.currency,
        note: `Commission payout ${i.id}`,
      })),
    );
    await db.transaction(async (tx) => {
      for (const i of items)
        await tx.run('UPDATE payout_run_items SET provider_batch_id = ? WHERE id = ? AND provider_batch_id IS NULL', [payoutBatchId, i.id]);
    });
    batches.add(payoutBatchId);
  }
  for (const batch of batches) {
    for (const status of await paypal.readBatch(batch)) {
      await db.transaction((tx) => applyStatus(tx, programId, status, now));
    }
  }
}

/** Each item's transfer, its answer applied in a transaction of its own (paid or failed), as it comes. */
async function transferAll(db: Db, programId: string, items: readonly ItemRow[], apiUrl: string | undefined, now: number): Promise<void> {
  if (items.length === 0) return;
  const key = (await findProgram(db, programId))?.stripe_api_key;
  if (!key) throw fail('conflict', 'the program has no Stripe API key: set it with PATCH /v1/program to pay through Stripe Connect');
  for (const item of items) {
    const answer = await transfer(key, apiUrl, item);
    await db.transaction(async (tx) => {
      const current = await stillSending(tx, programId, item);
      // Answered meanwhile by another send of the same attempt: its answer stands.
      if (!current) return;
      const changes = answer.paid ? { provider_item_id: answer.transferId, reason: null } : { reason: answer.reason };
      await settle(tx, programId, current, answer.paid ? 'paid' : 'failed', changes, now);
    });
  }
}

/** What a PayPal item status makes of our item, from each state it may come from. */
function target(status: string): { to: ItemState; from: ItemState[] } | undefined {
  if (status === 'SUCCESS') return { to: 'paid', from: ['processing'] };
  if (['FAILED', 'BLOCKED', 'DENIED'].includes(status)) return { to: 'failed', from: ['processing'] };
  if (['RETURNED', 'REFUNDED', 'REVERSED'].includes(status)) return { to: 'returned', from: ['processing', 'paid'] };
  // PENDING, UNCLAIMED (waiting 30 days for the receiver), ONHOLD, NEW: still processing.
  return undefined;
}

/** Applies one item status once: a move the item's state allows, conditional on it; anything else changes nothing. */
export async function applyStatus(tx: Tx, programId: string, s: PaypalItemStatus, now: number): Promise<boolean> {
  const item = await lockedItem(tx, programId, s.senderItemId);
  // An item of an earlier attempt (retried since) or of no run of ours.
  if (!item || (item.provider_batch_id !== null && item.provider_batch_id !== s.payoutBatchId)) return false;
  const move = target(s.status);
  if (!move?.from.includes(item.state)) return false;
  const reason = move.to === 'paid' ? null : (s.error ?? s.status.toLowerCase());
  const fee = s.fee === null ? {} : { provider_fee: s.fee };
  return settle(
    tx,
    programId,
    item,
    move.to,
    { provider_batch_id: s.payoutBatchId, provider_item_id: s.payoutItemId, reason, ...fee },
    now,
  );
}

/** Reads the run's PayPal batches and Wise transfers again and applies what changed (a missed webhook). */
export async function refreshRun(db: Db, programId: string, id: string, apis: PayoutApis, now: number): Promise<void> {
  // The program's own run first: another program's id is a 404, whatever this program's provider settings.
  const run = await findRun(db, programId, id);
  const items = await runs.itemsOf(db, run.id);
  const batches = new Set(items.map((i) => i.provider_batch_id).filter((b): b is string => b !== null));
  const wise = items.filter((i) => i.method === 'wise' && i.provider_item_id !== null);
  // A run with neither (Stripe's answers settle at once) still asks for PayPal's settings, as it always did.
  if (batches.size > 0 || wise.length === 0) {
    const paypal = await client(db, programId, apis.paypal);
    for (const b of batches) for (const s of await paypal.readBatch(b)) await db.transaction((tx) => applyStatus(tx, programId, s, now));
  }
  if (wise.length > 0) await refreshWise(db, programId, wise, await wiseAccountOf(db, programId, apis.wise), now);
}

/** A PayPal webhook for the program, verified, then applied once by its event id. Resolves to whether it was new. */
export async function paypalWebhook(
  db: Db,
  programId: string,
  raw: string,
  header: (name: string) => string | undefined,
  apiUrl: string,
  now: number,
): Promise<{ duplicate: boolean; applied: boolean }> {
  const account = await runs.paypalAccount(db, programId);
  if (!account?.webhook_id) throw fail('not_found', 'the program has no PayPal webhook id set');
  await verifyWebhook(apiUrl, account.webhook_id, raw, header);
  const event = JSON.parse(raw) as { id?: string; event_type?: string; resource?: Parameters<typeof itemStatus>[0] };
  if (!event.id || !event.event_type) throw fail('invalid_field', 'a PayPal event has an id and an event_type');
  const status = EVENT_STATUS[event.event_type];
  return db.transaction(async (tx) => {
    if (!(await runs.firstTime(tx, 'paypal', event.id!, programId, event.event_type!, now))) return { duplicate: true, applied: false };
    // Event types other than items' (a batch's own) are recorded and acknowledged: the batch read covers them.
    if (!status || !event.resource) return { duplicate: false, applied: false };
    return { duplicate: false, applied: await applyStatus(tx, programId, { ...itemStatus(event.resource), status }, now) };
  });
}
