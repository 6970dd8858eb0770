// Codes through Lemon Squeezy (docs/lemonsqueezy.md): its order webhook names no code, only
// `discount_total`, so with the program's API key Tally asks Lemon Squeezy's API (a local
// server answering as its reference documents, lemonsqueezy-api.ts) which code the order
// redeemed, and credits that code's partner. Without a key, or with one refused, the order
// is credited as if no code were used; an API that is busy makes the webhook a 503, sent again.

import { afterAll, describe, expect, it } from 'vitest';
import { billingKit, type Connected, type Json } from './billing-kit.js';
import { startLemonSqueezyApi } from './lemonsqueezy-api.js';
import { lsEvent, lsId, lsOrder, lsSignature, lsSubscriptionInvoice, newLsSecret, postLs } from './lemonsqueezy-fixtures.js';

const KEY = `eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.${'a'.repeat(40)}`;
const lsApi = await startLemonSqueezyApi(KEY);
afterAll(() => lsApi.close());

const kit = billingKit('lemonsqueezy', { lemonSqueezyApiUrl: lsApi.url });
const { ok, connected, referral, list } = kit;

async function send(p: Connected, name: string, data: Json, customData?: Json) {
  const body = JSON.stringify(lsEvent(name, data, customData ? { customData } : {}));
  return postLs(kit.c, p.endpoint, body, lsSignature(body, p.signing));
}

async function expectOutcome(p: Connected, name: string, data: Json, outcome: string, customData?: Json): Promise<Json> {
  const reply = await send(p, name, data, customData);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.data.attributes.outcome, JSON.stringify(reply.body.data.attributes)).toBe(outcome);
  return reply.body;
}

/** A program with the API key, and Maya with the code MAYA. */
async function program(changes: Json = {}) {
  const p = await connected(newLsSecret(), { lemonsqueezy_api_key: KEY, ...changes });
  const maya = await referral(p);
  await ok(p, 'POST', '/v1/discount_codes', { partnership_id: maya.partnershipId, code: 'MAYA' });
  return { ...p, maya };
}

/** An order with a discount, redeemed with `code` as the API will answer. */
function discounted(code: string | undefined, o: { email: string; subtotal?: number; discountTotal?: number; customerId?: string }) {
  const id = lsId();
  if (code) lsApi.redemptions.set(id, code);
  return lsOrder({ id, email: o.email, customerId: o.customerId, subtotal: o.subtotal ?? 10_000, discountTotal: o.discountTotal ?? 2_000 });
}

const partnerOf = async (p: Connected) => (await list(p, 'commissions')).map((x) => x.attributes.partner_id as string);

describe("an order's code, asked of Lemon Squeezy's API", () => {
  it("a code-only sale credits the code's partner; the key is shown by hint only", async () => {
    const p = await program();
    const program_ = (await ok(p, 'GET', '/v1/program')).data.attributes;
    expect(program_.lemonsqueezy_api_key_hint).toBe(`…${KEY.slice(-4)}`);
    expect(JSON.stringify(program_)).not.toContain(KEY);
    const order = discounted('maya', { email: 'listener@shop.test' });
    await expectOutcome(p, 'order_created', order, 'credited');
    expect(lsApi.calls).toContain(`/v1/discount-redemptions?filter%5Border_id%5D=${order.id}`);
    expect(await partnerOf(p)).toEqual([p.maya.partnerId]);
    // 20 % of 8,000: the order after its discount.
    expect((await list(p, 'commissions'))[0]!.attributes.amount).toBe(1_600);
    expect(await list(p, 'events', '&type_eq=discount_code.used')).toHaveLength(1);
  });

  it('an order without a discount asks nothing; without a key, a discounted order asks nothing and credits no one', async () => {
    const p = await program();
    const before = lsApi.calls.length;
    await expectOutcome(p, 'order_created', lsOrder({ email: 'plain@shop.test', subtotal: 1_000 }), 'ignored');
    const q = await connected(newLsSecret());
    await expectOutcome(q, 'order_created', discounted('MAYA', { email: 'nokey@shop.test' }), 'ignored');
    expect(lsApi.calls.length).toBe(before);
  });

  it('a key Lemon Squeezy refuses: the order is taken as if no code were used', async () => {
    const p = await program({ lemonsqueezy_api_key: `${KEY}-revoked` });
    const body = await expectOutcome(p, 'order_created', discounted('MAYA', { email: 'refused@shop.test' }), 'ignored');
    expect(body.data.attributes.reason).toMatch(/no referral matched/);
  });

  it('a busy API (429) answers 503 and records nothing; the same webhook sent again is credited', async () => {
    const p = await program();
    const order = discounted('MAYA', { email: 'busy@shop.test' });
    lsApi.failWith = 429;
    try {
      const reply = await send(p, 'order_created', order);
      expect(reply.status).toBe(503);
      expect(await list(p, 'billing_events')).toEqual([]);
    } finally {
      lsApi.failWith = undefined;
    }
    await expectOutcome(p, 'order_created', order, 'credited');
    expect(await partnerOf(p)).toEqual([p.maya.partnerId]);
  });

  it("a referred customer using another partner's code: the referral stands by default, the code wins where the program says so", async () => {
    for (const codeWins of [false, true]) {
      const p = await program({ code_wins: codeWins });
      const leo = await referral(p, `leo-customer-${codeWins}@shop.test`);
      await expectOutcome(p, 'order_created', discounted('MAYA', { email: leo.email }), 'credited', { tally_gr_id: leo.grId });
      expect(await partnerOf(p)).toEqual([codeWins ? p.maya.partnerId : leo.partnerId]);
    }
  });

  it("a partner's own code used with their own address credits nobody", async () => {
    const p = await program();
    const partner = (await ok(p, 'GET', `/v1/partners/${p.maya.partnerId}`)).data.attributes;
    await expectOutcome(p, 'order_created', discounted('MAYA', { email: partner.email }), 'ignored');
    expect(await list(p, 'commissions')).toEqual([]);
  });

  it('a 100 %-off first order links the customer to the code; the paid renewal pays the partner', async () => {
    const p = await program();
    const customerId = lsId();
    await expectOutcome(
      p,
      'order_created',
      discounted('MAYA', { email: 'free.first@shop.test', customerId, subtotal: 2_900, discountTotal: 2_900 }),
      'linked',
    );
    expect(await list(p, 'payments')).toEqual([]);
    const renewal = lsSubscriptionInvoice({ subscriptionId: lsId(), customerId, email: 'free.first@shop.test', subtotal: 2_900 });
    await expectOutcome(p, 'subscription_payment_success', renewal, 'credited');
    expect(await partnerOf(p)).toEqual([p.maya.partnerId]);
  });
});
