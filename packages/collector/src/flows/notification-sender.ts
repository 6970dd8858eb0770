// Sends the notifications beside the requests, in the e-mail outbox's loop (mail/outbox.ts
// calls `pass`): claims due rows (on PostgreSQL, several processes never take the same),
// fans an owners' row out to each owner, makes each message in its recipient's language
// and sends it with its one-click unsubscribe; a failure is tried again later, with a
// longer wait. It also schedules what no request causes: the weekly summaries, the owners'
// word of failing webhooks and billing, each once by its key however many processes look.

import type { Logger } from 'pino';
import type { Db } from '../platform/db/db.js';
import { describeCause } from '../platform/errors.js';
import type { Mailer } from '../platform/mail.js';
import { retryAfter } from '../modules/mail/outbox.js';
import { compose } from './notification-letters.js';
import type { Draft } from '../modules/notifications/letter.js';
import { notice } from '../modules/notifications/derive.js';
import { translate } from '../modules/notifications/i18n.js';
import { KEPT_SECONDS, MAX_ATTEMPTS, STALE_SECONDS, type NotificationKind } from '../modules/notifications/kinds.js';
import { letterFor } from '../modules/notifications/letter.js';
import * as repo from '../modules/notifications/repo.js';
import type { NotificationRow } from '../modules/notifications/repo.js';
import { newUnsubscribeToken, unsubscribeHash, unsubscribePath } from '../modules/notifications/service.js';

export interface NotificationOptions {
  db: Db;
  log: Logger;
  mailer: Mailer;
  publicUrl: string;
}

const DAY = 86_400;
const WEEK = 7 * DAY;
/** How often the schedule is looked at: it writes only what is not written yet. */
const SCHEDULE_EVERY_SECONDS = 600;
/** A webhook endpoint failing this long is worth an owner's attention. */
const FAILING_FOR_SECONDS = 3600;

/** The last whole week (Monday to Sunday, UTC) before `now`: its first day's unix time. */
export function lastWeekStart(now: number): number {
  const today = Math.floor(now / DAY) * DAY;
  // 1970-01-01 was a Thursday: days since a Monday.
  const sinceMonday = (Math.floor(today / DAY) + 3) % 7;
  return today - sinceMonday * DAY - WEEK;
}

const isoDay = (unix: number): string => new Date(unix * 1000).toISOString().slice(0, 10);

/** Writes the rows of the schedule that are due and not written yet (their keys make them once). */
export async function schedule(db: Db, now: number): Promise<void> {
  const week = lastWeekStart(now);
  const rows: NotificationRow[] = [];
  for (const program of await repo.programsMadeBefore(db, week + WEEK)) {
    const data = { before: isoDay(week - WEEK), from: isoDay(week), to: isoDay(week + WEEK - DAY) };
    rows.push(notice(program.id, 'weekly_summary', 'owners', null, `${program.id}:${week}`, data, now));
  }
  for (const e of await repo.failingEndpoints(db, now - FAILING_FOR_SECONDS, now - WEEK)) {
    const disabled = Number(e.enabled) === 0;
    const since = e.failing_since ?? e.updated_at;
    const data = { endpoint_id: e.id, url: e.url, since, reason: disabled ? e.disabled_reason : null };
    rows.push(notice(e.program_id, 'webhook_failing', 'owners', null, `${e.id}:${since}:${disabled ? 'disabled' : 'failing'}`, data, now));
  }
  for (const b of await repo.failedBilling(db, now - DAY)) {
    const data = { platform: b.platform, count: Number(b.n), reason: b.reason };
    rows.push(notice(b.program_id, 'billing_failing', 'owners', null, `${b.program_id}:${Math.floor(now / DAY)}`, data, now));
  }
  if (rows.length > 0)
    await db.transaction(async (tx) => {
      for (const row of rows) await repo.insert(tx, row);
    });
  await pruneNotifications(db, now);
}

/** Deletes the rows past their keeping: done as the sender schedules, and by the hourly purge when nothing sends (server.ts). */
export const pruneNotifications = (db: Db, now: number): Promise<number> => repo.prune(db, now - KEPT_SECONDS);

/** An owners' row becomes one row per owner, each sent (and kept once) on its own. */
async function fanOut(db: Db, row: NotificationRow, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    for (const owner of await repo.ownersOf(tx, row.program_id)) {
      await repo.insert(tx, {
        ...row,
        id: `${row.id}-${owner.id}`,
        audience: 'owner',
        recipient_id: owner.id,
        dedupe_key: `${row.dedupe_key}:${owner.id}`,
        attempts: 0,
        next_attempt_at: now,
      });
    }
    await repo.finish(tx, row.id, 'fanned_out', now);
  });
}

export function startNotifications(options: NotificationOptions) {
  const { db, log, mailer, publicUrl } = options;
  let scheduledAt = Number.NEGATIVE_INFINITY;

  const sendOne = async (row: NotificationRow, now: number): Promise<void> => {
    if (now - row.created_at > STALE_SECONDS) return void (await repo.finish(db, row.id, 'skipped', now));
    if (row.audience === 'owners') return fanOut(db, row, now);
    const token = newUnsubscribeToken();
    let draft: Draft | undefined;
    try {
      draft = await db.transaction((tx) => compose(tx, row, now));
      // A partner's preferences are the person's: what any of their programs' records turned off (the portal shows the same).
      const person = row.audience === 'partner' ? 'partner' : 'owner';
      const records = draft && person === 'partner' ? await repo.recordsOfPerson(db, draft.personId) : [draft?.personId ?? ''];
      const off = draft && (await repo.optedOut(db, person, records)).has(row.kind);
      if (!draft || off) {
        await repo.finish(db, row.id, 'skipped', now);
        return;
      }
      const unsubscribe = publicUrl + unsubscribePath(token);
      const letter = await letterFor(draft, row.kind as NotificationKind, publicUrl, unsubscribe, translate(draft.locale));
      await mailer.send({
        to: draft.to,
        ...letter,
        fromName: draft.program.name,
        headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
      await repo.finish(db, row.id, 'sent', now, { unsubscribeHash: unsubscribeHash(token), recipientId: draft.personId });
    } catch (err) {
      const last = row.attempts >= MAX_ATTEMPTS;
      log.warn(
        { cause: describeCause(err), kind: row.kind, attempts: row.attempts },
        last ? 'a notification could not be sent; given up' : 'a notification could not be sent; it is tried again later',
      );
      await (last ? repo.finish(db, row.id, 'failed', now) : repo.postpone(db, row.id, now + retryAfter(row.attempts)));
    }
  };

  return {
    /** One look: the schedule when due, then a batch of due rows. Resolves to whether there may be more. */
    async pass(now: number): Promise<boolean> {
      if (now - scheduledAt >= SCHEDULE_EVERY_SECONDS) {
        scheduledAt = now;
        await schedule(db, now);
      }
      if (!(await repo.anyDue(db, now))) return false;
      const claimed = await db.transaction((tx) => repo.claimDue(tx, now, now + retryAfter(1), 20));
      for (const row of claimed) await sendOne(row, now);
      return claimed.length > 0;
    },
  };
}
