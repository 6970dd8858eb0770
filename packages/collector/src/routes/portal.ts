// The partner portal's API (docs/api.md §27): a partner signed in sees their own
// partnerships, in every program they joined, and under each only their own records:
// clicks and totals, referrals with masked e-mails, commissions and payouts. Everything
// is reached through a partnership of the account, so any other id is a 404.

import { z } from 'zod';
import { maskEmail } from '../domain/email.js';
import {
  changePartnerPassword,
  earningsOf,
  partnershipPage,
  partnershipsOf,
  reachedPartnership,
  redeemPartnerLink,
  signIn,
  signOutPartner,
  updateProfile,
  type NewPartnerSession,
} from '../domain/partner-accounts.js';
import { PASSWORD_MAX } from '../domain/passwords.js';
import { statsSeries } from '../domain/stats.js';
import { states } from '../domain/state-machines.js';
import { dateTime, oneOf, type ListSpec } from '../http/list-query.js';
import { listEnvelope } from '../http/render.js';
import type { Resource } from '../views/resource.js';
import { route, type Reply, type RouteInput } from '../http/route.js';
import { one, page, resource, unixTime } from '../http/schemas.js';
import * as commissions from '../store/commissions.js';
import type { CommissionRow } from '../store/commissions.js';
import type { Db } from '../store/db.js';
import type { FieldFilter, Page, PageRequest } from '../store/list.js';
import * as accounts from '../store/partner-accounts.js';
import type { AccountRow, PartnerPayoutRow, ReachedPartnership } from '../store/partner-accounts.js';
import * as referrals from '../store/referrals.js';
import type { ReferralRow } from '../store/referrals.js';
import { resetRoute } from './auth.js';
import { email } from './fields.js';
import { seriesAnswer, seriesQuery, seriesSchema } from './stats.js';
import { referralLink } from '../views/records.js';

const password = z.string().max(PASSWORD_MAX);

const partnershipSchema = resource('portal_partnership', {
  program_id: z.string(),
  program_name: z.string(),
  state: z.enum(['pending', 'accepted', 'declined']),
  referral_link: z.string().nullable().meta({ description: 'Only while accepted: a declined or pending partner has no link to share' }),
  key: z.string().nullable(),
  competitor_slugs: z.array(z.string()),
  commission_rate_bps: z.number().int(),
  earnings: z.record(
    z.string(),
    z.object({
      pending: z.number().int(),
      payable: z
        .number()
        .int()
        .meta({ description: 'Past the holding period, not held by a dispute and in no payout batch, net of clawbacks' }),
      paid: z.number().int(),
      next_payable_at: unixTime.nullable(),
      next_payout: z.object({
        amount: z.number().int().meta({
          description: 'What the next payout export would pay the partner in this currency: `payable`, or 0 when it pays nothing',
        }),
        reason: z
          .enum(['below_minimum', 'clawbacks_exceed_earnings', 'no_paypal_email', 'not_accepted'])
          .nullable()
          .meta({ description: 'Why the next export pays nothing of `payable`; null when it pays it, or when nothing is payable' }),
        minimum: z
          .number()
          .int()
          .meta({ description: 'The least a payout may be in this currency, in minor units (1 when the program sets none)' }),
      }),
    }),
  ),
  created_at: unixTime,
});

async function renderPartnership(db: Db, p: ReachedPartnership, now: number): Promise<Resource> {
  const accepted = p.state === 'accepted';
  const earnings = Object.fromEntries(
    (await earningsOf(db, p, now)).map((e) => [
      e.currency,
      {
        pending: Number(e.pending),
        payable: Number(e.payable),
        paid: Number(e.paid),
        next_payable_at: e.next_payable_at === null ? null : Number(e.next_payable_at),
        next_payout: { amount: e.nextPayout.amount, reason: e.nextPayout.heldBack, minimum: e.nextPayout.minimum },
      },
    ]),
  );
  return {
    id: p.id,
    type: 'portal_partnership',
    attributes: {
      program_id: p.program_id,
      program_name: p.program_name,
      state: p.state,
      referral_link: accepted ? referralLink(p.program_site_url, p.key) : null,
      key: accepted ? p.key : null,
      competitor_slugs: accepted ? (JSON.parse(p.competitor_slugs) as string[]) : [],
      commission_rate_bps: p.commission_rate_bps ?? p.program_rate_bps,
      earnings,
      created_at: p.created_at,
    },
  };
}

const referralSchema = resource('portal_referral', {
  state: z.string(),
  email: z.string().meta({ description: 'Masked: j•••@e•••.com' }),
  created_at: unixTime,
  state_set_at: unixTime,
});

const renderReferral = (r: ReferralRow): Resource => ({
  id: r.id,
  type: 'portal_referral',
  attributes: { state: r.state, email: r.email ? maskEmail(r.email) : '•••', created_at: r.created_at, state_set_at: r.state_set_at },
});

const commissionSchema = resource('portal_commission', {
  state: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  reject_reason: z.string().optional(),
  payable_at: unixTime,
  on_hold: z.boolean(),
  clawback: z.boolean(),
  paid_at: unixTime.optional(),
  created_at: unixTime,
});

const renderCommission = (c: CommissionRow): Resource => ({
  id: c.id,
  type: 'portal_commission',
  attributes: {
    state: c.state,
    amount: c.amount,
    currency: c.currency,
    ...(c.state === 'rejected' && c.reject_reason ? { reject_reason: c.reject_reason } : {}),
    payable_at: Number(c.payable_at),
    on_hold: Number(c.on_hold) === 1,
    clawback: c.clawback_of !== null,
    ...(c.state === 'paid' && c.paid_at ? { paid_at: Number(c.paid_at) } : {}),
    created_at: c.created_at,
  },
});

const BATCH_STATES = ['open', 'paid', 'cancelled'] as const;

const payoutSchema = resource('portal_payout', {
  currency: z.string(),
  amount: z.number().int().meta({ description: "The partner's share of the batch" }),
  commissions: z.number().int(),
  state: z.enum(BATCH_STATES),
  created_at: unixTime,
  paid_at: unixTime.nullable(),
});

const renderPayout = (b: PartnerPayoutRow): Resource => ({
  id: b.id,
  type: 'portal_payout',
  attributes: {
    currency: b.currency,
    amount: Number(b.amount),
    commissions: Number(b.commissions),
    state: b.state,
    created_at: Number(b.created_at),
    paid_at: b.paid_at === null ? null : Number(b.paid_at),
  },
});

const accountSchema = resource('partner_account', {
  email: z.string(),
  name: z.string(),
  paypal_email: z.string().nullable(),
});

async function renderAccount(db: Db, account: AccountRow) {
  const [first] = await partnershipsOf(db, account.id);
  return {
    data: {
      id: account.id,
      type: 'partner_account',
      attributes: { email: account.email, name: first?.partner_name ?? '', paypal_email: first?.paypal_email ?? null },
    },
  };
}

async function signedIn(db: Db, made: NewPartnerSession): Promise<Reply> {
  const account = (await accounts.accountById(db, made.session.account_id))!;
  return { status: 200, partnerSession: { token: made.token }, body: await renderAccount(db, account) };
}

/** The partner's own account; partner routes always have one. */
const me = (input: RouteInput<unknown, unknown>): AccountRow => input.account as AccountRow;

/** The routes under one of the account's partnerships: `:id` is the partnership's. */
const under = (path: string) => `/v1/portal/partnerships/:id${path}`;

/** A list under one of the account's partnerships: the list envelope, filters and paging of every list. */
function partnershipList<T>(
  path: string,
  summary: string,
  spec: ListSpec,
  list: (db: Db, p: ReachedPartnership, filters: readonly FieldFilter[], page: PageRequest) => Promise<Page<T>>,
  render: (row: T) => Resource,
  schema: z.ZodType,
) {
  return route({
    method: 'get',
    path: under(path),
    summary,
    access: 'partner',
    list: spec,
    status: 200,
    response: page(schema),
    async handle(input) {
      const p = await reachedPartnership(input.db, me(input).id, input.params.id ?? '');
      return { status: 200, body: listEnvelope(await list(input.db, p, input.list.filters, input.list.page), input.list.page, render) };
    },
  });
}

/** A list of the program's, narrowed to the partnership's partner. */
const ofPartner =
  <T>(list: (db: Db, programId: string, filters: readonly FieldFilter[], page: PageRequest) => Promise<Page<T>>) =>
  (db: Db, p: ReachedPartnership, filters: readonly FieldFilter[], page: PageRequest) =>
    list(db, p.program_id, [...filters, { field: 'partner_id', op: 'eq', value: p.partner_id }], page);

const byStateAndDate = (values: readonly string[]): ListSpec => ({
  state_eq: oneOf(values),
  created_at_lt: dateTime,
  created_at_gt: dateTime,
});

export const portalRoutes = [
  route({
    method: 'post',
    path: '/v1/portal/auth/sign_in',
    summary: 'Sign in to the partner portal (sets the partner session cookie)',
    access: 'public',
    checksPassword: true,
    body: z.strictObject({ email: z.string().max(320), password }),
    status: 200,
    response: one(accountSchema),
    async handle({ db, body, now }) {
      return signedIn(db, await signIn(db, body.email, body.password, now));
    },
  }),
  resetRoute('/v1/portal/auth/reset', 'partner_reset', 'the partner portal'),
  route({
    method: 'post',
    path: '/v1/portal/auth/redeem',
    summary: "Set the password with a one-time link's token (an invitation or a reset) and sign in",
    access: 'public',
    checksPassword: true,
    body: z.strictObject({ token: z.string().min(1).max(200), password }),
    status: 200,
    response: one(accountSchema),
    async handle({ db, body, now }) {
      return signedIn(db, await redeemPartnerLink(db, body.token, body.password, now));
    },
  }),
  route({
    method: 'post',
    path: '/v1/portal/auth/sign_out',
    summary: "End the partner's session",
    access: 'partner',
    status: 204,
    async handle({ db, partnerSession }) {
      await signOutPartner(db, partnerSession!.id);
      return { status: 204, partnerSession: 'end' };
    },
  }),
  route({
    method: 'post',
    path: '/v1/portal/auth/password',
    summary: "Change the partner's password; their other sessions end",
    access: 'partner',
    checksPassword: true,
    body: z.strictObject({ current_password: password, new_password: password }),
    status: 204,
    async handle({ db, partnerSession, body, now }) {
      await changePartnerPassword(db, partnerSession!, body.current_password, body.new_password, now);
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/v1/portal/account',
    summary: 'The signed-in partner: e-mail, name and PayPal address; `data: null` when signed out',
    access: 'partner',
    optionalSession: true,
    status: 200,
    response: z.object({ data: accountSchema.nullable() }),
    async handle(input) {
      return { status: 200, body: input.account ? await renderAccount(input.db, input.account) : { data: null } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/portal/account',
    summary: 'Change the name or PayPal address the partner is paid at, in every program they joined',
    access: 'partner',
    body: z.strictObject({ name: z.string().trim().min(1).max(200).optional(), paypal_email: email.nullable().optional() }),
    status: 200,
    response: one(accountSchema),
    async handle(input) {
      await updateProfile(input.db, me(input), input.body, input.now);
      return { status: 200, body: await renderAccount(input.db, me(input)) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/portal/partnerships',
    summary: "The partner's partnerships, in every program, newest first: state, link (once accepted), rate, earnings and the next payout",
    access: 'partner',
    list: { state_eq: oneOf(states('partnership')) },
    status: 200,
    response: page(partnershipSchema),
    async handle(input) {
      const found = await partnershipPage(input.db, me(input).id, input.list.filters, input.list.page);
      // Rendered first: each reads its earnings.
      const rows = await Promise.all(found.rows.map((p) => renderPartnership(input.db, p, input.now)));
      return { status: 200, body: listEnvelope({ ...found, rows }, input.list.page, (r) => r) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/portal/partnerships/:id',
    summary: "One of the partner's partnerships",
    access: 'partner',
    status: 200,
    response: one(partnershipSchema),
    async handle(input) {
      const p = await reachedPartnership(input.db, me(input).id, input.params.id ?? '');
      return { status: 200, body: { data: await renderPartnership(input.db, p, input.now) } };
    },
  }),
  route({
    method: 'get',
    path: under('/stats'),
    summary: "The partnership's clicks, referrals, paying customers and commissions per day, week or month",
    access: 'partner',
    query: seriesQuery,
    status: 200,
    response: seriesSchema,
    async handle(input) {
      const p = await reachedPartnership(input.db, me(input).id, input.params.id ?? '');
      const s = await statsSeries(input.db, p.program_id, { ...input.query, partnerId: p.partner_id });
      return { status: 200, body: seriesAnswer(s) };
    },
  }),
  partnershipList(
    '/referrals',
    "The partnership's referrals, newest first, their e-mails masked",
    byStateAndDate(states('referral')),
    ofPartner(referrals.list),
    renderReferral,
    referralSchema,
  ),
  partnershipList(
    '/commissions',
    "The partnership's commissions, newest first: state, amount and when each becomes payable",
    byStateAndDate(states('commission')),
    ofPartner(commissions.list),
    renderCommission,
    commissionSchema,
  ),
  partnershipList(
    '/payouts',
    "The payout batches that paid (or are paying) the partnership's commissions, newest first, with the partner's share of each",
    byStateAndDate(BATCH_STATES),
    (db, p, filters, page) => accounts.payoutPage(db, p.program_id, p.partner_id, filters, page),
    renderPayout,
    payoutSchema,
  ),
];
