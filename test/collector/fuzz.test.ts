// Fuzzing every route with fast-check: random and adversarial paths, methods, query
// strings, bodies, headers, cookies and content types. Every answer must be below 500
// and, when it is an error, in the one error shape; the database must pass its
// integrity check. A partner signed in to the portal (partnerships accepted and pending
// in three programs, with referrals, commissions and payouts) has the partner routes
// fuzzed with their session cookie and the same-origin header it needs, so those
// handlers run instead of answering 401. CI runs a short seeded share; FUZZ_RUNS=20000
// (and FUZZ_SEED) run longer, the partner routes half as many.

import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROUTES } from '../../packages/collector/src/app.js';
import { uuidv7 } from '../../packages/collector/src/core/ids.js';
import { newSecret as newSessionToken } from '../../packages/collector/src/modules/owners/service.js';
import { hashToken } from '../../packages/collector/src/modules/tokens/service.js';
import { insertSession } from '../../packages/collector/src/modules/identity/repo.js';
import { PARTNERS } from '../../packages/collector/src/modules/identity/model.js';
import { ENGINE, integrityProblems } from './database.js';
import { PUBLIC_URL, seedPartner, startCollector, type Collector } from './harness.js';
import { newSecret, signedHeader } from './stripe-fixtures.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const PARTNER_RUNS = Math.ceil(RUNS / 2);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const PARTNER_PASSWORD = 'the fuzzed partner password';

let c: Collector;
let ids: string[] = [];
let tokens: string[];
/** The program's Stripe endpoint and signing secret: signed bodies reach the event handlers. */
let stripeEndpoint = '';
const stripeSecret = newSecret();
/** The signed-in partner: their account, the session token their cookie carries, their partnerships. */
let partnerAccount = '';
let partnerToken = '';
let partnerships: string[] = [];

function partnerCookieOf(res: { headers: Headers }): string | undefined {
  return res.headers
    .getSetCookie()
    .find((x) => x.startsWith('tally_partner='))
    ?.split(';')[0]
    ?.slice('tally_partner='.length);
}

/** A new session for the partner, as a sign-in makes one, once a request ended theirs (sign_out). */
async function newPartnerSession(): Promise<void> {
  partnerToken = newSessionToken();
  const now = c.clock.now;
  await c.running.db.transaction((tx) =>
    insertSession(tx, PARTNERS, partnerAccount, {
      id: uuidv7(now * 1000),
      hash: hashToken(partnerToken),
      created_at: now,
      last_seen_at: now,
      verified_at: now,
    }),
  );
}

beforeAll(async () => {
  c = await startCollector();
  const p = await seedPartner(c, { email: 'fuzzed@partners.test' });
  const conv = await c.call('POST', '/v1/tracking/conversion', {
    token: c.publishable,
    body: { email: 'fuzz@buyer.test', gr_id: 'g', pk: p.key },
  });
  const pay = await c.call('POST', '/v1/payments', {
    body: { amount: 100, currency: 'USD', referral_id: conv.body.data.id, idempotency_key: 'fz' },
  });
  const connected = await c.call('POST', '/v1/integrations/stripe/secrets', { body: { secret: stripeSecret } });
  stripeEndpoint = String(connected.body.meta.endpoint_url).split('/').pop()!;
  // A public page to apply on: applications reach the account and partnership code.
  await c.call('PATCH', '/v1/program', { body: { slug: 'fuzz', page_enabled: true } });
  ids = [
    p.partnerId,
    p.partnershipId,
    conv.body.data.id,
    pay.body.data.id,
    pay.body.data.relationships.commission.data.id,
    'evt_fuzz1',
    'cus_fuzz1',
  ];
  const other = await c.otherProgram();
  tokens = [c.secret, c.publishable, other.secret, other.publishable, `${c.secret.slice(0, -1)}0`, 'tly_sec_', 'garbage'];

  // The partner signs in as an invited one does (a one-time link, then a password).
  const invited = await c.call('POST', `/v1/partners/${p.partnerId}/invitation`);
  const redeemed = await c.call('POST', '/v1/portal/auth/redeem', {
    token: null,
    body: { token: invited.body.meta.link.split('#')[1], password: PARTNER_PASSWORD },
  });
  expect(redeemed.status).toBe(200);
  partnerAccount = redeemed.body.data.id;
  partnerToken = partnerCookieOf(redeemed)!;
  // Accepted in a second program (applying with the same account), with a referral,
  // commissions, a paid payout and an open one; pending in a third.
  await c.call('PATCH', '/v1/program', { token: other.secret, body: { slug: 'fuzz-other', page_enabled: true, auto_accept: true } });
  const applied = await c.call('POST', '/v1/public/programs/fuzz-other/applications', {
    token: null,
    body: { name: 'Fuzzed Partner', email: 'fuzzed@partners.test', password: PARTNER_PASSWORD, paypal_email: 'pay@partners.test' },
  });
  expect(applied.status).toBe(201);
  const asPartner = { token: null, headers: { cookie: `tally_partner=${partnerToken}` } };
  const accepted = (await c.call('GET', '/v1/portal/partnerships', asPartner)).body.data.find(
    (x: any) => x.attributes.program_id === other.id,
  );
  const key = accepted.attributes.key as string;
  await c.call('POST', '/v1/tracking/click', { token: other.publishable, body: { gr_id: 'fuzz-other', pk: key } });
  const referred = await c.call('POST', '/v1/tracking/conversion', {
    token: other.publishable,
    body: { email: 'customer@buyer.test', gr_id: 'fuzz-other', pk: key },
  });
  expect(referred.status).toBe(201);
  const payOther = async (n: number) =>
    c.call('POST', '/v1/payments', {
      token: other.secret,
      body: { amount: 5_000 * n, currency: 'USD', referral_id: referred.body.data.id, idempotency_key: `fuzz-other-${n}` },
    });
  await payOther(1);
  const paid = await c.call('POST', '/v1/payout_batches', { token: other.secret, body: {} });
  await c.call('POST', `/v1/payout_batches/${paid.body.data[0].id}/paid`, { token: other.secret });
  await payOther(2);
  expect((await c.call('POST', '/v1/payout_batches', { token: other.secret, body: {} })).body.data).toHaveLength(1);
  await payOther(3);
  const third = await c.otherProgram();
  await c.call('PATCH', '/v1/program', { token: third.secret, body: { slug: 'fuzz-third', page_enabled: true } });
  const pending = await c.call('POST', '/v1/public/programs/fuzz-third/applications', {
    token: null,
    body: { name: 'Fuzzed Partner', email: 'fuzzed@partners.test', password: PARTNER_PASSWORD },
  });
  expect(pending.body.data.attributes.state).toBe('pending');
  const mine = await c.call('GET', '/v1/portal/partnerships', asPartner);
  partnerships = mine.body.data.map((x: { id: string }) => x.id);
  expect(partnerships).toHaveLength(3);
  ids.push(...partnerships, referred.body.data.id);
});
afterAll(async () => {
  await c?.close();
});

const nasty = fc.constantFrom(
  '',
  ' ',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '1e309',
  '9'.repeat(40),
  '%',
  '%zz',
  '%00',
  '\u0000',
  '\n',
  '\u2028',
  '\ud800',
  'a@b.test',
  ' A@B.TEST ',
  '..',
  '../..',
  "' OR 1=1 --",
  '"; DROP TABLE referrals; --',
  '<script>',
  'x'.repeat(3000),
  '2025-03-01 10:00:00 +0200',
  '2025-13-45T99:99:99Z',
  'pending',
  'accepted',
  'paid',
  'rejected',
  'converted',
  'USD',
  'usd',
  'XXX',
  '2025-03-01',
  '2025-02-29',
  '0000-01-01',
  '9999-12-31',
  'Asia/Kolkata',
  'America/New_York',
  'Etc/GMT+14',
  'Mars/Olympus',
  'day',
  'week',
  'month',
  'revenue',
  'owed',
  'conversion_rate',
);
/** Percent-encodes; a lone surrogate cannot be, so it goes as invalid UTF-8 bytes instead. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};
const word = fc.oneof(nasty, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }));
const queryNames = fc.oneof(
  fc.constantFrom(
    'page',
    'per_page',
    'state_eq',
    'email_eq',
    'name_eq',
    'paypal_email_eq',
    'partner_id_eq',
    'created_at_lt',
    'created_at_gt',
    'state_set_at_lt',
    'state_set_at_gt',
    'page[number]',
    'filter[state]',
    'referral_id_eq',
    'partnership_id_eq',
    'from',
    'to',
    'tz',
    'interval',
    'sort',
    'q',
  ),
  word,
);
const query = fc.oneof(
  fc.array(fc.tuple(queryNames, word), { maxLength: 5 }).map((pairs) => pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')),
  fc.constantFrom('%', '%%%', '&&&', '==', 'a', 'a=1&a=2', 'page=1&page=2', '?', '#x', '__proto__[x]=1', 'constructor[prototype][x]=1'),
);

/** `arb` one time in `n`, null otherwise (fc.option's freq is the other way round: null one time in freq). */
const nowAndThen = <T>(arb: fc.Arbitrary<T>, n: number) =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

/** The id of a record that exists (read when generated, after the records are made). */
const knownId = fc.nat({ max: 1000 }).map((i) => ids[i % ids.length] ?? 'none');
/** One of the signed-in partner's partnerships. */
const partnershipId = fc.nat({ max: 1000 }).map((i) => partnerships[i % partnerships.length] ?? 'none');

/** JSON values, with the routes' own field names among the keys. */
const field = fc.constantFrom(
  'email',
  'gr_id',
  'pk',
  'uid',
  'url',
  'referrer',
  'name',
  'paypal_email',
  'partner_id',
  'key',
  'state',
  'competitor_slugs',
  'created_by',
  'commission_rate_bps',
  'amount',
  'currency',
  'referral_id',
  'referral_email',
  'referral_uid',
  'idempotency_key',
  'payment_id',
  'reject_reason',
  'password',
  'note',
  'website',
  'token',
  'slug',
  'description',
  'page_enabled',
  'auto_accept',
  'current_password',
  'new_password',
  '__proto__',
  'constructor',
);
const value = fc.oneof(
  word,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  knownId,
  fc.array(word, { maxLength: 4 }),
  fc.dictionary(word, word, { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);
const body = fc.oneof(
  fc.dictionary(field, value, { maxKeys: 8 }).map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  word,
  fc.constantFrom(
    '{',
    '{"a":',
    '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
    '{"a":1}{"b":2}',
    '\ufeff{}',
    '{"email":"a@b.test"}\u0000',
  ),
  fc.constant(`{"pad":"${'y'.repeat(17_000)}"}`),
);

/** Stripe-shaped events with hostile objects: the fields Tally reads, any values, a few ids so some repeat. */
const stripeField = fc.constantFrom(
  'id',
  'object',
  'customer',
  'client_reference_id',
  'metadata',
  'mode',
  'payment_status',
  'amount_total',
  'total_details',
  'currency',
  'invoice',
  'payment_intent',
  'charge',
  'amount_paid',
  'amount',
  'amount_refunded',
  'parent',
  'payments',
  'total_taxes',
  'tax',
  'total',
  'total_excluding_tax',
  'status_transitions',
  'status',
  'email',
  'customer_email',
  'customer_details',
  'subscription',
  'subscription_details',
);
const stripeValue = fc.oneof(
  value,
  fc.constantFrom('g', 'cus_fuzz1', 'pi_fuzz1', 'in_fuzz1', 'payment', 'paid', 'lost', 'usd', 'isk', 'mga'),
  fc.constantFrom(
    { tally_gr_id: 'g' },
    { tally_referral_id: 'none' },
    { data: [{ payment: { payment_intent: 'pi_fuzz1' } }] },
    { subscription_details: { subscription: 'sub_1', metadata: { tally_gr_id: 'g' } } },
    { amount_tax: 5 },
    { paid_at: -1 },
  ),
  fc.integer({ min: -1, max: 2 ** 53 }),
);
const stripeEvent = fc
  .record({
    id: fc.oneof(fc.constantFrom('evt_fuzz1', 'evt_fuzz2'), word),
    type: fc.oneof(
      fc.constantFrom(
        'checkout.session.completed',
        'checkout.session.async_payment_succeeded',
        'invoice.paid',
        'invoice_payment.paid',
        'charge.refunded',
        'charge.dispute.created',
        'charge.dispute.closed',
        'customer.subscription.deleted',
        'customer.created',
        'customer.updated',
      ),
      word,
    ),
    created: fc.oneof(fc.integer(), fc.constant(null)),
    object: fc.oneof(fc.dictionary(stripeField, stripeValue, { maxKeys: 10 }), value),
  })
  .map(({ object, ...e }) => JSON.stringify({ ...e, object: 'event', livemode: false, data: { object } }));
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
  '',
  'json',
  '*/*',
);

const request = fc.record({
  route: fc.constantFrom(...ROUTES.map((r) => ({ method: r.method.toUpperCase(), path: r.path }))),
  otherPath: fc.option(
    fc.constantFrom(
      '/healthz',
      '/readyz',
      '/openapi.json',
      '/tracker.js',
      '/tracker.00000000.js',
      '/demo/',
      '/demo/signup',
      '/v1',
      '/v1/',
      '/v1/partners/',
      '//v1/partners',
      '/v1/partners/..%2f..',
      '/%',
      '/v1/tracking',
    ),
    { freq: 5 },
  ),
  method: fc.option(fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD'), { freq: 3 }),
  id: fc.oneof(knownId, word),
  query: fc.option(query, { freq: 2 }),
  body: fc.option(fc.oneof(body, stripeEvent), { freq: 4 }),
  signed: fc.boolean(),
  contentType: fc.option(contentType, { freq: 4 }),
  token: fc.option(fc.integer({ min: 0, max: 6 }), { freq: 6 }),
  gzip: fc.boolean(),
  origin: fc.option(fc.constantFrom('http://localhost:8787', 'https://evil.test', 'null', '*'), { freq: 2 }),
  cookie: nowAndThen(fc.constantFrom<Cookie>('partner', 'stale', 'under-owner-name', 'both'), 4),
});

/**
 * The Cookie header: the partner's live session, a session that does not exist, the
 * partner's token under the owners' cookie name, or the partner's beside a bogus owner's.
 */
type Cookie = 'partner' | 'stale' | 'under-owner-name' | 'both';
const cookieHeader = (kind: Cookie): string =>
  ({
    partner: `tally_partner=${partnerToken}`,
    stale: 'tally_partner=bm8tc3VjaC1zZXNzaW9uLWF0LWFsbC1ldmVyLWF0LWFsbA',
    'under-owner-name': `tally_session=${partnerToken}`,
    both: `tally_session=garbage; tally_partner=${partnerToken}`,
  })[kind];

/** What a partner's routes take: the statistics' range and interval, a list's filters and pages, mostly well-formed. */
const range = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(
      {
        from: fc.constantFrom('2025-02-01', '2025-03-01'),
        to: fc.constantFrom('2025-03-01', '2025-03-31'),
        tz: fc.constantFrom('UTC', 'Asia/Kolkata', 'America/New_York'),
        interval: fc.constantFrom('day', 'week', 'month'),
      },
      { requiredKeys: ['from', 'to'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        from: fc.constantFrom('2026-12-31', '2025-02-29', '2025-13-01', '1970-01-01', '', '2025-03-01'),
        to: fc.constantFrom('2024-03-01', '9999-12-31', '2025-03-01', 'today'),
        tz: fc.constantFrom('Mars/Olympus', '', 'Etc/GMT+14', 'utc'),
        interval: fc.constantFrom('year', '', 'DAY'),
      },
      { requiredKeys: [] },
    ),
  },
);
const listFilters = fc.record(
  {
    state_eq: fc.constantFrom('pending', 'paid', 'rejected', 'converted', 'churned', 'accepted', 'x'),
    created_at_lt: fc.constantFrom('2025-03-02', '2025-03-01T10:00:00Z', '1740823200', 'later'),
    created_at_gt: fc.constantFrom('2025-02-01', '2025-03-01T10:00:00.5Z', '0', 'earlier'),
    page: fc.constantFrom('1', '2', '100000', '0', '-1', 'x'),
    per_page: fc.constantFrom('1', '25', '50', '51', 'x'),
  },
  { requiredKeys: [] },
);
const portalQuery = fc
  .oneof(
    range,
    listFilters,
    fc.tuple(range, listFilters, fc.tuple(word, word)).map(([a, b, [k, v]]) => ({ ...a, ...b, [k]: v })),
  )
  .map((o) => new URLSearchParams(Object.entries(o as Record<string, string>)).toString());
/** Bodies for the account's changes and the password's, with the real password now and then. */
const portalBody = fc
  .oneof(
    fc.record(
      {
        name: fc.oneof(word, fc.constant('Renamed Partner')),
        paypal_email: fc.oneof(word, fc.constant(null), fc.constant('new-pay@partners.test')),
      },
      { requiredKeys: [] },
    ),
    fc.record(
      { current_password: fc.oneof(fc.constant(PARTNER_PASSWORD), word), new_password: fc.oneof(fc.constant(PARTNER_PASSWORD), word) },
      { requiredKeys: [] },
    ),
  )
  .map((o) => JSON.stringify(o));

const partnerRoutes = ROUTES.filter((r) => r.access === 'partner').map((r) => ({ method: r.method.toUpperCase(), path: r.path }));
/** Mostly what the partner's browser sends, each part now and then wrong. */
const partnerRequest = fc.record({
  route: fc.constantFrom(...partnerRoutes),
  method: nowAndThen(fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'HEAD'), 8),
  id: fc.oneof({ weight: 6, arbitrary: partnershipId }, { weight: 1, arbitrary: knownId }, { weight: 1, arbitrary: word }),
  query: fc.oneof({ weight: 6, arbitrary: portalQuery }, { weight: 1, arbitrary: query }, { weight: 2, arbitrary: fc.constant(null) }),
  body: fc.oneof({ weight: 4, arbitrary: portalBody }, { weight: 1, arbitrary: body }, { weight: 1, arbitrary: fc.constant(null) }),
  contentType: fc.oneof(
    { weight: 6, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: contentType },
    { weight: 1, arbitrary: fc.constant(null) },
  ),
  gzip: nowAndThen(fc.constant(true), 8),
  cookie: fc.oneof(
    { weight: 8, arbitrary: fc.constant<Cookie>('partner') },
    { weight: 1, arbitrary: fc.constantFrom<Cookie>('stale', 'under-owner-name', 'both') },
  ),
  // The collector's public origin or the address the request went to (both are its
  // own), now and then another site's or none: a change needs one of its own.
  origin: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(PUBLIC_URL, 'self') },
    { weight: 1, arbitrary: fc.constantFrom('https://evil.test', 'null', '') },
  ),
  token: nowAndThen(fc.integer({ min: 0, max: 6 }), 8),
});

let tried = 0;
let fiveHundreds = 0;

/**
 * Sends one request and holds its answer to the rules: below 500 and, as an error, in
 * the one shape. A request that ended the partner's session (signing out) gets them a
 * new one, so the requests after it still reach the partner routes' handlers.
 */
async function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  payload: string | Uint8Array<ArrayBuffer> | undefined,
): Promise<{ status: number; code: string | undefined }> {
  tried++;
  const res = await fetch(c.url + path, { method, headers, body: payload });
  const text = await res.text();
  if (res.status >= 500) fiveHundreds++;
  expect(res.status, `${method} ${path} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  let code: string | undefined;
  if (res.status >= 400 && method !== 'HEAD') {
    const parsed = JSON.parse(text) as { errors: Array<Record<string, unknown>> };
    expect(Array.isArray(parsed.errors) && parsed.errors.length > 0, text).toBe(true);
    for (const e of parsed.errors) {
      expect(e.status).toBe(String(res.status));
      expect(typeof e.code === 'string' && typeof e.title === 'string' && typeof e.detail === 'string', text).toBe(true);
    }
    code = String(parsed.errors[0]!.code);
  }
  if (headers.cookie?.includes(`tally_partner=${partnerToken}`) && partnerCookieOf(res) === '') await newPartnerSession();
  return { status: res.status, code };
}

it(
  `every route answers below 500, in the error shape, for random and hostile requests (${RUNS} runs)`,
  async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const path =
          r.otherPath ??
          r.route.path
            .replace(':id', enc(r.id))
            .replace(':endpoint', r.signed ? stripeEndpoint : enc(r.id))
            .replace(':slug', r.signed ? 'fuzz' : enc(r.id));
        const method = r.method ?? r.route.method;
        const headers: Record<string, string> = {};
        if (r.token !== null) headers.authorization = `Bearer ${tokens[r.token]}`;
        if (r.contentType !== null) headers['content-type'] = r.contentType;
        if (r.origin !== null) headers.origin = r.origin;
        if (r.cookie !== null) headers.cookie = cookieHeader(r.cookie);
        let payload: string | Uint8Array<ArrayBuffer> | undefined =
          method === 'GET' || method === 'HEAD' ? undefined : (r.body ?? undefined);
        if (r.signed && typeof payload === 'string') headers['stripe-signature'] = signedHeader(payload, stripeSecret, c.clock.now);
        if (payload !== undefined && r.gzip) {
          headers['content-encoding'] = 'gzip';
          payload = Uint8Array.from(gzipSync(payload));
        }
        await send(method, path + (r.query === null ? '' : `?${r.query}`), headers, payload);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(`fuzz (${ENGINE}): ${tried} inputs tried (seed ${SEED}), ${fiveHundreds} answers of 500 or more`);
    expect(await integrityProblems(c.databaseUrl)).toEqual([]);
  },
  Math.max(20_000, RUNS * 20),
); // a longer run (FUZZ_RUNS) gets the time it needs

/** Refusals before a route's handler: no session, another site's page, a method the path has not. */
const BEFORE_HANDLER = new Set(['unauthorized', 'cross_origin_request', 'method_not_allowed']);

it(
  `every partner route answers below 500, in the error shape, with the partner's session (${PARTNER_RUNS} runs)`,
  async () => {
    const before = { tried, fiveHundreds };
    /** Per partner route, answers by its handler (not refused before it), and successes. */
    const handled = new Map(partnerRoutes.map((r) => [`${r.method} ${r.path}`, { handled: 0, ok: 0 }]));
    await fc.assert(
      fc.asyncProperty(partnerRequest, async (r) => {
        const path = r.route.path.replace(':id', enc(r.id));
        const method = r.method ?? r.route.method;
        const headers: Record<string, string> = { cookie: cookieHeader(r.cookie) };
        if (r.origin !== '') headers.origin = r.origin === 'self' ? c.url : r.origin;
        if (r.token !== null) headers.authorization = `Bearer ${tokens[r.token]}`;
        if (r.contentType !== null) headers['content-type'] = r.contentType;
        let payload: string | Uint8Array<ArrayBuffer> | undefined =
          method === 'GET' || method === 'HEAD' ? undefined : (r.body ?? undefined);
        if (payload !== undefined && r.gzip !== null) {
          headers['content-encoding'] = 'gzip';
          payload = Uint8Array.from(gzipSync(payload));
        }
        const { status, code } = await send(method, path + (r.query === null ? '' : `?${r.query}`), headers, payload);
        const counts = handled.get(`${method} ${r.route.path}`);
        if (counts && status !== 405 && (code === undefined || !BEFORE_HANDLER.has(code))) {
          counts.handled++;
          if (status < 300) counts.ok++;
        }
      }),
      { numRuns: PARTNER_RUNS, seed: SEED, endOnFailure: true },
    );
    const summary = [...handled].map(([route, n]) => `${route} ${n.handled} handled (${n.ok} 2xx)`).join(', ');
    console.log(
      `fuzz (${ENGINE}), partner session: ${tried - before.tried} inputs tried (seed ${SEED}), ${fiveHundreds - before.fiveHundreds} answers of 500 or more; ${summary}`,
    );
    // The session works: every partner route's handler ran, not only the refusal before it.
    expect([...handled].filter(([, n]) => n.handled === 0).map(([route]) => route)).toEqual([]);
    expect([...handled.values()].reduce((sum, n) => sum + n.ok, 0)).toBeGreaterThan(0);
    expect(await integrityProblems(c.databaseUrl)).toEqual([]);
  },
  Math.max(20_000, PARTNER_RUNS * 20),
);
