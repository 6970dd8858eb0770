// The people who run programs in the dashboard (docs/api.md, "Sign-in and sessions").
// A user signs in with an e-mail and a password and holds a session, which acts for one
// of the user's programs at a time. A one-time link (24 h) lets a new user set a password:
// the first start prints one, and every invitation makes one.

import { randomBytes } from 'node:crypto';
import { fail } from '../errors.js';
import type { Db, Queryable } from '../store/db.js';
import type { ProgramRow } from '../store/programs.js';
import * as users from '../store/users.js';
import type { Membership, SessionRow, UserRow } from '../store/users.js';
import { emailProblem, normalizeEmail } from './email.js';
import { uuidv7 } from './ids.js';
import { checkPasswordRules, decoyHash, hashPassword, verifyPassword } from './passwords.js';
import { hashToken } from './tokens.js';

export const LINK_SECONDS = 24 * 3600;
export const SESSION_IDLE_SECONDS = 14 * 24 * 3600;
/** A session's last use is written at most this often, not on every request. */
export const TOUCH_SECONDS = 60;
/** Wrong passwords in a row before the account locks. */
export const LOCK_AFTER = 5;
const LOCK_FIRST_SECONDS = 60;
const LOCK_MAX_SECONDS = 3600;

/**
 * Who signs in: the address as typed, case-insensitive throughout. People type their own
 * address in many cases, and two owners told apart only by case would be a trap.
 */
const signInKey = (email: string): string => normalizeEmail(email).toLowerCase();

/** What the browser holds (a cookie, a link's fragment); the database keeps its hash. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

export interface NewSession {
  /** For the cookie, shown once. */
  token: string;
  session: SessionRow;
}

export interface SessionContext {
  session: SessionRow;
  program: ProgramRow;
  /** Its last use was written now: the cookie's lifetime starts again too. */
  touched: boolean;
}

/** The path of a one-time link; the server's public URL goes before it. */
export const linkPath = (token: string): string => `/dashboard/welcome#${token}`;

async function makeLink(db: Queryable, userId: string, programId: string, now: number): Promise<string> {
  const token = newSecret();
  await users.insertLink(db, { hash: hashToken(token), user_id: userId, program_id: programId, expires_at: now + LINK_SECONDS, used_at: null });
  return token;
}

async function startSession(db: Queryable, userId: string, programId: string, now: number): Promise<NewSession> {
  const token = newSecret();
  const session: SessionRow = { id: uuidv7(now * 1000), hash: hashToken(token), user_id: userId, program_id: programId, created_at: now, last_seen_at: now };
  await users.insertSession(db, session);
  return { token, session };
}

function newUser(email: string | null, now: number): UserRow {
  return {
    id: uuidv7(now * 1000),
    email,
    email_norm: email === null ? null : signInKey(email),
    password_hash: null,
    failed_count: 0,
    locked_until: null,
    created_at: now,
    updated_at: now,
  };
}

function checkEmail(email: string, field = 'email'): string {
  const problem = emailProblem(email);
  if (problem) throw fail('invalid_email', problem, { field });
  return email.trim();
}

/** The first start's owner: no e-mail yet; the link lets them choose one and a password. */
export async function firstOwnerLink(db: Db, programId: string, now: number): Promise<string> {
  return db.transaction(async (tx) => {
    const user = newUser(null, now);
    await users.insertUser(tx, user);
    await users.addMembership(tx, user.id, programId, now);
    return makeLink(tx, user.id, programId, now);
  });
}

export interface Invitation {
  user: UserRow;
  /** A one-time link token, unless the user can sign in already (then they just switch programs). */
  link: string | null;
}

/** Makes the person an owner of the program; a new link each time until they set a password. */
export async function invite(db: Db, programId: string, rawEmail: string, now: number): Promise<Invitation> {
  const email = checkEmail(rawEmail);
  return db.transaction(async (tx) => {
    // Two invitations of one new address at once: the second waits and finds the first's user.
    await tx.lock(`user:${signInKey(email)}`);
    let user = await users.userByEmail(tx, signInKey(email));
    if (!user) {
      user = newUser(email, now);
      await users.insertUser(tx, user);
    }
    await users.addMembership(tx, user.id, programId, now);
    return { user, link: user.password_hash === null ? await makeLink(tx, user.id, programId, now) : null };
  });
}

export interface Redemption {
  /** Required when the link's user has no e-mail yet (the first start's). */
  email?: string | undefined;
  password: string;
}

/** Sets the link's user's password (and e-mail), uses the link up, and signs them in. */
export async function redeem(db: Db, linkToken: string, input: Redemption, now: number): Promise<NewSession> {
  checkPasswordRules(input.password);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const hash = hashToken(linkToken);
    const link = await users.linkByHash(tx, hash);
    if (!link || link.used_at !== null || link.expires_at <= now || (await users.useLink(tx, hash, now)) === 0) {
      throw fail('not_found', 'this sign-in link is unknown, used or expired; ask for a new one');
    }
    const user = await users.userById(tx, link.user_id);
    if (!user) throw fail('not_found', 'the user of this sign-in link was removed');
    if (user.email === null) {
      if (!input.email) throw fail('missing_field', 'choose the e-mail address you will sign in with', { field: 'email' });
      const email = checkEmail(input.email);
      if (await users.userByEmail(tx, signInKey(email))) {
        throw fail('conflict', 'another user signs in with this e-mail address', { field: 'email' });
      }
      await users.setCredentials(tx, user.id, { email, email_norm: signInKey(email), password_hash: passwordHash }, now);
    } else {
      await users.setCredentials(tx, user.id, { password_hash: passwordHash }, now);
    }
    return startSession(tx, user.id, link.program_id, now);
  });
}

/** Seconds an account stays locked after `failures` wrong passwords in a row. */
export function lockSeconds(failures: number): number {
  if (failures < LOCK_AFTER) return 0;
  return Math.min(LOCK_FIRST_SECONDS * 2 ** (failures - LOCK_AFTER), LOCK_MAX_SECONDS);
}

export function locked(until: number, now: number): never {
  throw fail('account_locked', 'too many wrong passwords in a row: this account is locked for a while', { retryAfter: until - now });
}

export async function signIn(db: Db, rawEmail: string, password: string, now: number): Promise<NewSession> {
  const user = await users.userByEmail(db, signInKey(rawEmail));
  if (user?.locked_until && user.locked_until > now) locked(user.locked_until, now);
  // An unknown address costs the same scrypt as a wrong password, and answers the same.
  const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
  const wrong = fail('invalid_credentials', 'the e-mail address or the password is wrong');
  if (!user?.password_hash) throw wrong;
  const memberships = await users.membershipsOfUser(db, user.id);
  if (!ok) {
    const failures = user.failed_count + 1;
    const seconds = lockSeconds(failures);
    await db.transaction((tx) => users.recordFailure(tx, user.id, failures, seconds ? now + seconds : null));
    if (seconds) locked(now + seconds, now);
    throw wrong;
  }
  const first = memberships[0];
  if (!first) throw fail('forbidden', 'this user runs no program any more; ask an owner to invite you again');
  return db.transaction(async (tx) => {
    await users.clearFailures(tx, user.id);
    return startSession(tx, user.id, first.program_id, now);
  });
}

/** The session behind a cookie, while it is fresh and its user still runs its program. */
export async function authenticateSession(db: Db, token: string, now: number): Promise<SessionContext | undefined> {
  const found = await users.sessionByHash(db, hashToken(token));
  if (!found) return undefined;
  if (found.session.last_seen_at + SESSION_IDLE_SECONDS <= now) {
    await db.transaction((tx) => users.deleteSession(tx, found.session.id));
    return undefined;
  }
  const touched = now - found.session.last_seen_at >= TOUCH_SECONDS;
  if (touched) await db.transaction((tx) => users.touchSession(tx, found.session.id, now));
  return { ...found, touched };
}

export function signOut(db: Db, sessionId: string): Promise<number> {
  return db.transaction((tx) => users.deleteSession(tx, sessionId));
}

/** A new password ends every other session of the user: whoever knew the old one is out. */
export async function changePassword(db: Db, session: SessionRow, current: string, next: string, now: number): Promise<void> {
  checkPasswordRules(next, 'new_password');
  const user = await users.userById(db, session.user_id);
  if (!user?.password_hash || !(await verifyPassword(current, user.password_hash))) {
    throw fail('invalid_credentials', 'the current password is wrong', { field: 'current_password' });
  }
  const passwordHash = await hashPassword(next);
  await db.transaction(async (tx) => {
    await users.setCredentials(tx, user.id, { password_hash: passwordHash }, now);
    await users.deleteSessionsOf(tx, user.id, session.id);
  });
}

export async function switchProgram(db: Db, session: SessionRow, programId: string): Promise<void> {
  const memberships = await users.membershipsOfUser(db, session.user_id);
  if (!memberships.some((m) => m.program_id === programId)) throw fail('not_found', `no program ${programId}`);
  await db.transaction((tx) => users.switchSession(tx, session.id, programId));
}

export interface SessionInfo {
  user: UserRow;
  memberships: Membership[];
}

export async function sessionInfo(db: Queryable, session: SessionRow): Promise<SessionInfo> {
  const user = await users.userById(db, session.user_id);
  if (!user) throw fail('unauthorized', 'this session has ended');
  return { user, memberships: await users.membershipsOfUser(db, user.id) };
}

export function listMembers(db: Queryable, programId: string): Promise<Membership[]> {
  return users.membersOfProgram(db, programId);
}

export async function getMember(db: Queryable, programId: string, userId: string): Promise<Membership> {
  const member = (await users.membersOfProgram(db, programId)).find((m) => m.user_id === userId);
  if (!member) throw fail('not_found', `no member ${userId}`);
  return member;
}

/**
 * Ends the user's part in the program and the sessions acting for it; a user left with
 * no program is deleted, with the rest of their sessions and links.
 */
export async function removeMember(db: Db, programId: string, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    if ((await users.removeMembership(tx, userId, programId)) === 0) throw fail('not_found', `no member ${userId}`);
    await users.deleteProgramSessionsOf(tx, userId, programId);
    if ((await users.countMemberships(tx, userId))?.n === 0) await users.deleteUser(tx, userId);
  });
}

/** The CLI's `users remove`: the person loses every program and every session. */
export async function removeUser(db: Db, rawEmail: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const user = await users.userByEmail(tx, signInKey(rawEmail));
    return user !== undefined && (await users.deleteUser(tx, user.id)) === 1;
  });
}

export function allMembers(db: Queryable): Promise<Membership[]> {
  return users.allMemberships(db);
}
