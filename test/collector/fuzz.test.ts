// Fuzzing every route with fast-check: random and adversarial paths, methods, query
// strings, bodies, headers and content types. Every answer must be below 500 and, when
// it is an error, in the one error shape; the database must pass its integrity check.
// CI runs a short seeded share; FUZZ_RUNS=20000 (and FUZZ_SEED) run longer.

import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROUTES } from '../../packages/collector/src/app.js';
import { ENGINE, integrityProblems } from './database.js';
import { seedPartner, startCollector, type Collector } from './harness.js';
import { newSecret, signedHeader } from './stripe-fixtures.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

let c: Collector;
let ids: string[] = [];
let tokens: string[];
/** The program's Stripe endpoint and signing secret: signed bodies reach the event handlers. */
let stripeEndpoint = '';
const stripeSecret = newSecret();
beforeAll(async () => {
  c = await startCollector();
  const p = await seedPartner(c);
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
  ids = [p.partnerId, p.partnershipId, conv.body.data.id, pay.body.data.id, pay.body.data.relationships.commission.data.id, 'evt_fuzz1', 'cus_fuzz1'];
  const other = await c.otherProgram();
  tokens = [c.secret, c.publishable, other.secret, other.publishable, `${c.secret.slice(0, -1)}0`, 'tly_sec_', 'garbage'];
});
afterAll(async () => {
  await c?.close();
});

const nasty = fc.constantFrom(
  '', ' ', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'null', 'undefined', 'NaN', '-1', '0',
  '1e309', '9'.repeat(40), '%', '%zz', '%00', '\u0000', '\n', '\u2028', '\ud800', 'a@b.test', ' A@B.TEST ', '..', '../..',
  "' OR 1=1 --", '"; DROP TABLE referrals; --', '<script>', 'x'.repeat(3000), '2025-03-01 10:00:00 +0200', '2025-13-45T99:99:99Z',
  'pending', 'accepted', 'paid', 'rejected', 'converted', 'USD', 'usd', 'XXX',
  '2025-03-01', '2025-02-29', '0000-01-01', '9999-12-31', 'Asia/Kolkata', 'America/New_York', 'Etc/GMT+14', 'Mars/Olympus', 'day', 'week', 'month',
  'revenue', 'owed', 'conversion_rate',
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
  fc.constantFrom('page', 'per_page', 'state_eq', 'email_eq', 'name_eq', 'paypal_email_eq', 'partner_id_eq', 'created_at_lt',
    'created_at_gt', 'state_set_at_lt', 'state_set_at_gt', 'page[number]', 'filter[state]', 'referral_id_eq',
    'partnership_id_eq', 'from', 'to', 'tz', 'interval', 'sort', 'q'),
  word,
);
const query = fc.oneof(
  fc.array(fc.tuple(queryNames, word), { maxLength: 5 }).map((pairs) => pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')),
  fc.constantFrom('%', '%%%', '&&&', '==', 'a', 'a=1&a=2', 'page=1&page=2', '?', '#x', '__proto__[x]=1', 'constructor[prototype][x]=1'),
);

/** The id of a record that exists (read when generated, after the records are made). */
const knownId = fc.nat({ max: 6 }).map((i) => ids[i] ?? 'none');

/** JSON values, with the routes' own field names among the keys. */
const field = fc.constantFrom('email', 'gr_id', 'pk', 'uid', 'url', 'referrer', 'name', 'paypal_email', 'partner_id', 'key', 'state',
  'competitor_slugs', 'created_by', 'commission_rate_bps', 'amount', 'currency', 'referral_id', 'referral_email', 'referral_uid',
  'idempotency_key', 'payment_id', 'reject_reason', 'password', 'note', 'website', 'token', 'slug', 'description', 'page_enabled',
  'auto_accept', 'current_password', 'new_password', '__proto__', 'constructor');
const value = fc.oneof(word, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), knownId,
  fc.array(word, { maxLength: 4 }), fc.dictionary(word, word, { maxKeys: 3 }), fc.jsonValue({ maxDepth: 3 }));
const body = fc.oneof(
  fc.dictionary(field, value, { maxKeys: 8 }).map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  word,
  fc.constantFrom('{', '{"a":', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]', '{"a":1}{"b":2}', '\ufeff{}', '{"email":"a@b.test"}\u0000'),
  fc.constant(`{"pad":"${'y'.repeat(17_000)}"}`),
);

/** Stripe-shaped events with hostile objects: the fields Tally reads, any values, a few ids so some repeat. */
const stripeField = fc.constantFrom('id', 'object', 'customer', 'client_reference_id', 'metadata', 'mode', 'payment_status',
  'amount_total', 'total_details', 'currency', 'invoice', 'payment_intent', 'charge', 'amount_paid', 'amount', 'amount_refunded',
  'parent', 'payments', 'total_taxes', 'tax', 'total', 'total_excluding_tax', 'status_transitions', 'status', 'email',
  'customer_email', 'customer_details', 'subscription', 'subscription_details');
const stripeValue = fc.oneof(value, fc.constantFrom('g', 'cus_fuzz1', 'pi_fuzz1', 'in_fuzz1', 'payment', 'paid', 'lost', 'usd', 'isk', 'mga'),
  fc.constantFrom({ tally_gr_id: 'g' }, { tally_referral_id: 'none' }, { data: [{ payment: { payment_intent: 'pi_fuzz1' } }] },
    { subscription_details: { subscription: 'sub_1', metadata: { tally_gr_id: 'g' } } }, { amount_tax: 5 }, { paid_at: -1 }),
  fc.integer({ min: -1, max: 2 ** 53 }));
const stripeEvent = fc
  .record({
    id: fc.oneof(fc.constantFrom('evt_fuzz1', 'evt_fuzz2'), word),
    type: fc.oneof(fc.constantFrom('checkout.session.completed', 'checkout.session.async_payment_succeeded', 'invoice.paid',
      'invoice_payment.paid', 'charge.refunded', 'charge.dispute.created', 'charge.dispute.closed', 'customer.subscription.deleted',
      'customer.created', 'customer.updated'), word),
    created: fc.oneof(fc.integer(), fc.constant(null)),
    object: fc.oneof(fc.dictionary(stripeField, stripeValue, { maxKeys: 10 }), value),
  })
  .map(({ object, ...e }) => JSON.stringify({ ...e, object: 'event', livemode: false, data: { object } }));
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1',
  'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
  'application/vnd.api+json', '', 'json', '*/*');

const request = fc.record({
  route: fc.constantFrom(...ROUTES.map((r) => ({ method: r.method.toUpperCase(), path: r.path }))),
  otherPath: fc.option(fc.constantFrom('/healthz', '/readyz', '/openapi.json', '/tracker.js', '/tracker.00000000.js', '/demo/', '/demo/signup',
    '/v1', '/v1/', '/v1/partners/', '//v1/partners', '/v1/partners/..%2f..', '/%', '/v1/tracking'), { freq: 5 }),
  method: fc.option(fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD'), { freq: 3 }),
  id: fc.oneof(knownId, word),
  query: fc.option(query, { freq: 2 }),
  body: fc.option(fc.oneof(body, stripeEvent), { freq: 4 }),
  signed: fc.boolean(),
  contentType: fc.option(contentType, { freq: 4 }),
  token: fc.option(fc.integer({ min: 0, max: 6 }), { freq: 6 }),
  gzip: fc.boolean(),
  origin: fc.option(fc.constantFrom('http://localhost:8787', 'https://evil.test', 'null', '*'), { freq: 2 }),
});

let tried = 0;
let fiveHundreds = 0;

it(`every route answers below 500, in the error shape, for random and hostile requests (${RUNS} runs)`, async () => {
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      tried++;
      const path = r.otherPath ?? r.route.path.replace(':id', enc(r.id)).replace(':endpoint', r.signed ? stripeEndpoint : enc(r.id)).replace(':slug', r.signed ? 'fuzz' : enc(r.id));
      const method = r.method ?? r.route.method;
      const headers: Record<string, string> = {};
      if (r.token !== null) headers.authorization = `Bearer ${tokens[r.token]}`;
      if (r.contentType !== null) headers['content-type'] = r.contentType;
      if (r.origin !== null) headers.origin = r.origin;
      let payload: string | Uint8Array<ArrayBuffer> | undefined = method === 'GET' || method === 'HEAD' ? undefined : (r.body ?? undefined);
      if (r.signed && typeof payload === 'string') headers['stripe-signature'] = signedHeader(payload, stripeSecret, c.clock.now);
      if (payload !== undefined && r.gzip) {
        headers['content-encoding'] = 'gzip';
        payload = Uint8Array.from(gzipSync(payload));
      }
      const res = await fetch(c.url + path + (r.query === null ? '' : `?${r.query}`), { method, headers, body: payload });
      const text = await res.text();
      if (res.status >= 500) fiveHundreds++;
      expect(res.status, `${method} ${path} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
      if (res.status >= 400 && method !== 'HEAD') {
        const parsed = JSON.parse(text) as { errors: Array<Record<string, unknown>> };
        expect(Array.isArray(parsed.errors) && parsed.errors.length > 0, text).toBe(true);
        for (const e of parsed.errors) {
          expect(e.status).toBe(String(res.status));
          expect(typeof e.code === 'string' && typeof e.title === 'string' && typeof e.detail === 'string', text).toBe(true);
        }
      }
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  console.log(`fuzz (${ENGINE}): ${tried} inputs tried (seed ${SEED}), ${fiveHundreds} answers of 500 or more`);
  expect(await integrityProblems(c.databaseUrl)).toEqual([]);
}, Math.max(20_000, RUNS * 20)); // a longer run (FUZZ_RUNS) gets the time it needs
