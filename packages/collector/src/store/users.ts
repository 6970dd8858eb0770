// Owners of programs: users, their memberships, their sessions and their one-time
// sign-in links. Sessions and links are found by the SHA-256 of what the browser holds.

import type { Queryable } from './db.js';
import type { ProgramRow } from './programs.js';
import { insertRow } from './rows.js';

export interface UserRow {
  id: string;
  /** Null for the first start's user until its link is redeemed. */
  email: string | null;
  email_norm: string | null;
  password_hash: string | null;
  /** Wrong passwords in a row. */
  failed_count: number;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface SessionRow {
  id: string;
  hash: string;
  user_id: string;
  /** The program the session acts for; the user switches it. */
  program_id: string;
  created_at: number;
  last_seen_at: number;
}

export interface LinkRow {
  hash: string;
  user_id: string;
  program_id: string;
  expires_at: number;
  used_at: number | null;
}

export interface Membership {
  user_id: string;
  email: string | null;
  program_id: string;
  program_name: string;
  role: string;
  created_at: number;
  /** Whether the user has set a password, i.e. can sign in. */
  active: boolean;
}

export async function insertUser(db: Queryable, row: UserRow): Promise<void> {
  await insertRow(db, 'users', row);
}

export function userById(db: Queryable, id: string): Promise<UserRow | undefined> {
  return db.get<UserRow>('SELECT * FROM users WHERE id = ?', [id]);
}

export function userByEmail(db: Queryable, emailNorm: string): Promise<UserRow | undefined> {
  return db.get<UserRow>('SELECT * FROM users WHERE email_norm = ?', [emailNorm]);
}

export function setCredentials(
  db: Queryable,
  id: string,
  fields: { email?: string; email_norm?: string; password_hash: string },
  now: number,
): Promise<number> {
  const set = Object.keys(fields).map((c) => `${c} = ?`);
  return db.run(`UPDATE users SET ${set.join(', ')}, failed_count = 0, locked_until = NULL, updated_at = ? WHERE id = ?`, [
    ...Object.values(fields),
    now,
    id,
  ]);
}

export function recordFailure(db: Queryable, id: string, failedCount: number, lockedUntil: number | null): Promise<number> {
  return db.run('UPDATE users SET failed_count = ?, locked_until = ? WHERE id = ?', [failedCount, lockedUntil, id]);
}

export function clearFailures(db: Queryable, id: string): Promise<number> {
  return db.run('UPDATE users SET failed_count = 0, locked_until = NULL WHERE id = ? AND failed_count > 0', [id]);
}

export function deleteUser(db: Queryable, id: string): Promise<number> {
  return db.run('DELETE FROM users WHERE id = ?', [id]);
}

export async function addMembership(db: Queryable, userId: string, programId: string, now: number): Promise<void> {
  await db.run(
    'INSERT INTO memberships (user_id, program_id, role, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, program_id) DO NOTHING',
    [userId, programId, 'owner', now],
  );
}

export function removeMembership(db: Queryable, userId: string, programId: string): Promise<number> {
  return db.run('DELETE FROM memberships WHERE user_id = ? AND program_id = ?', [userId, programId]);
}

const MEMBERSHIP = `SELECT m.user_id, u.email, m.program_id, p.name AS program_name, m.role, m.created_at,
                           CASE WHEN u.password_hash IS NULL THEN 0 ELSE 1 END AS active
                      FROM memberships m JOIN users u ON u.id = m.user_id JOIN programs p ON p.id = m.program_id`;

const asMembership = (r: Membership): Membership => ({ ...r, active: Boolean(r.active) });

export async function membershipsOfUser(db: Queryable, userId: string): Promise<Membership[]> {
  const rows = await db.all<Membership>(`${MEMBERSHIP} WHERE m.user_id = ? ORDER BY m.created_at, m.program_id`, [userId]);
  return rows.map(asMembership);
}

export async function membersOfProgram(db: Queryable, programId: string): Promise<Membership[]> {
  const rows = await db.all<Membership>(`${MEMBERSHIP} WHERE m.program_id = ? ORDER BY m.created_at, m.user_id`, [programId]);
  return rows.map(asMembership);
}

export async function allMemberships(db: Queryable): Promise<Membership[]> {
  const rows = await db.all<Membership>(`${MEMBERSHIP} ORDER BY m.program_id, m.created_at, m.user_id`);
  return rows.map(asMembership);
}

export function countMemberships(db: Queryable, userId: string): Promise<{ n: number } | undefined> {
  return db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memberships WHERE user_id = ?', [userId]);
}

export async function insertSession(db: Queryable, row: SessionRow): Promise<void> {
  await insertRow(db, 'sessions', row);
}

/** The session and its program, only while the user is still a member of that program. */
export async function sessionByHash(
  db: Queryable,
  hash: string,
): Promise<{ session: SessionRow; program: ProgramRow } | undefined> {
  const row = await db.get<ProgramRow & { s_id: string; s_user_id: string; s_created_at: number; s_last_seen_at: number }>(
    `SELECT s.id AS s_id, s.user_id AS s_user_id, s.created_at AS s_created_at, s.last_seen_at AS s_last_seen_at, p.*
       FROM sessions s
       JOIN memberships m ON m.user_id = s.user_id AND m.program_id = s.program_id
       JOIN programs p ON p.id = s.program_id
      WHERE s.hash = ?`,
    [hash],
  );
  if (!row) return undefined;
  const { s_id, s_user_id, s_created_at, s_last_seen_at, ...program } = row;
  return {
    session: { id: s_id, hash, user_id: s_user_id, program_id: program.id, created_at: s_created_at, last_seen_at: s_last_seen_at },
    program,
  };
}

export function sessionById(db: Queryable, id: string): Promise<SessionRow | undefined> {
  return db.get<SessionRow>('SELECT * FROM sessions WHERE id = ?', [id]);
}

export function touchSession(db: Queryable, id: string, now: number): Promise<number> {
  return db.run('UPDATE sessions SET last_seen_at = ? WHERE id = ?', [now, id]);
}

export function switchSession(db: Queryable, id: string, programId: string): Promise<number> {
  return db.run('UPDATE sessions SET program_id = ? WHERE id = ?', [programId, id]);
}

export function deleteSession(db: Queryable, id: string): Promise<number> {
  return db.run('DELETE FROM sessions WHERE id = ?', [id]);
}

/** Every session of the user but `keep` (none kept when it is null). */
export function deleteSessionsOf(db: Queryable, userId: string, keep: string | null): Promise<number> {
  return db.run('DELETE FROM sessions WHERE user_id = ? AND id <> ?', [userId, keep ?? '']);
}

/** Sessions of the user that act for the program: they end when the membership does. */
export function deleteProgramSessionsOf(db: Queryable, userId: string, programId: string): Promise<number> {
  return db.run('DELETE FROM sessions WHERE user_id = ? AND program_id = ?', [userId, programId]);
}

export function deleteIdleSessions(db: Queryable, seenBefore: number): Promise<number> {
  return db.run('DELETE FROM sessions WHERE last_seen_at < ?', [seenBefore]);
}

export async function insertLink(db: Queryable, row: LinkRow): Promise<void> {
  await insertRow(db, 'sign_in_links', row);
}

export function linkByHash(db: Queryable, hash: string): Promise<LinkRow | undefined> {
  return db.get<LinkRow>('SELECT * FROM sign_in_links WHERE hash = ?', [hash]);
}

/** Claims the link; 0 when another request used it first. */
export function useLink(db: Queryable, hash: string, now: number): Promise<number> {
  return db.run('UPDATE sign_in_links SET used_at = ? WHERE hash = ? AND used_at IS NULL', [now, hash]);
}
