// Lemon Squeezy's webhooks (API v1), written from its public references (lemonsqueezy-fixtures.ts),
// signed as Lemon Squeezy signs them (X-Signature, a hex HMAC-SHA256 of the raw body), on
// both engines: a first order, renewals, a subscription's initial invoice counted once,
// partial and full refunds, a cancellation; each sent twice, in reverse order, and with a
// bad or missing signature. Codes are another file's.

import { describe, expect, it } from 'vitest';
import { billingKit, type Connected, type Json } from './billing-kit.js';
import { expectError } from './harness.js';
import {
  lsEvent,
  lsId,
  lsOrder,
  lsSignature,
  lsSubscription,
  lsSubscriptionInvoice,
  newLsSecret,
  postLs,
} from './lemonsqueezy-fixtures.js';

const kit = billingKit('lemonsqueezy');
const { ok, connected, referral, list, amounts, events } = kit;

/** Lemon Squeezy's `updated_at` a while after the harness's T0: each change of a resource is an event of its own. */
const later = (minutes: number): string => new Date(Date.parse('2025-03-01T10:00:00Z') + minutes * 60_000).toISOString();

interface SendOptions {
  customData?: Record<string, unknown>;
  testMode?: boolean;
  secret?: string;
}

function bodyOf(eventName: string, data: Json, opts: SendOptions = {}): string {
  return JSON.stringify(lsEvent(eventName, data, { customData: opts.customData, testMode: opts.testMode }));
}

async function sendBody(p: Connected, body: string, secret = p.signing) {
  return postLs(kit.c, p.endpoint, body, lsSignature(body, secret));
}

async function send(p: Connected, eventName: string, data: Json, opts: SendOptions = {}) {
  return sendBody(p, bodyOf(eventName, data, opts), opts.secret);
}

async function expectOutcome(p: Connected, eventName: string, data: Json, outcome: string, opts: SendOptions = {}): Promise<Json> {
  const reply = await send(p, eventName, data, opts);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.data.attributes.outcome, JSON.stringify(reply.body.data.attributes)).toBe(outcome);
  return reply.body;
}

const program = (changes: Json = {}) => connected(newLsSecret(), changes);

/** A referral whose checkout passed its click id as custom data, and its paid order. */
async function paidOrder(p: Connected, o: { subtotal?: number; tax?: number } = {}) {
  const r = await referral(p);
  const customerId = lsId();
  const order = lsOrder({ customerId, email: r.email, subtotal: o.subtotal ?? 10_000, tax: o.tax ?? 0 });
  const body = await expectOutcome(p, 'order_created', order, 'credited', { customData: { tally_gr_id: r.grId } });
  return { ...r, customerId, order, orderId: order.id as string, event: body.data };
}

/** The program's log entries of one event name, oldest first. */
const eventsOf = async (p: Connected, name: string) => (await events(p)).filter((e) => e.attributes.type === name).reverse();

describe('connecting and signatures', () => {
  it('shows the URL, the events and the secret by hint; refuses a secret Lemon Squeezy would not take', async () => {
    const p = await program();
    const got = (await ok(p, 'GET', '/v1/integrations/lemonsqueezy')).data.attributes;
    expect(got.endpoint_url).toMatch(new RegExp(`/v1/integrations/lemonsqueezy/webhook/${p.endpoint}$`));
    expect(got.events).toEqual(
      expect.arrayContaining([
        'order_created',
        'order_refunded',
        'subscription_created',
        'subscription_payment_success',
        'subscription_payment_refunded',
        'subscription_cancelled',
      ]),
    );
    expect(got.secrets).toHaveLength(1);
    expect(got.secrets[0].attributes.hint).toBe(`…${p.signing.slice(-4)}`);
    expect(JSON.stringify(got)).not.toContain(p.signing);
    for (const secret of ['has a space 1234', 'abc12', 'x'.repeat(41)]) {
      const bad = await kit.api(p, 'POST', '/v1/integrations/lemonsqueezy/secrets', { secret });
      expectError(bad, 422, 'invalid_field');
      expect(bad.body.errors[0].detail).toMatch(/6 to 40 characters/);
    }
    expect((await ok(p, 'GET', '/v1/integrations/lemonsqueezy')).data.attributes.secrets).toHaveLength(1);
  });

  it('a missing or wrong X-Signature, or a body altered after signing, is 400 with the reason, and nothing is recorded', async () => {
    const p = await program();
    const r = await referral(p);
    const body = bodyOf('order_created', lsOrder({ email: r.email, subtotal: 5_000 }), { customData: { tally_gr_id: r.grId } });
    const altered = body.replace('"subtotal":5000', '"subtotal":9000');
    expect(altered).not.toBe(body);
    const missing = await postLs(kit.c, p.endpoint, body, undefined);
    const wrong = await postLs(kit.c, p.endpoint, body, lsSignature(body, newLsSecret()));
    const changed = await postLs(kit.c, p.endpoint, altered, lsSignature(body, p.signing));
    for (const reply of [missing, wrong, changed]) expectError(reply, 400, 'invalid_signature');
    expect(missing.body.errors[0].detail).toMatch(/no X-Signature header/);
    expect(wrong.body.errors[0].detail).toMatch(/matches none/);
    expect(changed.body.errors[0].detail).toMatch(/matches none/);
    expect(await events(p)).toEqual([]);
    expect(await list(p, 'payments')).toEqual([]);
    expect(await list(p, 'billing_events')).toEqual([]);
  });

  it('any of the secrets set verifies (a second webhook, a rotation)', async () => {
    const p = await program();
    const second = newLsSecret();
    await ok(p, 'POST', '/v1/integrations/lemonsqueezy/secrets', { secret: second, label: 'test mode' });
    const r = await referral(p);
    const order = lsOrder({ email: r.email, subtotal: 2_000 });
    await expectOutcome(p, 'order_created', order, 'credited', { customData: { tally_gr_id: r.grId }, secret: second });
    expect(await amounts(p)).toEqual([400]);
  });

  it('an unknown endpoint is 404; an event Tally does not act on is logged as ignored', async () => {
    const p = await program();
    const body = bodyOf('order_created', lsOrder({ email: 'nobody@shop.test', subtotal: 1_000 }));
    expect((await postLs(kit.c, 'no-such-endpoint', body, lsSignature(body, p.signing))).status).toBe(404);
    const reply = await send(p, 'subscription_updated', lsSubscription({ email: 'nobody@shop.test', status: 'active' }));
    expect(reply.status).toBe(200);
    expect(reply.body.data.attributes).toMatchObject({
      platform: 'lemonsqueezy',
      outcome: 'ignored',
      reason: 'not an event Tally acts on',
    });
  });
});

describe('orders', () => {
  it('a first payment by the click id in custom_data earns on the total net of tax, after the discount; sent twice, once', async () => {
    const p = await program();
    const r = await referral(p);
    const order = lsOrder({ customerId: lsId(), email: r.email, subtotal: 10_000, discountTotal: 1_000, tax: 1_800 });
    const body = bodyOf('order_created', order, { customData: { tally_gr_id: r.grId } });
    const first = await sendBody(p, body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.meta.duplicate).toBe(false);
    expect(first.body.data.id).toBe(`lemonsqueezy:order_created:orders:${order.id}:2025-03-01T10:00:00.000000Z`);
    expect(first.body.data.attributes).toMatchObject({ platform: 'lemonsqueezy', type: 'order_created', outcome: 'credited' });
    // 20 % of 9,000: the total (10,800) without the tax.
    expect(await amounts(p)).toEqual([1_800]);
    const again = await sendBody(p, body);
    expect(again.status).toBe(200);
    expect(again.body.meta.duplicate).toBe(true);
    expect(again.body.data.attributes.outcome).toBe('credited');
    const [payment] = await list(p, 'payments');
    expect(payment!.attributes).toMatchObject({ amount: 9_000, currency: 'USD', idempotency_key: `lemonsqueezy:order:${order.id}` });
    expect(payment!.relationships.referral.data.id).toBe(r.referralId);
    expect(await amounts(p)).toEqual([1_800]);
    expect(await events(p)).toHaveLength(1);
  });

  it('a click id with no track() call: the order makes the referral from the click with its user_email', async () => {
    const p = await program();
    const partner = await referral(p);
    const grId = await kit.click(p, partner.key);
    await expectOutcome(p, 'order_created', lsOrder({ email: 'untracked@shop.test', subtotal: 2_000 }), 'credited', {
      customData: { tally_gr_id: grId },
    });
    const made = (await list(p, 'referrals')).find((x) => x.attributes.email === 'untracked@shop.test');
    expect(made).toBeDefined();
    expect((await list(p, 'payments'))[0]!.relationships.referral.data.id).toBe(made!.id);
  });

  it("a lead reward on metadata pays the sign-up the order makes from a click: the checkout's custom data is its metadata", async () => {
    const p = await program();
    const grId = await kit.metadataLead(p);
    await expectOutcome(p, 'order_created', lsOrder({ email: 'pro.plan@shop.test', subtotal: 2_000 }), 'credited', {
      customData: { tally_gr_id: grId, plan: 'pro' },
    });
    await kit.expectMetadataLeadPaid(p);
  });

  it('tally_referral_id in custom_data names the referral', async () => {
    const p = await program();
    const r = await referral(p);
    await expectOutcome(p, 'order_created', lsOrder({ email: 'someone.else@shop.test', subtotal: 1_500 }), 'credited', {
      customData: { tally_referral_id: r.referralId },
    });
    expect((await list(p, 'payments'))[0]!.relationships.referral.data.id).toBe(r.referralId);
    expect(await amounts(p)).toEqual([300]);
  });

  it("an order naming nothing is matched by the referral's address, its domain in any case", async () => {
    const p = await program();
    const r = await referral(p, 'Lemon.Buyer@shop.test');
    await expectOutcome(p, 'order_created', lsOrder({ email: 'Lemon.Buyer@SHOP.Test', subtotal: 4_000 }), 'credited');
    expect((await list(p, 'payments'))[0]!.relationships.referral.data.id).toBe(r.referralId);
  });

  it('a code-less order of an unknown customer is ignored for good: it waits for nothing', async () => {
    const p = await program();
    await referral(p);
    const body = await expectOutcome(p, 'order_created', lsOrder({ email: 'stranger@elsewhere.test', subtotal: 5_000 }), 'ignored');
    expect(body.data.attributes.reason).toMatch(/no referral matched/);
    expect(body.data.attributes.waiting_on).toBeNull();
    expect(await list(p, 'payments')).toEqual([]);
    expect(await list(p, 'commissions')).toEqual([]);
  });
});

describe('subscriptions', () => {
  it('renewals of the linked customer credit each month; the customer leads to the referral, not the address', async () => {
    const p = await program();
    const r = await paidOrder(p, { subtotal: 3_000 });
    const subscriptionId = lsId();
    const invoices: Json[] = [];
    for (let month = 1; month <= 2; month++) {
      const invoice = lsSubscriptionInvoice({
        subscriptionId,
        customerId: r.customerId,
        email: 'changed.address@elsewhere.test',
        billingReason: 'renewal',
        subtotal: 3_000,
        tax: 600,
        createdAt: later(month * 60 * 24 * 30),
      });
      invoices.push(invoice);
      await expectOutcome(p, 'subscription_payment_success', invoice, 'credited');
    }
    expect(await amounts(p)).toEqual([600, 600, 600]);
    const payments = await list(p, 'payments');
    expect(new Set(payments.map((x) => x.relationships.referral.data.id))).toEqual(new Set([r.referralId]));
    expect(new Set(payments.map((x) => x.attributes.idempotency_key))).toEqual(
      new Set([`lemonsqueezy:order:${r.orderId}`, ...invoices.map((i) => `lemonsqueezy:invoice:${i.id}`)]),
    );
  });

  it('a renewal of a customer not linked yet waits on the customer, and is credited when the order links them', async () => {
    const p = await program();
    const r = await referral(p);
    const customerId = lsId();
    const renewal = lsSubscriptionInvoice({
      subscriptionId: lsId(),
      customerId,
      email: 'not.the.referral@elsewhere.test',
      billingReason: 'renewal',
      subtotal: 2_500,
    });
    const waiting = await expectOutcome(p, 'subscription_payment_success', renewal, 'ignored');
    expect(waiting.data.attributes.waiting_on).toBe(`lemonsqueezy:customer:${customerId}`);
    await expectOutcome(p, 'order_created', lsOrder({ customerId, email: r.email, subtotal: 2_500 }), 'credited', {
      customData: { tally_gr_id: r.grId },
    });
    expect(await amounts(p)).toEqual([500, 500]);
    const [event] = await eventsOf(p, 'subscription_payment_success');
    expect(event!.attributes).toMatchObject({ outcome: 'credited', waiting_on: null });
  });

  it("a subscription's first payment, as an order and as its initial invoice, is credited once; the invoice's refund reaches the order's payment", async () => {
    const p = await program();
    const r = await paidOrder(p, { subtotal: 4_000, tax: 800 });
    const subscription = lsSubscription({ orderId: r.orderId, customerId: r.customerId, email: r.email, status: 'active' });
    const created = await expectOutcome(p, 'subscription_created', subscription, 'linked');
    const [payment] = await list(p, 'payments');
    expect(created.data.attributes.touched).toEqual([{ type: 'payment', id: payment!.id }]);
    const initial = {
      subscriptionId: subscription.id as string,
      customerId: r.customerId,
      email: r.email,
      billingReason: 'initial' as const,
      subtotal: 4_000,
      tax: 800,
    };
    const invoice = lsSubscriptionInvoice(initial);
    await expectOutcome(p, 'subscription_payment_success', invoice, 'linked');
    expect(await list(p, 'payments')).toHaveLength(1);
    expect(await amounts(p)).toEqual([800]);

    // Half of the 4,800 charged back: half of what it earned.
    const half = lsSubscriptionInvoice({
      ...initial,
      id: invoice.id as string,
      status: 'partial_refund',
      refundedAmount: 2_400,
      updatedAt: later(60),
    });
    await expectOutcome(p, 'subscription_payment_refunded', half, 'refunded');
    expect(await amounts(p)).toEqual([400]);
    expect((await list(p, 'payments'))[0]!.attributes.refunded).toBe(2_000);
    // The same refund told by the order too: the running total is the same, nothing more is taken.
    const order = lsOrder({
      id: r.orderId,
      customerId: r.customerId,
      email: r.email,
      subtotal: 4_000,
      tax: 800,
      status: 'partial_refund',
      refundedAmount: 2_400,
      updatedAt: later(61),
    });
    await expectOutcome(p, 'order_refunded', order, 'refunded');
    expect(await amounts(p)).toEqual([400]);
    expect((await list(p, 'payments'))[0]!.attributes.refunded).toBe(2_000);
  });

  it('the initial invoice and subscription_created before their order (reverse order) wait, and link when it comes', async () => {
    const p = await program();
    const r = await referral(p);
    const customerId = lsId();
    const order = lsOrder({ customerId, email: r.email, subtotal: 5_000 });
    const subscription = lsSubscription({ orderId: order.id as string, customerId, email: r.email, status: 'active' });
    const invoice = lsSubscriptionInvoice({
      subscriptionId: subscription.id as string,
      customerId,
      email: r.email,
      billingReason: 'initial',
      subtotal: 5_000,
    });

    const invoiceFirst = await expectOutcome(p, 'subscription_payment_success', invoice, 'ignored');
    expect(invoiceFirst.data.attributes.waiting_on).toBe(`lemonsqueezy:subscription:${subscription.id}`);
    const subscriptionNext = await expectOutcome(p, 'subscription_created', subscription, 'ignored');
    expect(subscriptionNext.data.attributes.waiting_on).toBe(`lemonsqueezy:order:${order.id}`);
    expect(await list(p, 'payments')).toEqual([]);

    await expectOutcome(p, 'order_created', order, 'credited', { customData: { tally_gr_id: r.grId } });
    expect(await amounts(p)).toEqual([1_000]);
    expect(await list(p, 'payments')).toHaveLength(1);
    for (const name of ['subscription_created', 'subscription_payment_success']) {
      const [event] = await eventsOf(p, name);
      expect(event!.attributes, name).toMatchObject({ outcome: 'linked', waiting_on: null });
    }

    // Linked all the way: the initial invoice's full refund rejects the order's commission.
    const refunded = lsSubscriptionInvoice({
      id: invoice.id as string,
      subscriptionId: subscription.id as string,
      customerId,
      email: r.email,
      billingReason: 'initial',
      subtotal: 5_000,
      status: 'refunded',
      updatedAt: later(30),
    });
    await expectOutcome(p, 'subscription_payment_refunded', refunded, 'refunded');
    const [commission] = await list(p, 'commissions');
    expect(commission!.attributes.state).toBe('rejected');
  });

  it('subscription_cancelled churns the paid referral; of a customer Tally does not know, it is ignored', async () => {
    const p = await program();
    const r = await paidOrder(p, { subtotal: 3_000 });
    const subscription = lsSubscription({ orderId: r.orderId, customerId: r.customerId, email: 'renamed@elsewhere.test' });
    const churned = await expectOutcome(p, 'subscription_cancelled', subscription, 'churned');
    expect(churned.data.attributes.touched).toEqual([{ type: 'referral', id: r.referralId }]);
    const referral = (await ok(p, 'GET', `/v1/referrals/${r.referralId}`)).data;
    expect(referral.attributes.state).toBe('churned');
    // Cancelled again (another change of the subscription): it is churned already.
    const again = await expectOutcome(
      p,
      'subscription_cancelled',
      { ...subscription, attributes: { ...(subscription.attributes as Json), updated_at: later(5) } },
      'ignored',
    );
    expect(again.data.attributes.reason).toMatch(/churned, not paid/);
    const stranger = lsSubscription({ email: 'stranger@elsewhere.test' });
    const ignored = await expectOutcome(p, 'subscription_cancelled', stranger, 'ignored');
    expect(ignored.data.attributes.reason).toMatch(/no referral matched/);
  });
});

describe('refunds', () => {
  it('an order refunded in part, then in full, as running totals; the same refund again changes nothing', async () => {
    const p = await program();
    const r = await paidOrder(p, { subtotal: 10_000, tax: 2_000 });
    expect(await amounts(p)).toEqual([2_000]);
    const refundOf = (refundedAmount: number, minutes: number) =>
      lsOrder({
        id: r.orderId,
        customerId: r.customerId,
        email: r.email,
        subtotal: 10_000,
        tax: 2_000,
        status: refundedAmount >= 12_000 ? 'refunded' : 'partial_refund',
        refundedAmount,
        updatedAt: later(minutes),
      });
    // A quarter of the 12,000 charged: a quarter of what it earned.
    const partial = bodyOf('order_refunded', refundOf(3_000, 10));
    const first = await sendBody(p, partial);
    expect(first.body.data.attributes.outcome).toBe('refunded');
    expect(await amounts(p)).toEqual([1_500]);
    expect((await list(p, 'payments'))[0]!.attributes.refunded).toBe(2_500);
    const repeat = await sendBody(p, partial);
    expect(repeat.body.meta.duplicate).toBe(true);
    // The same running total in a later event: nothing more is taken.
    await expectOutcome(p, 'order_refunded', refundOf(3_000, 11), 'refunded');
    expect(await amounts(p)).toEqual([1_500]);

    await expectOutcome(p, 'order_refunded', refundOf(12_000, 20), 'refunded');
    const [payment] = await list(p, 'payments');
    expect(payment!.attributes.refunded).toBe(10_000);
    const [commission] = await list(p, 'commissions');
    expect(commission!.attributes.state).toBe('rejected');
    await expectOutcome(p, 'order_refunded', refundOf(12_000, 21), 'refunded');
    expect((await list(p, 'commissions'))[0]!.attributes.state).toBe('rejected');
    expect(await list(p, 'commissions')).toHaveLength(1);
  });

  it('a refund before its order waits for it (reverse order), and is applied when the order comes', async () => {
    const p = await program();
    const r = await referral(p);
    const customerId = lsId();
    const order = lsOrder({ customerId, email: r.email, subtotal: 8_000 });
    const refund = lsOrder({
      id: order.id as string,
      customerId,
      email: r.email,
      subtotal: 8_000,
      status: 'partial_refund',
      refundedAmount: 2_000,
      updatedAt: later(15),
    });
    const waiting = await expectOutcome(p, 'order_refunded', refund, 'ignored', { customData: { tally_gr_id: r.grId } });
    expect(waiting.data.attributes.waiting_on).toBe(`lemonsqueezy:order:${order.id}`);
    await expectOutcome(p, 'order_created', order, 'credited', { customData: { tally_gr_id: r.grId } });
    // 20 % of 8,000, less a quarter.
    expect(await amounts(p)).toEqual([1_200]);
    const [event] = await eventsOf(p, 'order_refunded');
    expect(event!.attributes).toMatchObject({ outcome: 'refunded', waiting_on: null });
  });

  it("a renewal invoice's refund takes from that renewal only", async () => {
    const p = await program();
    const r = await paidOrder(p, { subtotal: 2_000 });
    const renewal = { subscriptionId: lsId(), customerId: r.customerId, email: r.email, subtotal: 2_000 };
    const invoice = lsSubscriptionInvoice(renewal);
    await expectOutcome(p, 'subscription_payment_success', invoice, 'credited');
    expect(await amounts(p)).toEqual([400, 400]);
    const refunded = lsSubscriptionInvoice({ ...renewal, id: invoice.id as string, status: 'refunded', updatedAt: later(45) });
    await expectOutcome(p, 'subscription_payment_refunded', refunded, 'refunded');
    const commissions = await list(p, 'commissions');
    expect(commissions.map((c) => c.attributes.state).sort()).toEqual(['pending', 'rejected']);
    const byKey = Object.fromEntries((await list(p, 'payments')).map((x) => [x.attributes.idempotency_key, x.attributes.refunded]));
    expect(byKey).toEqual({ [`lemonsqueezy:order:${r.orderId}`]: 0, [`lemonsqueezy:invoice:${invoice.id}`]: 2_000 });
  });
});

describe('the billing events log', () => {
  it('a test-mode event is shown with livemode false, a live one true; in the one log, filtered by platform', async () => {
    const p = await program();
    const r = await paidOrder(p, { subtotal: 1_000 });
    const live = await referral(p);
    await expectOutcome(p, 'order_created', lsOrder({ email: live.email, subtotal: 1_000, testMode: false }), 'credited', {
      customData: { tally_gr_id: live.grId },
      testMode: false,
    });
    const all = await list(p, 'billing_events', '&platform_eq=lemonsqueezy');
    expect(all).toHaveLength(2);
    const test = all.find((e) => e.id === r.event.id);
    expect(test!.attributes).toMatchObject({ platform: 'lemonsqueezy', type: 'order_created', livemode: false });
    expect(all.find((e) => e.id !== r.event.id)!.attributes.livemode).toBe(true);
    expect(await list(p, 'billing_events', '&platform_eq=paddle')).toEqual([]);
    expect((await events(p)).map((e) => e.id).sort()).toEqual(all.map((e) => e.id).sort());
    const one = await ok(p, 'GET', `/v1/integrations/lemonsqueezy/events/${encodeURIComponent(r.event.id)}`);
    expect(one.data.attributes).toMatchObject({ outcome: 'credited', livemode: false });
    expect((await ok(p, 'GET', `/v1/billing_events/${encodeURIComponent(r.event.id)}`)).data.attributes.outcome).toBe('credited');
  });
});
