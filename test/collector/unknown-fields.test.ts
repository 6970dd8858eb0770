// Management writes refuse fields they do not know, as Stripe refuses unknown parameters:
// a typo must not be answered 2xx with the value silently dropped. The tracking routes
// keep ignoring them, so an older collector never loses a newer snippet's conversion.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';

let c: Collector;
let ids: { partner: string; partnership: string; commission: string; referral: string };

beforeAll(async () => {
  c = await startCollector();
  const seeded = await seedPartner(c, { email: 'alice@partner.test' });
  const referral = await c.call('POST', '/v1/tracking/conversion', {
    token: c.publishable,
    body: { email: 'bob@customer.test', gr_id: 'g', pk: seeded.key },
  });
  const commission = await c.call('POST', '/v1/commissions', { body: { partner_id: seeded.partnerId, amount: 100, currency: 'USD' } });
  ids = {
    partner: seeded.partnerId,
    partnership: seeded.partnershipId,
    commission: commission.body.data.id,
    referral: referral.body.data.id,
  };
});
afterAll(async () => {
  await c.close();
});

// Paths and bodies are functions: the ids exist only once beforeAll has run.
const CASES: Array<[string, string, () => string, () => Record<string, unknown>]> = [
  ['POST', 'partners', () => '/v1/partners', () => ({ name: 'Carol', email: 'carol@partner.test', paypal: 'c@pay.test' })],
  ['PATCH', 'partners/:id', () => `/v1/partners/${ids.partner}`, () => ({ name: 'Alice B', paypal: 'a@pay.test' })],
  ['POST', 'partnerships', () => '/v1/partnerships', () => ({ partner_id: ids.partner, stat: 'accepted' })],
  ['PATCH', 'partnerships/:id', () => `/v1/partnerships/${ids.partnership}`, () => ({ commission_rate: 1500 })],
  ['POST', 'commissions', () => '/v1/commissions', () => ({ partner_id: ids.partner, amount: 100, currency: 'USD', note: 'x' })],
  ['PATCH', 'commissions/:id', () => `/v1/commissions/${ids.commission}`, () => ({ state: 'rejected', reason: 'typo' })],
  [
    'POST',
    'payments',
    () => '/v1/payments',
    () => ({ amount: 100, currency: 'USD', idempotency_key: 'k', referral_email: 'bob@customer.test', amount_cents: 1 }),
  ],
  ['POST', 'refunds', () => '/v1/refunds', () => ({ payment_id: 'k', reason: 'x' })],
  ['PATCH', 'referrals/:id', () => `/v1/referrals/${ids.referral}`, () => ({ state: 'paid', when: 'now' })],
];

describe.each(CASES)('%s /v1/%s', (method, _name, path, body) => {
  it('refuses an unknown field with 422 unknown_field, its pointer and the known fields, and changes nothing', async () => {
    const before = await c.call('GET', `/v1/${_name.split('/')[0]}`);
    const sent = body();
    const reply = await c.call(method, path(), { body: sent });
    const err = expectError(reply, 422, 'unknown_field');
    const unknown = Object.keys(sent).at(-1)!;
    expect(err.source).toEqual({ pointer: `/${unknown}` });
    expect(err.detail).toContain(unknown);
    expect(err.detail).toMatch(/the fields are \w+/);
    if (_name !== 'payments' && _name !== 'refunds') {
      expect((await c.call('GET', `/v1/${_name.split('/')[0]}`)).body).toEqual(before.body);
    }
  });
});

it('names at most 20 unknown fields, each as a JSON pointer with / and ~ escaped', async () => {
  const body: Record<string, unknown> = { name: 'Many', email: 'many@partner.test', 'a/b~c': 1 };
  for (let i = 0; i < 200; i++) body[`made_up_${i}`] = i;
  const reply = await c.call('POST', '/v1/partners', { body });
  expectError(reply, 422, 'unknown_field');
  expect(reply.body.errors).toHaveLength(20);
  expect(reply.body.errors[0].source).toEqual({ pointer: '/a~1b~0c' });
});

it('the tracking routes still ignore unknown fields', async () => {
  const { key } = await seedPartner(c);
  const conversion = await c.call('POST', '/v1/tracking/conversion', {
    token: c.publishable,
    body: { email: 'dave@customer.test', gr_id: 'g2', pk: key, added_in_2030: true },
  });
  expect(conversion.status).toBe(201);
  const click = await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: 'g3', pk: key, extra: 1 } });
  expect(click.status).toBe(202);
});
