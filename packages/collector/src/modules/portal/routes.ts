// The partner portal's API (docs/api.md §27): a partner signed in sees their own
// partnerships, in every program they joined, and under each only their own records:
// clicks and totals, referrals with masked e-mails, commissions and payouts. Everything
// is reached through a partnership of the account, so any other id is a 404.

import { z } from 'zod';
import { fail } from '../../platform/errors.js';
import { billingIn, billingOut, email } from '../../api/fields.js';
import { billingOf } from '../../core/billing.js';
import { type Reply, type RouteInput, route } from '../../api/route.js';
import type { Resource } from '../../platform/resource.js';
import { states } from '../../core/state-machines.js';
import { LOCALES } from '../../core/locale.js';
import type { Db } from '../../platform/db/db.js';
import type { FieldFilter, Page, PageRequest } from '../../platform/db/list.js';
import { dateTime, type ListSpec, oneOf } from '../../platform/http/list-query.js';
import { listEnvelope } from '../../platform/http/render.js';
import { one, page, resource, unixTime } from '../../platform/http/schemas.js';
import { PASSWORD_MAX } from '../identity/passwords.js';
import { factorRoutes, passkeySignInRoutes, renderChallenge, resetRoute, signInAnswer } from '../identity/http.js';
import { PARTNERS } from '../identity/model.js';
import { renderCode } from '../codes/present.js';
import { partnerCodesInShopify } from '../../flows/shopify-codes.js';
import { codeSchema } from '../codes/schemas.js';
import { statsSeries } from '../stats/service.js';
import { seriesAnswer, seriesQuery, seriesSchema } from '../stats/schemas.js';
import { renderAccount, renderCommission, renderPartnership, renderPayout, renderReferral } from '../../flows/portal-present.js';
import { partnershipSchema } from './schemas.js';
import type { AccountRow, ReachedPartnership } from './repo.js';
import {
  changePartnerPassword,
  type NewPartnerSession,
  partnerSignInWithCode,
  startPartnerSessionFrom,
  type PartnerSignedIn,
  partnerCodes,
  partnerCommissions,
  makePartnerCode,
  partnerPayouts,
  partnerReferrals,
  partnershipPage,
  accountOf,
  profileOf,
  reachedPartnership,
  redeemPartnerLink,
  signIn,
  signOutPartner,
  updateProfile,
  withEarnings,
} from '../../flows/portal.js';

/** Why the portal account takes no PayPal address, and where it goes instead (docs/payouts.md). */
const PAYPAL_BY_METHOD =
  'the PayPal address is a payout method now: POST /v1/portal/partnerships/:id/payout_method {"method":"paypal","paypal_email":…} confirms it by an e-mailed link';

const password = z.string().max(PASSWORD_MAX);

const referralSchema = resource('portal_referral', {
  state: z.string(),
  email: z.string().meta({ description: 'Masked: j•••@e•••.com' }),
  created_at: unixTime,
  state_set_at: unixTime,
});

const commissionSchema = resource('portal_commission', {
  state: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  reject_reason: z.string().optional(),
  payable_at: unixTime,
  on_hold: z.boolean(),
  under_review: z.boolean().meta({ description: 'The company is reviewing it: it is not payable until they decide' }),
  clawback: z.boolean(),
  paid_at: unixTime.optional(),
  created_at: unixTime,
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

const accountSchema = resource('partner_account', {
  email: z.string(),
  name: z.string(),
  paypal_email: z.string().nullable(),
  locale: z
    .enum(LOCALES)
    .nullable()
    .meta({ description: "The language chosen for the portal (and e-mails); null: the browser's, else the program's default" }),
  ...billingOut,
});

/** The account as the portal shows it, in the `{ data }` envelope. */
const accountAnswer = async (db: Db, account: AccountRow) => ({ data: renderAccount(await profileOf(db, account)) });

async function signedIn(db: Db, made: NewPartnerSession): Promise<Reply> {
  return { status: 200, partnerSession: { token: made.token }, body: await accountAnswer(db, await accountOf(db, made)) };
}

/** A session, or the challenge of the second step (no session yet). */
const started = (db: Db, made: PartnerSignedIn): Promise<Reply> =>
  'challenge' in made ? Promise.resolve({ status: 200, body: renderChallenge(made) }) : signedIn(db, made.session);

const signInSchema = signInAnswer(accountSchema);

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

const byStateAndDate = (values: readonly string[]): ListSpec => ({
  state_eq: oneOf(values),
  created_at_lt: dateTime,
  created_at_gt: dateTime,
});

export const portalRoutes = [
  route({
    method: 'post',
    path: '/v1/portal/auth/sign_in',
    summary:
      'Sign in to the partner portal (sets the partner session cookie); with a second factor, the answer is a challenge for the second step instead',
    access: 'public',
    checksPassword: true,
    body: z.strictObject({ email: z.string().max(320), password }),
    status: 200,
    response: signInSchema,
    async handle({ db, body, now }) {
      return started(db, await signIn(db, body.email, body.password, now));
    },
  }),
  route({
    method: 'post',
    path: '/v1/portal/auth/sign_in/second_factor',
    summary: "Sign-in's second step: the challenge's token and a code from the authenticator app, or a recovery code",
    access: 'public',
    checksPassword: true,
    body: z.strictObject({ token: z.string().max(200), code: z.string().min(1).max(40) }),
    status: 200,
    response: one(accountSchema),
    async handle({ db, body, now, outbox }) {
      const made = await partnerSignInWithCode(db, body.token, body.code, now);
      outbox?.kick();
      return signedIn(db, made);
    },
  }),
  ...passkeySignInRoutes({
    realm: PARTNERS,
    base: '/v1/portal/auth',
    issuer: 'Tally partner portal',
    response: one(accountSchema),
    start: startPartnerSessionFrom,
    reply: signedIn,
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
    response: signInSchema,
    async handle({ db, body, now }) {
      return started(db, await redeemPartnerLink(db, body.token, body.password, now));
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
      return { status: 200, body: input.account ? await accountAnswer(input.db, input.account) : { data: null } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/portal/account',
    summary:
      'Change the name, their language or their billing details, in every program they joined (the PayPal address is a payout method: POST /v1/portal/partnerships/:id/payout_method)',
    access: 'partner',
    body: z.strictObject({
      name: z.string().trim().min(1).max(200).optional(),
      paypal_email: email.nullable().optional().meta({ description: 'Refused (422): give it as a payout method, confirmed by e-mail' }),
      locale: z.enum(LOCALES).nullable().optional().meta({ description: "en, de, fr or es; null: the browser's, else the program's" }),
      ...billingIn,
    }),
    status: 200,
    response: one(accountSchema),
    async handle(input) {
      // An address set here was paid unconfirmed: one typo or a stolen session sent the money elsewhere.
      if (input.body.paypal_email !== undefined) throw fail('invalid_field', PAYPAL_BY_METHOD, { field: 'paypal_email' });
      await updateProfile(input.db, me(input), { ...input.body, billing: billingOf(input.body) }, input.now);
      return { status: 200, body: await accountAnswer(input.db, me(input)) };
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
      const rows = await withEarnings(input.db, found.rows, input.now);
      return { status: 200, body: listEnvelope({ ...found, rows }, input.list.page, renderPartnership) };
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
      const [withMoney] = await withEarnings(input.db, [p], input.now);
      return { status: 200, body: { data: renderPartnership(withMoney!) } };
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
    partnerReferrals,
    renderReferral,
    referralSchema,
  ),
  partnershipList(
    '/commissions',
    "The partnership's commissions, newest first: state, amount and when each becomes payable",
    byStateAndDate(states('commission')),
    partnerCommissions,
    renderCommission,
    commissionSchema,
  ),
  partnershipList(
    '/payouts',
    "The payout batches that paid (or are paying) the partnership's commissions, newest first, with the partner's share of each",
    byStateAndDate(BATCH_STATES),
    partnerPayouts,
    renderPayout,
    payoutSchema,
  ),
  partnershipList(
    '/codes',
    "The partnership's promotion codes: what to say in a video or a post instead of a link",
    { created_at_lt: dateTime, created_at_gt: dateTime },
    partnerCodes,
    renderCode,
    codeSchema,
  ),
  route({
    method: 'post',
    path: under('/codes'),
    summary: 'Make a promotion code of your own, within the rules of the program (its prefix and length)',
    access: 'partner',
    body: z.strictObject({ code: z.string().min(1).max(64) }),
    status: 201,
    response: one(codeSchema),
    async handle(input) {
      const p = await reachedPartnership(input.db, me(input).id, input.params.id ?? '');
      const row = await makePartnerCode(input.db, p, input.body.code, input.now, input.stripeApiUrl);
      await partnerCodesInShopify(input.db, p.program_id, p.id, input.now, input.platformApiUrls.shopify);
      return { status: 201, body: { data: renderCode(row) } };
    },
  }),
  ...factorRoutes({
    realm: PARTNERS,
    base: '/v1/portal/auth',
    access: 'partner',
    issuer: 'Tally partner portal',
    signedIn: (input) => ({ account: me(input).id, session: input.partnerSession?.id ?? '' }),
    // No program requires its partners to use one.
    mustKeepOne: async () => false,
  }),
];
