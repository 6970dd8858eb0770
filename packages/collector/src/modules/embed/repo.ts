// The embed's tables (migration 0029): the company's users and the partners they are, the
// one-time embed tokens and the embedded page's sessions, both found by the SHA-256 of
// what their holder has.

import type { Queryable } from '../../platform/db/db.js';
import { insertRow } from '../../platform/db/rows.js';

export interface EmbedSessionRow {
  id: string;
  hash: string;
  program_id: string;
  partner_id: string;
  expires_at: number;
  created_at: number;
}

/** The partner the company's user is, if Tally has made (or found) one for them. */
export async function partnerOfUser(db: Queryable, programId: string, userId: string): Promise<string | undefined> {
  const row = await db.get<{ partner_id: string }>('SELECT partner_id FROM embed_users WHERE program_id = ? AND user_id = ?', [
    programId,
    userId,
  ]);
  return row?.partner_id;
}

export async function insertUser(db: Queryable, programId: string, userId: string, partnerId: string, now: number): Promise<void> {
  await insertRow(db, 'embed_users', { program_id: programId, user_id: userId, partner_id: partnerId, created_at: now });
}

export async function insertToken(
  db: Queryable,
  row: { id: string; hash: string; program_id: string; partner_id: string; expires_at: number; created_at: number },
) {
  await insertRow(db, 'embed_tokens', { ...row, used_at: null });
}

/** The program an embed token is for while it lasts, used or not: the page's frame-ancestors. */
export async function tokenProgram(db: Queryable, hash: string, now: number): Promise<string | undefined> {
  const row = await db.get<{ program_id: string }>('SELECT program_id FROM embed_tokens WHERE hash = ? AND expires_at > ?', [hash, now]);
  return row?.program_id;
}

/** Uses the token up: what it is for, to the one request that did; undefined when it is unknown, used or expired. */
export function takeToken(db: Queryable, hash: string, now: number): Promise<{ program_id: string; partner_id: string } | undefined> {
  return db.get(
    'UPDATE embed_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ? RETURNING program_id, partner_id',
    [now, hash, now],
  );
}

export async function insertSession(db: Queryable, row: EmbedSessionRow): Promise<void> {
  await insertRow(db, 'embed_sessions', row);
}

export function sessionByHash(db: Queryable, hash: string, now: number): Promise<EmbedSessionRow | undefined> {
  return db.get<EmbedSessionRow>('SELECT * FROM embed_sessions WHERE hash = ? AND expires_at > ?', [hash, now]);
}

/** Tokens and sessions a day past their end: nothing reads them any more. */
export async function purgeExpired(db: Queryable, before: number): Promise<number> {
  return (
    (await db.run('DELETE FROM embed_tokens WHERE expires_at < ?', [before])) +
    (await db.run('DELETE FROM embed_sessions WHERE expires_at < ?', [before]))
  );
}

/** The company's user id a partner record was made or claimed for, if any. */
export async function userOfPartner(db: Queryable, partnerId: string): Promise<string | undefined> {
  return (await db.get<{ user_id: string }>('SELECT user_id FROM embed_users WHERE partner_id = ?', [partnerId]))?.user_id;
}
