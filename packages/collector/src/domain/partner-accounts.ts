// Partners in the portal (docs/portal.md): an account is one person, with an e-mail and a
// password, across every program of this Tally they joined. They apply on a program's
// public page, or an owner invites them; a one-time link (an invitation, a password
// reset) lets them set a password. Sessions, links and lockout work as owners' do, in
// tables of their own: a partner's session opens nothing of an owner's, nor the reverse.

import { fail } from '../errors.js';
import type { Db, Queryable, Tx } from '../store/db.js';
import * as accounts from '../store/partner-accounts.js';
import type { AccountRow, PartnerSessionRow, ReachedPartnership } from '../store/partner-accounts.js';
import * as partnersStore from '../store/partners.js';
import type { PartnershipRow } from '../store/partnerships.js';
import * as programs from '../store/programs.js';
import type { ProgramRow } from '../store/programs.js';
import { emailProblem, normalizeEmail } from './email.js';
import { uuidv7 } from './ids.js';
import { LINK_SECONDS, lockSeconds, locked, newSecret, SESSION_IDLE_SECONDS, TOUCH_SECONDS } from './owners.js';
import { createPartner } from './partners.js';
import { insertPartnership } from './partnerships.js';
import { checkPasswordRules, decoyHash, hashPassword, verifyPassword } from './passwords.js';
import { hashToken } from './tokens.js';

/** Who signs in: the address, case-insensitive throughout, as for owners. */
const signInKey = (email: string): string => normalizeEmail(email).toLowerCase();

/** The path of a partner's one-time link; the public URL goes before it. */
export const partnerLinkPath = (token: string): string => `/portal/welcome#${token}`;

export interface NewPartnerSession {
  token: string;
  session: PartnerSessionRow;
}

export interface PartnerContext {
  session: PartnerSessionRow;
  account: AccountRow;
  touched: boolean;
}

function checkEmail(email: string, field = 'email'): string {
  const problem = emailProblem(email);
  if (problem) throw fail('invalid_email', problem, { field });
  return email.trim();
}

async function startSession(db: Queryable, accountId: string, now: number): Promise<NewPartnerSession> {
  const token = newSecret();
  const session: PartnerSessionRow = { id: uuidv7(now * 1000), hash: hashToken(token), account_id: accountId, created_at: now, last_seen_at: now };
  await accounts.insertSession(db, session);
  return { token, session };
}

async function makeLink(db: Queryable, accountId: string, now: number): Promise<string> {
  const token = newSecret();
  await accounts.insertLink(db, { hash: hashToken(token), account_id: accountId, expires_at: now + LINK_SECONDS, used_at: null });
  return token;
}

/** The account for an address, made (without a password) when there is none. */
async function accountFor(tx: Tx, email: string, now: number): Promise<AccountRow> {
  await tx.lock(`partner-account:${signInKey(email)}`);
  const existing = await accounts.accountByEmail(tx, signInKey(email));
  if (existing) return existing;
  const row: AccountRow = { id: uuidv7(now * 1000), email, email_norm: signInKey(email), password_hash: null, failed_count: 0, locked_until: null, created_at: now, updated_at: now };
  await accounts.insertAccount(tx, row);
  return row;
}

/** A program's public page, while it is up. */
export async function publicProgram(db: Queryable, slug: string): Promise<ProgramRow> {
  const program = await programs.getBySlug(db, slug.toLowerCase());
  if (!program || program.page_enabled !== 1) throw fail('not_found', `no program page ${slug}`);
  return program;
}

export interface Application {
  name: string;
  email: string;
  password: string;
  paypal_email?: string | null | undefined;
  note?: string | null | undefined;
}

export interface Applied {
  partnership: PartnershipRow;
  signedIn: NewPartnerSession;
}

/**
 * An application on the program's page: the account (a new one, or the applicant's own,
 * proven by its password), the program's partner record and a pending partnership
 * (accepted at once when the program says so). The applicant is signed in.
 */
export async function apply(db: Db, slug: string, input: Application, now: number): Promise<Applied> {
  const program = await publicProgram(db, slug);
  const email = checkEmail(input.email);
  if (input.paypal_email) checkEmail(input.paypal_email, 'paypal_email');
  const existing = await accounts.accountByEmail(db, signInKey(email));
  if (existing?.password_hash) {
    // Applying as someone who has an account already takes their password, as signing in does.
    if (!(await verifyPassword(input.password, existing.password_hash))) {
      throw fail('invalid_credentials', 'a partner account with this e-mail exists: give its password, or sign in to the portal first', { field: 'password' });
    }
  } else {
    checkPasswordRules(input.password);
  }
  const passwordHash = existing?.password_hash ? null : await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const account = await accountFor(tx, email, now);
    if (passwordHash) await accounts.setPassword(tx, account.id, passwordHash, now);
    let partner = await partnersStore.findByEmail(tx, program.id, normalizeEmail(email));
    if (partner && partner.account_id !== null && partner.account_id !== account.id) throw fail('conflict', 'this e-mail belongs to another partner of the program', { field: 'email' });
    partner ??= await createPartner(tx, program.id, { name: input.name.trim(), email, paypal_email: input.paypal_email || null }, now, account.id);
    await accounts.linkPartner(tx, program.id, partner.id, account.id);
    const partnership = await insertPartnership(
      tx,
      program.id,
      { partner_id: partner.id, state: program.auto_accept === 1 ? 'accepted' : 'pending', created_by: 'partner', application_note: input.note?.trim() || null },
      now,
    );
    return { partnership, signedIn: await startSession(tx, account.id, now) };
  });
}

export async function signIn(db: Db, rawEmail: string, password: string, now: number): Promise<NewPartnerSession> {
  const account = await accounts.accountByEmail(db, signInKey(rawEmail));
  if (account?.locked_until && account.locked_until > now) locked(account.locked_until, now);
  const ok = await verifyPassword(password, account?.password_hash ?? (await decoyHash()));
  const wrong = fail('invalid_credentials', 'the e-mail address or the password is wrong');
  if (!account?.password_hash) throw wrong;
  if (!ok) {
    const failures = account.failed_count + 1;
    const seconds = lockSeconds(failures);
    await db.transaction((tx) => accounts.recordFailure(tx, account.id, failures, seconds ? now + seconds : null));
    if (seconds) locked(now + seconds, now);
    throw wrong;
  }
  return db.transaction(async (tx) => {
    await accounts.clearFailures(tx, account.id);
    return startSession(tx, account.id, now);
  });
}

export async function authenticatePartner(db: Db, token: string, now: number): Promise<PartnerContext | undefined> {
  const session = await accounts.sessionByHash(db, hashToken(token));
  if (!session) return undefined;
  if (session.last_seen_at + SESSION_IDLE_SECONDS <= now) {
    await db.transaction((tx) => accounts.deleteSession(tx, session.id));
    return undefined;
  }
  const account = await accounts.accountById(db, session.account_id);
  if (!account) return undefined;
  const touched = now - session.last_seen_at >= TOUCH_SECONDS;
  if (touched) await db.transaction((tx) => accounts.touchSession(tx, session.id, now));
  return { session, account, touched };
}

export function signOutPartner(db: Db, sessionId: string): Promise<number> {
  return db.transaction((tx) => accounts.deleteSession(tx, sessionId));
}

/** A new password ends the account's other sessions. */
export async function changePartnerPassword(db: Db, session: PartnerSessionRow, current: string, next: string, now: number): Promise<void> {
  checkPasswordRules(next, 'new_password');
  const account = await accounts.accountById(db, session.account_id);
  if (!account?.password_hash || !(await verifyPassword(current, account.password_hash))) {
    throw fail('invalid_credentials', 'the current password is wrong', { field: 'current_password' });
  }
  const passwordHash = await hashPassword(next);
  await db.transaction(async (tx) => {
    await accounts.setPassword(tx, account.id, passwordHash, now);
    await accounts.deleteSessionsOf(tx, account.id, session.id);
  });
}

/**
 * An owner invites the program's partner to the portal: their account (made from the
 * partner's e-mail when they have none) and a one-time link to set a password, which
 * also serves a partner who forgot theirs.
 */
export async function invitePartner(db: Db, programId: string, partnerId: string, now: number): Promise<{ email: string; token: string }> {
  return db.transaction(async (tx) => {
    const partner = await partnersStore.get(tx, programId, partnerId);
    if (!partner) throw fail('not_found', `no partner ${partnerId}`);
    const account = partner.account_id ? await accounts.accountById(tx, partner.account_id) : await accountFor(tx, partner.email, now);
    if (!account) throw fail('not_found', `no partner ${partnerId}`);
    await accounts.linkPartner(tx, programId, partner.id, account.id);
    return { email: account.email, token: await makeLink(tx, account.id, now) };
  });
}

/** A reset asked for by the partner: a link for the account of that address, if there is one. */
export async function resetLink(db: Db, rawEmail: string, now: number): Promise<{ email: string; token: string } | undefined> {
  if (emailProblem(rawEmail)) return undefined;
  const account = await accounts.accountByEmail(db, signInKey(rawEmail));
  if (!account) return undefined;
  return { email: account.email, token: await db.transaction((tx) => makeLink(tx, account.id, now)) };
}

/** Sets the password of the link's account, uses the link up, ends other sessions and signs in. */
export async function redeemPartnerLink(db: Db, token: string, password: string, now: number): Promise<NewPartnerSession> {
  checkPasswordRules(password);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const hash = hashToken(token);
    const link = await accounts.linkByHash(tx, hash);
    if (!link || (await accounts.useLink(tx, hash, now)) === 0) {
      throw fail('not_found', 'this link is unknown, used or expired; ask for a new one');
    }
    await accounts.setPassword(tx, link.account_id, passwordHash, now);
    await accounts.deleteSessionsOf(tx, link.account_id, null);
    return startSession(tx, link.account_id, now);
  });
}

/** The partnerships the account reaches, in every program. */
export function partnershipsOf(db: Queryable, accountId: string): Promise<ReachedPartnership[]> {
  return accounts.partnershipsOf(db, accountId);
}

/** One of them, or 404 as for anything the account does not reach. */
export async function reachedPartnership(db: Queryable, accountId: string, id: string): Promise<ReachedPartnership> {
  const found = (await accounts.partnershipsOf(db, accountId)).find((p) => p.id === id);
  if (!found) throw fail('not_found', `no partnership ${id}`);
  return found;
}

/** The partner's name and PayPal address, as they give them, on every program's record of them. */
export async function updateProfile(db: Db, account: AccountRow, changes: { name?: string | undefined; paypal_email?: string | null | undefined }, now: number): Promise<void> {
  const fields: Parameters<typeof accounts.updatePartnerRecords>[2] = {};
  if (changes.name !== undefined) fields.name = changes.name.trim();
  if (changes.paypal_email !== undefined) {
    fields.paypal_email = changes.paypal_email === null ? null : checkEmail(changes.paypal_email, 'paypal_email');
    fields.paypal_email_norm = fields.paypal_email === null ? null : normalizeEmail(fields.paypal_email);
  }
  if (Object.keys(fields).length === 0) return;
  await db.transaction((tx) => accounts.updatePartnerRecords(tx, account.id, fields, now));
}
