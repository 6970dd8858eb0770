// Sends the e-mail outbox (modules/mail/repo.ts) beside the requests, as webhooks are sent: a
// request only writes what to send, so its answer takes the same time whether or not
// mail goes out, and the mail server's pace never holds a request. Each message is made
// when it is sent, with a fresh link; one that fails is tried again, with a longer wait,
// until its link would have expired anyway.

import type { Logger } from 'pino';
import { describeCause } from '../../platform/errors.js';
import type { Mailer, Message } from '../../platform/mail.js';
import type { Db, Tx } from '../../platform/db/db.js';
import * as outbox from './repo.js';
import type { MailKind, OutboxRow } from './repo.js';
import { uuidv7 } from '../../core/ids.js';
import { emailProblem } from '../../core/email.js';
import { LINK_SECONDS, signInKey } from '../identity/service.js';
import type { Realm, SecurityEvent } from '../identity/model.js';

/** Makes the message of a row, with its link, in the sending transaction; undefined when there is nothing to send. */
export type Compose = (tx: Tx, row: OutboxRow, now: number) => Promise<Message | undefined>;

export function enqueueMail(tx: Tx, kind: MailKind, subjectKey: string, programId: string | null, now: number): Promise<number> {
  return outbox.enqueue(tx, {
    id: uuidv7(now * 1000),
    kind,
    subject_key: subjectKey,
    program_id: programId,
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
  });
}

/**
 * A password reset asked for an address: a row in the outbox, whoever the address is, so
 * every answer costs the same write and says nothing. Whether the address has an account,
 * and how many resets it had this hour, is for the sender to find out.
 */
export async function requestReset(db: Db, kind: 'partner_reset' | 'owner_reset', rawEmail: string, now: number): Promise<void> {
  if (emailProblem(rawEmail)) return;
  await db.transaction((tx) => enqueueMail(tx, kind, signInKey(rawEmail), null, now));
}

/**
 * Tells an account's address what changed on its security (identity's Notify), in the
 * change's transaction. Each notice is its own row: `realm:account:event:id`.
 */
export function enqueueSecurityNotice(tx: Tx, realm: Realm, account: string, event: SecurityEvent, now: number): Promise<number> {
  return enqueueMail(tx, 'security_notice', [realm.kind, account, event, uuidv7(now * 1000)].join(':'), null, now);
}

/** The notice's parts back from its row's subject key. */
export function securityNoticeOf(subjectKey: string): { realm: Realm['kind']; account: string; event: SecurityEvent } {
  const [realm, account, event] = subjectKey.split(':');
  return { realm: realm === 'partner' ? 'partner' : 'owner', account: account ?? '', event: event as SecurityEvent };
}

/** Seconds before the next try after `attempts` tries: 30 s, doubling, at most an hour. */
export const retryAfter = (attempts: number): number => Math.min(30 * 2 ** (attempts - 1), 3600);

export interface OutboxSender {
  /** Looks for due messages now (after a request wrote one). */
  kick(): void;
  /** Sends every due message and resolves when done: what tests call instead of waiting. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

export interface OutboxOptions {
  db: Db;
  log: Logger;
  now: () => number;
  mailer: Mailer;
  compose: Record<MailKind, Compose>;
  pollMs: number;
  /** More to send in the same loop (modules/notifications): resolves to whether there may be more. */
  also?: ((now: number) => Promise<boolean>) | undefined;
}

export function startOutbox(options: OutboxOptions): OutboxSender {
  const { db, log, now, mailer } = options;
  let current: Promise<void> = Promise.resolve();
  let running = false;
  let again = false;
  let stopped = false;

  const sendOne = async (row: OutboxRow): Promise<void> => {
    const t = now();
    // Past the life of the link it would carry, a late message helps nobody.
    if (t - row.created_at >= LINK_SECONDS) {
      await db.transaction((tx) => outbox.remove(tx, row.id));
      return;
    }
    try {
      const message = await db.transaction((tx) => options.compose[row.kind](tx, row, t));
      if (message) await mailer.send(message);
      await db.transaction((tx) => outbox.remove(tx, row.id));
    } catch (err) {
      log.warn(
        { cause: describeCause(err), kind: row.kind, attempts: row.attempts },
        'an e-mail could not be sent; it is tried again later',
      );
    }
  };

  const pass = async (): Promise<void> => {
    do {
      again = false;
      try {
        const t = now();
        const claimed = (await outbox.anyDue(db, t)) ? await db.transaction((tx) => outbox.claimDue(tx, t, t + retryAfter(1), 20)) : [];
        for (const row of claimed) {
          // The claim's lease was the first retry's; later ones wait longer.
          if (row.attempts > 1) await db.transaction((tx) => outbox.postpone(tx, row.id, t + retryAfter(row.attempts)));
          await sendOne(row);
        }
        if (claimed.length > 0) again = true;
        if (options.also && (await options.also(now()))) again = true;
      } catch (err) {
        log.warn({ cause: describeCause(err) }, 'looking for e-mail to send failed; the next poll retries');
      }
    } while (again && !stopped);
  };

  // One pass at a time; a kick during a pass makes it look once more before it ends.
  const look = (): Promise<void> => {
    if (stopped) return current;
    if (running) {
      again = true;
      return current;
    }
    running = true;
    current = pass().finally(() => (running = false));
    return current;
  };
  // pollMs 0: only a request's kick, or drain(), sends (tests, on demand).
  const timer = options.pollMs > 0 ? setInterval(() => void look(), options.pollMs) : undefined;
  timer?.unref();
  if (timer) void look();
  return {
    kick: () => void look(),
    drain: () => look(),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
