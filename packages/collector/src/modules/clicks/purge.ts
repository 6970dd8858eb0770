// Raw clicks past their retention, deleted in short batches while the statistics keep what
// they counted (docs/statistics.md).

import type { Logger } from 'pino';
import { describeCause } from '../../platform/errors.js';
import type { Db } from '../../platform/db/db.js';
import * as clicks from './repo.js';

const DAY_SECONDS = 86_400;

export interface PurgeOptions {
  /** Unix seconds. */
  now: number;
  /** CLICK_RETENTION_DAYS; a program whose cookie_days is longer keeps its clicks that long. 0 keeps them for ever. */
  retentionDays: number;
  /** Clicks deleted per transaction, so writers never wait long behind the purge. */
  batch?: number;
  /** Batches per run at most; the next run goes on where this one stopped. */
  maxBatches?: number;
  /** Asked before each batch: a server shutting down stops between batches. */
  stopped?: () => boolean;
}

/**
 * Deletes the raw clicks last seen before each program's retention, oldest first, in
 * transactions of `batch` clicks; resolves to how many it deleted. The statistics are
 * not touched: what the deleted clicks counted is added to clicks_purged instead.
 */
export async function purgeClicks(db: Db, opts: PurgeOptions): Promise<number> {
  if (opts.retentionDays <= 0) return 0;
  const batch = opts.batch ?? 1000;
  let batches = opts.maxBatches ?? 100;
  let deleted = 0;
  for (const program of await clicks.programRetentions(db)) {
    // The tracker's cookie may name a click for cookie_days: attribution by gr_id needs it that long.
    const cutoff = opts.now - Math.max(opts.retentionDays, program.cookie_days) * DAY_SECONDS;
    while (batches > 0 && !opts.stopped?.()) {
      batches--;
      const n = await db.transaction(async (tx) => {
        // One purge at a time across processes: two would only queue on the same rows.
        await tx.lock('clicks-purge');
        return clicks.purgeBatch(tx, program.id, cutoff, batch);
      });
      deleted += n;
      if (n < batch) break;
    }
    if (batches === 0 || opts.stopped?.()) break;
  }
  return deleted;
}

/** How often a server purges; the first run is at start. */
export const PURGE_EVERY_MS = 10 * 60 * 1000;

/** Purges at start and then every `everyMs`, beside the requests; stop() waits for a run in flight. */
export function startClickPurge(deps: { db: Db; log: Logger; now: () => number; retentionDays: number; everyMs?: number }): {
  stop(): Promise<void>;
} {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    running ??= purgeClicks(deps.db, { now: deps.now(), retentionDays: deps.retentionDays, stopped: () => stopped })
      .then((n) => deps.log.debug({ deleted: n }, 'purged raw clicks past their retention'))
      .catch((err: unknown) => deps.log.warn({ cause: describeCause(err) }, 'purging old clicks failed; the next run retries'))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(run, deps.everyMs ?? PURGE_EVERY_MS);
  timer.unref();
  run();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
