// The people who run programs in the dashboard (docs/api.md, "Sign-in and sessions"). A
// user signs in with an e-mail and a password (modules/identity/service.ts) and holds a session,
// which acts for one of the user's programs at a time, in the role they have there.
//
// A program's owner reaches a person only through an invitation, which is theirs alone:
// its link, handed over, creates the account of an address that has none, and adds an
// existing user only when that user proves their password. No link an owner holds sets
// or resets the password of an account that belongs, or is invited, elsewhere
// (docs/decisions/0220-owners-invitations.md): while another program's invitation of the
// address is open, only a link e-mailed to the address creates its account (decision 0317).

import { fail } from '../../platform/errors.js';
import type { Db, Queryable, Tx } from '../../platform/db/db.js';
import { type Credentials, OWNERS } from '../identity/model.js';
import type { ProgramRow } from '../programs/model.js';
import * as users from './repo.js';
import type { InvitationRow, Membership, Role, SessionRow, UserRow } from './repo.js';
import * as identity from '../identity/service.js';
import { checkEmail, LINK_SECONDS, signInKey } from '../identity/service.js';
import { uuidv7 } from '../../core/ids.js';
import type { Locale } from '../../core/locale.js';
import { checkPasswordRules, hashPassword } from '../identity/passwords.js';
import { hashToken } from '../tokens/service.js';
import { enqueueMail, enqueueSecurityNotice } from '../mail/outbox.js';
import {
  type Challenged,
  type ChallengeRow,
  completeEnrolment,
  completeSecondFactor,
  hasSecondFactor,
  secondStep,
  startEnrolment,
  type TotpEnrolment,
} from '../identity/second-factor.js';

export { newSecret, SESSION_IDLE_SECONDS } from '../identity/service.js';

export type NewSession = identity.NewSession<SessionRow>;
/** A sign-in's answer: a session, or the challenge of its second step (a code, or enrolment a program requires). */
export type SignedIn = { session: NewSession } | Challenged;

export interface SessionContext {
  session: SessionRow;
  program: ProgramRow;
  role: Role;
  /** Its last use was written now: the cookie's lifetime starts again too. */
  touched: boolean;
}

/** The path of a one-time link; the server's public URL goes before it. */
export const linkPath = (token: string): string => `/dashboard/welcome#${token}`;

function newUser(email: string | null, now: number): UserRow {
  return {
    id: uuidv7(now * 1000),
    email,
    email_norm: email === null ? null : signInKey(email),
    password_hash: null,
    failed_count: 0,
    locked_until: null,
    locale: null,
    created_at: now,
    updated_at: now,
  };
}

const startSession = (tx: Tx, userId: string, programId: string, now: number): Promise<NewSession> =>
  identity.startSession<SessionRow>(tx, OWNERS, userId, now, { user_id: userId, program_id: programId });

/** After the password: a session, or the second step when the user has a factor or a program of theirs requires one. */
async function begin(tx: Tx, userId: string, programId: string, now: number): Promise<SignedIn> {
  const required = await users.twoFactorRequired(tx, userId);
  const step = await secondStep(tx, OWNERS, userId, now, { programId, required });
  return step ?? { session: await startSession(tx, userId, programId, now) };
}

/** The session a sign-in's challenge was for, while its user still runs that program (else their first). */
export async function startFrom(tx: Tx, challenge: ChallengeRow, now: number): Promise<NewSession> {
  const userId = challenge.account ?? '';
  const memberships = await users.membershipsOfUser(tx, userId);
  const member = memberships.find((m) => m.program_id === challenge.program_id) ?? memberships[0];
  if (!member) throw fail('forbidden', 'this user runs no program any more; ask an owner to invite you again');
  return startSession(tx, userId, member.program_id, now);
}

/** The second step of signing in: a code from the authenticator app, or a recovery code. */
export function signInWithCode(db: Db, token: string, code: string, now: number): Promise<NewSession> {
  return completeSecondFactor(db, OWNERS, token, code, now, enqueueSecurityNotice, (tx, c) => startFrom(tx, c, now));
}

/** Enrolment during sign-in, for a member of a program that requires a second factor. */
export function enrolOnSignIn(db: Db, token: string, now: number): Promise<TotpEnrolment> {
  return startEnrolment(db, OWNERS, token, 'Tally', now);
}

export function confirmOnSignIn(db: Db, input: { token: string; factorId: string; code: string }, now: number) {
  return completeEnrolment(db, OWNERS, input, now, enqueueSecurityNotice, (tx, c) => startFrom(tx, c, now));
}

/** The first start's owner: no e-mail yet; the link lets them choose one and a password. */
export async function firstOwnerLink(db: Db, programId: string, now: number): Promise<string> {
  return db.transaction(async (tx) => {
    const user = newUser(null, now);
    await users.insertUser(tx, user);
    await users.addMembership(tx, user.id, programId, 'owner', now);
    return identity.makeLink(tx, OWNERS, user.id, 'first', now, { programId });
  });
}

export interface Invitation {
  invitation: InvitationRow;
  /** The one-time link's token, to hand over. */
  link: string;
}

/**
 * Invites an address to run the program in a role: an invitation and its link, the same
 * whether or not the address is a user anywhere here. Inviting again makes a new link and
 * the old one stops working. Someone who runs the program already is a conflict.
 */
export async function invite(db: Db, programId: string, rawEmail: string, now: number, role: Role): Promise<Invitation> {
  const email = checkEmail(rawEmail);
  const token = identity.newSecret();
  return db.transaction(async (tx) => {
    const user = await users.userByEmail(tx, signInKey(email));
    if (user && (await users.membersOfProgram(tx, programId)).some((m) => m.user_id === user.id)) {
      throw fail('conflict', 'this person runs the program already', { field: 'email' });
    }
    const row: InvitationRow = {
      id: uuidv7(now * 1000),
      program_id: programId,
      email,
      email_norm: signInKey(email),
      role,
      hash: hashToken(token),
      created_at: now,
      expires_at: now + LINK_SECONDS,
    };
    return { invitation: await users.upsertInvitation(tx, row), link: token };
  });
}

/**
 * The end of an invitation's link that went by e-mail to the address (covered by its hash,
 * so no one can add it to a link they hold): whoever uses it reads the address's mail.
 */
const MAILED = '.mailed';

/** The e-mail outbox, when SMTP is configured: a link for the address is sent through it. */
export interface Mailing {
  kick(): void;
}

/** An open invitation's link to e-mail to its address, replacing the one its owner holds. */
export async function mailedInvitation(tx: Tx, id: string, now: number): Promise<Invitation | undefined> {
  const token = identity.newSecret() + MAILED;
  const invitation = await users.rehashInvitation(tx, id, hashToken(token), now);
  return invitation && { invitation, link: token };
}

export interface Redemption {
  /** Required when the link's user has no e-mail yet (the first start's). */
  email?: string | undefined;
  password: string;
}

/**
 * Uses a one-time link and signs in. A link of the user's own (the first start's, a reset,
 * or an invitation made before invitations were kept apart) sets the password, unless it
 * is an old invitation of a user who runs another program too: then, as for an
 * invitation of an address that has an account, the password is the account's own.
 */
export async function redeem(db: Db, token: string, input: Redemption, now: number, mailing?: Mailing): Promise<SignedIn> {
  const hash = hashToken(token);
  const invitation = await users.invitationByHash(db, hash);
  if (invitation) return acceptInvitation(db, invitation, token, input, now, mailing);
  const link = await identity.peekLink(db, OWNERS, token, now);
  const user = await users.userById(db, link.account);
  if (!user) throw identity.linkGone();
  const programId = link.program_id ?? '';
  const elsewhere =
    (await users.membershipsOfUser(db, user.id)).some((m) => m.program_id !== programId) ||
    (user.email_norm !== null && (await users.invitedElsewhere(db, user.email_norm, programId, now)));
  if (link.purpose === 'invitation' && (user.password_hash !== null || elsewhere)) {
    await identity.provePassword(db, OWNERS, user, input.password, now);
    return db.transaction(async (tx) => {
      await identity.takeLink(tx, OWNERS, token, now);
      return begin(tx, user.id, programId, now);
    });
  }
  checkPasswordRules(input.password);
  if (user.email === null && !input.email)
    throw fail('missing_field', 'choose the e-mail address you will sign in with', { field: 'email' });
  const email = user.email === null ? checkEmail(input.email ?? '') : undefined;
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    await identity.takeLink(tx, OWNERS, token, now);
    if (email !== undefined && (await users.userByEmail(tx, signInKey(email)))) {
      throw fail('conflict', 'another user signs in with this e-mail address', { field: 'email' });
    }
    await identity.setPassword(tx, OWNERS, user.id, passwordHash, now, email === undefined ? {} : { email });
    const memberships = await users.membershipsOfUser(tx, user.id);
    const member = memberships.find((m) => m.program_id === programId) ?? memberships[0];
    if (!member) throw fail('forbidden', 'this user runs no program any more; ask an owner to invite you again');
    return begin(tx, user.id, member.program_id, now);
  });
}

/**
 * A held link that would choose the password of an address another program has invited:
 * the link goes to the address instead (its reader may be that program's invitee), or,
 * without SMTP, nobody chooses it until only one invitation of the address is open.
 */
async function mailInstead(db: Db, invitation: InvitationRow, now: number, mailing: Mailing | undefined): Promise<never> {
  const why = 'this address is invited to another program here too, so its password is chosen only with a link sent to the address';
  if (!mailing) throw fail('conflict', `${why}, and this Tally sends no e-mail: accept once the other invitation is withdrawn or used`);
  await db.transaction((tx) => enqueueMail(tx, 'owner_invitation', invitation.id, invitation.program_id, now));
  mailing.kick();
  throw fail('conflict', `${why}: one is on its way there, and this link stops working`);
}

/**
 * An invitation's link: a new account for an address that has none, with the password
 * chosen now (while another program has invited the address too, only by the link that
 * was e-mailed to it); for an existing user, that user's own password, checked and
 * counted as signing in counts it. Either way the person joins the program in the invited role.
 */
async function acceptInvitation(
  db: Db,
  invitation: InvitationRow,
  token: string,
  input: Redemption,
  now: number,
  mailing: Mailing | undefined,
): Promise<SignedIn> {
  if (invitation.expires_at <= now) throw identity.linkGone();
  const existing = await users.userByEmail(db, invitation.email_norm);
  const held = !token.endsWith(MAILED);
  const contested = (q: Queryable) => users.invitedElsewhere(q, invitation.email_norm, invitation.program_id, now);
  if (!existing && held && (await contested(db))) return mailInstead(db, invitation, now, mailing);
  let passwordHash: string | null = null;
  if (existing) {
    const wrong = 'this address has an account here already: give its password to accept (forgot it? reset it from the sign-in page)';
    await identity.provePassword(db, OWNERS, existing, input.password, now, wrong);
  } else {
    checkPasswordRules(input.password);
    passwordHash = await hashPassword(input.password);
  }
  return db.transaction(async (tx) => {
    const taken = await users.takeInvitation(tx, hashToken(token), now);
    if (!taken) throw identity.linkGone();
    await tx.lock(`user:${taken.email_norm}`);
    const current = await users.userByEmail(tx, taken.email_norm);
    // Made by another request since the check: its password is needed, so try again.
    if (current?.id !== existing?.id) throw fail('conflict', 'this address got an account meanwhile: try again with its password');
    if (!current && held && (await contested(tx))) throw fail('conflict', 'this address was invited elsewhere meanwhile: try again');
    let user = current;
    if (!user) {
      user = newUser(taken.email, now);
      await users.insertUser(tx, user);
      await identity.setPassword(tx, OWNERS, user.id, passwordHash!, now);
    }
    await users.addMembership(tx, user.id, taken.program_id, taken.role, now);
    return begin(tx, user.id, taken.program_id, now);
  });
}

export async function signIn(db: Db, rawEmail: string, password: string, now: number): Promise<SignedIn> {
  const user = await identity.provePassword(db, OWNERS, await users.userByEmail(db, signInKey(rawEmail)), password, now);
  const first = (await users.membershipsOfUser(db, user.id))[0];
  if (!first) throw fail('forbidden', 'this user runs no program any more; ask an owner to invite you again');
  return db.transaction((tx) => begin(tx, user.id, first.program_id, now));
}

/** The session behind a cookie, while it is fresh and its user still runs its program. */
export async function authenticateSession(db: Db, token: string, now: number): Promise<SessionContext | undefined> {
  const found = await users.sessionByHash(db, hashToken(token));
  const kept = await identity.keepSession(db, OWNERS, found?.session, now);
  return found && kept && { ...found, touched: kept.touched };
}

export function signOut(db: Db, sessionId: string): Promise<number> {
  return identity.endSession(db, OWNERS, sessionId);
}

/** A new password ends every other session of the user and every link they hold. */
export function changePassword(db: Db, session: SessionRow, current: string, next: string, now: number): Promise<void> {
  return identity.changePassword(db, OWNERS, session.user_id, session.id, current, next, now);
}

/** A reset link for an owner, which signs in to their first program; undefined for no owner, or past the hourly limit. */
export async function ownerReset(tx: Tx, emailNorm: string, now: number): Promise<{ account: Credentials; token: string } | undefined> {
  const user = await users.userByEmail(tx, emailNorm);
  const first = user && (await users.membershipsOfUser(tx, user.id))[0];
  return first && identity.resetLinkFor(tx, OWNERS, emailNorm, now, { programId: first.program_id });
}

/** The CLI's `users reset`: the link's token. */
export async function ownerResetLink(db: Db, rawEmail: string, now: number): Promise<string | undefined> {
  return (await db.transaction((tx) => ownerReset(tx, signInKey(rawEmail), now)))?.token;
}

export async function switchProgram(db: Db, session: SessionRow, programId: string): Promise<void> {
  const memberships = await users.membershipsOfUser(db, session.user_id);
  if (!memberships.some((m) => m.program_id === programId)) throw fail('not_found', `no program ${programId}`);
  if ((await users.teamSettings(db, programId)).require_two_factor && !(await hasSecondFactor(db, OWNERS, session.user_id))) {
    throw fail('two_factor_required', 'this program requires a second factor of its team: add one under Settings → Security first');
  }
  await db.transaction((tx) => users.switchSession(tx, session.id, programId));
}

/** The signed-in owner's own account: the dashboard's language (null: their browser's). */
export async function updateAccount(
  db: Db,
  session: SessionRow,
  changes: { locale?: Locale | null | undefined },
  now: number,
): Promise<void> {
  if (changes.locale === undefined) return;
  const locale = changes.locale;
  await db.transaction((tx) => users.setUserLocale(tx, session.user_id, locale, now));
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

/** A member, or an invitation not yet accepted (`active: false`, its id the invitation's). */
export interface Member {
  id: string;
  email: string | null;
  role: Role;
  active: boolean;
  created_at: number;
}

const ofMembership = (m: Membership): Member => ({
  id: m.user_id,
  email: m.email,
  role: m.role,
  active: m.active,
  created_at: m.created_at,
});

/** The program's members, then its open invitations. */
export async function listMembers(db: Queryable, programId: string, now: number): Promise<Member[]> {
  const invited = (await users.invitationsOfProgram(db, programId)).filter((i) => i.expires_at > now);
  return [
    ...(await users.membersOfProgram(db, programId)).map(ofMembership),
    ...invited.map((i) => ({ id: i.id, email: i.email, role: i.role, active: false, created_at: i.created_at })),
  ];
}

export async function getMember(db: Queryable, programId: string, id: string, now: number): Promise<Member> {
  const member = (await listMembers(db, programId, now)).find((m) => m.id === id);
  if (!member) throw fail('not_found', `no member ${id}`);
  return member;
}

const lastOwner = () => fail('conflict', 'a program keeps at least one owner: make someone else an owner first');

/** A member's new role; the last owner keeps theirs. */
export async function changeRole(db: Db, programId: string, userId: string, role: Role): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.lock(`members:${programId}`);
    const member = (await users.membersOfProgram(tx, programId)).find((m) => m.user_id === userId);
    if (!member) throw fail('not_found', `no member ${userId}`);
    if (member.role === 'owner' && role !== 'owner' && (await users.countOwners(tx, programId)) <= 1) throw lastOwner();
    await users.setRole(tx, userId, programId, role);
  });
}

/**
 * Ends the user's part in the program and the sessions acting for it, or withdraws an
 * invitation; a user left with no program is deleted, with the rest of their sessions and
 * links. The last owner stays.
 */
export async function removeMember(db: Db, programId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if ((await users.deleteInvitation(tx, programId, id)) === 1) return;
    await tx.lock(`members:${programId}`);
    const member = (await users.membersOfProgram(tx, programId)).find((m) => m.user_id === id);
    if (!member) throw fail('not_found', `no member ${id}`);
    if (member.role === 'owner' && (await users.countOwners(tx, programId)) <= 1) throw lastOwner();
    await users.removeMembership(tx, id, programId);
    await users.deleteProgramSessionsOf(tx, id, programId);
    if ((await users.countMemberships(tx, id))?.n === 0) await users.deleteUser(tx, id);
  });
}

/** The CLI's `users remove`: the person loses every program and every session. */
export async function removeUser(db: Db, rawEmail: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const user = await users.userByEmail(tx, signInKey(rawEmail));
    return user !== undefined && (await users.deleteUser(tx, user.id)) === 1;
  });
}

/** The user of that e-mail address and the programs they run, for the CLI's audit entries of `users remove`. */
export async function programsOfUser(db: Queryable, rawEmail: string): Promise<{ userId: string; programIds: string[] } | undefined> {
  const user = await users.userByEmail(db, signInKey(rawEmail));
  if (!user) return undefined;
  const programIds = (await users.allMemberships(db)).filter((m) => m.user_id === user.id).map((m) => m.program_id);
  return { userId: user.id, programIds };
}

export function allMembers(db: Queryable): Promise<Membership[]> {
  return users.allMemberships(db);
}

/** Invitations past their link's life: they can be accepted no more. */
export function purgeInvitations(db: Db, now: number): Promise<number> {
  return db.transaction((tx) => users.deleteExpiredInvitations(tx, now));
}

export const teamSettings = (db: Queryable, programId: string) => users.teamSettings(db, programId);

/** Whether the user must keep a second factor: a program of theirs requires one. */
export const mustKeepFactor = (db: Queryable, userId: string): Promise<boolean> => users.twoFactorRequired(db, userId);

/**
 * Requires (or no longer requires) a second factor of the program's team. Requiring it
 * ends the program's sessions of members who have none: they enrol at their next sign-in.
 * An owner who requires it from the dashboard must have one, or they would lock themself out.
 */
export async function setTeamTwoFactor(db: Db, programId: string, required: boolean, by: SessionRow | undefined, now: number) {
  if (required && by && !(await hasSecondFactor(db, OWNERS, by.user_id))) {
    throw fail('conflict', 'add a second factor to your own account first (Settings → Security)', { field: 'require_two_factor' });
  }
  await db.transaction(async (tx) => {
    await users.setTeamSettings(tx, programId, required, now);
    if (!required) return;
    for (const m of await users.membersWithoutFactor(tx, programId)) await users.deleteProgramSessionsOf(tx, m.user_id, programId);
  });
  return users.teamSettings(db, programId);
}
