// Partners' codes made in a Shopify shop (docs/shopify.md, decision 0400): with the program's
// Shopify credential (its shop and an Admin API access token), a code with a discount is made
// through the GraphQL Admin API's discountCodeBasicCreate, against a local server answering as
// Shopify's reference documents (shopify-admin-api.ts): made, TAKEN, another userErrors answer,
// a 401. An order naming the code then credits its partner.

import { afterAll, describe, expect, it } from 'vitest';
import { billingKit, type Connected, type Json } from './billing-kit.js';
import { expectError, seedPartner } from './harness.js';
import { startShopifyAdminApi } from './shopify-admin-api.js';
import { newShopifySecret, postShopify, shopifyHmac, shopifyOrder } from './shopify-fixtures.js';

const TOKEN = `shpat_${'0123456789abcdef'.repeat(2)}`;
const SHOP = 'tally-test-shop.myshopify.com';
const shopify = await startShopifyAdminApi(TOKEN);
afterAll(() => shopify.close());

const kit = billingKit('shopify', { platformApiUrls: { shopify: shopify.url } });
const { ok, api, connected, referral, list } = kit;

/** A program connected to Shopify with its credential, a 20 %-off discount, and Maya. */
async function program(token = TOKEN, changes: Json = {}) {
  const p = await connected(newShopifySecret(), changes);
  const set = await ok(p, 'POST', '/v1/integrations/shopify/credential', { shop: SHOP, access_token: token });
  expect(set.data.attributes.fields).toEqual({ shop: SHOP, access_token: `…${token.slice(-4)}` });
  const discount = (await ok(p, 'POST', '/v1/discounts', { name: 'Friends', kind: 'percent', amount: 2_000, duration: { kind: 'once' } }))
    .data;
  const maya = await referral(p);
  return { ...p, discount, maya };
}

const made = (code: string) => shopify.created.filter((i) => i.code === code);

async function sendOrder(p: Connected, order: Json) {
  const body = JSON.stringify(order);
  const reply = await postShopify(kit.c, p.endpoint, body, { topic: 'orders/paid', hmac: shopifyHmac(body, p.signing) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data.attributes;
}

describe("codes made in the shop through Shopify's Admin API", () => {
  it("an owner's code is made in Shopify first, then credits its partner when an order names it; the token is shown by hint only", async () => {
    const p = await program();
    const shown = (await ok(p, 'GET', '/v1/integrations/shopify')).data.attributes;
    expect(shown.credential).toEqual({ shop: SHOP, access_token: `…${TOKEN.slice(-4)}` });
    expect(JSON.stringify(shown)).not.toContain(TOKEN);
    await ok(p, 'POST', '/v1/discount_codes', { partnership_id: p.maya.partnershipId, code: 'MAYA20', discount_id: p.discount.id });
    expect(shopify.paths.at(-1)).toBe('/admin/api/2026-01/graphql.json');
    expect(made('MAYA20')).toEqual([
      expect.objectContaining({
        code: 'MAYA20',
        title: 'Friends (MAYA20)',
        context: { all: 'ALL' },
        customerGets: { value: { percentage: 0.2 }, items: { all: true } },
        recurringCycleLimit: 1,
      }),
    ]);
    const order = shopifyOrder({ email: 'listener@shop.test', subtotal: 5_000, discount: { code: 'MAYA20', amount: 1_000 } });
    expect((await sendOrder(p, order)).outcome).toBe('credited');
    expect((await list(p, 'commissions')).map((x) => [x.attributes.partner_id, x.attributes.amount])).toEqual([[p.maya.partnerId, 800]]);
  });

  it('a fixed amount off is its decimal in major units, for as many months as the discount lasts; a code without a discount is not sent', async () => {
    const p = await program();
    const off = (
      await ok(p, 'POST', '/v1/discounts', {
        name: 'Ten off',
        kind: 'amount',
        amount: 1_000,
        currency: 'USD',
        duration: { kind: 'months', months: 3 },
      })
    ).data;
    await ok(p, 'POST', '/v1/discount_codes', { partnership_id: p.maya.partnershipId, code: 'MAYA-TEN', discount_id: off.id });
    expect(made('MAYA-TEN')[0]).toMatchObject({
      customerGets: { value: { discountAmount: { amount: '10.00', appliesOnEachItem: false } } },
      recurringCycleLimit: 3,
    });
    const before = shopify.created.length;
    await ok(p, 'POST', '/v1/discount_codes', { partnership_id: p.maya.partnershipId, code: 'MAYA-PLAIN' });
    expect(shopify.created.length).toBe(before);
  });

  it('a code the shop has already (TAKEN) is recorded in Tally as it is', async () => {
    const p = await program();
    shopify.codes.add('MAYA-OLD');
    await ok(p, 'POST', '/v1/discount_codes', { partnership_id: p.maya.partnershipId, code: 'maya-old', discount_id: p.discount.id });
    expect(made('maya-old')).toHaveLength(1);
    expect((await list(p, 'discount_codes')).map((x) => x.attributes.code)).toEqual(['maya-old']);
  });

  it("Shopify's userErrors refuse the code with what Shopify said, and nothing is recorded", async () => {
    const p = await program();
    shopify.refuse = { field: 'startsAt', code: 'INVALID', message: 'Starts at must be a valid date' };
    try {
      const refused = await api(p, 'POST', '/v1/discount_codes', {
        partnership_id: p.maya.partnershipId,
        code: 'MAYA-NO',
        discount_id: p.discount.id,
      });
      expectError(refused, 422, 'invalid_field');
      expect(refused.body.errors[0].detail).toBe('Shopify refused the code: Starts at must be a valid date');
    } finally {
      shopify.refuse = undefined;
    }
    expect(await list(p, 'discount_codes')).toEqual([]);
  });

  it('a token Shopify refuses (401) is a 422 naming the credential, and nothing is recorded', async () => {
    const p = await program(`shpat_${'f'.repeat(32)}`);
    const refused = await api(p, 'POST', '/v1/discount_codes', {
      partnership_id: p.maya.partnershipId,
      code: 'MAYA-401',
      discount_id: p.discount.id,
    });
    expectError(refused, 422, 'invalid_field');
    expect(refused.body.errors[0].detail).toMatch(/Shopify refused the Admin API access token \(401\)/);
    expect(refused.body.errors[0].source).toEqual({ pointer: '/credential' });
    expect(await list(p, 'discount_codes')).toEqual([]);
  });

  it('a code made on acceptance is made in Shopify once the partnership is committed; without a credential nothing is asked', async () => {
    const p = await program(TOKEN, { auto_codes: true, code_prefix: '' });
    const ann = await seedPartner(kit.c, { token: p.secret, name: 'Ann Shop' });
    const [auto] = (await list(p, 'discount_codes', `&partnership_id_eq=${ann.partnershipId}`)).map((x) => x.attributes);
    expect(auto).toMatchObject({ created_by: 'auto', discount_id: p.discount.id });
    expect(made(auto!.code)).toHaveLength(1);
    const q = await connected(newShopifySecret(), { auto_codes: true, code_prefix: '' });
    await ok(q, 'POST', '/v1/discounts', { name: 'Theirs', kind: 'percent', amount: 1_000, duration: { kind: 'forever' } });
    const before = shopify.created.length;
    await seedPartner(kit.c, { token: q.secret, name: 'Bo Shop' });
    expect(shopify.created.length).toBe(before);
  });

  it('the credential is checked as Shopify shows it, and removed: codes are then made in Tally only', async () => {
    const p = await program();
    for (const body of [
      { shop: 'https://tally-test-shop.myshopify.com', access_token: TOKEN },
      { shop: SHOP, access_token: 'not-a-token' },
    ]) {
      expectError(await api(p, 'POST', '/v1/integrations/shopify/credential', body), 422, 'invalid_field');
    }
    expect((await api(p, 'DELETE', '/v1/integrations/shopify/credential')).status).toBe(204);
    const before = shopify.created.length;
    await ok(p, 'POST', '/v1/discount_codes', { partnership_id: p.maya.partnershipId, code: 'MAYA-LOCAL', discount_id: p.discount.id });
    expect(shopify.created.length).toBe(before);
  });
});
