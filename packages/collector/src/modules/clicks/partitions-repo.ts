// The SQL of clicks' monthly partitions (PostgreSQL; migration 0024, decision 0283): list
// them, make a month (moving into it what the DEFAULT partition caught), detach one, and
// tally and drop a detached one. SQLite's clicks are one plain table: `partitioned` says
// so and the rest is never called there. DDL takes no parameters, so the bounds and
// names written into it are the integers and clicks_YYYY_MM names made here, never input.

import type { Queryable } from '../../platform/db/db.js';
import { BUCKET_SECONDS } from '../../events/deltas.js';

export interface ClickPartition {
  name: string;
  /** Unix seconds, inclusive; null for the DEFAULT partition. */
  from: number | null;
  /** Unix seconds, exclusive; null for the DEFAULT partition. */
  to: number | null;
}

const COLUMNS = 'id, program_id, partnership_id, gr_id, pk, url, referrer, created_at, last_seen_at';
export const DEFAULT_PARTITION = 'clicks_default';
/** What a month's partition is called, and a detached one found again by. */
const MONTH_NAME = /^clicks_\d{4}_\d{2}$/;

/** Whether clicks are partitioned by month in this database (PostgreSQL). */
export const partitioned = (db: Queryable): boolean => db.engine === 'postgres';

/** The first second of the UTC month `t` falls in, moved by `add` months. */
export function monthStart(t: number, add = 0): number {
  const d = new Date(t * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1) / 1000;
}

/** clicks_YYYY_MM, the month that starts at `from` (UTC). */
export function partitionName(from: number): string {
  const d = new Date(from * 1000);
  return `clicks_${String(d.getUTCFullYear()).padStart(4, '0')}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

function ddlName(name: string): string {
  if (!MONTH_NAME.test(name)) throw new Error(`not a month's partition of clicks: ${name}`);
  return name;
}

function ddlBound(t: number): string {
  if (!Number.isSafeInteger(t)) throw new Error(`not a partition bound: ${t}`);
  return String(t);
}

/**
 * Bounds how long the transaction's next statements wait for a table lock (SET LOCAL: it
 * ends with the transaction, as PgBouncer's transaction pooling needs). A DDL statement
 * queued for a lock makes every later query of the table queue behind it: better to give
 * up and retry at the next run than to stall clicks.
 */
export async function boundLockWait(db: Queryable, ms: number): Promise<void> {
  if (!Number.isSafeInteger(ms) || ms <= 0) throw new Error(`not a lock timeout: ${ms}`);
  await db.run(`SET LOCAL lock_timeout = ${ms}`);
}

/** The partitions attached to clicks, their bounds read back from the catalog. */
export async function partitions(db: Queryable): Promise<ClickPartition[]> {
  const rows = await db.all<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'clicks'::regclass ORDER BY c.relname`,
  );
  return rows.map((r) => {
    const range = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(r.bound);
    return { name: r.name, from: range ? Number(range[1]) : null, to: range ? Number(range[2]) : null };
  });
}

/** The UTC months of the clicks the DEFAULT partition caught (none while the months are made ahead). */
export async function strayMonths(db: Queryable): Promise<number[]> {
  const rows = await db.all<{ m: number | string }>(
    `SELECT DISTINCT extract(epoch FROM date_trunc('month', to_timestamp(created_at) AT TIME ZONE 'UTC'))::BIGINT AS m
       FROM ${DEFAULT_PARTITION} ORDER BY m`,
  );
  return rows.map((r) => Number(r.m));
}

/**
 * Makes the month [from, to) a partition: a new table shaped as clicks, the DEFAULT
 * partition's clicks of that month moved into it, then attached. ATTACH takes only a
 * SHARE UPDATE EXCLUSIVE lock on clicks, so clicks go on being written and read meanwhile
 * (CREATE TABLE … PARTITION OF would take an ACCESS EXCLUSIVE one); it briefly locks the
 * DEFAULT partition, which it checks holds nothing of the month. Resolves to the clicks moved.
 */
export async function makePartition(db: Queryable, from: number, to: number, fromDefault: boolean): Promise<number> {
  const name = ddlName(partitionName(from));
  await db.run(`CREATE TABLE ${name} (LIKE clicks)`);
  let moved = 0;
  if (fromDefault) {
    moved = await db.run(
      `WITH moved AS (DELETE FROM ${DEFAULT_PARTITION} WHERE created_at >= ? AND created_at < ? RETURNING ${COLUMNS})
       INSERT INTO ${name} (${COLUMNS}) SELECT ${COLUMNS} FROM moved`,
      [from, to],
    );
  }
  await db.run(`ALTER TABLE clicks ATTACH PARTITION ${name} FOR VALUES FROM (${ddlBound(from)}) TO (${ddlBound(to)})`);
  return moved;
}

/**
 * Detaches a month from clicks: a change of the catalog only, but under an ACCESS
 * EXCLUSIVE lock on clicks (DETACH … CONCURRENTLY is refused while a DEFAULT partition
 * exists), so the caller bounds its wait with a short lock_timeout.
 */
export async function detach(db: Queryable, name: string): Promise<void> {
  await db.run(`ALTER TABLE clicks DETACH PARTITION ${ddlName(name)}`);
}

/** Months detached from clicks and not dropped yet (a run that stopped between the two steps). */
export async function detached(db: Queryable): Promise<string[]> {
  const rows = await db.all<{ name: string }>(
    `SELECT relname AS name FROM pg_class
      WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r' AND NOT relispartition AND relname ~ '^clicks_[0-9]{4}_[0-9]{2}$'
      ORDER BY relname`,
  );
  return rows.map((r) => r.name);
}

/**
 * Adds what a detached month counted to clicks_purged (per program, partner and
 * statistics bucket, as purgeBatch does row by row: the kept totals never change, and a
 * recount still adds up to them), then drops it. Resolves to its clicks. Nothing else
 * writes a detached month, so the tally is exact without locking clicks.
 */
export async function tallyAndDrop(db: Queryable, name: string): Promise<number> {
  const table = ddlName(name);
  const n = Number((await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}`))?.n ?? 0);
  if (n > 0) {
    await db.run(
      `INSERT INTO clicks_purged (program_id, partner_id, bucket, clicks)
       SELECT c.program_id, ps.partner_id, (c.created_at / ${BUCKET_SECONDS}) * ${BUCKET_SECONDS}, COUNT(*)
         FROM ${table} c JOIN partnerships ps ON ps.id = c.partnership_id
        GROUP BY c.program_id, ps.partner_id, (c.created_at / ${BUCKET_SECONDS}) * ${BUCKET_SECONDS}
       ON CONFLICT (program_id, partner_id, bucket) DO UPDATE SET clicks = clicks_purged.clicks + excluded.clicks`,
    );
  }
  await db.run(`DROP TABLE ${table}`);
  return n;
}
