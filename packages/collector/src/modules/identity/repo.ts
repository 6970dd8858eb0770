// The tables of sign-in, once for both kinds of account: owners (users, sessions,
// sign_in_links) and partners (partner_accounts, partner_sessions, partner_links) keep
// the same columns under other names, and every rule about them (modules/identity/service.ts) is
// written against a Realm. Sessions and links are found by the SHA-256 of what the
// browser holds; nothing stored opens anything.

import type { Queryable } from '../../platform/db/db.js';
import { insertRow } from '../../platform/db/rows.js';
import { type Credentials, PARTNERS, type Realm } from './model.js';

/** Why a link exists: an invitation's and the first start's set a first password, a reset's a new one. */
export type LinkPurpose = 'invitation' | 'reset' | 'first';

export interface LinkRow {
  hash: string;
  account: string;
  expires_at: number;
  used_at: number | null;
  purpose: LinkPurpose;
  created_at: number | null;
  /** Owners' links name the program they sign in to; partners' invitations the inviting program. */
  program_id?: string | null;
  /** Partners' invitations: 1 when the program's owner holds the link (shown, not e-mailed). */
  held?: number;
}

export interface SessionBase {
  id: string;
  hash: string;
  created_at: number;
  last_seen_at: number;
  /** When its holder last proved who they are (the password, or the second factor when they have one): step-up. */
  verified_at: number | null;
}

export function credentialsByEmail(db: Queryable, realm: Realm, emailNorm: string): Promise<Credentials | undefined> {
  return db.get<Credentials>(`SELECT * FROM ${realm.accounts} WHERE email_norm = ?`, [emailNorm]);
}

export function credentialsById(db: Queryable, realm: Realm, id: string): Promise<Credentials | undefined> {
  return db.get<Credentials>(`SELECT * FROM ${realm.accounts} WHERE id = ?`, [id]);
}

/**
 * Counts a password check before it is made: parallel guesses each see the count of those
 * before them (the row is locked until the transaction ends), and none is counted once the
 * account is locked. Undefined when it is locked.
 */
export async function countAttempt(db: Queryable, realm: Realm, id: string, now: number): Promise<number | undefined> {
  const row = await db.get<{ failed_count: number }>(
    `UPDATE ${realm.accounts} SET failed_count = failed_count + 1 WHERE id = ? AND (locked_until IS NULL OR locked_until <= ?) RETURNING failed_count`,
    [id, now],
  );
  return row === undefined ? undefined : Number(row.failed_count);
}

export function lockUntil(db: Queryable, realm: Realm, id: string, until: number): Promise<number> {
  return db.run(`UPDATE ${realm.accounts} SET locked_until = ? WHERE id = ?`, [until, id]);
}

export function clearFailures(db: Queryable, realm: Realm, id: string): Promise<number> {
  return db.run(
    `UPDATE ${realm.accounts} SET failed_count = 0, locked_until = NULL WHERE id = ? AND (failed_count <> 0 OR locked_until IS NOT NULL)`,
    [id],
  );
}

/**
 * The right password of an account whose second step follows: its own count is taken
 * back (and the lock it set), the wrong guesses before it stay, for the codes to add to.
 */
export function forgiveAttempt(db: Queryable, realm: Realm, id: string): Promise<number> {
  return db.run(
    `UPDATE ${realm.accounts} SET failed_count = CASE WHEN failed_count > 0 THEN failed_count - 1 ELSE 0 END, locked_until = NULL WHERE id = ?`,
    [id],
  );
}

/** A new password (and, for the first start's owner, an address); failures are forgotten. */
export function setPassword(
  db: Queryable,
  realm: Realm,
  id: string,
  passwordHash: string,
  now: number,
  email?: { email: string; email_norm: string },
): Promise<number> {
  const extra = email ? ', email = ?, email_norm = ?' : '';
  return db.run(
    `UPDATE ${realm.accounts} SET password_hash = ?${extra}, failed_count = 0, locked_until = NULL, updated_at = ? WHERE id = ?`,
    [passwordHash, ...(email ? [email.email, email.email_norm] : []), now, id],
  );
}

export async function insertSession(
  db: Queryable,
  realm: Realm,
  account: string,
  row: SessionBase & { program_id?: string },
): Promise<void> {
  await insertRow(db, realm.sessions, { ...row, [realm.fk]: account });
}

export function touchSession(db: Queryable, realm: Realm, id: string, now: number): Promise<number> {
  return db.run(`UPDATE ${realm.sessions} SET last_seen_at = ? WHERE id = ?`, [now, id]);
}

export function deleteSession(db: Queryable, realm: Realm, id: string): Promise<number> {
  return db.run(`DELETE FROM ${realm.sessions} WHERE id = ?`, [id]);
}

/** Every session of the account but `keep` (none kept when it is null). */
export function deleteSessionsOf(db: Queryable, realm: Realm, account: string, keep: string | null): Promise<number> {
  return db.run(`DELETE FROM ${realm.sessions} WHERE ${realm.fk} = ? AND id <> ?`, [account, keep ?? '']);
}

export async function insertLink(db: Queryable, realm: Realm, row: LinkRow): Promise<void> {
  const { account, ...rest } = row;
  await insertRow(db, realm.links, { ...rest, [realm.fk]: account });
}

const linkColumns = (realm: Realm) =>
  `hash, ${realm.fk} AS account, expires_at, used_at, purpose, created_at, program_id${realm === PARTNERS ? ', held' : ''}`;

export function linkByHash(db: Queryable, realm: Realm, hash: string): Promise<LinkRow | undefined> {
  return db.get<LinkRow>(`SELECT ${linkColumns(realm)} FROM ${realm.links} WHERE hash = ?`, [hash]);
}

/** Takes a fresh, unused link once, in one statement: undefined when it is used, expired or unknown. */
export function takeLink(db: Queryable, realm: Realm, hash: string, now: number): Promise<LinkRow | undefined> {
  return db.get<LinkRow>(
    `UPDATE ${realm.links} SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ? RETURNING ${linkColumns(realm)}`,
    [now, hash, now],
  );
}

/** Uses up the account's unused links (of one purpose, or all). */
export function useLinksOf(db: Queryable, realm: Realm, account: string, now: number, purpose?: LinkPurpose): Promise<number> {
  return db.run(
    `UPDATE ${realm.links} SET used_at = ? WHERE ${realm.fk} = ? AND used_at IS NULL${purpose ? ' AND purpose = ?' : ''}`,
    purpose ? [now, account, purpose] : [now, account],
  );
}

/** Links of a purpose the account was given since `since`, used or not: what limits resets. */
export async function linksSince(db: Queryable, realm: Realm, account: string, purpose: LinkPurpose, since: number): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM ${realm.links} WHERE ${realm.fk} = ? AND purpose = ? AND created_at >= ?`,
    [account, purpose, since],
  );
  return Number(row?.n ?? 0);
}

/** Deletes links past their expiry (kept `keepSeconds` more, for the reset limit's count) and sessions idle too long. */
export async function deleteExpired(db: Queryable, realm: Realm, now: number, idleSeconds: number, keepSeconds: number): Promise<number> {
  const links = await db.run(`DELETE FROM ${realm.links} WHERE expires_at <= ?`, [now - keepSeconds]);
  const sessions = await db.run(`DELETE FROM ${realm.sessions} WHERE last_seen_at <= ?`, [now - idleSeconds]);
  return links + sessions;
}
