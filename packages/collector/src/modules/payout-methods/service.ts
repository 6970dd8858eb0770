// How a partner is paid (docs/payouts.md, "How partners are paid"): the method a partner
// record of a program has chosen (PayPal, Stripe Connect Express or Wise), what makes it
// ready, and the program's rules for which methods it offers and to which countries.
// Providers are called before any transaction opens, so no lock waits on their answers.

import { createHash, randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import { fail } from '../../platform/errors.js';
import type { Db, Queryable, Tx } from '../../platform/db/db.js';
import { normalizeEmail } from '../../core/email.js';
import { currencyCode } from '../../core/money.js';
import type { ProgramRow } from '../programs/model.js';
import { getPartner } from '../partners/service.js';
import { enqueueMail } from '../mail/outbox.js';
import { LINK_SECONDS } from '../identity/service.js';
import { stripeClient, stripeErrors } from '../stripe/client.js';
import { payoutAccount } from '../stripe/objects.js';
import * as repo from './repo.js';
import type { MethodName, NotReady, PayoutMethod, PayoutMethodRow, Schedule, Settings, SettingsRow } from './model.js';
import { type Recipient, type Requirement, WiseApi } from './wise.js';

/** What a program offers before its owner says otherwise: PayPal alone, as the CSV export always paid. */
export const DEFAULT_SETTINGS: Settings = {
  offered: ['paypal'],
  countries: {},
  wiseApiToken: null,
  wiseProfileId: null,
  wiseSourceCurrency: 'USD',
  schedule: { every: 'off', day: 1, timeZone: 'UTC', setAt: null },
};

/** The largest day of month a monthly schedule takes: every month has it. */
export const LAST_SCHEDULE_DAY = 28;

/** What Wise is asked to price requirements with: they depend on the currencies, not on the sum. */
const WISE_SAMPLE_AMOUNT = 1000;

export async function settingsOf(db: Queryable, programId: string): Promise<Settings> {
  const row = await repo.settings(db, programId);
  if (!row) return DEFAULT_SETTINGS;
  return {
    offered: JSON.parse(row.offered) as MethodName[],
    countries: JSON.parse(row.countries) as Settings['countries'],
    wiseApiToken: row.wise_api_token,
    wiseProfileId: row.wise_profile_id,
    wiseSourceCurrency: row.wise_source_currency,
    schedule: scheduleOf(row),
  };
}

const scheduleOf = (r: SettingsRow): Schedule => ({
  every: r.schedule,
  day: r.schedule_day,
  timeZone: r.schedule_time_zone,
  setAt: r.schedule_set_at,
});

/** Each program whose payout schedule is on, and its schedule. */
export async function scheduledPrograms(db: Queryable): Promise<{ programId: string; schedule: Schedule }[]> {
  return (await repo.scheduled(db)).map((r) => ({ programId: r.program_id, schedule: scheduleOf(r) }));
}

const sameSchedule = (a: Schedule, b: Schedule) => a.every === b.every && a.day === b.day && a.timeZone === b.timeZone;

/** A schedule's day fits its period: a weekday 1–7, or a day of month 1–28. */
function checkSchedule(s: Settings['schedule']): void {
  const last = s.every === 'weekly' ? 7 : LAST_SCHEDULE_DAY;
  if (s.every !== 'off' && (s.day < 1 || s.day > last))
    throw fail('invalid_field', `a ${s.every} schedule's day is 1 to ${last}`, { field: 'schedule/day' });
}

export async function updateSettings(db: Db, programId: string, changes: Partial<Settings>, now: number): Promise<Settings> {
  return db.transaction(async (tx) => {
    const before = await settingsOf(tx, programId);
    const next = { ...before, ...changes };
    if (next.offered.length === 0) throw fail('invalid_field', 'a program offers at least one payout method', { field: 'offered' });
    next.offered = [...new Set(next.offered)];
    checkSchedule(next.schedule);
    // A changed schedule counts from now: the period it would have begun earlier is not made late.
    // The same schedule saved again (the dashboard's form saves all) keeps its time.
    next.schedule = { ...next.schedule, setAt: sameSchedule(before.schedule, next.schedule) ? before.schedule.setAt : now };
    await repo.putSettings(tx, {
      program_id: programId,
      offered: JSON.stringify(next.offered),
      countries: JSON.stringify(next.countries),
      wise_api_token: next.wiseApiToken,
      wise_profile_id: next.wiseProfileId,
      wise_source_currency: currencyCode(next.wiseSourceCurrency, 'wise_source_currency'),
      schedule: next.schedule.every,
      schedule_day: next.schedule.day,
      schedule_time_zone: next.schedule.timeZone,
      schedule_set_at: next.schedule.setAt,
      updated_at: now,
    });
    return next;
  });
}

/** May a partner in `country` use `method`? A method without a country list is open to all; one with a list needs a country on it. */
export function allows(settings: Settings, method: MethodName, country: string | null): boolean {
  if (!settings.offered.includes(method)) return false;
  const only = settings.countries[method];
  return only === undefined || (country !== null && only.includes(country));
}

/** The methods a partner in `country` may choose (every offered one when the country is not known yet). */
export function offeredTo(settings: Settings, country: string | null): MethodName[] {
  return settings.offered.filter((m) => country === null || allows(settings, m, country));
}

function checkAllowed(settings: Settings, method: MethodName, country: string | null): void {
  if (!settings.offered.includes(method)) {
    throw fail('invalid_field', `this program does not pay through ${method}: it offers ${settings.offered.join(', ')}`, {
      field: 'method',
    });
  }
  if (!allows(settings, method, country)) {
    throw fail('invalid_field', `this program does not pay partners in ${country ?? 'an unnamed country'} through ${method}`, {
      field: 'country',
    });
  }
}

const parseDue = (row: PayoutMethodRow): string[] => JSON.parse(row.stripe_currently_due) as string[];

/** Why the chosen method cannot pay yet (the program's rules first), or null. */
function notReady(row: PayoutMethodRow, settings: Settings): NotReady | null {
  if (!settings.offered.includes(row.method)) return 'not_offered';
  if (!allows(settings, row.method, row.country)) return 'country_not_allowed';
  switch (row.method) {
    case 'paypal':
      return row.paypal_confirmed_at === null ? 'unconfirmed' : null;
    case 'stripe_connect':
      if (row.stripe_payouts_enabled !== 1) return 'onboarding';
      return parseDue(row).length > 0 ? 'requirements_due' : null;
    case 'wise':
      return row.wise_recipient_id === null ? 'onboarding' : null;
  }
}

export interface MethodView {
  /** The chosen method's row; undefined for a partner who never chose one. */
  row: PayoutMethodRow | undefined;
  method: PayoutMethod;
  settings: Settings;
}

/**
 * The partner's method and readiness. A partner who never chose one is paid by PayPal at
 * the address on their record (the CSV export's): only the owner sets it, so it is vouched
 * for and ready (decision 0373).
 */
export async function methodView(db: Queryable, programId: string, partnerId: string): Promise<MethodView> {
  const partner = await getPartner(db, programId, partnerId);
  return viewOf(partner.paypal_email, await settingsOf(db, programId), await repo.get(db, programId, partnerId));
}

/**
 * The views of many partners at once, each by the PayPal address on their record: a payout
 * run reads its partners' methods a page at a time, in two statements, not three per partner.
 */
export async function methodViews(
  db: Queryable,
  programId: string,
  partners: ReadonlyMap<string, string | null>,
): Promise<Map<string, MethodView>> {
  const settings = await settingsOf(db, programId);
  const rows = new Map((await repo.getMany(db, programId, [...partners.keys()])).map((r) => [r.partner_id, r]));
  return new Map([...partners].map(([id, legacy]) => [id, viewOf(legacy, settings, rows.get(id))]));
}

/** The view from what it is made of: the address on the partner's record, the program's settings and their chosen method's row. */
function viewOf(legacy: string | null, settings: Settings, row: PayoutMethodRow | undefined): MethodView {
  if (!row) {
    const reason: NotReady | null = !legacy ? 'no_method' : !settings.offered.includes('paypal') ? 'not_offered' : null;
    return {
      row,
      settings,
      method: {
        method: legacy ? 'paypal' : null,
        ready: reason === null,
        reason,
        country: null,
        paypalEmail: legacy,
        stripeAccountId: null,
        wiseRecipientId: null,
        wiseCurrency: null,
      },
    };
  }
  const reason = notReady(row, settings);
  return {
    row,
    settings,
    method: {
      method: row.method,
      ready: reason === null,
      reason,
      country: row.country,
      paypalEmail: row.method === 'paypal' ? row.paypal_email : null,
      stripeAccountId: row.method === 'stripe_connect' ? row.stripe_account_id : null,
      wiseRecipientId: row.method === 'wise' ? row.wise_recipient_id : null,
      wiseCurrency: row.method === 'wise' ? row.wise_currency : null,
    },
  };
}

/** For a payout run (modules/payout-runs): how the partner is paid and whether they may be now. */
export async function payoutMethodOf(db: Queryable, programId: string, partnerId: string): Promise<PayoutMethod> {
  return (await methodView(db, programId, partnerId)).method;
}

/** A new row for the method, keeping what the partner's other methods hold (a Stripe account made once). */
export function chosen(
  before: PayoutMethodRow | undefined,
  programId: string,
  partnerId: string,
  method: MethodName,
  country: string | null,
  now: number,
): PayoutMethodRow {
  return {
    program_id: programId,
    partner_id: partnerId,
    paypal_email: null,
    paypal_confirmed_at: null,
    confirm_hash: null,
    confirm_expires_at: null,
    stripe_account_id: null,
    stripe_payouts_enabled: 0,
    stripe_currently_due: '[]',
    stripe_synced_at: 0,
    wise_recipient_id: null,
    wise_currency: null,
    wise_display: null,
    created_at: now,
    ...before,
    method,
    country,
    updated_at: now,
  };
}

/** The subject of a confirmation in the mail outbox: the partner record, in its program. */
export const confirmationSubject = (programId: string, partnerId: string): string => `${programId}:${partnerId}`;

/**
 * PayPal at `email`: confirmed at once when it is one of `ownAddresses` (the partner's
 * sign-in address, their record's), else by the link the outbox e-mails to it. True when
 * confirmed now.
 */
export async function choosePaypal(
  tx: Tx,
  programId: string,
  partnerId: string,
  input: { email: string; country: string | null; ownAddresses: readonly string[] },
  now: number,
): Promise<boolean> {
  checkAllowed(await settingsOf(tx, programId), 'paypal', input.country);
  const before = await repo.get(tx, programId, partnerId);
  const own = input.ownAddresses.map(normalizeEmail).includes(normalizeEmail(input.email));
  const same =
    before?.method === 'paypal' && before.paypal_email !== null && normalizeEmail(before.paypal_email) === normalizeEmail(input.email);
  const confirmedAt = own ? now : same ? before.paypal_confirmed_at : null;
  await repo.put(tx, {
    ...chosen(before, programId, partnerId, 'paypal', input.country, now),
    paypal_email: input.email,
    paypal_confirmed_at: confirmedAt,
    confirm_hash: null,
    confirm_expires_at: null,
  });
  if (confirmedAt === null) await enqueueMail(tx, 'payout_confirmation', confirmationSubject(programId, partnerId), programId, now);
  return confirmedAt !== null;
}

const sha256 = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The confirmation link for an outbox row, made as it is sent: its token is kept only as
 * its hash. Undefined when there is nothing to confirm any more (confirmed, or changed to another method).
 */
export async function confirmationFor(
  tx: Tx,
  subject: string,
  now: number,
): Promise<{ programId: string; partnerId: string; email: string; token: string } | undefined> {
  const [programId = '', partnerId = ''] = subject.split(':');
  const row = await repo.get(tx, programId, partnerId);
  if (row?.method !== 'paypal' || row.paypal_confirmed_at !== null || !row.paypal_email) return undefined;
  const token = randomBytes(32).toString('base64url');
  await repo.setConfirmation(tx, programId, partnerId, sha256(token), now + LINK_SECONDS);
  return { programId, partnerId, email: row.paypal_email, token };
}

/** Confirms the PayPal address a link was sent to; 404 for a link unknown, used, expired or replaced. */
export async function confirmPaypal(tx: Tx, token: string, now: number): Promise<PayoutMethodRow> {
  const row = await repo.byConfirmHash(tx, sha256(token));
  if (!row || (await repo.confirm(tx, sha256(token), now)) === 0) {
    throw fail('not_found', 'this confirmation link is unknown, used, expired or replaced by a newer one');
  }
  return { ...row, paypal_confirmed_at: now, confirm_hash: null, confirm_expires_at: null, updated_at: now };
}

function stripeOf(program: ProgramRow, apiUrl: string | undefined): Promise<Stripe> {
  if (!program.stripe_api_key) {
    throw fail('invalid_field', 'this program has no Stripe API key yet: its owner sets one to pay through Stripe Connect', {
      field: 'method',
    });
  }
  return stripeClient(program.stripe_api_key, apiUrl);
}

/** Stripe's refusal as the API's error; the program's key is the owner's to fix. */
function stripeRefused(err: unknown): Error {
  const errors = stripeErrors();
  if (!errors || !(err instanceof errors.StripeError)) return err instanceof Error ? err : new Error(String(err));
  if (err instanceof errors.StripeAuthenticationError || err instanceof errors.StripePermissionError) {
    return fail('invalid_field', `Stripe refused the program's API key: ${err.message} (it needs write access to Connect accounts)`, {
      field: 'stripe_api_key',
    });
  }
  if (err instanceof errors.StripeInvalidRequestError)
    return fail('invalid_field', `Stripe refused: ${err.message}`, { field: err.param ?? 'country' });
  return fail('unavailable', 'Stripe did not answer; nothing was made: try again');
}

const callingStripe = async <T>(call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (err) {
    throw stripeRefused(err);
  }
};

/**
 * Stripe Connect: the partner's Express account on the program's own platform account,
 * made once (an idempotency key per partner record, so a retry makes no second one); its
 * onboarding is an Account Link (onboardingLink).
 */
export async function chooseStripe(
  db: Db,
  program: ProgramRow,
  partnerId: string,
  input: { country: string; email: string },
  apiUrl: string | undefined,
  now: number,
): Promise<void> {
  checkAllowed(await settingsOf(db, program.id), 'stripe_connect', input.country);
  const before = await repo.get(db, program.id, partnerId);
  let account = before?.stripe_account_id ?? null;
  if (!account) {
    const stripe = await stripeOf(program, apiUrl);
    const made = await callingStripe(() =>
      stripe.accounts.create(
        {
          type: 'express',
          country: input.country,
          email: input.email,
          capabilities: { transfers: { requested: true } },
          metadata: { tally_program_id: program.id, tally_partner_id: partnerId },
        },
        { idempotencyKey: `tally-payout-account-${program.id}-${partnerId}` },
      ),
    );
    account = made.id;
  }
  await db.transaction(async (tx) => {
    const current = await repo.get(tx, program.id, partnerId);
    const synced = current?.stripe_account_id === account;
    await repo.put(tx, {
      ...chosen(current, program.id, partnerId, 'stripe_connect', input.country, now),
      stripe_account_id: account,
      ...(synced ? {} : { stripe_payouts_enabled: 0, stripe_currently_due: '[]', stripe_synced_at: 0 }),
    });
  });
}

async function stripeAccountOf(db: Queryable, programId: string, partnerId: string): Promise<string> {
  const row = await repo.get(db, programId, partnerId);
  if (row?.method !== 'stripe_connect' || !row.stripe_account_id) {
    throw fail('conflict', 'choose Stripe Connect as the payout method first (POST …/payout_method with method stripe_connect)');
  }
  return row.stripe_account_id;
}

/** An Account Link onboarding the partner's Express account; Stripe sends them back to `returnUrl` (or `refreshUrl` when it expired). */
export async function onboardingLink(
  db: Queryable,
  program: ProgramRow,
  partnerId: string,
  urls: { returnUrl: string; refreshUrl: string },
  apiUrl: string | undefined,
): Promise<{ url: string; expires_at: number }> {
  const account = await stripeAccountOf(db, program.id, partnerId);
  const stripe = await stripeOf(program, apiUrl);
  const link = await callingStripe(() =>
    stripe.accountLinks.create({ account, type: 'account_onboarding', return_url: urls.returnUrl, refresh_url: urls.refreshUrl }),
  );
  return { url: link.url, expires_at: link.expires_at };
}

/** Reads the partner's account from Stripe now (they came back from onboarding), as account.updated would tell it. */
export async function refreshStripe(
  db: Db,
  program: ProgramRow,
  partnerId: string,
  apiUrl: string | undefined,
  now: number,
): Promise<void> {
  const account = await stripeAccountOf(db, program.id, partnerId);
  const stripe = await stripeOf(program, apiUrl);
  const read = payoutAccount((await callingStripe(() => stripe.accounts.retrieve(account))) as unknown as Record<string, unknown>);
  await db.transaction((tx) => repo.syncStripe(tx, program.id, account, { ...read, at: now }, now));
}

/**
 * Stripe's account.updated for a connected account: applied when it is newer than what is
 * held. 'unknown': no partner of the program has the account.
 */
export async function applyStripeAccount(
  tx: Tx,
  programId: string,
  fact: { account: string; payoutsEnabled: boolean; currentlyDue: string[]; at: number },
  now: number,
): Promise<'applied' | 'older' | 'unknown'> {
  const row = await repo.byStripeAccount(tx, programId, fact.account);
  if (!row) return 'unknown';
  return (await repo.syncStripe(tx, programId, fact.account, fact, now)) > 0 ? 'applied' : 'older';
}

function wiseOf(settings: Settings, apiUrl: string | undefined): WiseApi & { profile: string } {
  if (!settings.wiseApiToken || !settings.wiseProfileId) {
    throw fail('invalid_field', 'this program has no Wise API token and profile yet: its owner sets them to pay through Wise', {
      field: 'method',
    });
  }
  return Object.assign(new WiseApi(settings.wiseApiToken, apiUrl), { profile: settings.wiseProfileId });
}

/** The bank details Wise asks of a recipient in `currency`: the forms (account types) and their fields. */
export async function wiseRequirements(
  db: Queryable,
  programId: string,
  currency: string,
  apiUrl: string | undefined,
): Promise<Requirement[]> {
  const settings = await settingsOf(db, programId);
  if (!settings.offered.includes('wise')) checkAllowed(settings, 'wise', null);
  return wiseOf(settings, apiUrl).requirements(settings.wiseSourceCurrency, currencyCode(currency), WISE_SAMPLE_AMOUNT);
}

export interface WiseInput {
  country: string;
  currency: string;
  /** The requirement's type: iban, sort_code, aba… */
  type: string;
  accountHolderName: string;
  details: Record<string, unknown>;
}

/** Wise: a recipient made from the partner's bank details; Tally keeps its id and a masked line, not the details. */
export async function chooseWise(
  db: Db,
  programId: string,
  partnerId: string,
  input: WiseInput,
  apiUrl: string | undefined,
  now: number,
): Promise<Recipient> {
  const settings = await settingsOf(db, programId);
  checkAllowed(settings, 'wise', input.country);
  const wise = wiseOf(settings, apiUrl);
  const recipient = await wise.createRecipient({
    profile: wise.profile,
    currency: currencyCode(input.currency),
    type: input.type,
    accountHolderName: input.accountHolderName,
    details: input.details,
  });
  await db.transaction(async (tx) => {
    const before = await repo.get(tx, programId, partnerId);
    await repo.put(tx, {
      ...chosen(before, programId, partnerId, 'wise', input.country, now),
      wise_recipient_id: recipient.id,
      wise_currency: recipient.currency,
      wise_display: recipient.display,
    });
  });
  return recipient;
}
