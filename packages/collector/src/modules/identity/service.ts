// Signing in, once for owners and partners (docs/decisions/0219-one-identity.md): passwords and
// lockout, sessions, one-time links and password changes. modules/owners/service.ts and
// modules/portal/service.ts add what differs (memberships and invitations, partner
// records); every rule here is written and tested once, for both Realms.

import { randomBytes } from 'node:crypto';
import { fail, ServiceError } from '../../platform/errors.js';
import type { Db, Queryable, Tx } from '../../platform/db/db.js';
import * as store from './repo.js';
import { deleteExpiredChallenges } from './factors-repo.js';
import type { LinkPurpose, LinkRow, SessionBase } from './repo.js';
import { type Credentials, REALMS, type Realm } from './model.js';
import { emailProblem, normalizeEmail } from '../../core/email.js';
import { uuidv7 } from '../../core/ids.js';
import { checkPasswordRules, decoyHash, hashPassword, verifyPassword } from './passwords.js';
import { hashToken } from '../tokens/service.js';

export const LINK_SECONDS = 24 * 3600;
export const SESSION_IDLE_SECONDS = 14 * 24 * 3600;
/** A session's last use is written at most this often, not on every request. */
export const TOUCH_SECONDS = 60;
/** Wrong passwords in a row before the account locks. */
export const LOCK_AFTER = 5;
const LOCK_FIRST_SECONDS = 60;
const LOCK_MAX_SECONDS = 3600;
/** Password resets a person may be sent an hour: more is a mail bomb, not a forgotten password. */
export const RESETS_PER_HOUR = 3;

export const WRONG_PASSWORD = 'the e-mail address or the password is wrong';

/**
 * Who signs in: the address as typed, case-insensitive throughout. People type their own
 * address in many cases, and two accounts told apart only by case would be a trap.
 */
export const signInKey = (email: string): string => normalizeEmail(email).toLowerCase();

/** What the browser holds (a cookie, a link's fragment); the database keeps its hash. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

export function checkEmail(email: string, field = 'email'): string {
  const problem = emailProblem(email);
  if (problem) throw fail('invalid_email', problem, { field });
  return email.trim();
}

/** Seconds an account stays locked after `failures` wrong passwords in a row. */
export function lockSeconds(failures: number): number {
  if (failures < LOCK_AFTER) return 0;
  return Math.min(LOCK_FIRST_SECONDS * 2 ** (failures - LOCK_AFTER), LOCK_MAX_SECONDS);
}

export function locked(until: number, now: number): never {
  throw fail('account_locked', 'too many wrong passwords in a row: this account is locked for a while', {
    retryAfter: Math.max(1, until - now),
  });
}

/**
 * The account, when `password` is its own. Each check is counted before scrypt runs, in
 * the account's row, so parallel guesses cannot outrun the lockout: the fifth in a row
 * locks the account (a minute, doubling up to an hour), and a locked account is refused
 * before its password is tried. An unknown address, or an account with no password yet,
 * costs the same transaction and scrypt and gets the same answer as a wrong password.
 * The caller clears the count (clearFailures) in the transaction that acts on the account.
 */
export async function provePassword(
  db: Db,
  realm: Realm,
  account: Credentials | undefined,
  password: string,
  now: number,
  wrong = WRONG_PASSWORD,
): Promise<Credentials> {
  if (account?.locked_until && account.locked_until > now) locked(account.locked_until, now);
  const counted = await db.transaction(async (tx) => {
    if (!account?.password_hash) return store.countAttempt(tx, realm, '', now);
    const n = await store.countAttempt(tx, realm, account.id, now);
    if (n !== undefined && lockSeconds(n) > 0) await store.lockUntil(tx, realm, account.id, now + lockSeconds(n));
    return n;
  });
  if (account?.password_hash && counted === undefined) {
    const fresh = await store.credentialsById(db, realm, account.id);
    locked(fresh?.locked_until ?? now + LOCK_FIRST_SECONDS, now);
  }
  const ok = await verifyPassword(password, account?.password_hash ?? (await decoyHash()));
  if (!account?.password_hash || !ok) {
    if (counted !== undefined && lockSeconds(counted) > 0) locked(now + lockSeconds(counted), now);
    throw fail('invalid_credentials', wrong);
  }
  return account;
}

export function clearFailures(tx: Tx, realm: Realm, id: string): Promise<number> {
  return store.clearFailures(tx, realm, id);
}

export interface NewSession<S extends SessionBase> {
  /** For the cookie, shown once. */
  token: string;
  session: S;
}

export async function startSession<S extends SessionBase>(
  tx: Queryable,
  realm: Realm,
  account: string,
  now: number,
  extra: Omit<S, keyof SessionBase> = {} as Omit<S, keyof SessionBase>,
): Promise<NewSession<S>> {
  const token = newSecret();
  // A session starts on a proof (a password, a link, a second factor): fresh for step-up.
  const session = { id: uuidv7(now * 1000), hash: hashToken(token), created_at: now, last_seen_at: now, verified_at: now, ...extra } as S;
  await store.insertSession(tx, realm, account, session);
  return { token, session };
}

/**
 * A session found by its cookie, while it is fresh: one idle too long is deleted. Its last
 * use is written at most once a minute, and `touched` tells the cookie to start again.
 */
export async function keepSession(
  db: Db,
  realm: Realm,
  session: SessionBase | undefined,
  now: number,
): Promise<{ touched: boolean } | undefined> {
  if (!session) return undefined;
  if (session.last_seen_at + SESSION_IDLE_SECONDS <= now) {
    await db.transaction((tx) => store.deleteSession(tx, realm, session.id));
    return undefined;
  }
  const touched = now - session.last_seen_at >= TOUCH_SECONDS;
  if (touched) await db.transaction((tx) => store.touchSession(tx, realm, session.id, now));
  return { touched };
}

export function endSession(db: Db, realm: Realm, sessionId: string): Promise<number> {
  return db.transaction((tx) => store.deleteSession(tx, realm, sessionId));
}

/**
 * A one-time link (24 h); `suffix` rides in the token, covered by its hash (a partner invitation
 * names its record); `held`: a partner invitation's link shown to the program's owner.
 */
export async function makeLink(
  tx: Queryable,
  realm: Realm,
  account: string,
  purpose: LinkPurpose,
  now: number,
  extra: { programId?: string; suffix?: string; held?: boolean } = {},
): Promise<string> {
  const token = newSecret() + (extra.suffix ?? '');
  const row: LinkRow = { hash: hashToken(token), account, expires_at: now + LINK_SECONDS, used_at: null, purpose, created_at: now };
  if (extra.programId !== undefined) row.program_id = extra.programId;
  if (extra.held) row.held = 1;
  await store.insertLink(tx, realm, row);
  return token;
}

export const linkGone = () => fail('not_found', 'this link is unknown, used or expired; ask for a new one');

/** The link, unused and fresh, without taking it (to know what it will need before a transaction). */
export async function peekLink(db: Queryable, realm: Realm, token: string, now: number): Promise<LinkRow> {
  const link = await store.linkByHash(db, realm, hashToken(token));
  if (!link || link.used_at !== null || link.expires_at <= now) throw linkGone();
  return link;
}

/** Takes the link once, checked for use and expiry in the same statement. */
export async function takeLink(tx: Tx, realm: Realm, token: string, now: number): Promise<LinkRow> {
  const link = await store.takeLink(tx, realm, hashToken(token), now);
  if (!link) throw linkGone();
  return link;
}

/**
 * A new password: whoever knew the old one, or holds another link of the account, is out.
 * Every other link of the account is used up and every other session ends.
 */
export async function setPassword(
  tx: Tx,
  realm: Realm,
  account: string,
  passwordHash: string,
  now: number,
  options: { keepSession?: string; email?: string } = {},
): Promise<void> {
  const email = options.email === undefined ? undefined : { email: options.email, email_norm: signInKey(options.email) };
  await store.setPassword(tx, realm, account, passwordHash, now, email);
  await store.useLinksOf(tx, realm, account, now);
  await store.deleteSessionsOf(tx, realm, account, options.keepSession ?? null);
}

/**
 * A password changed by its holder, who proves the current one (counted as signing in is):
 * the new one ends every other session and link of the account, this session kept.
 */
export async function changePassword(
  db: Db,
  realm: Realm,
  account: string,
  sessionId: string,
  current: string,
  next: string,
  now: number,
): Promise<void> {
  checkPasswordRules(next, 'new_password');
  try {
    await provePassword(db, realm, await store.credentialsById(db, realm, account), current, now);
  } catch (err) {
    if (err instanceof ServiceError && err.problems.some((p) => p.code === 'invalid_credentials')) {
      throw fail('invalid_credentials', 'the current password is wrong', { field: 'current_password' });
    }
    throw err;
  }
  const passwordHash = await hashPassword(next);
  await db.transaction((tx) => setPassword(tx, realm, account, passwordHash, now, { keepSession: sessionId }));
}

/**
 * A reset link for the account of an address, or undefined: no such account, or it was sent
 * RESETS_PER_HOUR already this hour. One reset link is live at a time: a new one uses up the last.
 */
export async function resetLinkFor(
  tx: Tx,
  realm: Realm,
  emailNorm: string,
  now: number,
  extra: { programId?: string } = {},
): Promise<{ account: Credentials; token: string } | undefined> {
  const account = await store.credentialsByEmail(tx, realm, emailNorm);
  if (!account?.email) return undefined;
  if ((await store.linksSince(tx, realm, account.id, 'reset', now - 3600)) >= RESETS_PER_HOUR) return undefined;
  await store.useLinksOf(tx, realm, account.id, now, 'reset');
  return { account, token: await makeLink(tx, realm, account.id, 'reset', now, extra) };
}

/**
 * Deletes what can open nothing any more: links an hour past their expiry (the reset limit
 * counts the last hour's), sessions idle past their lifetime and sign-in challenges past theirs, of both realms.
 */
export async function purgeExpired(db: Db, now: number): Promise<number> {
  let n = 0;
  for (const realm of REALMS) {
    n += await db.transaction((tx) => store.deleteExpired(tx, realm, now, SESSION_IDLE_SECONDS, 3600));
    n += await db.transaction((tx) => deleteExpiredChallenges(tx, realm, now));
  }
  return n;
}
