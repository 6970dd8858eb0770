// Clicks by month (decision 0283, docs/clicks-partitions.md). On PostgreSQL clicks are
// partitioned by RANGE of created_at, one partition per UTC month, and the collector makes
// them itself, at start and every hour: the current month and the next
// CLICK_PARTITIONS_AHEAD. A click whose month has no partition is caught by the DEFAULT
// partition, never refused; the next run gives it its month. CLICK_RETENTION_MONTHS then
// drops months whole, and on SQLite deletes the same clicks in batches: on either engine
// the clicks made before the first day of the month N months before the current one go,
// and the statistics keep what they counted.

import type { Db } from '../../platform/db/db.js';
import * as parts from './partitions-repo.js';
import { programRetentions, purgeBatch } from './repo.js';

/** Months made ahead of the current one: three hourly runs' worth of months to fail in before a click waits in DEFAULT. */
export const CLICK_PARTITIONS_AHEAD = 3;

/** How long a partition's DDL waits for a lock before giving up until the next run (clicks wait behind it meanwhile). */
export const PARTITION_LOCK_TIMEOUT_MS = 1000;

/** One lock for every change to clicks' partitions, across processes: a transaction's advisory lock. */
const LOCK = 'clicks-partitions';

export interface ClickMaintenanceOptions {
  /** Unix seconds. */
  now: number;
  /** CLICK_RETENTION_MONTHS; absent or 0: clicks are kept (as far as CLICK_RETENTION_DAYS lets them). */
  retentionMonths?: number | undefined;
  /** Months made after the current one; CLICK_PARTITIONS_AHEAD unless given. */
  ahead?: number | undefined;
  /** SQLite: clicks deleted per transaction. */
  batch?: number | undefined;
  /** SQLite: batches per run at most; the next run goes on where this one stopped. */
  maxBatches?: number | undefined;
  /** Asked between steps: a server shutting down stops there. */
  stopped?: (() => boolean) | undefined;
}

export interface ClickMaintenance {
  /** Partitions made (PostgreSQL). */
  made: string[];
  /** Clicks the DEFAULT partition had caught, moved into their months. */
  moved: number;
  /** Partitions detached and dropped for the retention (PostgreSQL). */
  dropped: string[];
  /** Clicks gone for the retention: in dropped partitions, or deleted row by row. */
  deleted: number;
}

/** The first second kept under a retention of `months`: the first of the month `months` before the current one (UTC). */
export const retentionCutoff = (now: number, months: number): number => parts.monthStart(now, -months);

/**
 * Makes the months from the current one to `ahead` after it, and a month for every click
 * the DEFAULT partition caught (moved there), each in a transaction of its own under one
 * advisory lock: two processes doing it at once make each month once. Resolves to the
 * partitions made and the clicks moved. Nothing to do on SQLite.
 */
export async function makeClickPartitions(
  db: Db,
  now: number,
  ahead: number = CLICK_PARTITIONS_AHEAD,
): Promise<{ made: string[]; moved: number }> {
  const made: string[] = [];
  let moved = 0;
  if (!parts.partitioned(db)) return { made, moved };
  const wanted = Array.from({ length: ahead + 1 }, (_, i) => parts.monthStart(now, i));
  const covered = (list: readonly parts.ClickPartition[], from: number) =>
    list.some((p) => p.from !== null && p.to !== null && p.from < parts.monthStart(from, 1) && p.to > from);
  const existing = await parts.partitions(db);
  // Strays first: a month cannot be attached while DEFAULT holds clicks of it.
  const missing = [...new Set([...(await parts.strayMonths(db)), ...wanted])].filter((from) => !covered(existing, from));
  for (const from of missing) {
    const n = await db.transaction(async (tx) => {
      await tx.lock(LOCK);
      // Another process may have made it since the look above.
      if (covered(await parts.partitions(tx), from)) return undefined;
      await parts.boundLockWait(tx, PARTITION_LOCK_TIMEOUT_MS);
      const stray = (await parts.strayMonths(tx)).includes(from);
      return parts.makePartition(tx, from, parts.monthStart(from, 1), stray);
    });
    if (n !== undefined) {
      made.push(parts.partitionName(from));
      moved += n;
    }
  }
  return { made, moved };
}

/**
 * Applies CLICK_RETENTION_MONTHS: on PostgreSQL each partition that ends before the
 * cutoff is detached (one short transaction, a brief lock on clicks), then tallied into
 * clicks_purged and dropped (another); a detached one left by a run that stopped between
 * the two is finished first. Then, on either engine, the clicks still made before the
 * cutoff are deleted in batches with their tally (on PostgreSQL normally none are left).
 */
export async function dropOldClicks(
  db: Db,
  opts: ClickMaintenanceOptions & { retentionMonths: number },
): Promise<{ dropped: string[]; deleted: number }> {
  const dropped: string[] = [];
  let deleted = 0;
  if (!(opts.retentionMonths > 0)) return { dropped, deleted };
  const cutoff = retentionCutoff(opts.now, opts.retentionMonths);
  if (parts.partitioned(db)) {
    const old = (await parts.partitions(db)).filter((p) => p.to !== null && p.to <= cutoff).map((p) => p.name);
    for (const name of old) {
      if (opts.stopped?.()) break;
      await db.transaction(async (tx) => {
        await tx.lock(LOCK);
        if (!(await parts.partitions(tx)).some((p) => p.name === name)) return;
        await parts.boundLockWait(tx, PARTITION_LOCK_TIMEOUT_MS);
        await parts.detach(tx, name);
      });
    }
    for (const name of await parts.detached(db)) {
      if (opts.stopped?.()) break;
      const n = await db.transaction(async (tx) => {
        await tx.lock(LOCK);
        // Another process may have dropped it since the look above.
        if (!(await parts.detached(tx)).includes(name)) return undefined;
        return parts.tallyAndDrop(tx, name);
      });
      if (n === undefined) continue;
      dropped.push(name);
      deleted += n;
    }
  }
  let batches = opts.maxBatches ?? 100;
  const batch = opts.batch ?? 1000;
  for (const program of await programRetentions(db)) {
    while (batches > 0 && !opts.stopped?.()) {
      batches--;
      const n = await db.transaction(async (tx) => {
        // The same lock as purgeClicks: two purges would only queue on the same rows.
        await tx.lock('clicks-purge');
        return purgeBatch(tx, program.id, cutoff, batch, 'created');
      });
      deleted += n;
      if (n < batch) break;
    }
    if (batches === 0 || opts.stopped?.()) break;
  }
  return { dropped, deleted };
}

/** The whole step, as a server runs it at start and every hour: months made, then the retention. */
export async function maintainClicks(db: Db, opts: ClickMaintenanceOptions): Promise<ClickMaintenance> {
  const { made, moved } = await makeClickPartitions(db, opts.now, opts.ahead);
  const { dropped, deleted } = opts.retentionMonths
    ? await dropOldClicks(db, { ...opts, retentionMonths: opts.retentionMonths })
    : { dropped: [], deleted: 0 };
  return { made, moved, dropped, deleted };
}
