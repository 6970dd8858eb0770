// The one path of every commission (docs/architecture.md): whatever made it (a conversion's
// lead reward, a payment, a day of clicks, a refund's clawback, an import, an owner by hand),
// it is created, adjusted, held, approved, batched, paid, rejected and clawed back here, and
// each of these writes its row, what it counts (earned in the period of its creation, owed
// while pending and in no batch) and its event, in the caller's transaction. Callers decide
// why; this decides what a change writes.

import { fail } from '../../platform/errors.js';
import type { Queryable, Tx } from '../../platform/db/db.js';
import { type Insert, insertOne, insertRows } from '../../platform/db/rows.js';
import { uuidv7 } from '../../core/ids.js';
import { assertMove } from '../../core/state-machines.js';
import { addDelta, deltaInsert, NOW } from '../../events/deltas.js';
import { emit, eventInserts } from '../../events/emit.js';
import type { DomainEvent, Known } from '../../events/types.js';
import * as commissions from './repo.js';
import type { CommissionRow, CommissionState } from './model.js';
import { renderCommission } from './present.js';

type More = Partial<
  Pick<
    CommissionRow,
    | 'payable_at'
    | 'clawback_of'
    | 'tier_of'
    | 'state'
    | 'reject_reason'
    | 'reward_id'
    | 'reward_description'
    | 'review'
    | 'review_reasons'
    | 'paid_at'
  >
>;

/** A new commission: pending and payable now, unless `more` says otherwise. */
export function newCommission(
  programId: string,
  partnerId: string,
  referralId: string | null,
  amount: number,
  currency: string,
  now: number,
  more: More = {},
): CommissionRow {
  return {
    id: uuidv7(),
    program_id: programId,
    partner_id: partnerId,
    referral_id: referralId,
    amount,
    currency,
    state: 'pending',
    reject_reason: null,
    payable_at: now,
    on_hold: 0,
    clawback_of: null,
    tier_of: null,
    reward_id: null,
    reward_description: null,
    review: null,
    review_reasons: null,
    payout_batch_id: null,
    state_set_at: now,
    paid_at: null,
    created_at: now,
    updated_at: now,
    ...more,
  };
}

/** What a new commission counts: earned in the bucket of its creation unless rejected, owed while pending. */
function countsOf(row: CommissionRow): Insert[] {
  const counted = { program_id: row.program_id, partner_id: row.partner_id, currency: row.currency };
  return [
    ...(row.state !== 'rejected' ? [deltaInsert({ ...counted, at: row.created_at, commissions: row.amount })] : []),
    ...(row.state === 'pending' ? [deltaInsert({ ...counted, at: NOW, owed: row.amount })] : []),
  ];
}

/**
 * A new commission as rows, for a writer that sends its change in one statement (the
 * conversion): the row, its counts, its commission.created; the event goes to reactTo once written.
 */
export async function commissionInserts(
  db: Queryable,
  row: CommissionRow,
  now: number,
  known: Known = {},
): Promise<{ rows: Insert[]; event: DomainEvent }> {
  const { rows, event } = await eventInserts(db, row.program_id, 'commission.created', renderCommission(row), now, known);
  return { rows: [{ table: 'commissions', row }, ...countsOf(row), ...rows], event };
}

/** A new commission written in the caller's transaction. `known.history`: imported, so its event reaches webhooks but sends no e-mail. */
export async function recordCommission(tx: Tx, row: CommissionRow, now: number, known: Known = {}): Promise<CommissionRow> {
  await commissions.insert(tx, row);
  for (const count of countsOf(row)) await insertOne(tx, count);
  await emit(tx, row.program_id, 'commission.created', renderCommission(row), now, known);
  return row;
}

/** A negative commission of `amount` (below zero) taking back part of `of`, payable at once; the original's event says so too. */
export async function clawBack(tx: Tx, of: CommissionRow, amount: number, now: number): Promise<CommissionRow> {
  const row = newCommission(of.program_id, of.partner_id, of.referral_id, amount, of.currency, now, {
    clawback_of: of.id,
    tier_of: of.tier_of,
    reward_id: of.reward_id,
    reward_description: of.reward_description && `Clawback of ${of.reward_description}`,
  });
  await recordCommission(tx, row, now);
  await changed(tx, of, now);
  return row;
}

/**
 * What is credited of `row` (with its clawbacks) brought down to `due`, never up: a pending
 * commission no batch holds is lowered in place (rejected as `reason` at zero), another gets a
 * clawback. A rejected one had nothing to take back. Resolves to the commission and all its clawbacks.
 */
export async function takeBackTo(
  tx: Tx,
  row: CommissionRow,
  due: number,
  reason: string,
  now: number,
): Promise<{ commission: CommissionRow; clawbacks: CommissionRow[] }> {
  if (row.state === 'rejected') return { commission: row, clawbacks: [] };
  const clawbacks = await commissions.clawbacksOf(tx, row.id);
  const change = due - (row.amount + clawbacks.reduce((n, c) => n + c.amount, 0));
  if (change >= 0) return { commission: row, clawbacks };
  if (row.state === 'pending' && !(await commissions.isBatched(tx, row.id))) {
    return { commission: await adjustCommission(tx, row, row.amount + change, reason, now), clawbacks };
  }
  return { commission: row, clawbacks: [...clawbacks, await clawBack(tx, row, change, now)] };
}

/** A pending commission no batch holds, lowered to `amount` (a partial refund); rejected as `reason` at zero. */
export async function adjustCommission(tx: Tx, row: CommissionRow, amount: number, reason: string, now: number): Promise<CommissionRow> {
  if (amount <= 0) return moveCommission(tx, row, 'rejected', reason, now);
  if (!(await commissions.reduce(tx, row, amount, now))) throw fail('conflict', 'the commission changed meanwhile; send the refund again');
  const taken = amount - row.amount;
  await addDelta(tx, {
    program_id: row.program_id,
    partner_id: row.partner_id,
    at: row.created_at,
    currency: row.currency,
    commissions: taken,
  });
  await countOwed(tx, { ...row, amount: taken }, 1);
  return changed(tx, { ...row, amount, updated_at: now }, now);
}

/**
 * Moves a commission by the state machine: pending → paid (sets paid_at) or pending →
 * rejected (sets reject_reason). The update is conditional on the state read, so a
 * concurrent move makes this one fail instead of overwriting it. `paidAt`: an import's own date.
 */
export async function moveCommission(
  db: Tx,
  row: CommissionRow,
  to: CommissionState,
  rejectReason: string | null,
  now: number,
  opts: { paidAt?: number | null; known?: Known } = {},
): Promise<CommissionRow> {
  assertMove('commission', row.state, to);
  const moved = {
    state: to,
    reject_reason: to === 'rejected' ? rejectReason : null,
    paid_at: to === 'paid' ? (opts.paidAt ?? now) : null,
    // Never before creation, even after the clock stepped back (platform/db/list.ts relies on it).
    state_set_at: Math.max(now, row.created_at),
    updated_at: now,
  };
  const result = await commissions.move(db, row.program_id, row.id, row.state, moved);
  if (!result) throw fail('invalid_transition', 'the commission changed state meanwhile; read it again', { field: 'state' });
  // Its batch's PayPal file pays it: paid by hand too, it would be paid twice. Read by the
  // update itself, so an export in between is seen too; throwing rolls the move back.
  if (to === 'paid' && result.batch !== null) {
    throw fail(
      'invalid_transition',
      `payout batch ${result.batch} holds the commission: mark the batch paid (tally payouts mark-paid, or Payouts in the dashboard) or cancel it (tally payouts cancel) first`,
      { field: 'state' },
    );
  }
  // A rejected commission no longer counts as earned, in the bucket of its creation.
  if (to === 'rejected') {
    await addDelta(db, {
      program_id: row.program_id,
      partner_id: row.partner_id,
      currency: row.currency,
      at: row.created_at,
      commissions: -row.amount,
    });
  }
  // Out of pending: no longer owed, unless a batch held it, which took it out already.
  if (row.state === 'pending' && result.batch === null) await countOwed(db, row, -1);
  return changed(db, { ...row, ...moved }, now, opts.known);
}

/** A dispute opened (`hold` true) or closed: the commission and its clawbacks, while pending, wait meanwhile. */
export async function holdCommission(tx: Tx, programId: string, id: string, hold: boolean, now: number): Promise<number> {
  const count = await commissions.setHold(tx, programId, id, hold, now);
  const row = count > 0 ? await commissions.get(tx, programId, id) : undefined;
  if (row) await changed(tx, row, now);
  return count;
}

/** A held commission approved (its review decided by the caller, in one conditional statement): it counts toward the partner's totals from now. */
export function approvedCommission(tx: Tx, row: CommissionRow, now: number): Promise<CommissionRow> {
  return changed(tx, { ...row, review: 'approved', updated_at: now }, now);
}

/** A payout batch takes the commission (false: another holds it, or it left pending); no longer owed while it holds it. */
export async function batchCommission(
  tx: Tx,
  c: Pick<CommissionRow, 'id' | 'program_id' | 'partner_id' | 'currency' | 'amount'>,
  batchId: string,
): Promise<boolean> {
  if (!(await commissions.claim(tx, c.id, batchId))) return false;
  await countOwed(tx, c, -1);
  return true;
}

/** A batch of one partner's commissions in one currency, as a payout run's page holds them. */
export interface HeldBatch {
  id: string;
  program_id: string;
  partner_id: string;
  currency: string;
  /** The sum of its commissions, no longer owed once held. */
  amount: number;
  /** How many commissions its payout_items list. */
  commissions: number;
}

/**
 * Many batches' commissions held at once, as listed by their payout_items (a payout run's
 * page): one claim and one owed delta a batch. False when any had left pending or been
 * claimed meanwhile; the caller's transaction then rolls everything back.
 */
export async function batchListed(tx: Tx, batches: readonly HeldBatch[]): Promise<boolean> {
  const listed = batches.reduce((n, b) => n + b.commissions, 0);
  if (
    (await commissions.claimListed(
      tx,
      batches.map((b) => b.id),
    )) !== listed
  )
    return false;
  const owed = batches.map((b) =>
    deltaInsert({ program_id: b.program_id, partner_id: b.partner_id, at: NOW, currency: b.currency, owed: -b.amount }),
  );
  await insertRows(
    tx,
    'stat_deltas',
    owed.map((d) => d.row),
  );
  return true;
}

/** A cancelled batch's commissions freed: the pending ones are owed again (a rejection while held took nothing off: the claim had). */
export async function unbatchCommissions(tx: Tx, batchId: string): Promise<number> {
  const freed = await commissions.unclaim(tx, batchId);
  for (const c of freed) if (c.state === 'pending') await countOwed(tx, c, 1);
  return freed.length;
}

/** A batched commission paid with its batch (false: it left pending meanwhile). */
export async function payBatched(tx: Tx, programId: string, id: string, now: number): Promise<boolean> {
  const paid = { state: 'paid' as const, reject_reason: null, paid_at: now, state_set_at: now, updated_at: now };
  if (!(await commissions.move(tx, programId, id, 'pending', paid))) return false;
  const row = await commissions.get(tx, programId, id);
  if (row) await changed(tx, row, now);
  return true;
}

/**
 * A paid batch's money came back (a payout run's item returned): its commissions are pending
 * again and freed, so they are owed and payable as before. Resolves to how many were freed.
 */
export async function returnBatched(tx: Tx, programId: string, batchId: string, now: number): Promise<number> {
  for (const id of await commissions.unpay(tx, batchId, now)) {
    const row = await commissions.get(tx, programId, id);
    if (row) await changed(tx, row, now);
  }
  return unbatchCommissions(tx, batchId);
}

/** A pending commission that no batch holds is owed: `sign` 1 when it becomes so, -1 when it stops. */
function countOwed(
  db: Queryable,
  c: Pick<CommissionRow, 'program_id' | 'partner_id' | 'currency' | 'amount'>,
  sign: 1 | -1,
): Promise<void> {
  return addDelta(db, { program_id: c.program_id, partner_id: c.partner_id, at: NOW, currency: c.currency, owed: sign * c.amount });
}

async function changed(db: Tx, after: CommissionRow, now: number, known: Known = {}): Promise<CommissionRow> {
  await emit(db, after.program_id, 'commission.updated', renderCommission(after), now, known);
  return after;
}
