// Codes made in Stripe with a program's restricted key (docs/codes.md): the `stripe`
// package against a local server that answers as Stripe's API documents: the discount's
// coupon once, a promotion code per code, Stripe's refusal of a code it has already shown
// to the owner, a key Stripe does not know, and a disabled code turned off in Stripe.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Collector, expectError, seedPartner, startCollector } from './harness.js';
import { type StripeApi, startStripeApi } from './stripe-api.js';

const KEY = 'rk_test_51TallyRestrictedKey0001';
let stripe: StripeApi;
let c: Collector;
beforeAll(async () => {
  stripe = await startStripeApi(KEY);
  c = await startCollector({ stripeApiUrl: stripe.url });
});
afterAll(async () => {
  await c.close();
  await stripe.close();
});

async function program(key = KEY) {
  const p = await c.otherProgram();
  const call = (method: string, path: string, body?: unknown) => c.call(method, path, { token: p.secret, body });
  expect((await call('PATCH', '/v1/program', { stripe_api_key: key })).status).toBe(200);
  const partner = await seedPartner(c, { token: p.secret });
  const discount = (
    await call('POST', '/v1/discounts', {
      name: '20 % for 3 months',
      kind: 'percent',
      amount: 2000,
      duration: { kind: 'months', months: 3 },
    })
  ).body.data;
  return { ...p, call, partner, discount };
}

it('makes the coupon once and a promotion code per code; a disabled code is turned off in Stripe, and on again', async () => {
  const p = await program();
  const code = (name: string) =>
    p.call('POST', '/v1/discount_codes', { partnership_id: p.partner.partnershipId, code: name, discount_id: p.discount.id });
  const first = await code(`MAYA${randomUUID().slice(0, 4)}`);
  expect(first.status).toBe(201);
  const second = await code(`MAYA-B${randomUUID().slice(0, 4)}`);
  expect(second.status).toBe(201);
  const coupons = stripe.calls.filter((x) => x.path === '/v1/coupons' && x.form['metadata[tally_discount_id]'] === p.discount.id);
  expect(coupons).toHaveLength(1);
  expect(coupons[0]!.form).toMatchObject({ percent_off: '20', duration: 'repeating', duration_in_months: '3' });
  const promo = first.body.data.attributes.stripe_promotion_code_id as string;
  expect(stripe.promotionCodes.get(promo)).toMatchObject({ code: first.body.data.attributes.code, active: true });

  expect((await p.call('PATCH', `/v1/discount_codes/${first.body.data.id}`, { enabled: false })).body.data.attributes.enabled).toBe(false);
  expect(stripe.promotionCodes.get(promo)?.active).toBe(false);
  await p.call('PATCH', `/v1/discount_codes/${first.body.data.id}`, { enabled: true });
  expect(stripe.promotionCodes.get(promo)?.active).toBe(true);
});

it("shows Stripe's refusal of a code it has already, and records nothing", async () => {
  const p = await program();
  const taken = `TAKEN${randomUUID().slice(0, 4)}`;
  stripe.promotionCodes.set('promo_elsewhere0000001', { code: taken, coupon: 'co_x', active: true });
  const refused = await p.call('POST', '/v1/discount_codes', {
    partnership_id: p.partner.partnershipId,
    code: taken,
    discount_id: p.discount.id,
  });
  const err = expectError(refused, 409, 'conflict');
  expect(err.detail).toMatch(/^Stripe refused the promotion code: An active promotion code with `code: TAKEN\w+` already exists\./);
  expect((await p.call('GET', `/v1/discount_codes?partnership_id_eq=${p.partner.partnershipId}`)).body.data).toEqual([]);
});

it('a key Stripe does not know is said to be the key, and makes nothing', async () => {
  const p = await program('rk_test_51NotAKeyStripeKnows99');
  const refused = await p.call('POST', '/v1/discount_codes', {
    partnership_id: p.partner.partnershipId,
    code: 'NOKEY1',
    discount_id: p.discount.id,
  });
  const err = expectError(refused, 422, 'invalid_field');
  expect(err.detail).toMatch(/^Stripe refused the coupon: Invalid API Key provided/);
  expect((await p.call('GET', '/v1/program')).body.data.attributes.stripe_api_key_hint).toBe('rk_test_…ws99');
});

it('a partnership declined has its codes disabled, in Stripe too', async () => {
  const p = await program();
  const made = await p.call('POST', '/v1/discount_codes', {
    partnership_id: p.partner.partnershipId,
    code: `END${randomUUID().slice(0, 4)}`,
    discount_id: p.discount.id,
  });
  expect((await p.call('PATCH', `/v1/partnerships/${p.partner.partnershipId}`, { state: 'declined' })).status).toBe(200);
  expect((await p.call('GET', `/v1/discount_codes/${made.body.data.id}`)).body.data.attributes.enabled).toBe(false);
  expect(stripe.promotionCodes.get(made.body.data.attributes.stripe_promotion_code_id)?.active).toBe(false);
});

it("a ban in review ends the partnership as a decline does: its codes disabled, in Tally's API and in Stripe", async () => {
  const p = await program();
  const made = await p.call('POST', '/v1/discount_codes', {
    partnership_id: p.partner.partnershipId,
    code: `BAN${randomUUID().slice(0, 4)}`,
    discount_id: p.discount.id,
  });
  // A disposable address is held, from the company's server too.
  const held = await p.call('POST', '/v1/tracking/conversion', { email: 'ban.me@mailinator.com', gr_id: 'g-ban', pk: p.partner.key });
  expect(held.body.data.attributes.review).toBe('held');
  const ban = await p.call('POST', '/v1/review_decisions', { referral_id: held.body.data.id, decision: 'ban', reason: 'fake sign-ups' });
  expect(ban.status).toBe(201);
  expect((await p.call('GET', `/v1/partnerships/${p.partner.partnershipId}`)).body.data.attributes.state).toBe('declined');
  expect((await p.call('GET', `/v1/discount_codes/${made.body.data.id}`)).body.data.attributes.enabled).toBe(false);
  expect(stripe.promotionCodes.get(made.body.data.attributes.stripe_promotion_code_id)?.active).toBe(false);
});

it("a code made on acceptance and a partner's own code take the group's discount and get their promotion code in Stripe", async () => {
  const p = await program();
  await p.call('PATCH', '/v1/program', { auto_codes: true, partner_codes: true, code_prefix: '' });
  // Accepted when made: its code is made in Stripe once the partnership is committed.
  const ann = await seedPartner(c, { token: p.secret, name: `Ann${randomUUID().slice(0, 4)}` });
  const [auto] = (await p.call('GET', `/v1/discount_codes?partnership_id_eq=${ann.partnershipId}`)).body.data;
  expect(auto.attributes).toMatchObject({ created_by: 'auto', discount_id: p.discount.id });
  const autoPromo = auto.attributes.stripe_promotion_code_id as string;
  expect(stripe.promotionCodes.get(autoPromo)).toMatchObject({ code: auto.attributes.code, active: true });

  // A partner's own, in the portal.
  const invited = await c.call('POST', `/v1/partners/${ann.partnerId}/invitation`, { token: p.secret });
  const token = String(invited.body.meta.link).split('#')[1];
  const redeemed = await c.call('POST', '/v1/portal/auth/redeem', { token: null, body: { token, password: 'a long partner password' } });
  const cookie = redeemed.headers.get('set-cookie')!.split(';')[0]!;
  const own = `OWN${randomUUID().slice(0, 4)}`;
  const made = await c.call('POST', `/v1/portal/partnerships/${ann.partnershipId}/codes`, {
    token: null,
    headers: { cookie, origin: c.url },
    body: { code: own },
  });
  expect(made.status).toBe(201);
  expect(made.body.data.attributes).toMatchObject({ code: own, created_by: 'partner', discount_id: p.discount.id });
  expect(stripe.promotionCodes.get(made.body.data.attributes.stripe_promotion_code_id)).toMatchObject({ code: own, active: true });
});
