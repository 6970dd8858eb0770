// The leaderboard's kept windows (docs/statistics.md, "Kept windows"): a range the dashboard
// asked for, [from_bucket, to_bucket), with each partner's totals over its buckets, built a
// slice of partners at a time and then folded with the buckets, so a ranking is an index
// walk of one page. Every write here runs under the fold's lock ('stats-fold').

import type { Param, Queryable } from '../../platform/db/db.js';
import { uuidv7 } from '../../core/ids.js';
import { MEASURES } from '../../events/deltas.js';

/**
 * The measures a window ranks by from an index (migration 0052). Customers are kept per
 * payment's currency and ranked over all of them, and a conversion rate is a ratio: both live.
 */
export const RANKED = ['clicks', 'referrals', 'revenue', 'commissions'] as const;
export type Ranked = (typeof RANKED)[number];

export interface WindowRow {
  id: string;
  program_id: string;
  from_bucket: number;
  to_bucket: number;
  /** The range as asked: its first and last local day, in `zone`. */
  from_day: string;
  to_day: string;
  zone: string;
  /** 1 while being built: the partners up to `built_to` (by id) are in. */
  building: number;
  built_to: string;
  asked_at: number;
}

export interface AskedWindow {
  programId: string;
  from: number;
  to: number;
  fromDay: string;
  toDay: string;
  zone: string;
}

/** Registers a window to be built, or notes that it was asked for again. */
export function ask(db: Queryable, w: AskedWindow, at: number): Promise<number> {
  return db.run(
    `INSERT INTO stat_windows (id, program_id, from_bucket, to_bucket, from_day, to_day, zone, asked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (program_id, from_bucket, to_bucket) DO UPDATE SET asked_at = excluded.asked_at WHERE stat_windows.asked_at < excluded.asked_at`,
    [uuidv7(), w.programId, w.from, w.to, w.fromDay, w.toDay, w.zone, at],
  );
}

export function all(db: Queryable): Promise<WindowRow[]> {
  return db.all<WindowRow>('SELECT * FROM stat_windows ORDER BY id');
}

/** Drops the windows nobody asked for since `before`, with their totals. */
export async function forget(db: Queryable, before: number): Promise<void> {
  await db.run('DELETE FROM stat_window_totals WHERE window_id IN (SELECT id FROM stat_windows WHERE asked_at < ?)', [before]);
  await db.run('DELETE FROM stat_windows WHERE asked_at < ?', [before]);
}

/** Drops the given windows, with their totals: a program's beyond those it keeps. */
export async function drop(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const list = ids.map(() => '?').join(', ');
  await db.run(`DELETE FROM stat_window_totals WHERE window_id IN (${list})`, [...ids]);
  await db.run(`DELETE FROM stat_windows WHERE id IN (${list})`, [...ids]);
}

/** Drops every window (a rebuild of the buckets): they are built again when asked. */
export async function forgetAll(db: Queryable): Promise<void> {
  await db.run('DELETE FROM stat_window_totals');
  await db.run('DELETE FROM stat_windows');
}

/** The window of exactly [from, to), once whole. */
export async function ready(db: Queryable, programId: string, from: number, to: number): Promise<string | undefined> {
  const row = await db.get<{ id: string }>(
    'SELECT id FROM stat_windows WHERE program_id = ? AND from_bucket = ? AND to_bucket = ? AND building = 0',
    [programId, from, to],
  );
  return row?.id;
}

const SETS = MEASURES.map((m) => `${m} = stat_window_totals.${m} + excluded.${m}`).join(', ');

/**
 * Adds one folded sum (a partner's bucket and currency) to every window of its program that
 * holds the bucket and has the partner built: one statement whatever the windows' number.
 */
export function addFolded(db: Queryable, key: readonly Param[], values: readonly number[]): Promise<number> {
  const [programId, partnerId, bucket, currency] = key;
  return db.run(
    `INSERT INTO stat_window_totals (window_id, partner_id, currency, ${MEASURES.join(', ')})
     SELECT id, CAST(? AS TEXT), CAST(? AS TEXT), ${MEASURES.map(() => 'CAST(? AS BIGINT)').join(', ')} FROM stat_windows
      WHERE program_id = ? AND from_bucket <= ? AND to_bucket > ? AND (building = 0 OR built_to >= ?)
     ON CONFLICT (window_id, partner_id, currency) DO UPDATE SET ${SETS}`,
    [partnerId!, currency!, ...values, programId!, bucket!, bucket!, partnerId!],
  );
}

/**
 * Builds the next slice of a window: the totals of the partners after `built_to` whose
 * buckets fill the next `rows` rows of the buckets' key. Resolves to true once it is whole.
 */
export async function buildSlice(db: Queryable, w: WindowRow, rows: number): Promise<boolean> {
  const cut = await db.get<{ partner_id: string }>(
    'SELECT partner_id FROM stat_buckets WHERE program_id = ? AND partner_id > ? ORDER BY partner_id LIMIT 1 OFFSET ?',
    [w.program_id, w.built_to, rows],
  );
  const upTo = cut ? 'AND partner_id <= ?' : '';
  await db.run(
    `INSERT INTO stat_window_totals (window_id, partner_id, currency, ${MEASURES.join(', ')})
     SELECT ?, partner_id, currency, ${MEASURES.map((m) => `SUM(${m})`).join(', ')} FROM stat_buckets
      WHERE program_id = ? AND partner_id > ? ${upTo} AND bucket >= ? AND bucket < ?
      GROUP BY partner_id, currency`,
    [w.id, w.program_id, w.built_to, ...(cut ? [cut.partner_id] : []), w.from_bucket, w.to_bucket],
  );
  await db.run('UPDATE stat_windows SET built_to = ?, building = ? WHERE id = ?', [cut?.partner_id ?? w.built_to, cut ? 1 : 0, w.id]);
  return !cut;
}

/**
 * The named partners' totals over a whole window's range, per currency: its kept figures and
 * their deltas not folded yet in [from, to), in one statement. A page of the leaderboard's
 * busiest partners is then a few rows, not their 13,000 buckets each.
 */
export function totalsOf(
  db: Queryable,
  windowId: string,
  programId: string,
  range: { from: number; to: number },
  ids: readonly string[],
): Promise<Array<Record<(typeof MEASURES)[number], number> & { partner_id: string; currency: string }>> {
  if (ids.length === 0) return Promise.resolve([]);
  const list = ids.map(() => '?').join(', ');
  const columns = MEASURES.join(', ');
  return db.all(
    `SELECT partner_id, currency, ${MEASURES.map((m) => `SUM(${m}) AS ${m}`).join(', ')} FROM (
       SELECT partner_id, currency, ${columns} FROM stat_window_totals WHERE window_id = ? AND partner_id IN (${list})
       UNION ALL
       SELECT partner_id, currency, ${columns} FROM stat_deltas
        WHERE program_id = ? AND partner_id IN (${list}) AND bucket >= ? AND bucket < ?
     ) t GROUP BY partner_id, currency`,
    [windowId, ...ids, programId, ...ids, range.from, range.to],
  );
}

/** A row of a ranking read: a window's kept figure ('k' of the top, 'p' of a partner with deltas) or a partner's deltas not folded yet ('d'). */
export interface Standing {
  src: 'k' | 'p' | 'd';
  partner_id: string;
  v: number;
}

/**
 * In one statement, so in one snapshot: the window's `top` partners by `measure` (in
 * `currency`, '' for counts) with a figure above zero, the kept figures of the partners
 * with deltas not folded yet in [from, to), and those deltas' sums.
 */
export function standings(
  db: Queryable,
  windowId: string,
  programId: string,
  range: { from: number; to: number },
  measure: Ranked,
  currency: string,
  top: number,
): Promise<Standing[]> {
  const pending = `FROM stat_deltas WHERE program_id = ? AND bucket >= ? AND bucket < ? AND partner_id <> ''`;
  return db.all<Standing>(
    `SELECT 'k' AS src, partner_id, v FROM (
       SELECT partner_id, ${measure} AS v FROM stat_window_totals
        WHERE window_id = ? AND currency = ? AND ${measure} > 0 ORDER BY ${measure} DESC, partner_id LIMIT ?) kept
     UNION ALL
     SELECT 'p', partner_id, ${measure} FROM stat_window_totals
      WHERE window_id = ? AND currency = ? AND partner_id IN (SELECT partner_id ${pending})
     UNION ALL
     SELECT 'd', partner_id, SUM(CASE WHEN currency = ? THEN ${measure} ELSE 0 END) ${pending} GROUP BY partner_id`,
    [windowId, currency, top, windowId, currency, programId, range.from, range.to, currency, programId, range.from, range.to],
  );
}

/** A partner's figures where a window differs from its buckets: kept minus counted, per measure. */
export interface WindowDifference extends Record<(typeof MEASURES)[number], number> {
  window_id: string;
  program_id: string;
  partner_id: string;
  currency: string;
}

/**
 * Where the windows (of one program, or all) differ from the sums of their folded buckets,
 * for the partners built so far: at most `limit` rows, none when they agree. The check
 * (`tally stats check`) lists them beside the buckets' own differences.
 */
export function differences(db: Queryable, programId: string | null, limit: number): Promise<WindowDifference[]> {
  const only = programId === null ? '' : 'WHERE w.program_id = ?';
  return db.all<WindowDifference>(
    `SELECT window_id, program_id, partner_id, currency, ${MEASURES.map((m) => `SUM(${m}) AS ${m}`).join(', ')} FROM (
       SELECT t.window_id, w.program_id, t.partner_id, t.currency, ${MEASURES.map((m) => `t.${m}`).join(', ')}
         FROM stat_window_totals t JOIN stat_windows w ON w.id = t.window_id ${only}
       UNION ALL
       SELECT w.id, w.program_id, b.partner_id, b.currency, ${MEASURES.map((m) => `-b.${m}`).join(', ')}
         FROM stat_windows w JOIN stat_buckets b ON b.program_id = w.program_id AND b.partner_id <> ''
          AND b.bucket >= w.from_bucket AND b.bucket < w.to_bucket AND (w.building = 0 OR b.partner_id <= w.built_to) ${only}
     ) t GROUP BY window_id, program_id, partner_id, currency
     HAVING ${MEASURES.map((m) => `SUM(${m}) <> 0`).join(' OR ')}
     ORDER BY window_id, partner_id, currency LIMIT ?`,
    [...(programId === null ? [] : [programId, programId]), limit],
  );
}
