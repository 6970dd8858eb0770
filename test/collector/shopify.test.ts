// Shopify's webhooks (orders/paid, refunds/create, orders/cancelled), written from its
// public references (shopify-fixtures.ts), signed as Shopify signs them (X-Shopify-Hmac-Sha256,
// a base64 HMAC-SHA256 of the raw body), on both engines: a sale credited by the cart's
// attribute, the landing site, the address or a code alone; repeat orders within and past
// the recurring limit; partial and full refunds; a refund before its order; a cancellation;
// each sent twice, and with a bad or missing signature.

import { describe, expect, it } from 'vitest';
import { billingKit, type Connected, type Json } from './billing-kit.js';
import { expectError } from './harness.js';
import {
  later,
  newShopifySecret,
  postShopify,
  shopifyHmac,
  shopifyId,
  shopifyOrder,
  shopifyRefund,
  type OrderOptions,
} from './shopify-fixtures.js';

const kit = billingKit('shopify');
const { ok, connected, referral, list, amounts, events } = kit;

async function sendBody(p: Connected, topic: string, body: string, o: { secret?: string; webhookId?: string } = {}) {
  return postShopify(kit.c, p.endpoint, body, { topic, hmac: shopifyHmac(body, o.secret ?? p.signing), webhookId: o.webhookId });
}

async function expectOutcome(p: Connected, topic: string, resource: Json, outcome: string): Promise<Json> {
  const reply = await sendBody(p, topic, JSON.stringify(resource));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.data.attributes.outcome, JSON.stringify(reply.body.data.attributes)).toBe(outcome);
  return reply.body;
}

const program = (changes: Json = {}) => connected(newShopifySecret(), changes);

/** A referral whose cart carried its click id as the attribute the snippet sets, and its paid order. */
async function paidOrder(p: Connected, o: Partial<OrderOptions> = {}) {
  const r = await referral(p);
  const customerId = shopifyId();
  const order = shopifyOrder({ customerId, email: r.email, subtotal: 10_000, ...o, attributes: { tally_gr_id: r.grId } });
  await expectOutcome(p, 'orders/paid', order, 'credited');
  return { ...r, customerId, order, orderId: order.id as number };
}

const partnerOf = async (p: Connected) => (await list(p, 'commissions')).map((x) => x.attributes.partner_id as string);

describe('connecting and signatures', () => {
  it('shows the URL, the events and the key by hint; refuses a key Shopify would not show', async () => {
    const p = await program();
    const got = (await ok(p, 'GET', '/v1/integrations/shopify')).data.attributes;
    expect(got.endpoint_url).toMatch(new RegExp(`/v1/integrations/shopify/webhook/${p.endpoint}$`));
    expect(got.events).toEqual(['orders/paid', 'refunds/create', 'orders/cancelled']);
    expect(got.secrets[0].attributes.hint).toBe(`…${p.signing.slice(-4)}`);
    expect(JSON.stringify(got)).not.toContain(p.signing);
    for (const secret of ['not hex at all', 'abc123', 'f'.repeat(65)]) {
      const bad = await kit.api(p, 'POST', '/v1/integrations/shopify/secrets', { secret });
      expectError(bad, 422, 'invalid_field');
      expect(bad.body.errors[0].detail).toMatch(/64 hex digits/);
    }
    // An app's client secret is taken too.
    await ok(p, 'POST', '/v1/integrations/shopify/secrets', { secret: `shpss_${'0a'.repeat(16)}` });
  });

  it('a missing or wrong X-Shopify-Hmac-Sha256, or a body altered after signing, is 400 and nothing is recorded', async () => {
    const p = await program();
    const r = await referral(p);
    const body = JSON.stringify(shopifyOrder({ email: r.email, subtotal: 5_000, attributes: { tally_gr_id: r.grId } }));
    const altered = body.replace('"total_price":"50.00"', '"total_price":"90.00"');
    expect(altered).not.toBe(body);
    const missing = await postShopify(kit.c, p.endpoint, body, { topic: 'orders/paid', hmac: null });
    const wrong = await postShopify(kit.c, p.endpoint, body, { topic: 'orders/paid', hmac: shopifyHmac(body, newShopifySecret()) });
    const changed = await postShopify(kit.c, p.endpoint, altered, { topic: 'orders/paid', hmac: shopifyHmac(body, p.signing) });
    // The hex digest where Shopify sends base64: not its signature either.
    const hex = await postShopify(kit.c, p.endpoint, body, {
      topic: 'orders/paid',
      hmac: Buffer.from(shopifyHmac(body, p.signing), 'base64').toString('hex'),
    });
    for (const reply of [missing, wrong, changed, hex]) expectError(reply, 400, 'invalid_signature');
    expect(missing.body.errors[0].detail).toMatch(/no X-Shopify-Hmac-Sha256 header/);
    expect(wrong.body.errors[0].detail).toMatch(/matches none/);
    expect(await events(p)).toEqual([]);
    expect(await list(p, 'payments')).toEqual([]);
    expect(await list(p, 'commissions')).toEqual([]);
  });

  it('a topic Tally does not act on is logged as ignored; a test order is shown with livemode false', async () => {
    const p = await program();
    const r = await referral(p);
    const ignored = await expectOutcome(p, 'orders/create', shopifyOrder({ email: r.email, subtotal: 1_000 }), 'ignored');
    expect(ignored.data.attributes).toMatchObject({ platform: 'shopify', type: 'orders/create', reason: 'not an event Tally acts on' });
    const test = await expectOutcome(p, 'orders/paid', shopifyOrder({ email: r.email, subtotal: 1_000, test: true }), 'credited');
    expect(test.data.attributes.livemode).toBe(false);
    expect(await list(p, 'billing_events', '&platform_eq=shopify')).toHaveLength(2);
    expect(await list(p, 'billing_events', '&platform_eq=paddle')).toEqual([]);
  });
});

describe('orders', () => {
  it("a sale by the cart's tally_gr_id earns on the total net of tax, after the discount; the same delivery twice, once", async () => {
    const p = await program();
    const r = await referral(p);
    const order = shopifyOrder({
      email: r.email,
      subtotal: 10_000,
      discount: { code: 'SPRING', amount: 1_000 },
      tax: 540,
      shipping: 500,
      attributes: { tally_gr_id: r.grId },
    });
    const body = JSON.stringify(order);
    const webhookId = 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043';
    const first = await sendBody(p, 'orders/paid', body, { webhookId });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.meta.duplicate).toBe(false);
    expect(first.body.data.id).toBe(`shopify:${webhookId}`);
    // 20 % of 9,500: the total (10,040) without its tax.
    expect(await amounts(p)).toEqual([1_900]);
    const again = await sendBody(p, 'orders/paid', body, { webhookId });
    expect(again.body.meta.duplicate).toBe(true);
    // The same order by another delivery (a second webhook for the topic): the payment is keyed by the order.
    await sendBody(p, 'orders/paid', body);
    const [payment] = await list(p, 'payments');
    expect(payment!.attributes).toMatchObject({ amount: 9_500, currency: 'USD', idempotency_key: `shopify:order:${order.id}` });
    expect(payment!.relationships.referral.data.id).toBe(r.referralId);
    expect(await amounts(p)).toEqual([1_900]);
    expect(await list(p, 'payments')).toHaveLength(1);
  });

  it("the landing site's gr_id, with no track() call, makes the referral from the click with the order's address", async () => {
    const p = await program();
    const partner = await referral(p);
    const grId = await kit.click(p, partner.key);
    const order = shopifyOrder({
      email: 'untracked@shop.test',
      subtotal: 2_000,
      landingSite: `/products/aeropress?via=${partner.key}&gr_id=${grId}`,
    });
    await expectOutcome(p, 'orders/paid', order, 'credited');
    const made = (await list(p, 'referrals')).find((x) => x.attributes.email === 'untracked@shop.test');
    expect(made).toBeDefined();
    expect((await list(p, 'payments'))[0]!.relationships.referral.data.id).toBe(made!.id);
  });

  it("the landing site's partner key alone (?via=, no click id) makes the referral for that partner; an unknown key credits no one", async () => {
    const p = await program();
    const partner = await referral(p);
    const order = shopifyOrder({ email: 'via.only@shop.test', subtotal: 3_000, landingSite: `/?utm_source=blog&via=${partner.key}` });
    await expectOutcome(p, 'orders/paid', order, 'credited');
    const made = (await list(p, 'referrals')).find((x) => x.attributes.email === 'via.only@shop.test');
    expect(made).toBeDefined();
    expect(await partnerOf(p)).toEqual([partner.partnerId]);
    expect(await amounts(p)).toEqual([600]);
    const unknown = shopifyOrder({ email: 'via.unknown@shop.test', subtotal: 3_000, landingSite: '/?ref=producthunt' });
    await expectOutcome(p, 'orders/paid', unknown, 'ignored');
  });

  it('an order naming nothing is matched by the tracked address, its domain in any case; one of a stranger is ignored for good', async () => {
    const p = await program();
    const r = await referral(p, 'Shop.Buyer@shop.test');
    await expectOutcome(p, 'orders/paid', shopifyOrder({ email: 'Shop.Buyer@SHOP.Test', subtotal: 4_000, landingSite: null }), 'credited');
    expect((await list(p, 'payments'))[0]!.relationships.referral.data.id).toBe(r.referralId);
    const stranger = await expectOutcome(p, 'orders/paid', shopifyOrder({ email: 'stranger@elsewhere.test', subtotal: 4_000 }), 'ignored');
    expect(stranger.data.attributes.reason).toMatch(/no referral matched/);
    expect(stranger.data.attributes.waiting_on).toBeNull();
  });

  it("amounts are the customer's currency's minor units, exactly: euros in a dollar shop, yen without decimals", async () => {
    const p = await program();
    await paidOrder(p, { subtotal: 1_999, currency: 'EUR', shop: { currency: 'USD', rate: 1.08 } });
    await paidOrder(p, { subtotal: 1_500, tax: 150, currency: 'JPY' });
    const byCurrency = Object.fromEntries((await list(p, 'payments')).map((x) => [x.attributes.currency, x.attributes.amount]));
    expect(byCurrency).toEqual({ EUR: 1_999, JPY: 1_500 });
    expect((await list(p, 'commissions')).map((x) => [x.attributes.currency, x.attributes.amount]).sort()).toEqual([
      ['EUR', 400],
      ['JPY', 300],
    ]);
  });

  it('a code-only sale: the discount code credits its partner, with no referral before it', async () => {
    const p = await program();
    const maya = await referral(p);
    await ok(p, 'POST', '/v1/discount_codes', { partnership_id: maya.partnershipId, code: 'MAYA10' });
    const order = shopifyOrder({ email: 'podcast.listener@shop.test', subtotal: 5_000, discount: { code: 'maya10', amount: 500 } });
    await expectOutcome(p, 'orders/paid', order, 'credited');
    expect(await partnerOf(p)).toEqual([maya.partnerId]);
    expect(await amounts(p)).toEqual([900]);
    expect(await list(p, 'events', '&type_eq=discount_code.used')).toHaveLength(1);
  });
});

describe('repeat orders', () => {
  it("the customer's later orders credit within the recurring limit, and earn nothing past it", async () => {
    const p = await program({ recurring_months: 6 });
    const r = await paidOrder(p, { subtotal: 3_000 });
    const repeat = (hours: number) =>
      shopifyOrder({ customerId: r.customerId, email: 'new.address@elsewhere.test', subtotal: 3_000, processedAt: later(hours) });
    await expectOutcome(p, 'orders/paid', repeat(24 * 90), 'credited');
    await expectOutcome(p, 'orders/paid', repeat(24 * 215), 'credited');
    const rows = await list(p, 'commissions');
    expect(rows.filter((x) => x.attributes.state === 'pending').map((x) => x.attributes.amount)).toEqual([600, 600]);
    const [beyond] = rows.filter((x) => x.attributes.state === 'rejected');
    expect(beyond!.attributes.amount).toBe(0);
    expect(beyond!.attributes.reject_reason).toMatch(/recurring limit of 6 months/);
    expect(new Set((await list(p, 'payments')).map((x) => x.relationships.referral.data.id))).toEqual(new Set([r.referralId]));
  });
});

describe('refunds and cancellations', () => {
  it('a partial refund, then the rest, each once by its id; the same delivery again changes nothing', async () => {
    const p = await program();
    const r = await paidOrder(p, { subtotal: 10_000, tax: 2_000 });
    expect(await amounts(p)).toEqual([2_000]);
    // A quarter of the 12,000 charged: a quarter of what it earned.
    const quarter = JSON.stringify(shopifyRefund({ orderId: r.orderId, amount: 3_000 }));
    const first = await sendBody(p, 'refunds/create', quarter, { webhookId: 'refund-delivery-1' });
    expect(first.body.data.attributes.outcome).toBe('refunded');
    expect(await amounts(p)).toEqual([1_500]);
    expect((await sendBody(p, 'refunds/create', quarter, { webhookId: 'refund-delivery-1' })).body.meta.duplicate).toBe(true);
    // The same refund by another delivery: applied already.
    const other = await sendBody(p, 'refunds/create', quarter);
    expect(other.body.data.attributes).toMatchObject({ outcome: 'ignored', reason: 'this was applied already' });
    expect(await amounts(p)).toEqual([1_500]);
    await expectOutcome(p, 'refunds/create', shopifyRefund({ orderId: r.orderId, amount: 9_000, createdAt: later(48) }), 'refunded');
    const [commission] = await list(p, 'commissions');
    expect(commission!.attributes.state).toBe('rejected');
    expect((await list(p, 'payments'))[0]!.attributes.refunded).toBe(10_000);
  });

  it('a refund that returned no money (a failed transaction) leaves the sale as it is', async () => {
    const p = await program();
    const r = await paidOrder(p, { subtotal: 4_000 });
    const body = await expectOutcome(
      p,
      'refunds/create',
      shopifyRefund({ orderId: r.orderId, amount: 4_000, status: 'failure' }),
      'ignored',
    );
    expect(body.data.attributes.reason).toMatch(/returned no money/);
    expect(await amounts(p)).toEqual([800]);
  });

  it('a refund before its order waits for it (reverse order), and is applied when the order comes', async () => {
    const p = await program();
    const r = await referral(p);
    const order = shopifyOrder({ email: r.email, subtotal: 8_000, attributes: { tally_gr_id: r.grId } });
    const waiting = await expectOutcome(p, 'refunds/create', shopifyRefund({ orderId: order.id as number, amount: 2_000 }), 'ignored');
    expect(waiting.data.attributes.waiting_on).toBe(`shopify:order:${order.id}`);
    await expectOutcome(p, 'orders/paid', order, 'credited');
    // 20 % of 8,000, less a quarter.
    expect(await amounts(p)).toEqual([1_200]);
    const [refund] = (await events(p)).filter((e) => e.attributes.type === 'refunds/create');
    expect(refund!.attributes).toMatchObject({ outcome: 'refunded', waiting_on: null });
  });

  it("a cancellation takes back what its refund returned, once with that refund's own webhook; one without a refund keeps the sale", async () => {
    const p = await program();
    const r = await paidOrder(p, { subtotal: 6_000 });
    const refund = shopifyRefund({ orderId: r.orderId, amount: 6_000, createdAt: later(2) });
    const cancelled = { ...r.order, cancelled_at: later(2), cancel_reason: 'customer', financial_status: 'refunded', refunds: [refund] };
    const body = await expectOutcome(p, 'orders/cancelled', cancelled, 'refunded');
    const [payment] = await list(p, 'payments');
    expect(body.data.attributes.touched).toContainEqual({ type: 'payment', id: payment!.id });
    expect((await list(p, 'commissions'))[0]!.attributes.state).toBe('rejected');
    const again = await expectOutcome(p, 'refunds/create', refund, 'ignored');
    expect(again.data.attributes.reason).toBe('this was applied already');
    expect((await list(p, 'payments'))[0]!.attributes.refunded).toBe(6_000);

    const kept = await paidOrder(p, { subtotal: 2_000 });
    const noRefund = await expectOutcome(
      p,
      'orders/cancelled',
      { ...kept.order, cancelled_at: later(3), cancel_reason: 'other' },
      'ignored',
    );
    expect(noRefund.data.attributes.reason).toMatch(/without a refund/);
    // An order body sent under the topic, not cancelled: nothing.
    expect((await expectOutcome(p, 'orders/cancelled', kept.order, 'ignored')).data.attributes.reason).toBe('the order is not cancelled');
    const pending = (await list(p, 'commissions')).filter((x) => x.attributes.state === 'pending');
    expect(pending.map((x) => x.attributes.amount)).toEqual([400]);
  });
});
