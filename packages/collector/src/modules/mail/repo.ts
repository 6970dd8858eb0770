// The e-mail outbox: what to send, written in the transaction of the change that asks for
// it, and sent beside the requests (modules/mail/outbox.ts). A row names a kind and whom it is
// about (an address, a partner record), never a link: the sender makes the link when it
// sends, so no secret waits in the database in the clear.

import type { Queryable } from '../../platform/db/db.js';

export type MailKind =
  | 'partner_reset'
  | 'partner_invitation'
  | 'owner_reset'
  | 'owner_invitation'
  | 'payout_confirmation'
  | 'security_notice';

export interface OutboxRow {
  id: string;
  kind: MailKind;
  /** A reset's address (normalised), a portal invitation's partner id, a team invitation's id, `program:partner` for a PayPal address to confirm. */
  subject_key: string;
  program_id: string | null;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
}

/** One message per kind and subject waits at a time: asking again while it waits adds nothing. */
export function enqueue(db: Queryable, row: OutboxRow): Promise<number> {
  return db.run(
    `INSERT INTO mail_outbox (id, kind, subject_key, program_id, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, ?, 0, ?, ?)
     ON CONFLICT (kind, subject_key) DO NOTHING`,
    [row.id, row.kind, row.subject_key, row.program_id, row.next_attempt_at, row.created_at],
  );
}

export async function anyDue(db: Queryable, now: number): Promise<boolean> {
  return (await db.get('SELECT 1 AS one FROM mail_outbox WHERE next_attempt_at <= ? LIMIT 1', [now])) !== undefined;
}

/** Claims the due messages, each until `leaseUntil` (its next attempt if this one fails). */
export function claimDue(db: Queryable, now: number, leaseUntil: number, limit: number): Promise<OutboxRow[]> {
  return db.all<OutboxRow>(
    `UPDATE mail_outbox SET next_attempt_at = ?, attempts = attempts + 1
      WHERE next_attempt_at <= ? AND id IN (SELECT id FROM mail_outbox WHERE next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?) RETURNING *`,
    // The outer test is read again on PostgreSQL when another process claimed the row first.
    [leaseUntil, now, now, limit],
  );
}

export function postpone(db: Queryable, id: string, at: number): Promise<number> {
  return db.run('UPDATE mail_outbox SET next_attempt_at = ? WHERE id = ?', [at, id]);
}

export function remove(db: Queryable, id: string): Promise<number> {
  return db.run('DELETE FROM mail_outbox WHERE id = ?', [id]);
}

export function count(db: Queryable): Promise<{ n: number } | undefined> {
  return db.get<{ n: number }>('SELECT COUNT(*) AS n FROM mail_outbox');
}
