// The program's totals per 15-minute bucket (docs/statistics.md). Every
// write that changes a total appends a delta row in its own transaction: an insert, never
// an update of a shared counter row, so writers never queue behind one another. A
// background fold moves deltas into stat_buckets, one row per partner and one for the
// whole program (partner_id ''). Reads add the deltas not folded yet, so they are exact
// at every moment. Every UTC offset in use is a multiple of 15 minutes, so a day, week
// or month in any zone is an exact union of buckets.

import type { Param, Queryable } from '../../platform/db/db.js';

import { BUCKET, COLUMNS, MEASURES, type Measure, NOW } from '../../events/deltas.js';
import { addFolded, forgetAll } from './window-repo.js';

const SUMS = MEASURES.map((m) => `SUM(${m}) AS ${m}`).join(', ');

export interface BucketRow extends Record<Measure, number> {
  bucket: number;
  currency: string;
}

export interface PartnerTotals extends Record<Measure, number> {
  partner_id: string;
  currency: string;
}

/**
 * Folds up to `limit` deltas into the buckets, in the caller's transaction. The delete
 * returns exactly the rows it removed, so a delta committed meanwhile by another
 * process is either folded here or left for the next fold, never lost or counted twice.
 */
export async function fold(db: Queryable, limit: number): Promise<number> {
  const taken = await db.all<Record<string, string | number>>(
    `DELETE FROM stat_deltas WHERE id IN (SELECT id FROM stat_deltas ORDER BY id LIMIT ?) RETURNING ${COLUMNS}`,
    [limit],
  );
  const sums = new Map<string, { key: Param[]; values: number[] }>();
  for (const d of taken) {
    for (const partner of [String(d.partner_id), '']) {
      const key = [String(d.program_id), partner, Number(d.bucket), String(d.currency)];
      const id = JSON.stringify(key);
      const entry = sums.get(id) ?? { key, values: MEASURES.map(() => 0) };
      MEASURES.forEach((m, i) => {
        entry.values[i]! += Number(d[m]);
      });
      sums.set(id, entry);
    }
  }
  const add = MEASURES.map((m) => `${m} = stat_buckets.${m} + excluded.${m}`).join(', ');
  // The kept windows of the programs that have any take the partners' sums too, in this transaction.
  const windowed = new Set(
    taken.length === 0
      ? []
      : (await db.all<{ program_id: string }>('SELECT DISTINCT program_id FROM stat_windows')).map((w) => w.program_id),
  );
  for (const { key, values } of sums.values()) {
    await db.run(
      `INSERT INTO stat_buckets (${COLUMNS}) VALUES (?, ?, ?, ?, ${MEASURES.map(() => '?').join(', ')})
       ON CONFLICT (program_id, partner_id, bucket, currency) DO UPDATE SET ${add}`,
      [...key, ...values],
    );
    if (key[1] !== '' && key[0] !== undefined && windowed.has(String(key[0]))) await addFolded(db, key, values);
  }
  return taken.length;
}

/**
 * Totals per bucket and currency in [from, to), for the program or one partner: folded
 * buckets plus the deltas not folded yet.
 */
/** Days of one length in a row, from the range's day `first` on: a run of the range's local days between two changes of offset. */
export interface DayRun {
  /** Where its first day begins and its last one ends, in unix seconds. */
  start: number;
  end: number;
  /** The index of its first day in the range. */
  first: number;
  /** Its days' length in seconds: 86,400, or 23 or 25 hours on a day the clocks change. */
  length: number;
}

/** A row of totals per day of the range (its index) and currency. */
export interface DayRow extends Record<Measure, number> {
  day: number;
  currency: string;
}

/**
 * The program's totals (or one partner's) per local day of a range and currency, summed by
 * the database: a day's index is worked out from its bucket by the run of days it falls
 * in, so 90 days are 90 rows a currency, not the 8,640 buckets they hold (a fifth of a
 * second's CPU in the collector on the big program, issue 47). The runs are numbers the
 * collector computed, written into the statement as such.
 */
export function series(db: Queryable, programId: string, partnerId: string | null, runs: readonly DayRun[]): Promise<DayRow[]> {
  const from = runs[0]?.start ?? 0;
  const to = runs.at(-1)?.end ?? 0;
  const int = (n: number) => {
    if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
    return String(n);
  };
  const day = `CASE ${runs.map((r) => `WHEN bucket < ${int(r.end)} THEN ${int(r.first)} + (bucket - ${int(r.start)}) / ${int(r.length)}`).join(' ')} END`;
  const deltaPartner = partnerId === null ? '' : 'AND partner_id = ?';
  const params: Param[] = [programId, partnerId ?? '', from, to, programId, ...(partnerId === null ? [] : [partnerId]), from, to];
  return db.all<DayRow>(
    `SELECT ${day} AS day, currency, ${SUMS} FROM (
       SELECT bucket, currency, ${MEASURES.join(', ')} FROM stat_buckets
        WHERE program_id = ? AND partner_id = ? AND bucket >= ? AND bucket < ?
       UNION ALL
       SELECT bucket, currency, ${MEASURES.join(', ')} FROM stat_deltas
        WHERE program_id = ? ${deltaPartner} AND bucket >= ? AND bucket < ?
     ) t GROUP BY 1, currency ORDER BY 1, currency`,
    params,
  );
}

/** What is owed now per partner and currency, for the program or the given partners. */
export function owedNow(
  db: Queryable,
  programId: string,
  partnerIds: readonly string[] | null,
): Promise<Array<{ partner_id: string; currency: string; owed: number }>> {
  if (partnerIds?.length === 0) return Promise.resolve([]);
  const only = partnerIds === null ? "AND partner_id <> ''" : `AND partner_id IN (${partnerIds.map(() => '?').join(', ')})`;
  const params = [...(partnerIds ?? [])];
  return db.all(
    `SELECT partner_id, currency, SUM(owed) AS owed FROM (
       SELECT partner_id, currency, owed FROM stat_buckets WHERE program_id = ? AND bucket = ${NOW} ${only}
       UNION ALL
       SELECT partner_id, currency, owed FROM stat_deltas WHERE program_id = ? AND bucket = ${NOW} ${only}
     ) t GROUP BY partner_id, currency`,
    [programId, ...params, programId, ...params],
  );
}

/** What the program owes now, per currency: its own row and the deltas not folded yet. */
export function owedTotal(db: Queryable, programId: string): Promise<Array<{ currency: string; owed: number }>> {
  return db.all(
    `SELECT currency, SUM(owed) AS owed FROM (
       SELECT currency, owed FROM stat_buckets WHERE program_id = ? AND partner_id = '' AND bucket = ${NOW}
       UNION ALL
       SELECT currency, owed FROM stat_deltas WHERE program_id = ? AND bucket = ${NOW}
     ) t GROUP BY currency`,
    [programId, programId],
  );
}

/**
 * Totals per partner and currency in [from, to): for every partner (the slow path, which
 * returns a row per active partner) or for the named ones (one page's).
 */
export function byPartner(
  db: Queryable,
  programId: string,
  from: number,
  to: number,
  ids: readonly string[] | null = null,
): Promise<PartnerTotals[]> {
  if (ids?.length === 0) return Promise.resolve([]);
  const only = ids === null ? "AND partner_id <> ''" : `AND partner_id IN (${ids.map(() => '?').join(', ')})`;
  const params = [programId, ...(ids ?? []), from, to];
  return db.all<PartnerTotals>(
    `SELECT partner_id, currency, ${SUMS} FROM (
       SELECT partner_id, currency, ${MEASURES.join(', ')} FROM stat_buckets
        WHERE program_id = ? ${only} AND bucket >= ? AND bucket < ?
       UNION ALL
       SELECT partner_id, currency, ${MEASURES.join(', ')} FROM stat_deltas
        WHERE program_id = ? ${only} AND bucket >= ? AND bucket < ?
     ) t GROUP BY partner_id, currency`,
    [...params, ...params],
  );
}

/** The program's money per currency in [from, to), from its own rows: which currency leads. */
export function currencyTotals(
  db: Queryable,
  programId: string,
  from: number,
  to: number,
): Promise<Array<{ currency: string; revenue: number; commissions: number }>> {
  return db.all(
    `SELECT currency, SUM(revenue) AS revenue, SUM(commissions) AS commissions FROM (
       SELECT currency, revenue, commissions FROM stat_buckets WHERE program_id = ? AND partner_id = '' AND bucket >= ? AND bucket < ?
       UNION ALL
       SELECT currency, revenue, commissions FROM stat_deltas WHERE program_id = ? AND bucket >= ? AND bucket < ?
     ) t GROUP BY currency`,
    [programId, from, to, programId, from, to],
  );
}

export type Rank =
  | { measure: 'clicks' | 'referrals' | 'customers' }
  | { measure: 'revenue' | 'commissions'; currency: string }
  | { measure: 'conversion_rate' };

/**
 * The partners active in [from, to), ranked by one figure, largest first (ties by id), one
 * page of them: summed and sorted by the database, which returns only the page.
 */
export async function rankPartners(
  db: Queryable,
  programId: string,
  from: number,
  to: number,
  rank: Rank,
  limit: number,
  offset: number,
): Promise<string[]> {
  const money = rank.measure === 'revenue' || rank.measure === 'commissions';
  const value =
    rank.measure === 'conversion_rate'
      ? 'CASE WHEN SUM(clicks) = 0 THEN 0 ELSE SUM(referrals) * 1.0 / SUM(clicks) END'
      : money
        ? `SUM(CASE WHEN currency = ? THEN ${rank.measure} ELSE 0 END)`
        : `SUM(${rank.measure})`;
  const columns = rank.measure === 'conversion_rate' ? 'clicks, referrals' : `currency, ${rank.measure}`;
  const rows = await db.all<{ partner_id: string }>(
    `SELECT partner_id FROM (
       SELECT partner_id, ${columns} FROM stat_buckets WHERE program_id = ? AND bucket >= ? AND bucket < ? AND partner_id <> ''
       UNION ALL
       SELECT partner_id, ${columns} FROM stat_deltas WHERE program_id = ? AND bucket >= ? AND bucket < ?
     ) t GROUP BY partner_id ORDER BY ${value} DESC, partner_id LIMIT ? OFFSET ?`,
    [programId, from, to, programId, from, to, ...(money ? [(rank as { currency: string }).currency] : []), limit, offset],
  );
  return rows.map((r) => r.partner_id);
}

/**
 * The totals counted afresh from the records, per program, partner, bucket and currency:
 * what the kept totals must equal (`tally stats check`), and how the migration filled
 * them at first. Revenue leaves out what was refunded of each payment; commissions leave out rejected ones.
 * Each kind of record is read of one program only, and of those made since `since` only,
 * when given (their values pushed to `params` in the text's order); what is owed has no
 * date and is always counted whole.
 */
function recount(params: Param[], programId: string | null = null, since: number | null = null): string {
  const where = (table: string, date: string | null, joiner = 'WHERE') => {
    const terms: string[] = [];
    if (programId !== null) {
      terms.push(`${table}program_id = ?`);
      params.push(programId);
    }
    if (since !== null && date !== null) {
      terms.push(`${date} >= ?`);
      params.push(since);
    }
    return terms.length === 0 ? '' : ` ${joiner} ${terms.join(' AND ')}`;
  };
  return `
  SELECT program_id, partner_id, bucket, currency, ${SUMS} FROM (
    SELECT c.program_id, ps.partner_id, ${BUCKET('c.created_at')} AS bucket, '' AS currency,
           1 AS clicks, 0 AS referrals, 0 AS customers, 0 AS payments, 0 AS revenue, 0 AS commissions, 0 AS owed
      FROM clicks c JOIN partnerships ps ON ps.id = c.partnership_id${where('c.', 'c.created_at')}
    UNION ALL
    SELECT program_id, partner_id, bucket, '', clicks, 0, 0, 0, 0, 0, 0 FROM clicks_purged${where('', 'bucket')}
    UNION ALL
    SELECT program_id, partner_id, ${BUCKET('created_at')}, '', 0, 1, 0, 0, 0, 0, 0 FROM referrals${where('', 'created_at')}
    UNION ALL
    SELECT p.program_id, cm.partner_id, ${BUCKET('p.created_at')}, p.currency, 0, 0, p.first_of_referral, 1,
           p.amount - p.refunded, 0, 0
      FROM payments p JOIN commissions cm ON cm.id = p.commission_id${where('p.', 'p.created_at')}
    UNION ALL
    SELECT program_id, partner_id, ${BUCKET('created_at')}, currency, 0, 0, 0, 0, 0, amount, 0
      FROM commissions WHERE state <> 'rejected'${where('', 'created_at', 'AND')}
    UNION ALL
    SELECT program_id, partner_id, ${NOW}, currency, 0, 0, 0, 0, 0, 0, amount
      FROM commissions WHERE state = 'pending' AND payout_batch_id IS NULL${where('', null, 'AND')}
  ) t GROUP BY program_id, partner_id, bucket, currency`;
}

/** A key whose kept totals (`kept_*`) differ from their recount (`counted_*`): a partner's row, or a program's against its partners' sum. */
export interface DifferenceRow {
  what: 'partner' | 'program';
  program_id: string;
  partner_id: string;
  bucket: number;
  currency: string;
  [measure: string]: string | number;
}

/**
 * Where the kept totals differ from a recount, found by the database: each side's rows
 * tagged and summed per key in one GROUP BY, and only the keys whose sums differ
 * returned, at most `limit`. A key on one side only counts as zeros on the other. Compared in
 * JavaScript, a check of 10 million clicks handed the process every bucket of both sides
 * (4 GB). Sides: a partner's buckets and pending deltas (kept) against the recount of the
 * records; a program's row (kept) against its partners' folded rows (counted). One
 * statement, so one snapshot on both engines: read apart, a write committed between the
 * kept totals and the recount would show as a difference while the server runs. With
 * `since`, both sides of the buckets from then on and of what is owed: a daily check of a
 * big program reads a month of records, not its whole history.
 */
export function differences(db: Queryable, programId: string | null, limit: number, since: number | null = null): Promise<DifferenceRow[]> {
  const params: Param[] = [];
  // A side's rows of the program asked (or every program), and of the buckets from `since` on and the owed one.
  const scope = () => {
    if (programId !== null) params.push(programId);
    if (since !== null) params.push(since);
    return `${programId === null ? '' : 'AND program_id = ?'} ${since === null ? '' : `AND (bucket >= ? OR bucket = ${NOW})`}`;
  };
  const sideSums = (side: 'kept' | 'counted') =>
    MEASURES.map((m) => `SUM(CASE WHEN side = '${side}' THEN ${m} ELSE 0 END) AS ${side}_${m}`).join(', ');
  const differs = MEASURES.map((m) => `SUM(CASE WHEN side = 'kept' THEN ${m} ELSE -${m} END) <> 0`).join(' OR ');
  const keptPartners = scope();
  const pending = scope();
  const counted = recount(params, programId, since);
  const keptPrograms = scope();
  const partnersOfPrograms = scope();
  return db.all<DifferenceRow>(
    `SELECT what, program_id, partner_id, bucket, currency, ${sideSums('kept')}, ${sideSums('counted')} FROM (
       SELECT 'partner' AS what, 'kept' AS side, ${COLUMNS} FROM stat_buckets WHERE partner_id <> '' ${keptPartners}
       UNION ALL
       SELECT 'partner', 'kept', ${COLUMNS} FROM stat_deltas WHERE 1 = 1 ${pending}
       UNION ALL
       SELECT 'partner', 'counted', r.* FROM (${counted}) r
       UNION ALL
       SELECT 'program', 'kept', ${COLUMNS} FROM stat_buckets WHERE partner_id = '' ${keptPrograms}
       UNION ALL
       SELECT 'program', 'counted', program_id, '', bucket, currency, ${MEASURES.join(', ')} FROM stat_buckets
        WHERE partner_id <> '' ${partnersOfPrograms}
     ) t GROUP BY what, program_id, partner_id, bucket, currency HAVING ${differs}
     ORDER BY what DESC, program_id, partner_id, bucket, currency LIMIT ?`,
    [...params, limit],
  );
}

const LABELS = `SELECT pa.id, pa.name, ps.key FROM partners pa
  LEFT JOIN partnerships ps ON ps.program_id = pa.program_id AND ps.partner_id = pa.id
  WHERE pa.program_id = ?`;

export interface PartnerLabel {
  id: string;
  name: string;
  key: string | null;
}

/** Every partner of the program (those whose name contains `nameContains`, in any case) with its partnership's key. */
export function partnerLabels(db: Queryable, programId: string, nameContains: string | null): Promise<PartnerLabel[]> {
  if (nameContains === null) return db.all<PartnerLabel>(LABELS, [programId]);
  const pattern = `%${nameContains.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db.all<PartnerLabel>(`${LABELS} AND LOWER(pa.name) LIKE ? ESCAPE '\\'`, [programId, pattern]);
}

/** The named partners of the program with their keys. */
export function labelsOf(db: Queryable, programId: string, ids: readonly string[]): Promise<PartnerLabel[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.all<PartnerLabel>(`${LABELS} AND pa.id IN (${ids.map(() => '?').join(', ')})`, [programId, ...ids]);
}

export async function partnerCount(db: Queryable, programId: string): Promise<number> {
  return Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM partners WHERE program_id = ?', [programId]))?.n ?? 0);
}

/**
 * Replaces every kept total by the recount: the repair after a check found a difference.
 * On PostgreSQL writers go on meanwhile: a delta committed between the delete and the
 * recount would be counted twice, once as itself and once in the recount. The table lock
 * makes writes that keep totals wait for the repair's commit (reads go on), and waits for
 * those in flight to commit first. SQLite's one writer is this transaction already.
 */
export async function rebuild(db: Queryable): Promise<void> {
  if (db.engine === 'postgres') await db.run('LOCK TABLE stat_deltas IN EXCLUSIVE MODE');
  await db.run('DELETE FROM stat_deltas');
  await db.run('DELETE FROM stat_buckets');
  await forgetAll(db);
  for (const statement of REBUILD) await db.run(statement);
}

/** Fills empty tables from the records: the partners' rows, then the programs' from those. */
export const REBUILD = [
  `INSERT INTO stat_buckets (${COLUMNS}) SELECT * FROM (${recount([])}) r`,
  `INSERT INTO stat_buckets (${COLUMNS})
   SELECT program_id, '', bucket, currency, ${SUMS} FROM stat_buckets GROUP BY program_id, bucket, currency`,
];
