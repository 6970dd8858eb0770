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

/** Counters in each of the cap's two rows: 2 × 2^19 × 4 bytes, 4 MB, whatever the number of addresses. */
const CAP_WIDTH = 1 << 19;

/** FNV-1a of the key from `seed`, mixed as MurmurHash3 ends (so the low bits are as random as the high), as an index into a row. */
function slotOf(key: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16_777_619);
  h = Math.imul(h ^ (h >>> 16), 0x85eb_ca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2_ae35);
  return ((h ^ (h >>> 16)) >>> 0) & (CAP_WIDTH - 1);
}

/**
 * Counts new clicks per key in the current clock hour, in fixed memory: a count-min sketch
 * of two rows, a key's count the smaller of its two counters. Another key sharing both of a
 * key's counters only adds to it, so an address is never let past its allowance, and an
 * innocent one is held back only when both its counters are full of others' clicks: with
 * 2^19 counters a row, millions of addresses an hour average a few clicks a counter. A map
 * of addresses held 100,000 of them, and then made every newcomer share one allowance: a
 * busy site lost its visitors' clicks after its 100,000th address of the hour (issue 47's
 * bench reached that at 16,000 clicks a second).
 */
export class ClickCap {
  private window = -1;
  private rows: [Uint32Array, Uint32Array] | undefined;

  private slots(key: string, now: number): [Uint32Array, number, Uint32Array, number] {
    const window = Math.floor(now / CAP_WINDOW_SECONDS);
    if (window !== this.window || !this.rows) {
      this.window = window;
      this.rows = [new Uint32Array(CAP_WIDTH), new Uint32Array(CAP_WIDTH)];
    }
    return [this.rows[0], slotOf(key, 2_166_136_261), this.rows[1], slotOf(key, 3_735_928_559)];
  }

  /** Reserves one new click for `key`; false when its hour's allowance is spent. */
  take(key: string, now: number): boolean {
    const [a, i, b, j] = this.slots(key, now);
    if (Math.min(a[i]!, b[j]!) >= CLICKS_PER_ADDRESS_HOUR) return false;
    a[i]!++;
    b[j]!++;
    return true;
  }

  /** The new clicks `key` stored or was refused this hour (repeats given back are not counted), or more where others share its counters. */
  used(key: string, now: number): number {
    const [a, i, b, j] = this.slots(key, now);
    return Math.min(a[i]!, b[j]!);
  }

  /** Gives a reservation back (the click was a repeat after all, or was not committed). */
  release(key: string, now: number): void {
    const [a, i, b, j] = this.slots(key, now);
    if (a[i]! > 0 && b[j]! > 0) {
      a[i]!--;
      b[j]!--;
    }
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
