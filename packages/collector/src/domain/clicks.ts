// Clicks: a visitor landed through a referral link. They feed gr_id attribution and
// the click counts; a repeat of the same visitor and link within 30 minutes counts once.

import type { Db } from '../store/db.js';
import * as clicks from '../store/clicks.js';
import { addDelta } from '../store/stats.js';
import { attribute } from './attribution.js';
import { uuidv7 } from './ids.js';

export const CLICK_DEDUPE_SECONDS = 30 * 60;

export interface ClickInput {
  gr_id: string;
  pk: string;
  url?: string | undefined;
  referrer?: string | undefined;
}

/** Records the click; resolves to false when it was a repeat and only refreshed the old one. */
export async function recordClick(db: Db, programId: string, input: ClickInput, now: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const credited = await attribute(tx, programId, input.pk, undefined);
    // Read, then write: the same visitor's clicks on other processes wait their turn.
    await tx.lock(`click:${programId}:${credited.id}:${input.gr_id}`);
    const recent = await clicks.findRecent(tx, programId, input.gr_id, credited.id, now - CLICK_DEDUPE_SECONDS);
    if (recent) {
      await clicks.touch(tx, recent.id, now);
      return false;
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
    return true;
  });
}
