// Paddle Billing's notifications (docs/paddle.md), written from Paddle's API v1 reference
// (paddle-fixtures.ts), signed as Paddle signs them and checked by Paddle's own SDK in
// the collector, on both engines: a first payment, renewals, partial and full refunds, a
// chargeback, a cancellation, codes; each sent twice, in reverse order, and with a bad,
// stale or missing signature.

import { describe, expect, it } from 'vitest';
import { billingKit, type Connected, type Json } from './billing-kit.js';
import { expectError } from './harness.js';
import {
  adjustment,
  customer,
  discount,
  newPaddleSecret,
  paddleEvent,
  paddleId,
  paddleSignature,
  postPaddle,
  subscription,
  transaction,
} from './paddle-fixtures.js';

const kit = billingKit('paddle');
const { ok, connected, referral, list, amounts, events } = kit;

/** The SDK checks the age by the real clock: Paddle signs each delivery as it sends it. */
const realNow = () => Math.floor(Date.now() / 1000);

async function send(p: Connected, type: string, data: Json, opts: { eventId?: string; secret?: string; ts?: number } = {}) {
  const body = JSON.stringify(paddleEvent(type, data, { eventId: opts.eventId }));
  return postPaddle(kit.c, p.endpoint, body, paddleSignature(body, opts.secret ?? p.signing, opts.ts ?? realNow()));
}

async function expectOutcome(p: Connected, type: string, data: Json, outcome: string, opts: { eventId?: string } = {}): Promise<Json> {
  const reply = await send(p, type, data, opts);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.data.attributes.outcome, JSON.stringify(reply.body.data.attributes)).toBe(outcome);
  return reply.body;
}

const program = (changes: Json = {}) => connected(newPaddleSecret(), changes);

/** A referral whose checkout passed its click id as custom data, paid by `customerId`. */
async function paidTransaction(p: Connected, o: { subtotal?: number; tax?: number } = {}) {
  const r = await referral(p);
  const customerId = paddleId('ctm');
  const txn = transaction({ customerId, subtotal: o.subtotal ?? 10_000, tax: o.tax ?? 0, customData: { tally_gr_id: r.grId } });
  const body = await expectOutcome(p, 'transaction.completed', txn, 'credited');
  return { ...r, customerId, txn, txnId: txn.id as string, event: body.data };
}

describe('connecting and signatures', () => {
  it('shows the URL, the events and the secret by hint; refuses a secret not shaped as Paddle gives them', async () => {
    const p = await program();
    const got = (await ok(p, 'GET', '/v1/integrations/paddle')).data.attributes;
    expect(got.endpoint_url).toMatch(new RegExp(`/v1/integrations/paddle/webhook/${p.endpoint}$`));
    expect(got.events).toEqual(
      expect.arrayContaining(['transaction.completed', 'adjustment.updated', 'customer.created', 'discount.created']),
    );
    expect(got.secrets).toHaveLength(1);
    expect(got.secrets[0].attributes.hint).toBe(`pdl_ntfset_…${p.signing.slice(-4)}`);
    expect(JSON.stringify(got)).not.toContain(p.signing);
    const bad = await kit.api(p, 'POST', '/v1/integrations/paddle/secrets', { secret: 'whsec_not_paddles_at_all_000000' });
    expectError(bad, 422, 'invalid_field');
    expect(bad.body.errors[0].detail).toMatch(/pdl_ntfset_/);
  });

  it('a missing, wrong or stale Paddle-Signature is 400 with the reason, and nothing is recorded', async () => {
    const p = await program();
    const r = await referral(p);
    const body = JSON.stringify(
      paddleEvent('transaction.completed', transaction({ subtotal: 5_000, customData: { tally_gr_id: r.grId } })),
    );
    const missing = await postPaddle(kit.c, p.endpoint, body, undefined);
    const wrong = await postPaddle(kit.c, p.endpoint, body, paddleSignature(body, newPaddleSecret(), realNow()));
    const stale = await postPaddle(kit.c, p.endpoint, body, paddleSignature(body, p.signing, realNow() - 60));
    const altered = await postPaddle(kit.c, p.endpoint, body.replace('5000', '9000'), paddleSignature(body, p.signing, realNow()));
    for (const reply of [missing, wrong, stale, altered]) expectError(reply, 400, 'invalid_signature');
    expect(missing.body.errors[0].detail).toMatch(/no Paddle-Signature/);
    expect(wrong.body.errors[0].detail).toMatch(/matches none/);
    expect(altered.body.errors[0].detail).toMatch(/matches none/);
    expect(stale.body.errors[0].detail).toMatch(/more than 5 seconds ago/);
    expect(await events(p)).toEqual([]);
    expect(await list(p, 'payments')).toEqual([]);
  });

  it('an unknown endpoint is 404; an event Tally does not act on is logged as ignored', async () => {
    const p = await program();
    const body = JSON.stringify(paddleEvent('transaction.created', transaction({ subtotal: 1_000 })));
    expect((await postPaddle(kit.c, 'no-such-endpoint', body, paddleSignature(body, p.signing, realNow()))).status).toBe(404);
    const reply = await send(p, 'product.created', { id: paddleId('pro'), name: 'Pro' });
    expect(reply.body.data.attributes).toMatchObject({ platform: 'paddle', outcome: 'ignored', reason: 'not an event Tally acts on' });
  });
});

describe('payments', () => {
  it('a first payment by the click id in custom_data earns on the total net of tax; sent twice, once', async () => {
    const p = await program();
    const r = await referral(p);
    const txn = transaction({
      customerId: paddleId('ctm'),
      subtotal: 10_000,
      discount: 1_000,
      tax: 1_800,
      customData: { tally_gr_id: r.grId },
    });
    const eventId = paddleId('evt');
    const first = await expectOutcome(p, 'transaction.completed', txn, 'credited', { eventId });
    expect(first.meta.duplicate).toBe(false);
    // 20 % of 9,000: the subtotal after the discount, without the tax.
    expect(await amounts(p)).toEqual([1_800]);
    const again = await send(p, 'transaction.completed', txn, { eventId });
    expect(again.status).toBe(200);
    expect(again.body.meta.duplicate).toBe(true);
    expect(again.body.data.attributes.outcome).toBe('credited');
    const [payment] = await list(p, 'payments');
    expect(payment!.attributes).toMatchObject({ amount: 9_000, currency: 'USD', idempotency_key: `paddle:${txn.id}` });
    expect(await amounts(p)).toEqual([1_800]);
  });

  it('transaction.paid then transaction.completed of one transaction credit it once', async () => {
    const p = await program();
    const r = await referral(p);
    const customerId = paddleId('ctm');
    const id = paddleId('txn');
    await expectOutcome(
      p,
      'transaction.paid',
      transaction({ id, status: 'paid', customerId, subtotal: 4_000, customData: { tally_gr_id: r.grId } }),
      'credited',
    );
    const completed = await expectOutcome(
      p,
      'transaction.completed',
      transaction({ id, customerId, subtotal: 4_000, customData: { tally_gr_id: r.grId } }),
      'ignored',
    );
    expect(completed.data.attributes.reason).toMatch(/already credited/);
    expect(await amounts(p)).toEqual([800]);
  });

  it('renewals of the customer credit each month; a renewal names no click, the customer leads to the referral', async () => {
    const p = await program();
    const r = await paidTransaction(p, { subtotal: 3_000 });
    for (let month = 1; month <= 2; month++) {
      await expectOutcome(
        p,
        'transaction.completed',
        transaction({ customerId: r.customerId, subtotal: 3_000, origin: 'subscription_recurring', subscriptionId: paddleId('sub') }),
        'credited',
      );
    }
    expect(await amounts(p)).toEqual([600, 600, 600]);
    const payments = await list(p, 'payments');
    expect(new Set(payments.map((x) => x.relationships.referral.data.id))).toEqual(new Set([r.referralId]));
  });

  it('customer.created tells the address: a transaction before it waits, and is credited when it comes (reverse order)', async () => {
    const p = await program();
    const r = await referral(p, 'paddle.buyer@shop.test');
    const customerId = paddleId('ctm');
    const waiting = await expectOutcome(p, 'transaction.completed', transaction({ customerId, subtotal: 5_000 }), 'ignored');
    expect(waiting.data.attributes.waiting_on).toBe(`paddle:${customerId}`);
    await expectOutcome(p, 'customer.created', customer({ id: customerId, email: ' paddle.buyer@SHOP.Test' }), 'linked');
    expect(await amounts(p)).toEqual([1_000]);
    const [event] = (await events(p)).filter((e) => e.attributes.type === 'transaction.completed');
    expect(event!.attributes).toMatchObject({ outcome: 'credited', waiting_on: null });
    expect((await list(p, 'payments'))[0]!.relationships.referral.data.id).toBe(r.referralId);
  });

  it('a click id with no track() call: customer.created first, then the transaction makes the referral from the click', async () => {
    const p = await program();
    const partner = await referral(p);
    const grId = await kit.click(p, partner.key);
    const customerId = paddleId('ctm');
    await expectOutcome(p, 'customer.created', customer({ id: customerId, email: 'untracked@shop.test' }), 'ignored');
    await expectOutcome(
      p,
      'transaction.completed',
      transaction({ customerId, subtotal: 2_000, customData: { tally_gr_id: grId } }),
      'credited',
    );
    const referrals = await list(p, 'referrals');
    expect(referrals.map((x) => x.attributes.email)).toContain('untracked@shop.test');
  });

  it("a lead reward on metadata pays the sign-up the transaction makes from a click: the checkout's custom_data is its metadata", async () => {
    const p = await program();
    const grId = await kit.metadataLead(p);
    const customerId = paddleId('ctm');
    await expectOutcome(p, 'customer.created', customer({ id: customerId, email: 'pro.plan@shop.test' }), 'ignored');
    const txn = transaction({ customerId, subtotal: 2_000, customData: { tally_gr_id: grId, plan: 'pro' } });
    await expectOutcome(p, 'transaction.completed', txn, 'credited');
    await kit.expectMetadataLeadPaid(p);
  });
});

describe('refunds, chargebacks, cancellation', () => {
  it('a refund applies once approved: pending is ignored, partial then full, each adjustment once', async () => {
    const p = await program();
    const r = await paidTransaction(p, { subtotal: 10_000 });
    const partial = adjustment({ transactionId: r.txnId, action: 'refund', type: 'partial', status: 'pending_approval', total: 2_500 });
    const pending = await expectOutcome(p, 'adjustment.created', partial, 'ignored');
    expect(pending.data.attributes.reason).toMatch(/pending_approval/);
    expect(await amounts(p)).toEqual([2_000]);
    await expectOutcome(p, 'adjustment.updated', { ...partial, status: 'approved' }, 'refunded');
    expect(await amounts(p)).toEqual([1_500]);
    // The same adjustment again, in another event: applied already.
    await expectOutcome(p, 'adjustment.updated', { ...partial, status: 'approved', updated_at: '2025-03-02T10:00:00.000000Z' }, 'ignored');
    expect(await amounts(p)).toEqual([1_500]);
    const rest = adjustment({ transactionId: r.txnId, action: 'refund', type: 'full', total: 7_500 });
    await expectOutcome(p, 'adjustment.updated', rest, 'refunded');
    const [payment] = await list(p, 'payments');
    expect(payment!.attributes.refunded).toBe(10_000);
    const [commission] = await list(p, 'commissions');
    expect(commission!.attributes.state).toBe('rejected');
  });

  it('a refund before its transaction waits for it (reverse order), and is applied when it comes', async () => {
    const p = await program();
    const r = await referral(p);
    const txn = transaction({ customerId: paddleId('ctm'), subtotal: 8_000, customData: { tally_gr_id: r.grId } });
    const refund = adjustment({ transactionId: txn.id as string, action: 'refund', type: 'partial', total: 2_000 });
    const waiting = await expectOutcome(p, 'adjustment.updated', refund, 'ignored');
    expect(waiting.data.attributes.waiting_on).toBe(`paddle:${txn.id}`);
    await expectOutcome(p, 'transaction.completed', txn, 'credited');
    // 20 % of 8,000, less a quarter.
    expect(await amounts(p)).toEqual([1_200]);
  });

  it('a chargeback warning holds the commission; the chargeback takes it back', async () => {
    const p = await program();
    const r = await paidTransaction(p, { subtotal: 5_000 });
    await expectOutcome(
      p,
      'adjustment.created',
      adjustment({ transactionId: r.txnId, action: 'chargeback_warning', total: 5_000 }),
      'held',
    );
    expect((await list(p, 'commissions'))[0]!.attributes.on_hold).toBe(true);
    await expectOutcome(p, 'adjustment.created', adjustment({ transactionId: r.txnId, action: 'chargeback', total: 5_000 }), 'refunded');
    const [commission] = await list(p, 'commissions');
    expect(commission!.attributes).toMatchObject({ state: 'rejected', on_hold: false });
  });

  it('subscription.canceled churns the paid referral', async () => {
    const p = await program();
    const r = await paidTransaction(p, { subtotal: 3_000 });
    await expectOutcome(p, 'subscription.canceled', subscription({ customerId: r.customerId }), 'churned');
    const referral = (await ok(p, 'GET', `/v1/referrals/${r.referralId}`)).data;
    expect(referral.attributes.state).toBe('churned');
  });
});

describe('codes', () => {
  async function partnerWithCode(p: Connected, code: string) {
    const r = await referral(p);
    const made = await ok(p, 'POST', '/v1/discount_codes', { partnership_id: r.partnershipId, code });
    return { ...r, codeId: made.data.id as string };
  }

  it("a code-only sale: the discount's code learnt from discount.created, the address from customer.created", async () => {
    const p = await program();
    const maya = await partnerWithCode(p, 'MAYA20');
    const dsc = discount({ code: 'maya20' });
    await expectOutcome(p, 'discount.created', dsc, 'linked');
    const customerId = paddleId('ctm');
    await expectOutcome(p, 'customer.created', customer({ id: customerId, email: 'podcast.listener@shop.test' }), 'ignored');
    await expectOutcome(
      p,
      'transaction.completed',
      transaction({ customerId, subtotal: 10_000, discount: 2_000, discountId: dsc.id as string }),
      'credited',
    );
    const [payment] = await list(p, 'payments');
    expect(payment!.attributes.amount).toBe(8_000);
    const [commission] = await list(p, 'commissions');
    expect(commission!.attributes).toMatchObject({ partner_id: maya.partnerId, amount: 1_600 });
    expect(await list(p, 'events', '&type_eq=discount_code.used')).toHaveLength(1);
  });

  it('a 100 %-off first transaction earns nothing but links the customer; the paid renewal earns', async () => {
    const p = await program();
    const maya = await partnerWithCode(p, 'FREEMONTH');
    const dsc = discount({ code: 'FREEMONTH', amount: '100' });
    await expectOutcome(p, 'discount.created', dsc, 'linked');
    const customerId = paddleId('ctm');
    await expectOutcome(p, 'customer.created', customer({ id: customerId, email: 'free.first@shop.test' }), 'ignored');
    await expectOutcome(
      p,
      'transaction.completed',
      transaction({ customerId, subtotal: 3_000, discount: 3_000, discountId: dsc.id as string }),
      'linked',
    );
    expect(await list(p, 'payments')).toEqual([]);
    await expectOutcome(
      p,
      'transaction.completed',
      transaction({ customerId, subtotal: 3_000, origin: 'subscription_recurring' }),
      'credited',
    );
    expect((await list(p, 'commissions'))[0]!.attributes.partner_id).toBe(maya.partnerId);
  });

  it('a disabled code credits nobody', async () => {
    const p = await program();
    const maya = await partnerWithCode(p, 'GONE10');
    await ok(p, 'PATCH', `/v1/discount_codes/${maya.codeId}`, { enabled: false });
    const dsc = discount({ code: 'GONE10' });
    await expectOutcome(p, 'discount.created', dsc, 'linked');
    const customerId = paddleId('ctm');
    await expectOutcome(p, 'customer.created', customer({ id: customerId, email: 'late@shop.test' }), 'ignored');
    await expectOutcome(p, 'transaction.completed', transaction({ customerId, subtotal: 1_000, discountId: dsc.id as string }), 'ignored');
    expect(await list(p, 'payments')).toEqual([]);
  });
});

describe('the billing events log', () => {
  it('lists every platform in one log, filtered by platform', async () => {
    const p = await program();
    await paidTransaction(p, { subtotal: 1_000 });
    const all = await list(p, 'billing_events');
    expect(all.map((e) => [e.type, e.attributes.platform, e.attributes.type])).toEqual([
      ['billing_event', 'paddle', 'transaction.completed'],
    ]);
    expect(all[0]!.id).toMatch(/^paddle:evt_/);
    expect(await list(p, 'billing_events', '&platform_eq=stripe')).toEqual([]);
    const one = await ok(p, 'GET', `/v1/billing_events/${encodeURIComponent(all[0]!.id)}`);
    expect(one.data.attributes.outcome).toBe('credited');
  });
});
