import type { Queryable } from '../../platform/db/db.js';
import { lister, STATE_SET_AT } from '../../platform/db/list.js';
import { insertRow } from '../../platform/db/rows.js';
import type { CommissionState, CommissionRow } from './model.js';

const COLUMNS = {
  state: 'state',
  review: 'review',
  partner_id: 'partner_id',
  created_at: 'created_at',
  state_set_at: 'state_set_at',
};

export async function insert(db: Queryable, row: CommissionRow): Promise<void> {
  await insertRow(db, 'commissions', row);
}

export function get(db: Queryable, programId: string, id: string): Promise<CommissionRow | undefined> {
  return db.get<CommissionRow>('SELECT * FROM commissions WHERE program_id = ? AND id = ?', [programId, id]);
}

export const list = lister<CommissionRow>('commissions', COLUMNS, { notBeforeCreation: ['state_set_at'] });

export interface CommissionMove {
  state: CommissionState;
  reject_reason: string | null;
  paid_at: number | null;
  state_set_at: number;
  updated_at: number;
}

/**
 * Moves a commission out of `from` in one conditional update, so two racing moves cannot
 * both succeed. Resolves to false when its state was no longer `from`; else to the payout
 * batch that held it at that moment, or null (read by the update itself, under its row lock).
 */
export async function move(
  db: Queryable,
  programId: string,
  id: string,
  from: CommissionState,
  to: CommissionMove,
): Promise<false | { batch: string | null }> {
  const [row] = await db.all<{ payout_batch_id: string | null }>(
    `UPDATE commissions SET state = ?, reject_reason = ?, paid_at = ?, ${STATE_SET_AT}, updated_at = ?
      WHERE program_id = ? AND id = ? AND state = ? RETURNING payout_batch_id`,
    [to.state, to.reject_reason, to.paid_at, to.state_set_at, to.state_set_at, to.updated_at, programId, id, from],
  );
  return row ? { batch: row.payout_batch_id } : false;
}

/**
 * Sets a pending commission's amount, if no payout batch holds it and it is still
 * `amount`: a partial refund reducing what was earned. False when it changed meanwhile.
 */
export async function reduce(db: Queryable, row: CommissionRow, amount: number, now: number): Promise<boolean> {
  const changed = await db.run(
    `UPDATE commissions SET amount = ?, updated_at = ?
      WHERE program_id = ? AND id = ? AND state = 'pending' AND payout_batch_id IS NULL AND amount = ?`,
    [amount, now, row.program_id, row.id, row.amount],
  );
  return changed === 1;
}

/** Holds or releases the pending commissions of a disputed payment (the commission and its clawbacks). */
export async function setHold(db: Queryable, programId: string, id: string, onHold: boolean, now: number): Promise<number> {
  return db.run(
    `UPDATE commissions SET on_hold = ?, updated_at = ?
      WHERE program_id = ? AND (id = ? OR clawback_of = ?) AND state = 'pending' AND on_hold <> ?`,
    [onHold ? 1 : 0, now, programId, id, id, onHold ? 1 : 0],
  );
}

/**
 * Makes the batch the commission's holder, unless another batch holds it or it left
 * `pending`: false then. One conditional update, so two exports, in any processes, can
 * never both claim it; on PostgreSQL the second waits for the first to commit and then
 * finds the commission taken.
 */
export async function claim(db: Queryable, commissionId: string, batchId: string): Promise<boolean> {
  const changed = await db.run(
    "UPDATE commissions SET payout_batch_id = ? WHERE id = ? AND state = 'pending' AND payout_batch_id IS NULL",
    [batchId, commissionId],
  );
  return changed === 1;
}

/**
 * Claims, for each of `batchIds`, the commissions its payout_items list, where still pending
 * and in no batch: one statement for a payout run's page. Resolves to how many it claimed.
 */
export function claimListed(db: Queryable, batchIds: readonly string[]): Promise<number> {
  if (batchIds.length === 0) return Promise.resolve(0);
  // COALESCE, not IS NULL: SQLite, without statistics, otherwise walked commissions_payout_batch
  // over every commission in no batch (1.5 million on the big program, 75 s a page) and probed
  // the items, instead of going from the page's items to their commissions by id.
  return db.run(
    `UPDATE commissions SET payout_batch_id = pi.batch_id FROM payout_items pi
      WHERE pi.batch_id IN (${batchIds.map(() => '?').join(', ')}) AND commissions.id = pi.commission_id
        AND commissions.state = 'pending' AND COALESCE(commissions.payout_batch_id, '') = ''`,
    [...batchIds],
  );
}

/** Frees a cancelled batch's commissions; returns what each counted. */
export function unclaim(db: Queryable, batchId: string) {
  return db.all<{ program_id: string; partner_id: string; currency: string; amount: number; state: string }>(
    'UPDATE commissions SET payout_batch_id = NULL WHERE payout_batch_id = ? RETURNING program_id, partner_id, currency, amount, state',
    [batchId],
  );
}

/** A batch's paid commissions back to pending (a payout that came back); returns their ids. */
export async function unpay(db: Queryable, batchId: string, now: number): Promise<string[]> {
  const rows = await db.all<{ id: string }>(
    `UPDATE commissions SET state = 'pending', paid_at = NULL, state_set_at = ?, updated_at = ?
      WHERE payout_batch_id = ? AND state = 'paid' RETURNING id`,
    [now, now, batchId],
  );
  return rows.map((r) => r.id);
}

/** The clawbacks taken from a commission, not rejected. */
export function clawbacksOf(db: Queryable, id: string): Promise<CommissionRow[]> {
  return db.all<CommissionRow>("SELECT * FROM commissions WHERE clawback_of = ? AND state <> 'rejected' ORDER BY id", [id]);
}

/** Whether a payout batch holds the commission now. */
export async function isBatched(db: Queryable, id: string): Promise<boolean> {
  const row = await db.get<{ b: string | null }>('SELECT payout_batch_id AS b FROM commissions WHERE id = ?', [id]);
  return row?.b !== null && row?.b !== undefined;
}

export interface EarningsRow {
  currency: string;
  /** Pending, in all (held, waiting out the holding period, in an open batch, or owed now). */
  pending: number;
  /** Of those, past their holding period, not held and in no batch, net of clawbacks: what the next export takes, if it pays. */
  payable: number;
  /** How many commissions `payable` sums. */
  payable_count: number;
  paid: number;
  /** When the next of the pending ones not yet payable becomes payable. */
  next_payable_at: number | null;
}

/** Partners' commissions summed per partner and currency, as the portal shows them: one read for a page of partnerships. */
export function earningsOf(
  db: Queryable,
  partnerIds: readonly string[],
  now: number,
): Promise<Array<EarningsRow & { partner_id: string }>> {
  if (partnerIds.length === 0) return Promise.resolve([]);
  const payable =
    "state = 'pending' AND payable_at <= ? AND on_hold = 0 AND (review IS NULL OR review <> 'held') AND payout_batch_id IS NULL";
  return db.all(
    `SELECT partner_id, currency,
            SUM(CASE WHEN state = 'pending' THEN amount ELSE 0 END) AS pending,
            SUM(CASE WHEN ${payable} THEN amount ELSE 0 END) AS payable,
            SUM(CASE WHEN ${payable} AND amount <> 0 THEN 1 ELSE 0 END) AS payable_count,
            SUM(CASE WHEN state = 'paid' THEN amount ELSE 0 END) AS paid,
            MIN(CASE WHEN state = 'pending' AND payable_at > ? THEN payable_at END) AS next_payable_at
       FROM commissions WHERE partner_id IN (${partnerIds.map(() => '?').join(', ')})
      GROUP BY partner_id, currency ORDER BY partner_id, currency`,
    [now, now, now, ...partnerIds],
  );
}
