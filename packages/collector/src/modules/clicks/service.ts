// Clicks: a visitor landed through a referral link. They feed gr_id attribution and
// the click counts; a repeat of the same visitor and link within 30 minutes counts once.
// The endpoint is public, so what one client can make us store is bounded: new clicks
// per client address and program an hour (ClickCap), and raw clicks are deleted after
// their retention (purgeClicks) while the statistics keep what they counted.

import type { Logger } from 'pino';
import { describeCause } from '../../platform/errors.js';
import type { Db } from '../../platform/db/db.js';
import * as clicks from './repo.js';
import { addDelta } from '../../events/deltas.js';
import { attribute } from '../referrals/attribution.js';
import { uuidv7 } from '../../core/ids.js';

export const CLICK_DEDUPE_SECONDS = 30 * 60;

/**
 * New clicks one client address (IPv4, or IPv6 /64) may store in one program per clock
 * hour, counted in each process's memory. Beyond it a click is answered as usual and
 * neither stored nor counted: storage stays bounded and the attacker learns nothing.
 */
export const CLICKS_PER_ADDRESS_HOUR = 100;
const CAP_WINDOW_SECONDS = 3600;
/** Keys one hour's counter holds (about 100 bytes each); newcomers past it share one count. */
const CAP_MAX_KEYS = 100_000;
const OVERFLOW = '\0overflow';

export interface ClickInput {
  gr_id: string;
  pk: string;
  url?: string | undefined;
  referrer?: string | undefined;
  /** The client's address key (platform/http/address.ts) when the caller is public; absent: not capped. */
  client?: string | undefined;
}

export type ClickOutcome = 'stored' | 'repeat' | 'capped';

/** What came of a click, and the credited partnership's group (whose discount the click's answer names). */
export interface ClickResult {
  outcome: ClickOutcome;
  groupId: string | null;
}

/** Counts new clicks per key in the current clock hour; a new hour starts an empty map. */
class ClickCap {
  private window = -1;
  private counts = new Map<string, number>();

  private slot(key: string, now: number): string {
    const window = Math.floor(now / CAP_WINDOW_SECONDS);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    // A flood of distinct addresses must not grow the map without bound: newcomers then share one allowance.
    return this.counts.has(key) || this.counts.size < CAP_MAX_KEYS ? key : OVERFLOW;
  }

  /** Reserves one new click for `key`; false when its hour's allowance is spent. */
  take(key: string, now: number): boolean {
    const slot = this.slot(key, now);
    const used = this.counts.get(slot) ?? 0;
    if (used >= CLICKS_PER_ADDRESS_HOUR) return false;
    this.counts.set(slot, used + 1);
    return true;
  }

  /** The new clicks `key` stored or was refused this hour (repeats given back are not counted). */
  used(key: string, now: number): number {
    return this.counts.get(this.slot(key, now)) ?? 0;
  }

  /** Gives a reservation back (the click was a repeat after all, or was not committed). */
  release(key: string, now: number): void {
    const slot = this.slot(key, now);
    const used = this.counts.get(slot) ?? 0;
    if (used > 0) this.counts.set(slot, used - 1);
  }
}

/** One counter per open database, i.e. per server: tests run several in one process. */
const caps = new WeakMap<Db, ClickCap>();

/** Records the click: 'repeat' when it only refreshed an earlier one, 'capped' when its address's allowance was spent. */
/**
 * Whether `client` spent this process's hourly allowance of new clicks on the program's
 * links: a rate no person makes (review's click_rate signal). Per process: with several,
 * each sees its share.
 */
export function clickFlood(db: Db, programId: string, client: string, now: number): boolean {
  return (caps.get(db)?.used(`${programId} ${client}`, now) ?? 0) >= CLICKS_PER_ADDRESS_HOUR;
}

export async function recordClick(db: Db, programId: string, input: ClickInput, now: number): Promise<ClickResult> {
  let cap = caps.get(db);
  if (!cap) {
    cap = new ClickCap();
    caps.set(db, cap);
  }
  const capKey = input.client === undefined ? undefined : `${programId} ${input.client}`;
  // Reserved once, even if the engine runs the function again after a conflict.
  let reserved = false;
  let groupId: string | null = null;
  try {
    const outcome = await db.transaction(async (tx): Promise<ClickOutcome> => {
      const credited = await attribute(tx, programId, input.pk, undefined);
      groupId = credited.group_id;
      // Read, then write: the same visitor's clicks on other processes wait their turn.
      await tx.lock(`click:${programId}:${credited.id}:${input.gr_id}`);
      const recent = await clicks.findRecent(tx, programId, input.gr_id, credited.id, now - CLICK_DEDUPE_SECONDS);
      if (recent) {
        await clicks.touch(tx, recent, now);
        return 'repeat';
      }
      if (capKey !== undefined && !reserved) {
        if (!cap.take(capKey, now)) return 'capped';
        reserved = true;
      }
      await clicks.insert(tx, {
        id: uuidv7(),
        program_id: programId,
        partnership_id: credited.id,
        gr_id: input.gr_id,
        pk: input.pk,
        url: input.url ?? null,
        referrer: input.referrer ?? null,
        created_at: now,
        last_seen_at: now,
      });
      await addDelta(tx, { program_id: programId, partner_id: credited.partner_id, at: now, clicks: 1 });
      return 'stored';
    });
    if (reserved && outcome !== 'stored') cap.release(capKey!, now);
    return { outcome, groupId };
  } catch (err) {
    if (reserved) cap.release(capKey!, now);
    throw err;
  }
}

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
