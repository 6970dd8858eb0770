import type { Db } from '../platform/db/db.js';
import * as clicks from '../modules/clicks/repo.js';
import { addDelta } from '../events/deltas.js';
import { attribute } from './attribution.js';
import { uuidv7 } from '../core/ids.js';

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
        // Which of the partner's links: the slug's read named it, so this costs no statement.
        link_id: credited.link_id ?? null,
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
