// The notifications' tables: the outbox (one row per message, kept after it is sent for
// its key and its unsubscribe link) and the opt-outs per person and kind.

import type { Queryable } from '../../platform/db/db.js';
import { insertOne, type Insert } from '../../platform/db/rows.js';

/** A kind of message (kinds.ts names them). */
type Kind = string;
/** Whose preferences: a partner record or an owner's user. */
type Person = 'partner' | 'owner';

export type NotificationState = 'pending' | 'sent' | 'skipped' | 'failed' | 'fanned_out';

export interface NotificationRow {
  id: string;
  program_id: string;
  kind: Kind;
  /** A person, or the program's owners ('owners'), whom the sender fans the row out to. */
  audience: Person | 'owners';
  /** The partner's id, the owner's user id; null for the program's owners. */
  recipient_id: string | null;
  /** One message per key: a second with the same key is not written. */
  dedupe_key: string;
  /** What the message needs besides what the sender reads when it sends, as JSON. */
  data: string;
  state: NotificationState;
  attempts: number;
  next_attempt_at: number;
  unsubscribe_hash: string | null;
  created_at: number;
  sent_at: number | null;
}

/** The row to write beside a change, kept out when its key is there already. */
export const notificationInsert = (row: NotificationRow): Insert => ({ table: 'notifications', row, conflict: '(dedupe_key)' });

export const insert = (db: Queryable, row: NotificationRow): Promise<number> => insertOne(db, notificationInsert(row));

export async function anyDue(db: Queryable, now: number): Promise<boolean> {
  return (await db.get("SELECT 1 AS one FROM notifications WHERE state = 'pending' AND next_attempt_at <= ? LIMIT 1", [now])) !== undefined;
}

/** Claims due messages, each until `leaseUntil` (its next try if this one fails or the process dies). */
export function claimDue(db: Queryable, now: number, leaseUntil: number, limit: number): Promise<NotificationRow[]> {
  return db.all<NotificationRow>(
    `UPDATE notifications SET next_attempt_at = ?, attempts = attempts + 1
      WHERE state = 'pending' AND next_attempt_at <= ?
        AND id IN (SELECT id FROM notifications WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?)
      RETURNING *`,
    // The outer test is read again on PostgreSQL when another process claimed the row first.
    [leaseUntil, now, now, limit],
  );
}

export function postpone(db: Queryable, id: string, at: number): Promise<number> {
  return db.run("UPDATE notifications SET next_attempt_at = ? WHERE id = ? AND state = 'pending'", [at, id]);
}

/** Ends a row's tries; a sent one keeps whom it went to and its unsubscribe token's hash. */
export function finish(
  db: Queryable,
  id: string,
  state: NotificationState,
  now: number,
  sent: { unsubscribeHash: string; recipientId: string } | undefined = undefined,
): Promise<number> {
  return db.run(
    "UPDATE notifications SET state = ?, sent_at = ?, unsubscribe_hash = ?, recipient_id = COALESCE(?, recipient_id) WHERE id = ? AND state = 'pending'",
    [state, now, sent?.unsubscribeHash ?? null, sent?.recipientId ?? null, id],
  );
}

export function byUnsubscribeHash(db: Queryable, hash: string): Promise<NotificationRow | undefined> {
  return db.get<NotificationRow>('SELECT * FROM notifications WHERE unsubscribe_hash = ?', [hash]);
}

export function prune(db: Queryable, before: number): Promise<number> {
  return db.run('DELETE FROM notifications WHERE created_at < ?', [before]);
}

export function optOut(db: Queryable, person: Person, personId: string, kind: Kind, now: number): Promise<number> {
  return db.run('INSERT INTO notification_optouts (audience, person_id, kind, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [
    person,
    personId,
    kind,
    now,
  ]);
}

export function optIn(db: Queryable, person: Person, personId: string, kind: Kind): Promise<number> {
  return db.run('DELETE FROM notification_optouts WHERE audience = ? AND person_id = ? AND kind = ?', [person, personId, kind]);
}

/** The kinds any of `personIds` turned off. */
export async function optedOut(db: Queryable, person: Person, personIds: readonly string[]): Promise<Set<string>> {
  if (personIds.length === 0) return new Set();
  const rows = await db.all<{ kind: string }>(
    `SELECT DISTINCT kind FROM notification_optouts WHERE audience = ? AND person_id IN (${personIds.map(() => '?').join(', ')})`,
    [person, ...personIds],
  );
  return new Set(rows.map((r) => r.kind));
}

/** The programs and the first day (unix seconds) each was made: the weekly summaries' list. */
export function programsMadeBefore(db: Queryable, before: number): Promise<Array<{ id: string }>> {
  return db.all<{ id: string }>('SELECT id FROM programs WHERE created_at < ? ORDER BY id', [before]);
}

/** Endpoints failing since before `since`, or disabled after `disabledAfter`: what owners hear of. */
export function failingEndpoints(db: Queryable, since: number, disabledAfter: number) {
  return db.all<{
    id: string;
    program_id: string;
    url: string;
    enabled: number;
    disabled_reason: string | null;
    failing_since: number | null;
    updated_at: number;
  }>(
    `SELECT id, program_id, url, enabled, disabled_reason, failing_since, updated_at FROM webhook_endpoints
      WHERE (enabled = 1 AND failing_since IS NOT NULL AND failing_since <= ?) OR (enabled = 0 AND disabled_reason IS NOT NULL AND updated_at > ?)`,
    [since, disabledAfter],
  );
}

/** Billing events that failed after `since`, per program and platform, with the last reason. */
export function failedBilling(db: Queryable, since: number) {
  return db.all<{ program_id: string; platform: string; n: number; reason: string | null }>(
    `SELECT program_id, platform, COUNT(*) AS n, MAX(reason) AS reason FROM billing_events
      WHERE outcome = 'failed' AND processed_at > ? GROUP BY program_id, platform`,
    [since],
  );
}

/** Each partner's share of a payout batch. */
export function payoutShares(db: Queryable, batchId: string) {
  return db.all<{ partner_id: string; amount: number; count: number }>(
    'SELECT partner_id, SUM(amount) AS amount, COUNT(*) AS count FROM payout_items WHERE batch_id = ? GROUP BY partner_id',
    [batchId],
  );
}

/** The partnership's first referral's id. */
export async function firstReferralOf(db: Queryable, partnershipId: string): Promise<string | undefined> {
  return (
    await db.get<{ id: string }>('SELECT id FROM referrals WHERE partnership_id = ? ORDER BY created_at, id LIMIT 1', [partnershipId])
  )?.id;
}

/** What the partner earned in [from, to), per currency, clawbacks left out. */
export function commissionsOfDay(db: Queryable, programId: string, partnerId: string, from: number, to: number) {
  return db.all<{ currency: string; amount: number; n: number }>(
    `SELECT currency, SUM(amount) AS amount, COUNT(*) AS n FROM commissions
      WHERE program_id = ? AND partner_id = ? AND created_at >= ? AND created_at < ? AND clawback_of IS NULL AND amount > 0
      GROUP BY currency ORDER BY currency`,
    [programId, partnerId, from, to],
  );
}

/** Referrals and commissions held for review and not decided. */
export async function heldCount(db: Queryable, programId: string): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT (SELECT COUNT(*) FROM referrals WHERE program_id = ? AND review = 'held')
          + (SELECT COUNT(*) FROM commissions WHERE program_id = ? AND review = 'held') AS n`,
    [programId, programId],
  );
  return Number(row?.n ?? 0);
}

/** The program's owners and admins who can sign in: whom an owners' message goes to. */
export function ownersOf(db: Queryable, programId: string): Promise<Array<{ id: string }>> {
  return db.all<{ id: string }>(
    `SELECT u.id FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.program_id = ? AND m.role IN ('owner', 'admin') AND u.email IS NOT NULL AND u.password_hash IS NOT NULL ORDER BY u.id`,
    [programId],
  );
}

/** The owner's address, while they are still an owner or admin of the program. */
export async function ownerEmail(db: Queryable, userId: string, programId: string): Promise<string | undefined> {
  const row = await db.get<{ email: string | null }>(
    `SELECT u.email FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id = ? AND m.program_id = ? AND m.role IN ('owner', 'admin')`,
    [userId, programId],
  );
  return row?.email ?? undefined;
}

/**
 * The partner records of the same person as `partnerId`: every record linked to its portal
 * account (one person in each program they joined), or the record alone while it has none.
 */
export async function recordsOfPerson(db: Queryable, partnerId: string): Promise<string[]> {
  const rows = await db.all<{ id: string }>(
    `SELECT id FROM partners WHERE id = ?
      OR account_id = (SELECT account_id FROM partners WHERE id = ? AND account_id IS NOT NULL) ORDER BY id`,
    [partnerId, partnerId],
  );
  return rows.map((r) => r.id);
}

/** The partner records of a portal account: whose preferences the portal shows together. */
export async function partnersOfAccount(db: Queryable, accountId: string): Promise<string[]> {
  return (await db.all<{ id: string }>('SELECT id FROM partners WHERE account_id = ? ORDER BY id', [accountId])).map((r) => r.id);
}

/** A message thread's read state (modules/messages): whether a message still waits for a side, and since when it read. */
export function messageThread(db: Queryable, threadId: string) {
  return db.get<{ partner_id: string; team_unread: number; partner_unread: number; team_read_at: number; partner_read_at: number }>(
    'SELECT partner_id, team_unread, partner_unread, team_read_at, partner_read_at FROM message_threads WHERE id = ?',
    [threadId],
  );
}

/** The newest message of one side in the thread: what its e-mail quotes. */
export async function latestMessage(db: Queryable, threadId: string, author: 'team' | 'partner'): Promise<string | undefined> {
  const row = await db.get<{ body: string }>(
    'SELECT body FROM messages WHERE thread_id = ? AND author = ? ORDER BY created_at DESC, id DESC LIMIT 1',
    [threadId, author],
  );
  return row?.body;
}
