import type { Param, Queryable } from '../../platform/db/db.js';
import { insertRow, insertRows } from '../../platform/db/rows.js';

/**
 * A pending commission that can be paid out: its partner's partnership is accepted, no
 * open batch holds it yet, its holding period is over and no dispute holds it. Clawbacks
 * (negative amounts) are among them, to be netted.
 */
export interface PayableRow {
  commission_id: string;
  partner_id: string;
  partner_name: string;
  paypal_email: string | null;
  amount: number;
  currency: string;
  /** The minimum-payout objects (JSON) of the program and of the partnership, or else its group (null: the program's). */
  program_minimum: string;
  group_minimum: string | null;
  partnership_minimum: string | null;
}

/** Narrows `payable` to one currency or one partner (a partner's own next payout reads only theirs). */
export interface PayableOf {
  currency?: string;
  partnerId?: string;
  /** A payout run's page of partners, all accepted (acceptedPartners): their rows come by partner, then id. */
  partnerIds?: readonly string[];
}

/** The program's next `limit` accepted partners after `after` (by id): the pages a payout run reads, in the unique key's order. */
export async function acceptedPartners(db: Queryable, programId: string, after: string, limit: number): Promise<string[]> {
  const rows = await db.all<{ partner_id: string }>(
    "SELECT partner_id FROM partnerships WHERE program_id = ? AND partner_id > ? AND state = 'accepted' ORDER BY partner_id LIMIT ?",
    [programId, after, limit],
  );
  return rows.map((r) => r.partner_id);
}

/** The payable commissions' joins and conditions, narrowed by `of`, its values pushed to `params` in the text's order. */
function payableFrom(params: Param[], programId: string, now: number, of: PayableOf): string {
  const terms = `c.state = 'pending' AND c.payout_batch_id IS NULL
            AND c.payable_at <= ? AND c.on_hold = 0 AND (c.review IS NULL OR c.review <> 'held') AND c.amount <> 0`;
  const page = of.partnerIds ?? [];
  if (page.length > 0) {
    // A run's page, from its partnerships (acceptedPartners read them accepted) to each one's
    // commissions: SQLite, without statistics, otherwise walked every pending commission of
    // the program for each page (3.7 s a page on the big program, 0.3 s this way).
    params.push(programId, ...page, now);
    return `FROM partnerships ps CROSS JOIN commissions c
       JOIN partners pa ON pa.id = c.partner_id
       JOIN programs pr ON pr.id = c.program_id
       LEFT JOIN partner_groups g ON g.id = ps.group_id
      WHERE ps.program_id = ? AND ps.partner_id IN (${page.map(() => '?').join(', ')})
        AND c.partner_id = ps.partner_id AND c.program_id = ps.program_id AND ${terms}`;
  }
  params.push(programId, now);
  if (of.currency !== undefined) params.push(of.currency);
  if (of.partnerId !== undefined) params.push(of.partnerId);
  return `FROM commissions c
       JOIN partners pa ON pa.id = c.partner_id
       JOIN partnerships ps ON ps.program_id = c.program_id AND ps.partner_id = c.partner_id
       JOIN programs pr ON pr.id = c.program_id
       LEFT JOIN partner_groups g ON g.id = ps.group_id
      WHERE c.program_id = ? AND ps.state = 'accepted' AND ${terms}
            ${of.currency === undefined ? '' : 'AND c.currency = ?'} ${of.partnerId === undefined ? '' : 'AND c.partner_id = ?'}`;
}

const PAYEE = `c.partner_id, pa.name AS partner_name, pa.paypal_email, c.currency,
            pr.minimum_payout AS program_minimum, g.minimum_payout AS group_minimum, ps.minimum_payout AS partnership_minimum`;

export function payable(db: Queryable, programId: string, now: number, of: PayableOf = {}): Promise<PayableRow[]> {
  const params: Param[] = [];
  const from = payableFrom(params, programId, now, of);
  // In id order. The export claims them grouped by currency and partner, so two exports
  // at once may still lock rows in different orders on PostgreSQL: the deadlock that can
  // follow is retried by the driver (platform/db/postgres.ts), and the loser finds them taken.
  return db.all<PayableRow>(
    `SELECT c.id AS commission_id, c.amount, ${PAYEE} ${from} ORDER BY ${of.partnerIds?.length ? 'c.partner_id, ' : ''}c.id`,
    params,
  );
}

/** A partner's payable commissions in one currency, summed (`amount`) and counted. */
export type PayableSum = Omit<PayableRow, 'commission_id'> & { commissions: number };

/** What is payable summed per partner and currency (`amount`, and `commissions` counted): what is owed, without reading each commission. */
export function payableTotals(db: Queryable, programId: string, now: number, of: PayableOf = {}): Promise<PayableSum[]> {
  const params: Param[] = [];
  const from = payableFrom(params, programId, now, of);
  return db.all(
    `SELECT SUM(c.amount) AS amount, COUNT(*) AS commissions, ${PAYEE} ${from}
      GROUP BY c.partner_id, c.currency, pa.name, pa.paypal_email, pr.minimum_payout, g.minimum_payout, ps.minimum_payout`,
    params,
  );
}

export interface BatchRow {
  id: string;
  program_id: string;
  currency: string;
  created_at: number;
  paid_at: number | null;
  cancelled_at: number | null;
  /** Set when the batch is one item of a payout run (flows/payout-send.ts): the run, not a file, pays it. */
  run_id?: string | null;
}

/** One commission in a batch, with the payee address as exported (the partner's may change later). */
export interface ItemRow {
  batch_id: string;
  commission_id: string;
  partner_id: string;
  amount: number;
  paypal_email: string | null;
}

export async function insertBatch(db: Queryable, batch: BatchRow): Promise<void> {
  await insertRow(db, 'payout_batches', batch);
}

/** Many batches in a few statements (a payout run's page of items). */
export function insertBatches(db: Queryable, batches: readonly BatchRow[]): Promise<void> {
  return insertRows(db, 'payout_batches', batches);
}

export async function insertItems(db: Queryable, items: readonly ItemRow[]): Promise<void> {
  await insertRows(db, 'payout_items', items);
}

/** A batch that turned out to hold nothing (another export claimed it all first). */
export async function removeEmptyBatch(db: Queryable, id: string): Promise<void> {
  await db.run('DELETE FROM payout_batches WHERE id = ?', [id]);
}

export function getBatch(db: Queryable, id: string): Promise<BatchRow | undefined> {
  return db.get<BatchRow>('SELECT * FROM payout_batches WHERE id = ?', [id]);
}

/** The program's batches neither paid nor cancelled, oldest first. */
export function openBatches(db: Queryable, programId: string): Promise<BatchRow[]> {
  return db.all<BatchRow>(
    `SELECT * FROM payout_batches WHERE program_id = ? AND paid_at IS NULL AND cancelled_at IS NULL AND run_id IS NULL
      ORDER BY created_at, id`,
    [programId],
  );
}

/** The batch's items, with their commission's state and holder now. */
export function batchItems(db: Queryable, batchId: string): Promise<Array<ItemRow & { state: string; holder: string | null }>> {
  return db.all(
    `SELECT i.*, c.state, c.payout_batch_id AS holder FROM payout_items i JOIN commissions c ON c.id = i.commission_id
      WHERE i.batch_id = ? ORDER BY i.commission_id`,
    [batchId],
  );
}

/** Marks the batch paid if it is open; false if it was paid or cancelled meanwhile. */
export async function markBatchPaid(db: Queryable, id: string, now: number): Promise<boolean> {
  return (await db.run('UPDATE payout_batches SET paid_at = ? WHERE id = ? AND paid_at IS NULL AND cancelled_at IS NULL', [now, id])) === 1;
}

/**
 * Cancels the batch if it is open, and lets go of its commissions, so that a later export
 * takes them again; false if it was paid or cancelled meanwhile. Resolves to how many
 * commissions it let go.
 */
export async function cancelBatch(db: Queryable, id: string, now: number): Promise<boolean> {
  const cancelled = await db.run('UPDATE payout_batches SET cancelled_at = ? WHERE id = ? AND paid_at IS NULL AND cancelled_at IS NULL', [
    now,
    id,
  ]);
  return cancelled === 1;
}

export interface BatchSummary extends BatchRow {
  /** Minor units of the batch's currency. */
  amount: number;
  commissions: number;
  partners: number;
}

/** The program's batches with their totals, newest first (the 200 latest), or the one `id`. */
export function batchSummaries(db: Queryable, programId: string, id: string | null): Promise<BatchSummary[]> {
  return db.all<BatchSummary>(
    `SELECT b.*, COALESCE(SUM(i.amount), 0) AS amount, COUNT(i.commission_id) AS commissions, COUNT(DISTINCT i.partner_id) AS partners
       FROM payout_batches b LEFT JOIN payout_items i ON i.batch_id = b.id
      WHERE b.program_id = ? AND b.run_id IS NULL ${id === null ? '' : 'AND b.id = ?'}
      GROUP BY b.id, b.program_id, b.currency, b.created_at, b.paid_at, b.cancelled_at, b.run_id
      ORDER BY b.created_at DESC, b.id DESC LIMIT 200`,
    id === null ? [programId] : [programId, id],
  );
}

/**
 * What each partner was paid in `currency` through batches marked paid in [from, to): the
 * sum of the batches' commissions (clawbacks netted), by partner. A payout run's item counts
 * only while it stays paid, and not at all when its method is one of `leaveOut`.
 */
export function paidThroughBatches(
  db: Queryable,
  programId: string,
  currency: string,
  from: number,
  to: number,
  leaveOut: readonly string[] = [],
): Promise<Array<{ partner_id: string; amount: number }>> {
  const methods = leaveOut.length ? ` OR r.method IN (${leaveOut.map(() => '?').join(', ')})` : '';
  return db.all(
    `SELECT i.partner_id, SUM(i.amount) AS amount
       FROM payout_batches b JOIN payout_items i ON i.batch_id = b.id
      WHERE b.program_id = ? AND b.currency = ? AND b.paid_at >= ? AND b.paid_at < ?
            AND NOT EXISTS (SELECT 1 FROM payout_run_items r WHERE r.id = b.id AND (r.state <> 'paid'${methods}))
      GROUP BY i.partner_id ORDER BY i.partner_id`,
    [programId, currency, from, to, ...leaveOut],
  );
}
