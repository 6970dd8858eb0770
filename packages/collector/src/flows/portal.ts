// Partners in the portal (docs/portal.md): an account is one person, with an e-mail and a
// password, across every program of this Tally they joined. They apply on a program's
// public page, or an owner invites them; a one-time link (an invitation, a password
// reset) lets them set a password. Sessions, links and lockout work as owners' do, in
// tables of their own: a partner's session opens nothing of an owner's, nor the reverse.
//
// Nobody reaches an account, or a partnership, without its password or a one-time link
// (docs/decisions/0194-who-reaches-what.md): an application for an address that has an account
// takes the account's password, checked and counted as signing in does; an application
// never claims a partner record an owner made; an invitation links the owner's record to
// the account only when its link is used, and a link handed over by an owner sets the
// password only of an account that reaches nothing outside the owner's program.

import type { BillingFields } from '../core/billing.js';
import { fail, found } from '../platform/errors.js';
import * as commissions from '../modules/commissions/repo.js';
import type { EarningsRow } from '../modules/commissions/repo.js';
import type { Db, Queryable, Tx } from '../platform/db/db.js';
import { PARTNERS } from '../modules/identity/model.js';
import type { FieldFilter, Page, PageRequest } from '../platform/db/list.js';
import * as accounts from '../modules/portal/repo.js';
import * as referrals from '../modules/referrals/repo.js';
import * as codesRepo from '../modules/codes/repo.js';
import { createPartnerCode, promoteCodes } from '../modules/codes/service.js';
import type { AccountRow, PartnerSessionRow, ReachedPartnership } from '../modules/portal/repo.js';
import * as partnersStore from '../modules/partners/repo.js';
import type { PartnershipRow } from '../modules/partnerships/model.js';
import * as programs from '../modules/programs/repo.js';
import type { ProgramRow } from '../modules/programs/model.js';
import { minimumIn } from '../core/payout-terms.js';
import * as identity from '../modules/identity/service.js';
import { checkEmail, signInKey, WRONG_PASSWORD } from '../modules/identity/service.js';
import { normalizeEmail } from '../core/email.js';
import { uuidv7 } from '../core/ids.js';
import { type Locale, localeOf } from '../core/locale.js';
import { createPartner } from '../modules/partners/service.js';
import { insertPartnership } from './partnership.js';
import { recruitThrough } from './two-tier.js';
import { checkPasswordRules, hashPassword } from '../modules/identity/passwords.js';
import { type Owed, owedOf } from './payout-run.js';
import type { PayableSum } from '../modules/payouts/repo.js';
import { type GroupInWords, groupsTakingApplications, partnershipGroup } from '../modules/rewards/service.js';
import { hashToken } from '../modules/tokens/service.js';
import {
  type Challenged,
  type ChallengeRow,
  completeSecondFactor,
  hasSecondFactor,
  secondStep,
} from '../modules/identity/second-factor.js';
import { enqueueSecurityNotice } from '../modules/mail/outbox.js';

/** The path of a partner's one-time link; the public URL goes before it. */
export const partnerLinkPath = (token: string): string => `/portal/welcome#${token}`;

export type NewPartnerSession = identity.NewSession<PartnerSessionRow>;

export interface PartnerContext {
  session: PartnerSessionRow;
  account: AccountRow;
  touched: boolean;
}

const startSession = (tx: Tx, accountId: string, now: number): Promise<NewPartnerSession> =>
  identity.startSession<PartnerSessionRow>(tx, PARTNERS, accountId, now, { account_id: accountId });

/** A sign-in's answer: a session, or the challenge of its second step when the account has a factor. */
export type PartnerSignedIn = { session: NewPartnerSession } | Challenged;

/** After the password: the second step when the account has a factor, else a session. */
async function begin(tx: Tx, accountId: string, now: number): Promise<PartnerSignedIn> {
  return (await secondStep(tx, PARTNERS, accountId, now)) ?? { session: await startSession(tx, accountId, now) };
}

/** The second step of a partner's sign-in: a code from the authenticator app, or a recovery code. */
export function partnerSignInWithCode(db: Db, token: string, code: string, now: number): Promise<NewPartnerSession> {
  return completeSecondFactor(db, PARTNERS, token, code, now, enqueueSecurityNotice, (tx, c) => startSession(tx, c.account ?? '', now));
}

/** The session a partner's passkey sign-in proved. */
export const startPartnerSessionFrom = (tx: Tx, challenge: ChallengeRow, now: number): Promise<NewPartnerSession> =>
  startSession(tx, challenge.account ?? '', now);

/** newSecret's length: 32 bytes in base64url. */
const SECRET_CHARS = 43;

/** The partner record an invitation's token names; null for a password reset's. */
const invitedPartnerId = (token: string): string | null => (token.length > SECRET_CHARS ? token.slice(SECRET_CHARS) : null);

const accountLock = (emailNorm: string): string => `partner-account:${emailNorm}`;

async function insertAccount(tx: Tx, email: string, passwordHash: string | null, now: number): Promise<AccountRow> {
  const row: AccountRow = {
    id: uuidv7(now * 1000),
    email,
    email_norm: signInKey(email),
    password_hash: passwordHash,
    failed_count: 0,
    locked_until: null,
    created_at: now,
    updated_at: now,
  };
  await accounts.insertAccount(tx, row);
  return row;
}

/** The account for an address, made (without a password) when there is none. */
async function accountFor(tx: Tx, email: string, now: number): Promise<AccountRow> {
  await tx.lock(accountLock(signInKey(email)));
  return (await accounts.accountByEmail(tx, signInKey(email))) ?? insertAccount(tx, email, null, now);
}

const provePassword = async (
  db: Db,
  account: AccountRow | undefined,
  password: string,
  now: number,
  wrong?: string,
): Promise<AccountRow> => {
  await identity.provePassword(db, PARTNERS, account, password, now, wrong);
  return account!;
};

/** A program's public page, while it is up. */
export async function publicProgram(db: Queryable, slug: string): Promise<ProgramRow> {
  const program = await programs.getBySlug(db, slug.toLowerCase());
  if (program?.page_enabled !== 1) throw fail('not_found', `no program page ${slug}`);
  return program;
}

export interface Application {
  name: string;
  email: string;
  password: string;
  paypal_email?: string | null | undefined;
  note?: string | null | undefined;
  /** The slug of the group applied to (its own page); the default group when absent. */
  group?: string | undefined;
  /** The recruitment link's key the applicant came through (docs/two-tier.md). */
  via?: string | undefined;
}

export interface Applied {
  partnership: PartnershipRow;
  /** None when the account has a second factor: the applicant signs in with it next. */
  signedIn: NewPartnerSession | undefined;
}

/**
 * An application on the program's page: the account (a new one with the applicant's
 * password, or the applicant's own, proven by its password and counted as signing in
 * counts it), the program's partner record and a pending partnership (accepted at once
 * when the program says so). The applicant is signed in.
 *
 * An address with an account is never given a password here, nor signed in without the
 * account's own: an account with none yet (an invitation not yet used) is claimed only
 * through its link. Every check that does not need the account comes first, so a
 * malformed application is answered alike for any address; a wrong password is answered
 * as the sign-in form answers it, which says nothing of whether the address has an account.
 */
export async function apply(db: Db, slug: string, input: Application, now: number): Promise<Applied> {
  const program = await publicProgram(db, slug);
  const group = await groupApplied(db, program, input.group);
  const email = checkEmail(input.email);
  if (input.paypal_email) checkEmail(input.paypal_email, 'paypal_email');
  checkPasswordRules(input.password);
  const key = signInKey(email);
  const existing = await accounts.accountByEmail(db, key);
  // One scrypt either way: verifying the account's password, or hashing the new account's.
  const passwordHash = existing ? null : await hashPassword(input.password);
  if (existing) await provePassword(db, existing, input.password, now);
  return db.transaction(async (tx) => {
    await tx.lock(accountLock(key));
    const current = await accounts.accountByEmail(tx, key);
    // Made, or given a password, by another request since the check: refused as it would be now.
    if (current?.id !== existing?.id || current?.password_hash !== existing?.password_hash)
      throw fail('invalid_credentials', WRONG_PASSWORD);
    const account = current ?? (await insertAccount(tx, email, passwordHash, now));
    // A password alone opens no session of an account with a second factor, nor clears its failures.
    const guarded = current !== undefined && (await hasSecondFactor(tx, PARTNERS, account.id));
    if (current && !guarded) await identity.clearFailures(tx, PARTNERS, account.id);
    let partner = await partnersStore.findByEmail(tx, program.id, normalizeEmail(email));
    // A record the owner made for this address is claimed only through the owner's
    // invitation: an application proves no more than a password, never the address.
    if (partner && partner.account_id !== account.id) {
      throw fail('conflict', 'this e-mail address is a partner of this program already: ask the company for an invitation to the portal', {
        field: 'email',
      });
    }
    // A partner of other programs here keeps the language they chose in the portal.
    const locale = current ? (await profileOf(tx, account)).locale : null;
    partner ??= await createPartner(
      tx,
      program.id,
      { name: input.name.trim(), email, paypal_email: input.paypal_email || null, locale },
      now,
      account.id,
    );
    const partnership = await insertPartnership(
      tx,
      program.id,
      {
        partner_id: partner.id,
        state: group.autoAccept ? 'accepted' : 'pending',
        created_by: 'partner',
        group_id: group.id,
        application_note: input.note?.trim() || null,
      },
      now,
    );
    if (input.via) await recruitThrough(tx, partnership, { email, paypal_email: input.paypal_email }, input.via, now);
    return { partnership, signedIn: guarded ? undefined : await startSession(tx, account.id, now) };
  });
}

/** The group an application joins: the one its page names, or the default group; either must take applications. */
async function groupApplied(db: Queryable, program: ProgramRow, slug: string | undefined): Promise<GroupInWords> {
  const open = await groupsTakingApplications(db, program);
  const group = slug === undefined ? open.find((g) => g.isDefault) : open.find((g) => g.slug === slug);
  if (group) return group;
  if (slug === undefined)
    throw fail('missing_field', "this program takes applications through its groups' pages: name the group", { field: 'group' });
  throw fail('not_found', 'no group of this program takes applications under that name', { field: 'group' });
}

export async function signIn(db: Db, rawEmail: string, password: string, now: number): Promise<PartnerSignedIn> {
  const account = await provePassword(db, await accounts.accountByEmail(db, signInKey(rawEmail)), password, now);
  return db.transaction((tx) => begin(tx, account.id, now));
}

export async function authenticatePartner(db: Db, token: string, now: number): Promise<PartnerContext | undefined> {
  const session = await accounts.sessionByHash(db, hashToken(token));
  const kept = await identity.keepSession(db, PARTNERS, session, now);
  const account = session && kept && (await accounts.accountById(db, session.account_id));
  return account ? { session: session!, account, touched: kept!.touched } : undefined;
}

export function signOutPartner(db: Db, sessionId: string): Promise<number> {
  return identity.endSession(db, PARTNERS, sessionId);
}

/** A new password ends the account's other sessions and every link it holds. */
export function changePartnerPassword(db: Db, session: PartnerSessionRow, current: string, next: string, now: number): Promise<void> {
  return identity.changePassword(db, PARTNERS, session.account_id, session.id, current, next, now);
}

/**
 * An owner invites the program's partner to the portal: their account (made from the
 * partner's e-mail, without a password, when they have none) and a one-time link for it
 * that names the partner record. The record is linked to the account only when the link
 * is used: until then, whoever holds the account (who may have registered the address
 * without owning it) reaches nothing of this program's. The link also serves a partner of
 * this program alone who forgot their password (redeemPartnerLink).
 */
export async function invitePartner(
  tx: Tx,
  programId: string,
  partnerId: string,
  now: number,
  how: 'held' | 'mailed' = 'held',
): Promise<{ email: string; token: string; partner: partnersStore.PartnerRow }> {
  const partner = await partnerToInvite(tx, programId, partnerId);
  const account = partner.account_id ? await accounts.accountById(tx, partner.account_id) : await accountFor(tx, partner.email, now);
  if (!account) throw fail('not_found', `no partner ${partnerId}`);
  const token = await identity.makeLink(tx, PARTNERS, account.id, 'invitation', now, {
    suffix: partner.id,
    programId,
    held: how === 'held',
  });
  return { email: account.email, token, partner };
}

/** The language the account's e-mails speak: its records' choice, else its first program's, else English. */
export async function accountLocale(db: Queryable, accountId: string): Promise<Locale> {
  const [first] = await accounts.partnershipsOf(db, accountId);
  return localeOf(first?.partner_locale) ?? localeOf(first?.program_locale) ?? 'en';
}

/** The program's partner record an invitation is for, or 404. */
export async function partnerToInvite(tx: Queryable, programId: string, partnerId: string): Promise<partnersStore.PartnerRow> {
  const partner = await partnersStore.get(tx, programId, partnerId);
  if (!partner) throw fail('not_found', `no partner ${partnerId}`);
  return partner;
}

const contestedLink = () =>
  fail(
    'conflict',
    'this address is invited to another program here too, so its password is chosen only with a link sent to the address: ask for the invitation by e-mail, or use this link once the other invitation is used or has expired',
  );

/**
 * Uses a one-time link up and signs in. A reset's link (only ever e-mailed to the address)
 * sets the password. An invitation's link, which an owner may hold (handed over when there
 * is no SMTP), sets it only when the account reaches no other program than the owner's,
 * whose records that owner sees anyway; an account of other programs too takes its own
 * password instead, checked as signing in checks it (a forgotten one is reset by e-mail
 * first). Then the invitation links the owner's partner record to the account. A new
 * password ends the account's other sessions.
 */
export async function redeemPartnerLink(db: Db, token: string, password: string, now: number): Promise<PartnerSignedIn> {
  const link = await identity.peekLink(db, PARTNERS, token, now);
  const partnerId = invitedPartnerId(token);
  const partner = partnerId === null ? undefined : await accounts.invitedPartner(db, partnerId);
  if (partnerId !== null && !partner) throw identity.linkGone();
  const setsPassword = !partner || !(await accounts.reachesOtherProgram(db, link.account, partner.program_id));
  // A link the owner holds proves nothing of the address: while another program's invitation
  // of it is open, only a link e-mailed to it chooses the password (decision 0317).
  const contested = async (q: Queryable) =>
    partner !== undefined && link.held === 1 && (await accounts.invitedElsewhere(q, link.account, partner.program_id, now));
  if (setsPassword && (await contested(db))) throw contestedLink();
  let passwordHash: string | null = null;
  if (setsPassword) {
    checkPasswordRules(password);
    passwordHash = await hashPassword(password);
  } else {
    const wrong =
      'you are a partner of other programs here already: give the password of your partner account (forgot it? ask for a new one on the sign-in page)';
    await provePassword(db, await accounts.accountById(db, link.account), password, now, wrong);
  }
  return db.transaction(async (tx) => {
    await identity.takeLink(tx, PARTNERS, token, now);
    if (partner) {
      // The account joined another program since the check above: its password is needed now.
      if (setsPassword && (await accounts.reachesOtherProgram(tx, link.account, partner.program_id)))
        throw fail('conflict', 'your partner account changed meanwhile: try again');
      if (setsPassword && (await contested(tx))) throw contestedLink();
      if ((await accounts.linkPartner(tx, partner.program_id, partner.id, link.account)) === 0)
        throw fail('conflict', 'this partner record belongs to another partner account');
    }
    if (passwordHash) await identity.setPassword(tx, PARTNERS, link.account, passwordHash, now);
    return begin(tx, link.account, now);
  });
}

/** The partnerships the account reaches, in every program. */
export function partnershipsOf(db: Queryable, accountId: string): Promise<ReachedPartnership[]> {
  return accounts.partnershipsOf(db, accountId);
}

/** A page of them, newest first (the list of GET /v1/portal/partnerships). */
export function partnershipPage(
  db: Queryable,
  accountId: string,
  filters: readonly FieldFilter[],
  page: PageRequest,
): Promise<Page<ReachedPartnership>> {
  return accounts.partnershipPage(db, accountId, filters, page);
}

/** A list of the program's, narrowed to the partnership's partner (or the embed session's). */
const ofPartner =
  <T>(list: (db: Queryable, programId: string, filters: readonly FieldFilter[], page: PageRequest) => Promise<Page<T>>) =>
  (db: Queryable, p: { program_id: string; partner_id: string }, filters: readonly FieldFilter[], page: PageRequest): Promise<Page<T>> =>
    list(db, p.program_id, [...filters, { field: 'partner_id', op: 'eq', value: p.partner_id }], page);

/** The partnership's referrals, commissions and payout batches, each a page of the partner's own. */
export const partnerReferrals = ofPartner(referrals.list);
export const partnerCommissions = ofPartner(commissions.list);
export const partnerCodes = ofPartner(codesRepo.codes);

/** A code the partner makes for an accepted partnership of theirs, within the program's rules; in Stripe too, where the program makes codes there. */
export async function makePartnerCode(db: Db, p: ReachedPartnership, code: string, now: number, stripeApiUrl: string | undefined) {
  if (p.state !== 'accepted') throw fail('invalid_transition', 'a code is for an accepted partnership');
  const program = found(await programs.get(db, p.program_id), 'program', p.program_id);
  const row = await db.transaction((tx) => createPartnerCode(tx, program, p.id, code, now));
  await promoteCodes(db, program, p.id, now, stripeApiUrl);
  return (await codesRepo.getCode(db, program.id, row.id)) ?? row;
}
export const partnerPayouts = (db: Queryable, p: ReachedPartnership, filters: readonly FieldFilter[], page: PageRequest) =>
  accounts.payoutPage(db, p.program_id, p.partner_id, filters, page);

/** The account a new session signed in to. */
export async function accountOf(db: Queryable, made: NewPartnerSession): Promise<AccountRow> {
  return (await accounts.accountById(db, made.session.account_id))!;
}

/** The account as the portal shows it: its name and PayPal address are its partner records' (the same in every program). */
export async function profileOf(db: Queryable, account: AccountRow): Promise<Profile> {
  const [first] = await accounts.partnershipsOf(db, account.id);
  return {
    account,
    name: first?.partner_name ?? '',
    paypalEmail: first?.paypal_email ?? null,
    locale: localeOf(first?.partner_locale) ?? null,
    billing: {
      billing_name: first?.billing_name ?? null,
      billing_address: first?.billing_address ?? null,
      billing_vat_id: first?.billing_vat_id ?? null,
    },
  };
}

export interface Profile {
  account: AccountRow;
  name: string;
  paypalEmail: string | null;
  /** The language chosen in the portal; null: the browser's, else the program's. */
  locale: Locale | null;
  /** What their invoices print; the same on every program's record of them. */
  billing: BillingFields;
}

/** One of them, or 404 as for anything the account does not reach. */
export async function reachedPartnership(db: Queryable, accountId: string, id: string): Promise<ReachedPartnership> {
  const found = (await accounts.partnershipsOf(db, accountId)).find((p) => p.id === id);
  if (!found) throw fail('not_found', `no partnership ${id}`);
  return found;
}

/** The partner's name, PayPal address, language and billing details, as they give them, on every program's record of them. */
export async function updateProfile(
  db: Db,
  account: AccountRow,
  changes: {
    name?: string | undefined;
    paypal_email?: string | null | undefined;
    locale?: Locale | null | undefined;
    billing?: Partial<BillingFields>;
  },
  now: number,
): Promise<void> {
  const fields: Parameters<typeof accounts.updatePartnerRecords>[2] = {};
  if (changes.name !== undefined) fields.name = changes.name.trim();
  if (changes.paypal_email !== undefined) {
    fields.paypal_email = changes.paypal_email === null ? null : checkEmail(changes.paypal_email, 'paypal_email');
    fields.paypal_email_norm = fields.paypal_email === null ? null : normalizeEmail(fields.paypal_email);
  }
  if (changes.locale !== undefined) fields.locale = changes.locale;
  Object.assign(fields, changes.billing);
  if (Object.keys(fields).length === 0) return;
  await db.transaction((tx) => accounts.updatePartnerRecords(tx, account.id, fields, now));
}

/** Why the next payout export pays a partner nothing of what is payable in a currency. */
export type HeldBack = 'below_minimum' | 'clawbacks_exceed_earnings' | 'no_paypal_email' | 'no_tax_form' | 'not_accepted';

export interface PartnerEarnings extends EarningsRow {
  nextPayout: {
    /** What the next export would pay the partner in this currency; 0 when it pays nothing. */
    amount: number;
    /** Why it pays nothing of `payable`; null when it pays it, or when nothing is payable. */
    heldBack: HeldBack | null;
    /** The least a payout may be in this currency (1 minor unit when none is set). */
    minimum: number;
  };
}

/**
 * Why the next export leaves the partner's payable commissions where they are, from what
 * owedNow, the payouts' own rule, says of them: its `due`, then the export's checks in
 * their order (an address first, a valid tax form where the program requires one, then the
 * net: not above zero, then below the minimum),
 * as the dashboard's Payouts page reads them. owedNow leaves out a partnership that is not
 * accepted, which no export pays.
 */
function heldBack(p: ReachedPartnership, owed: Owed | undefined, payableCount: number): HeldBack | null {
  if (owed) {
    if (owed.due) return null;
    if (owed.reason === 'no valid tax form') return 'no_tax_form';
    return owed.paypalEmail === null ? 'no_paypal_email' : owed.amount <= 0 ? 'clawbacks_exceed_earnings' : 'below_minimum';
  }
  return payableCount > 0 && p.state !== 'accepted' ? 'not_accepted' : null;
}

/** A partnership's payable commissions in one currency, as owedNow's query would sum them. */
const payableSum = (p: ReachedPartnership, r: EarningsRow & { currency: string }): PayableSum => ({
  partner_id: p.partner_id,
  partner_name: p.partner_name,
  paypal_email: p.paypal_email,
  currency: r.currency,
  amount: Number(r.payable),
  commissions: Number(r.payable_count),
  program_minimum: p.program_minimum_payout,
  group_minimum: p.group_minimum_payout,
  partnership_minimum: p.minimum_payout,
});

/** A partnership of the account's with its earnings per currency. */
export interface PartnershipWithEarnings {
  partnership: ReachedPartnership;
  earnings: PartnerEarnings[];
  /** Its group, with each reward in words. */
  group: GroupInWords;
}

/**
 * The partnerships' earnings per currency, and what the next payout export would pay them:
 * exactly what modules/payouts/service.ts would put in its file (net of clawbacks, at least the
 * minimum, to a PayPal address), or nothing and why. One read sums every partnership's
 * commissions, and what it sums as payable is weighed as owedNow weighs it (owedOf).
 */
export async function withEarnings(db: Queryable, list: readonly ReachedPartnership[], now: number): Promise<PartnershipWithEarnings[]> {
  const rows = await commissions.earningsOf(
    db,
    list.map((p) => p.partner_id),
    now,
  );
  return Promise.all(
    list.map(async (p) => {
      const mine = rows.filter((r) => r.partner_id === p.partner_id);
      // What the export would pay, weighed by its own rule (owedOf) from the sums read above;
      // it pays no partnership that is not accepted.
      const payable = p.state === 'accepted' ? mine.filter((r) => Number(r.payable_count) > 0) : [];
      const owed = await Promise.all(payable.map((r) => owedOf(db, p.program_id, payableSum(p, r), now)));
      const earnings = mine.map(({ partner_id: _, ...r }) => {
        const due = owed.find((o) => o.currency === r.currency);
        return {
          ...r,
          nextPayout: {
            amount: due?.due ? due.amount : 0,
            heldBack: heldBack(p, due, Number(r.payable_count)),
            minimum: minimumIn(
              { program: p.program_minimum_payout, group: p.group_minimum_payout, partnership: p.minimum_payout },
              r.currency,
            ),
          },
        };
      });
      return { partnership: p, earnings, group: await partnershipGroup(db, p.program_id, p.group_id, false) };
    }),
  );
}
