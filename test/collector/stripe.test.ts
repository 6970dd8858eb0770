// Stripe's events (docs/stripe.md), signed by the `stripe` package and posted to a real
// collector on both engines: connecting, verifying, matching a customer to a referral,
// what each event does, delivery out of order, and the commission rules payouts honour.
// Each test runs in a program of its own, so one test's customers are not another's.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';
import { integrityProblems } from './database.js';
import { leadReward } from './programs-kit.js';
import {
  charge,
  checkoutSession,
  customer,
  dispute,
  invoice,
  invoicePayment,
  legacyInvoice,
  newSecret,
  postEvent,
  signedHeader,
  stripeEvent,
  stripeId,
  subscription,
} from './stripe-fixtures.js';

type Json = Record<string, any>;

let c: Collector;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(() => c.close());

const DAY = 86_400;

interface Program {
  id: string;
  token: string;
  publishable: string;
  /** The signing secret set for the program's endpoint. */
  secret: string;
  /** The endpoint on the test's server. */
  url: string;
}

/** A program of its own, connected to Stripe with one secret, with `changes` to its settings. */
async function program(changes: Json = {}): Promise<Program> {
  const p = await c.otherProgram();
  const secret = newSecret();
  const added = await c.call('POST', '/v1/integrations/stripe/secrets', { token: p.secret, body: { secret, label: 'test mode' } });
  expect(added.status).toBe(201);
  if (Object.keys(changes).length > 0) {
    const patched = await c.call('PATCH', '/v1/program', { token: p.secret, body: changes });
    expect(patched.status).toBe(200);
  }
  const path = new URL(added.body.meta.endpoint_url).pathname;
  return { id: p.id, token: p.secret, publishable: p.publishable, secret, url: c.url + path };
}

const api = (p: Program, method: string, path: string, body?: unknown) => c.call(method, path, { token: p.token, body });

/** Posts an event of `type` about `object`, signed now with the program's secret. */
async function send(p: Program, type: string, object: Json, opts: { id?: string; secret?: string; timestamp?: number } = {}) {
  const event = stripeEvent(type, object, { id: opts.id, created: c.clock.now });
  return postEvent(p.url, event, opts.secret ?? p.secret, { timestamp: opts.timestamp ?? c.clock.now });
}

/** Sends and expects the event taken: 200 and the outcome. */
async function expectOutcome(p: Program, type: string, object: Json, outcome: string, opts: { id?: string } = {}): Promise<Json> {
  const reply = await send(p, type, object, opts);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.data.attributes.outcome, JSON.stringify(reply.body.data.attributes)).toBe(outcome);
  return reply.body;
}

let visits = 0;
/** A click on the partner's link: its click id (gr_id), as the tracker passes it to the page. */
async function click(p: Program, key: string): Promise<string> {
  const grId = `gr-stripe-${++visits}`;
  const reply = await c.call('POST', '/v1/tracking/click', {
    token: p.publishable,
    body: { gr_id: grId, pk: key, url: 'https://shop.test/' },
  });
  expect(reply.status).toBe(202);
  return grId;
}

/** A partner with a PayPal address, and a referral of theirs made by the snippet. */
async function referral(p: Program, email = `buyer${++visits}@shop.test`) {
  const partner = await seedPartner(c, { token: p.token, paypal_email: `pay${visits}@partner.test` });
  const grId = await click(p, partner.key);
  const conv = await c.call('POST', '/v1/tracking/conversion', { token: p.publishable, body: { email, gr_id: grId, pk: partner.key } });
  expect(conv.status).toBe(201);
  return { ...partner, grId, email, referralId: conv.body.data.id as string };
}

const list = async (p: Program, what: string, query = ''): Promise<Json[]> =>
  (await api(p, 'GET', `/v1/${what}?per_page=50${query}`)).body.data;
const commissions = (p: Program) => list(p, 'commissions');
const amounts = async (p: Program) => (await commissions(p)).map((x) => x.attributes.amount).sort((a, b) => a - b);

/** A Checkout in payment mode naming the click: the snippet's page passed gr_id as client_reference_id. */
async function paidCheckout(p: Program, opts: { amount?: number; email?: string } = {}) {
  const r = await referral(p, opts.email);
  const session = checkoutSession({ amount: opts.amount ?? 10_000, clientReferenceId: r.grId, email: r.email });
  const body = await expectOutcome(p, 'checkout.session.completed', session, 'credited');
  return { ...r, session, customer: session.customer as string, intent: session.payment_intent as string, event: body.data };
}

/** The payout export and, when `paid`, the batch marked paid: what each partner was paid. */
async function payOut(p: Program, paid = true): Promise<{ batches: Json[]; skipped: Json[] }> {
  const made = await api(p, 'POST', '/v1/payout_batches', {});
  expect([200, 201]).toContain(made.status);
  if (paid) {
    for (const b of made.body.data) expect((await api(p, 'POST', `/v1/payout_batches/${b.id}/paid`)).status).toBe(200);
  }
  return { batches: made.body.data, skipped: made.body.meta.skipped };
}

describe('connecting', () => {
  it('a program has its webhook URL from the start; the events to send; secrets shown by hint only', async () => {
    const p = await c.otherProgram();
    const before = await c.call('GET', '/v1/integrations/stripe', { token: p.secret });
    expect(before.body.data.attributes).toMatchObject({ secrets: [] });
    expect(before.body.data.attributes.endpoint_url).toMatch(/^http:\/\/localhost:8787\/v1\/integrations\/stripe\/webhook\/we_[\w-]{16}$/);
    // Events to an endpoint with no secret yet are refused, saying why.
    const early = await postEvent(
      c.url + new URL(before.body.data.attributes.endpoint_url).pathname,
      stripeEvent('customer.created', customer({})),
      newSecret(),
      { timestamp: c.clock.now },
    );
    expect(early.status).toBe(400);
    expect(early.body.errors[0].detail).toMatch(/no Stripe signing secret is set/);
    expect(before.body.data.attributes.events).toEqual(
      expect.arrayContaining([
        'checkout.session.completed',
        'invoice.paid',
        'charge.refunded',
        'charge.dispute.created',
        'charge.dispute.closed',
        'customer.subscription.deleted',
        'customer.created',
        'customer.updated',
      ]),
    );
    const secret = newSecret();
    const added = await c.call('POST', '/v1/integrations/stripe/secrets', {
      token: p.secret,
      body: { secret: `  ${secret}\n`, label: 'live' },
    });
    expect(added.status).toBe(201);
    expect(added.body.meta.endpoint_url).toBe(before.body.data.attributes.endpoint_url);
    expect(added.body.data.attributes).toEqual({ label: 'live', hint: `whsec_…${secret.slice(-4)}`, created_at: c.clock.now });
    const after = await c.call('GET', '/v1/integrations/stripe', { token: p.secret });
    expect(after.body.data.attributes.endpoint_url).toBe(added.body.meta.endpoint_url);
    expect(JSON.stringify(after.body)).not.toContain(secret.slice(6, 30));
    // A second secret keeps the same URL; the same secret twice is refused.
    const second = await c.call('POST', '/v1/integrations/stripe/secrets', { token: p.secret, body: { secret: newSecret() } });
    expect(second.body.meta.endpoint_url).toBe(added.body.meta.endpoint_url);
    expect(second.body.data.attributes.label).toBe('Stripe');
    expectError(await c.call('POST', '/v1/integrations/stripe/secrets', { token: p.secret, body: { secret } }), 409, 'conflict');
  });

  it('a program made before Stripe came gets its URL when first asked, and keeps it', async () => {
    const p = await c.otherProgram();
    await c.running.db.run('UPDATE programs SET stripe_endpoint_id = NULL WHERE id = ?', [p.id]);
    const first = (await c.call('GET', '/v1/integrations/stripe', { token: p.secret })).body.data.attributes.endpoint_url;
    expect(first).toMatch(/\/webhook\/we_[\w-]{16}$/);
    expect((await c.call('GET', '/v1/integrations/stripe', { token: p.secret })).body.data.attributes.endpoint_url).toBe(first);
    expect((await c.call('GET', '/v1/program', { token: p.secret })).body.data.attributes.stripe_endpoint_id).toBe(first.split('/').pop());
  });

  it("refuses what is not a Stripe signing secret, and another program's secret id", async () => {
    const p = await program();
    for (const secret of ['sk_test_abc', 'whsec_short', `whsec_${'a'.repeat(30)}!`, '']) {
      expectError(await api(p, 'POST', '/v1/integrations/stripe/secrets', { secret }), 422, 'invalid_field');
    }
    const q = await program();
    const [qSecret] = (await api(q, 'GET', '/v1/integrations/stripe')).body.data.attributes.secrets;
    expectError(await api(p, 'DELETE', `/v1/integrations/stripe/secrets/${qSecret.id}`), 404, 'not_found');
    expect((await api(q, 'GET', '/v1/integrations/stripe')).body.data.attributes.secrets).toHaveLength(1);
  });

  it('rotation: two secrets verify at once; a removed one verifies nothing', async () => {
    const p = await program();
    const next = newSecret();
    const added = await api(p, 'POST', '/v1/integrations/stripe/secrets', { secret: next, label: 'rolled' });
    for (const secret of [p.secret, next]) {
      expect((await send(p, 'customer.created', customer({}), { secret })).status).toBe(200);
    }
    const old = (await api(p, 'GET', '/v1/integrations/stripe')).body.data.attributes.secrets.find(
      (s: Json) => s.id !== added.body.data.id,
    );
    expect((await api(p, 'DELETE', `/v1/integrations/stripe/secrets/${old.id}`)).status).toBe(204);
    expectError(await send(p, 'customer.created', customer({})), 400, 'invalid_signature');
    expect((await send(p, 'customer.created', customer({}), { secret: next })).status).toBe(200);
  });
});

describe('verifying', () => {
  it('unsigned, wrongly signed, tampered, stale and replayed events get 400 and change nothing', async () => {
    const p = await program();
    const r = await referral(p);
    const session = checkoutSession({ amount: 5000, clientReferenceId: r.grId, email: r.email });
    const event = stripeEvent('checkout.session.completed', session, { created: c.clock.now });
    const payload = JSON.stringify(event);
    const now = c.clock.now;
    const tries = [
      postEvent(p.url, payload, p.secret, { timestamp: now, header: null }),
      postEvent(p.url, payload, newSecret(), { timestamp: now }),
      postEvent(p.url, payload, p.secret, { timestamp: now, header: 'garbage' }),
      postEvent(p.url, payload.replace('5000', '9000'), p.secret, { timestamp: now, header: signedHeader(payload, p.secret, now) }),
      postEvent(p.url, payload, p.secret, { timestamp: now - 301 }),
    ];
    const answers = await Promise.all(tries);
    for (const a of answers) {
      expect(a.status).toBe(400);
      expect(a.body.errors[0].code).toBe('invalid_signature');
    }
    expect(answers[4]!.body.errors[0].detail).toMatch(/more than 300 seconds ago/);
    // Signed 5 minutes ago, received now: still within Stripe's tolerance.
    expect((await postEvent(p.url, payload, p.secret, { timestamp: now - 299 })).status).toBe(200);
    // The same signed request a second time, within the tolerance: nothing more happens;
    // captured and sent later, it is stale.
    const header = signedHeader(payload, p.secret, now);
    const again = await postEvent(p.url, payload, p.secret, { timestamp: now, header });
    expect(again.status).toBe(200);
    expect(again.body.meta.duplicate).toBe(true);
    c.clock.now += 301;
    try {
      const late = await postEvent(p.url, payload, p.secret, { timestamp: now, header });
      expectError(late, 400, 'invalid_signature');
    } finally {
      c.clock.now -= 301;
    }
    expect(await list(p, 'payments')).toHaveLength(1);
    expect(await list(p, 'integrations/stripe/events')).toHaveLength(1);
  });

  it('an unknown endpoint is 404; an event signed for another program is refused by this one', async () => {
    const p = await program();
    const q = await program();
    const reply = await postEvent(
      p.url.replace(/we_[\w-]+$/, 'we_nosuchendpoint0000'),
      stripeEvent('customer.created', customer({})),
      p.secret,
      { timestamp: c.clock.now },
    );
    expect(reply.status).toBe(404);
    const crossed = await postEvent(q.url, stripeEvent('customer.created', customer({})), p.secret, { timestamp: c.clock.now });
    expect(crossed.status).toBe(400);
    expect(await list(q, 'integrations/stripe/events')).toEqual([]);
  });

  it('a signed body that is not an event is a clear 400; one over 512 KiB is 413', async () => {
    const p = await program();
    const bad = await postEvent(p.url, '{"hello":', p.secret, { timestamp: c.clock.now });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].status).toBe('400');
    const noType = await postEvent(p.url, JSON.stringify({ id: 'evt_1', data: {} }), p.secret, { timestamp: c.clock.now });
    expect(noType.status).toBe(422);
    // `typeof null` is 'object': an event whose object is null or a list is refused, not read (it was a 500).
    for (const object of [null, []]) {
      const event = JSON.stringify({
        id: 'evt_2',
        object: 'event',
        type: 'checkout.session.completed',
        created: c.clock.now,
        data: { object },
      });
      expectError(await postEvent(p.url, event, p.secret, { timestamp: c.clock.now }), 422, 'invalid_field');
    }
    const big = stripeEvent('customer.updated', customer({ metadata: { note: 'x'.repeat(600 * 1024) } }));
    expect((await postEvent(p.url, big, p.secret, { timestamp: c.clock.now })).status).toBe(413);
    expect(await list(p, 'integrations/stripe/events')).toEqual([]);
  });
});

describe('each event', () => {
  it('checkout.session.completed naming a click makes the referral, the payment and its commission', async () => {
    const p = await program();
    const partner = await seedPartner(c, { token: p.token });
    const grId = await click(p, partner.key);
    const session = checkoutSession({ amount: 11_900, tax: 1_900, currency: 'eur', clientReferenceId: grId, email: 'New.Buyer@Shop.test' });
    const body = await expectOutcome(p, 'checkout.session.completed', session, 'credited');
    const [ref] = await list(p, 'referrals');
    expect(ref!.attributes).toMatchObject({ state: 'paid', email: 'New.Buyer@Shop.test' });
    const [payment] = await list(p, 'payments');
    // Tax is not the company's revenue: the commission is on the 100.00 before it.
    expect(payment!.attributes).toMatchObject({
      amount: 10_000,
      currency: 'EUR',
      idempotency_key: `stripe:${session.payment_intent}`,
      refunded: 0,
    });
    expect(await amounts(p)).toEqual([2_000]);
    expect(body.data.attributes.touched.map((t: Json) => t.type)).toEqual(['referral', 'payment', 'commission']);
    expect(body.meta.duplicate).toBe(false);
  });

  it("checkout.session.completed making the referral from its click: a lead reward reads the Checkout's customer country and metadata", async () => {
    const p = await program();
    const [defaultGroup] = (await api(p, 'GET', '/v1/groups')).body.data;
    for (const reward of [
      leadReward(500, { field: 'customer_country', op: 'eq', value: 'DE' }),
      leadReward(700, { field: 'metadata', key: 'plan', op: 'eq', value: 'pro' }),
    ]) {
      expect((await api(p, 'POST', `/v1/groups/${defaultGroup.id}/rewards`, reward)).status).toBe(201);
    }
    const partner = await seedPartner(c, { token: p.token });
    const leadOf = async (o: { email: string; country?: string; metadata?: Record<string, string> }) => {
      const grId = await click(p, partner.key);
      const session = checkoutSession({
        amount: 10_000,
        clientReferenceId: grId,
        email: o.email,
        customerCountry: o.country,
        metadata: o.metadata,
      });
      await expectOutcome(p, 'checkout.session.completed', session, 'credited');
      const [referral] = await list(p, 'referrals', `&email_eq=${encodeURIComponent(o.email)}`);
      const own = (await commissions(p)).filter((x) => x.attributes.referral_id === referral!.id);
      return own.map((x) => x.attributes.amount).sort((a, b) => a - b);
    };
    expect(await leadOf({ email: 'de@shop.test', country: 'DE' })).toEqual([500, 2_000]);
    expect(await leadOf({ email: 'pro@shop.test', country: 'FR', metadata: { plan: 'pro' } })).toEqual([700, 2_000]);
    expect(await leadOf({ email: 'fr@shop.test', country: 'FR' })).toEqual([2_000]);
  });

  it('a Checkout in setup mode, or with nothing paid, only links the customer; the invoice later pays', async () => {
    const p = await program();
    for (const s of [
      (grId: string) => checkoutSession({ mode: 'setup', clientReferenceId: grId }),
      (grId: string) => checkoutSession({ mode: 'subscription', amount: 0, paymentStatus: 'no_payment_required', clientReferenceId: grId }),
    ]) {
      const r = await referral(p);
      const session = s(r.grId);
      await expectOutcome(p, 'checkout.session.completed', session, 'linked');
      await expectOutcome(p, 'invoice.paid', invoice({ customer: session.customer as string, amountPaid: 3_000 }), 'credited');
    }
    expect(await list(p, 'payments')).toHaveLength(2);
    expect(await amounts(p)).toEqual([600, 600]);
  });

  it('invoice.paid: keyed by the invoice, so a renewal earns again and a retry never does; tax excluded; both API shapes', async () => {
    const p = await program();
    const r = await paidCheckout(p, { amount: 1_000 });
    const first = invoice({ customer: r.customer, amountPaid: 1_200, tax: 200 });
    await expectOutcome(p, 'invoice.paid', first, 'credited');
    // Stripe sends the same invoice again under another event id (a retry of a failed delivery):
    await expectOutcome(p, 'invoice.paid', first, 'ignored');
    await expectOutcome(p, 'invoice.paid', legacyInvoice({ customer: r.customer, amountPaid: 2_500, tax: 500 }), 'credited');
    // A trial that converts pays nothing first: no payment for a zero invoice.
    await expectOutcome(
      p,
      'invoice.paid',
      invoice({ customer: r.customer, amountPaid: 0, billingReason: 'subscription_create' }),
      'ignored',
    );
    expect(await amounts(p)).toEqual([200, 200, 400]);
    const keys = (await list(p, 'payments')).map((x) => x.attributes.idempotency_key);
    expect(keys).toContain(`stripe:${first.id}`);
  });

  it("invoice_payment.paid: a webhook's invoice names no payment intent; this link lets a refund of the intent find the invoice's payment, in either order", async () => {
    const p = await program();
    const r = await referral(p);
    const cus = customer({ email: r.email, metadata: { tally_referral_id: r.referralId } });
    await expectOutcome(p, 'customer.created', cus, 'linked');
    // As delivered: `payments` is only there when a request expands it.
    const first = invoice({ customer: cus.id as string, amountPaid: 10_000 });
    expect(first).not.toHaveProperty('payments');
    const credited = await expectOutcome(p, 'invoice.paid', first, 'credited');
    const paymentId = credited.data.attributes.touched.find((t: Json) => t.type === 'payment').id;
    const intent = stripeId('pi');
    // A refund before the link waits for it; the link applies it.
    const refund = await expectOutcome(
      p,
      'charge.refunded',
      charge({ amount: 10_000, amountRefunded: 2_500, paymentIntent: intent }),
      'ignored',
    );
    expect(refund.data.attributes.waiting_on).toBe(intent);
    const linked = await expectOutcome(
      p,
      'invoice_payment.paid',
      invoicePayment({ invoice: first.id as string, amountPaid: 10_000, paymentIntent: intent }),
      'linked',
    );
    expect(linked.data.attributes.touched).toEqual([{ type: 'payment', id: paymentId }]);
    expect((await api(p, 'GET', `/v1/integrations/stripe/events/${refund.data.id}`)).body.data.attributes).toMatchObject({
      outcome: 'refunded',
      waiting_on: null,
    });
    expect(await amounts(p)).toEqual([1_500]);
    // A later refund of the same intent finds the payment at once.
    await expectOutcome(p, 'charge.refunded', charge({ amount: 10_000, amountRefunded: 10_000, paymentIntent: intent }), 'refunded');
    expect((await commissions(p))[0]!.attributes).toMatchObject({ state: 'rejected', reject_reason: 'refunded' });
    // The other order: the link before its invoice waits on the invoice, and applies with it.
    const renewal = invoice({ customer: cus.id as string, amountPaid: 5_000 });
    const renewalIntent = stripeId('pi');
    const early = await expectOutcome(
      p,
      'invoice_payment.paid',
      invoicePayment({ invoice: renewal.id as string, amountPaid: 5_000, paymentIntent: renewalIntent }),
      'ignored',
    );
    expect(early.data.attributes.waiting_on).toBe(renewal.id);
    await expectOutcome(p, 'invoice.paid', renewal, 'credited');
    expect((await api(p, 'GET', `/v1/integrations/stripe/events/${early.data.id}`)).body.data.attributes.outcome).toBe('linked');
    await expectOutcome(p, 'charge.refunded', charge({ amount: 5_000, amountRefunded: 5_000, paymentIntent: renewalIntent }), 'refunded');
    expect((await commissions(p)).map((x) => x.attributes.reject_reason)).toEqual(['refunded', 'refunded']);
  });

  it('checkout.session.async_payment_succeeded: a session completed unpaid (a bank debit) only links; paid later, it credits, and its refund finds it', async () => {
    const p = await program();
    const partner = await seedPartner(c, { token: p.token });
    const grId = await click(p, partner.key);
    const session = checkoutSession({ amount: 5_000, clientReferenceId: grId, email: 'slow.bank@shop.test', paymentStatus: 'unpaid' });
    const completed = await expectOutcome(p, 'checkout.session.completed', session, 'linked');
    const [ref] = await list(p, 'referrals');
    expect(completed.data.attributes.touched).toEqual([{ type: 'referral', id: ref!.id }]);
    expect(await list(p, 'payments')).toEqual([]);
    const paid = { ...session, payment_status: 'paid' };
    const body = await expectOutcome(p, 'checkout.session.async_payment_succeeded', paid, 'credited');
    expect(body.data.attributes.touched.map((t: Json) => t.type)).toEqual(['referral', 'payment', 'commission']);
    expect(await amounts(p)).toEqual([1_000]);
    expect((await api(p, 'GET', `/v1/referrals/${ref!.id}`)).body.data.attributes.state).toBe('paid');
    // Stripe's retry under another event id credits nothing more; the refund takes it back.
    await expectOutcome(p, 'checkout.session.async_payment_succeeded', paid, 'ignored');
    await expectOutcome(
      p,
      'charge.refunded',
      charge({ amount: 5_000, amountRefunded: 5_000, paymentIntent: session.payment_intent as string }),
      'refunded',
    );
    expect((await commissions(p))[0]!.attributes).toMatchObject({ state: 'rejected', reject_reason: 'refunded' });
  });

  it("a click id in a customer's or subscription's metadata makes the referral when the snippet never recorded one, as a Checkout's does; in either order", async () => {
    const p = await program();
    const partner = await seedPartner(c, { token: p.token });
    const made = async (email: string) => (await list(p, 'referrals')).find((x) => x.attributes.email === email);
    // customer.created with tally_gr_id and an address: the referral from the click, the customer linked.
    const grId = await click(p, partner.key);
    const cus = customer({ email: 'no.snippet@shop.test', metadata: { tally_gr_id: grId } });
    const linked = await expectOutcome(p, 'customer.created', cus, 'linked');
    const ref = await made('no.snippet@shop.test');
    expect(ref!.attributes.state).toBe('converted');
    expect(ref!.relationships.partnership.data.id).toBe(partner.partnershipId);
    expect(linked.data.attributes.touched).toEqual([{ type: 'referral', id: ref!.id }]);
    await expectOutcome(
      p,
      'invoice.paid',
      invoice({ customer: cus.id as string, amountPaid: 3_000, email: 'no.snippet@shop.test' }),
      'credited',
    );
    // The invoice first: it waits on its customer, whose event makes the referral and applies it.
    const lateClick = await click(p, partner.key);
    const late = customer({ email: 'late.customer@shop.test', metadata: { tally_gr_id: lateClick } });
    const early = await expectOutcome(
      p,
      'invoice.paid',
      invoice({ customer: late.id as string, amountPaid: 4_000, email: 'late.customer@shop.test' }),
      'ignored',
    );
    expect(early.data.attributes.waiting_on).toBe(late.id);
    await expectOutcome(p, 'customer.created', late, 'linked');
    expect((await api(p, 'GET', `/v1/integrations/stripe/events/${early.data.id}`)).body.data.attributes).toMatchObject({
      outcome: 'credited',
      waiting_on: null,
    });
    // The subscription's metadata, as its invoice carries it, with the invoice's address.
    const subClick = await click(p, partner.key);
    await expectOutcome(
      p,
      'invoice.paid',
      invoice({
        customer: stripeId('cus'),
        amountPaid: 5_000,
        email: 'by.subscription@shop.test',
        subscriptionMetadata: { tally_gr_id: subClick },
      }),
      'credited',
    );
    expect((await made('by.subscription@shop.test'))!.attributes.state).toBe('paid');
    expect(await amounts(p)).toEqual([600, 800, 1_000]);
    // Without an address there is no one to make a referral of: only an existing one is found.
    await expectOutcome(p, 'customer.created', customer({ metadata: { tally_gr_id: await click(p, partner.key) } }), 'ignored');
    expect(await list(p, 'referrals')).toHaveLength(3);
  });

  it('matching by metadata (session, customer, subscription), by the linked customer, and by e-mail', async () => {
    const p = await program();
    const a = await referral(p);
    const b = await referral(p);
    const d = await referral(p, 'Mixed.Case@Shop.test');
    // tally_gr_id on the session; tally_referral_id on the subscription.
    await expectOutcome(p, 'checkout.session.completed', checkoutSession({ amount: 1_000, metadata: { tally_gr_id: a.grId } }), 'credited');
    await expectOutcome(
      p,
      'invoice.paid',
      invoice({ customer: stripeId('cus'), amountPaid: 2_000, subscriptionMetadata: { tally_referral_id: b.referralId } }),
      'credited',
    );
    // customer.created with metadata links; the customer's later invoices credit the referral.
    const cus = customer({ metadata: { tally_referral_id: d.referralId } });
    await expectOutcome(p, 'customer.created', cus, 'linked');
    await expectOutcome(p, 'invoice.paid', invoice({ customer: cus.id as string, amountPaid: 3_000 }), 'credited');
    // An unknown customer whose e-mail is a referral's (the domain in any case, as everywhere).
    const e = await referral(p, 'by.email@shop.test');
    await expectOutcome(
      p,
      'invoice.paid',
      invoice({ customer: stripeId('cus'), amountPaid: 4_000, email: ' by.email@SHOP.Test' }),
      'credited',
    );
    const byReferral = new Map<string, number[]>();
    for (const x of await commissions(p))
      byReferral.set(x.attributes.referral_id, [...(byReferral.get(x.attributes.referral_id) ?? []), x.attributes.amount]);
    expect(Object.fromEntries(byReferral)).toEqual({
      [a.referralId]: [200],
      [b.referralId]: [400],
      [d.referralId]: [600],
      [e.referralId]: [800],
    });
  });

  it('a customer no referral matches: 200, ignored with the reason, nothing made', async () => {
    const p = await program();
    const body = await expectOutcome(
      p,
      'invoice.paid',
      invoice({ customer: stripeId('cus'), amountPaid: 1_000, email: 'nobody@shop.test' }),
      'ignored',
    );
    expect(body.data.attributes.reason).toMatch(/no referral matched/);
    expect(await list(p, 'payments')).toEqual([]);
  });

  it('charge.refunded: partial reduces the pending commission in proportion, full rejects it; a repeat changes nothing', async () => {
    const p = await program();
    const r = await paidCheckout(p, { amount: 10_000 });
    await expectOutcome(p, 'charge.refunded', charge({ amount: 10_000, amountRefunded: 2_500, paymentIntent: r.intent }), 'refunded');
    expect(await amounts(p)).toEqual([1_500]);
    const [payment] = await list(p, 'payments');
    expect(payment!.attributes.refunded).toBe(2_500);
    await expectOutcome(p, 'charge.refunded', charge({ amount: 10_000, amountRefunded: 2_500, paymentIntent: r.intent }), 'refunded');
    expect(await amounts(p)).toEqual([1_500]);
    await expectOutcome(p, 'charge.refunded', charge({ amount: 10_000, amountRefunded: 10_000, paymentIntent: r.intent }), 'refunded');
    const [rejected] = await commissions(p);
    expect(rejected!.attributes).toMatchObject({ state: 'rejected', reject_reason: 'refunded' });
    // The dashboard's revenue counts what was kept: nothing of this payment.
    const totalsAfter = async () => (await api(p, 'GET', '/v1/stats?from=2025-01-01&to=2025-12-31')).body.data.attributes.totals;
    const totals = await totalsAfter();
    expect([totals.payments, totals.revenue.USD ?? 0, totals.commissions.USD ?? 0]).toEqual([1, 0, 0]);
  });

  it('charge.refunded by half of a 999 commission: the partner keeps 500, the unrefunded share rounded half up', async () => {
    const p = await program({ commission_rate_bps: 1000 });
    const r = await paidCheckout(p, { amount: 9_990 });
    expect(await amounts(p)).toEqual([999]);
    await expectOutcome(p, 'charge.refunded', charge({ amount: 9_990, amountRefunded: 4_995, paymentIntent: r.intent }), 'refunded');
    expect(await amounts(p)).toEqual([500]);
  });

  it('a refund after the payout: a negative commission, netted in the next export', async () => {
    const p = await program();
    const r = await paidCheckout(p, { amount: 10_000 });
    const first = await payOut(p);
    expect(first.batches.map((b) => b.attributes.amount)).toEqual([2_000]);
    await expectOutcome(p, 'charge.refunded', charge({ amount: 10_000, amountRefunded: 5_000, paymentIntent: r.intent }), 'refunded');
    const after = await commissions(p);
    expect(after.map((x) => [x.attributes.state, x.attributes.amount]).sort()).toEqual([
      ['paid', 2_000],
      ['pending', -1_000],
    ]);
    // Nothing else is owed yet: a payout never goes below zero, the clawback carries over.
    const none = await payOut(p);
    expect(none.batches).toEqual([]);
    expect(none.skipped).toEqual([expect.objectContaining({ partner_id: r.partnerId, reason: 'clawbacks exceed earnings' })]);
    // The customer's next invoice earns 3,000; the next payout pays 3,000 − 1,000.
    await expectOutcome(p, 'invoice.paid', invoice({ customer: r.customer, amountPaid: 15_000 }), 'credited');
    const second = await payOut(p, false);
    expect(second.batches.map((b) => b.attributes.amount)).toEqual([2_000]);
    const file = await api(p, 'GET', `/v1/payout_batches/${second.batches[0]!.id}/file`);
    expect(file.body).toContain(',20.00,USD,');
    expect((await api(p, 'POST', `/v1/payout_batches/${second.batches[0]!.id}/paid`)).status).toBe(200);
    expect((await commissions(p)).every((x) => x.attributes.state === 'paid')).toBe(true);
  });

  it('a dispute holds the commission from payouts; won, it is released; lost, it acts as a refund, once', async () => {
    const p = await program();
    const won = await paidCheckout(p, { amount: 10_000 });
    const lost = await paidCheckout(p, { amount: 20_000 });
    const chargeOf = (r: { intent: string }) => dispute({ amount: 0, charge: stripeId('ch'), paymentIntent: r.intent });
    const wonDispute = { ...chargeOf(won), amount: 10_000 };
    const lostDispute = { ...chargeOf(lost), amount: 20_000 };
    await expectOutcome(p, 'charge.dispute.created', wonDispute, 'held');
    await expectOutcome(p, 'charge.dispute.created', lostDispute, 'held');
    expect((await commissions(p)).map((x) => x.attributes.on_hold)).toEqual([true, true]);
    expect((await api(p, 'GET', '/v1/payouts/owed')).body.data).toEqual([]);
    await expectOutcome(p, 'charge.dispute.closed', { ...wonDispute, status: 'won' }, 'released');
    const closedLost = { ...lostDispute, status: 'lost' };
    await expectOutcome(p, 'charge.dispute.closed', closedLost, 'refunded');
    // Stripe may send the closing event again with a new id: the loss is taken once.
    await expectOutcome(p, 'charge.dispute.closed', closedLost, 'ignored');
    const byReferral = Object.fromEntries((await commissions(p)).map((x) => [x.attributes.referral_id, x.attributes]));
    expect(byReferral[won.referralId]).toMatchObject({ state: 'pending', amount: 2_000, on_hold: false });
    expect(byReferral[lost.referralId]).toMatchObject({ state: 'rejected', reject_reason: 'refunded' });
    expect((await payOut(p)).batches.map((b) => b.attributes.amount)).toEqual([2_000]);
  });

  it('customer.subscription.deleted: the paying referral churns', async () => {
    const p = await program();
    const r = await paidCheckout(p);
    const body = await expectOutcome(p, 'customer.subscription.deleted', subscription({ customer: r.customer }), 'churned');
    expect(body.data.attributes.touched).toEqual([{ type: 'referral', id: r.referralId }]);
    expect((await api(p, 'GET', `/v1/referrals/${r.referralId}`)).body.data.attributes.state).toBe('churned');
    await expectOutcome(p, 'customer.subscription.deleted', subscription({ customer: r.customer }), 'ignored');
  });

  it('anything else: 200, ignored, in the log', async () => {
    const p = await program();
    const body = await expectOutcome(p, 'payment_intent.created', { id: stripeId('pi'), object: 'payment_intent', amount: 100 }, 'ignored');
    expect(body.data.attributes).toMatchObject({ type: 'payment_intent.created', reason: 'not an event Tally acts on', touched: [] });
  });

  it("an event for another program's customer changes nothing here", async () => {
    const p = await program();
    const q = await program();
    const r = await paidCheckout(p, { amount: 10_000 });
    // Q's endpoint hears of P's customer, P's intent and P's referral ids: none are Q's.
    await expectOutcome(
      q,
      'invoice.paid',
      invoice({
        customer: r.customer,
        amountPaid: 5_000,
        email: r.email,
        subscriptionMetadata: { tally_referral_id: r.referralId, tally_gr_id: r.grId },
      }),
      'ignored',
    );
    await expectOutcome(
      q,
      'checkout.session.completed',
      checkoutSession({ amount: 5_000, customer: r.customer, clientReferenceId: r.grId, email: r.email }),
      'ignored',
    );
    await expectOutcome(q, 'charge.refunded', charge({ amount: 10_000, amountRefunded: 10_000, paymentIntent: r.intent }), 'ignored');
    await expectOutcome(q, 'customer.subscription.deleted', subscription({ customer: r.customer }), 'ignored');
    expect(await amounts(p)).toEqual([2_000]);
    expect((await commissions(p))[0]!.attributes.state).toBe('pending');
    expect((await api(p, 'GET', `/v1/referrals/${r.referralId}`)).body.data.attributes.state).toBe('paid');
    expect(await list(q, 'payments')).toEqual([]);
    expect(await list(q, 'referrals')).toEqual([]);
  });
});

describe('delivery', () => {
  it('the same event twice, and ten times at once: processed once', async () => {
    const p = await program();
    const r = await referral(p);
    const event = stripeEvent('checkout.session.completed', checkoutSession({ amount: 4_000, clientReferenceId: r.grId, email: r.email }), {
      created: c.clock.now,
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => postEvent(p.url, event, p.secret, { timestamp: c.clock.now })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((a) => !a.body.meta.duplicate)).toHaveLength(1);
    expect(answers.every((a) => a.body.data.attributes.outcome === 'credited')).toBe(true);
    expect(await amounts(p)).toEqual([800]);
    const [logged] = await list(p, 'integrations/stripe/events');
    expect(logged!.attributes.attempts).toBe(1);
  });

  it('out of order: the invoice, its payment and a refund before the Checkout that links its customer all end applied', async () => {
    const p = await program();
    const r = await referral(p);
    const cus = stripeId('cus');
    const intent = stripeId('pi');
    const inv = invoice({ customer: cus, amountPaid: 5_000 });
    const early = await expectOutcome(p, 'invoice.paid', inv, 'ignored');
    expect(early.data.attributes.waiting_on).toBe(cus);
    // Since 2025-03-31 only the invoice payment says which intent paid the invoice.
    const link = await expectOutcome(
      p,
      'invoice_payment.paid',
      invoicePayment({ invoice: inv.id as string, amountPaid: 5_000, paymentIntent: intent }),
      'ignored',
    );
    expect(link.data.attributes.waiting_on).toBe(inv.id);
    const refund = await expectOutcome(
      p,
      'charge.refunded',
      charge({ amount: 5_000, amountRefunded: 1_000, paymentIntent: intent }),
      'ignored',
    );
    expect(refund.data.attributes.waiting_on).toBe(intent);
    // One event links the customer: the invoice, then its payment's link, then the refund apply.
    await expectOutcome(
      p,
      'checkout.session.completed',
      checkoutSession({ mode: 'subscription', amount: 5_000, customer: cus, clientReferenceId: r.grId, invoice: inv.id as string }),
      'linked',
    );
    expect(await amounts(p)).toEqual([800]);
    const log = Object.fromEntries((await list(p, 'integrations/stripe/events')).map((e) => [e.id, e.attributes]));
    expect(log[early.data.id]).toMatchObject({ outcome: 'credited', waiting_on: null });
    expect(log[link.data.id]).toMatchObject({ outcome: 'linked', waiting_on: null });
    expect(log[refund.data.id]).toMatchObject({ outcome: 'refunded', waiting_on: null });
  });

  it('a refused event is answered 2xx only once its log row is committed; else 500, and the same event again is recorded', async () => {
    const p = await program();
    const r = await referral(p);
    const cus = customer({ metadata: { tally_referral_id: r.referralId } });
    await expectOutcome(p, 'customer.created', cus, 'linked');
    await expectOutcome(p, 'payment_intent.created', { id: stripeId('pi'), object: 'payment_intent', amount: 100 }, 'ignored');
    // A rule refuses this one (a currency Tally does not know): its effects are rolled back
    // and the refusal is logged on its own. A constraint that allows this program one
    // ignored event, which it has, makes that log row's write fail.
    const refused = stripeEvent('invoice.paid', invoice({ customer: cus.id as string, amountPaid: 1_000, currency: 'zzz' }), {
      created: c.clock.now,
    });
    const index = `stripe_test_one_ignored_${p.id.replace(/\W/g, '')}`;
    await c.running.db.run(
      `CREATE UNIQUE INDEX ${index} ON billing_events (program_id) WHERE outcome = 'ignored' AND program_id = '${p.id}'`,
    );
    try {
      const reply = await postEvent(p.url, refused, p.secret, { timestamp: c.clock.now });
      expectError(reply, 500, 'internal_error');
      expect(
        await c.running.db.get('SELECT id FROM billing_events WHERE program_id = ? AND id = ?', [p.id, String(refused.id)]),
      ).toBeUndefined();
    } finally {
      await c.running.db.run(`DROP INDEX ${index}`);
    }
    // Stripe sends it again: now the refusal is recorded, and only then answered 200.
    const again = await postEvent(p.url, refused, p.secret, { timestamp: c.clock.now });
    expect(again.status).toBe(200);
    expect(again.body.data.attributes).toMatchObject({ outcome: 'ignored', reason: expect.stringMatching(/currency/) });
    expect((await api(p, 'GET', `/v1/integrations/stripe/events/${refused.id}`)).body.data.attributes.outcome).toBe('ignored');
    expect(await list(p, 'payments')).toEqual([]);
  });
});

describe('commission rules', () => {
  /** Twelve monthly invoices of one subscription, from March 2025. */
  async function renewals(p: Program, customerId: string) {
    for (let month = 0; month < 12; month++) {
      const paidAt = Date.UTC(2025, 2 + month, 1, 10) / 1000;
      await expectOutcome(p, 'invoice.paid', invoice({ customer: customerId, amountPaid: 1_000, paidAt }), 'credited');
    }
  }

  it("a subscription's twelve renewals under a six-month limit earn six commissions; a partnership's own limit wins", async () => {
    const p = await program({ recurring_months: 6 });
    const a = await referral(p);
    await expectOutcome(p, 'customer.created', customer({ id: 'cus_limitA', metadata: { tally_referral_id: a.referralId } }), 'linked');
    await renewals(p, 'cus_limitA');
    const rows = await list(p, 'commissions', `&partner_id_eq=${a.partnerId}`);
    expect(rows.filter((x) => x.attributes.state === 'pending').map((x) => x.attributes.amount)).toEqual(Array(6).fill(200));
    const beyond = rows.filter((x) => x.attributes.state === 'rejected');
    expect(beyond).toHaveLength(6);
    expect(beyond.every((x) => x.attributes.amount === 0 && /recurring limit of 6 months/.test(x.attributes.reject_reason))).toBe(true);
    // Forever for one partner: 0 on the program means no limit, and a partnership takes it too.
    const b = await referral(p);
    expect((await api(p, 'PATCH', `/v1/partnerships/${b.partnershipId}`, { recurring_months: 0 })).status).toBe(200);
    await expectOutcome(p, 'customer.created', customer({ id: 'cus_limitB', metadata: { tally_referral_id: b.referralId } }), 'linked');
    await renewals(p, 'cus_limitB');
    expect((await list(p, 'commissions', `&partner_id_eq=${b.partnerId}&state_eq=pending`)).length).toBe(12);
  });

  it('the holding period: a commission is paid only after it; a refund inside it reduces, never claws back', async () => {
    const p = await program({ hold_days: 30 });
    const r = await paidCheckout(p, { amount: 10_000 });
    const [held] = await commissions(p);
    expect(held!.attributes.payable_at).toBe(c.clock.now + 30 * DAY);
    expect((await api(p, 'GET', '/v1/payouts/owed')).body.data).toEqual([]);
    expect((await payOut(p)).batches).toEqual([]);
    await expectOutcome(p, 'charge.refunded', charge({ amount: 10_000, amountRefunded: 5_000, paymentIntent: r.intent }), 'refunded');
    expect(await amounts(p)).toEqual([1_000]);
    c.clock.now += 30 * DAY;
    try {
      expect((await payOut(p)).batches.map((b) => b.attributes.amount)).toEqual([1_000]);
    } finally {
      c.clock.now -= 30 * DAY;
    }
    expect((await commissions(p)).map((x) => x.attributes.state)).toEqual(['paid']);
  });

  it('the minimum payout: owed but not due below it, paid once the partner reaches it', async () => {
    const p = await program({ minimum_payout: { usd: 5_000 } });
    expect((await api(p, 'GET', '/v1/program')).body.data.attributes.minimum_payout).toEqual({ USD: 5_000 });
    const r = await paidCheckout(p, { amount: 10_000 });
    const [owed] = (await api(p, 'GET', '/v1/payouts/owed')).body.data;
    expect(owed).toMatchObject({ amount: 2_000, minimum: 5_000, due: false });
    const skipped = await payOut(p);
    expect(skipped.batches).toEqual([]);
    expect(skipped.skipped).toEqual([expect.objectContaining({ partner_id: r.partnerId, reason: 'below minimum payout' })]);
    await expectOutcome(p, 'invoice.paid', invoice({ customer: r.customer, amountPaid: 15_000 }), 'credited');
    expect((await payOut(p)).batches.map((b) => b.attributes.amount)).toEqual([5_000]);
    // A partnership's own minimum wins; other currencies have none but one minor unit.
    const other = await referral(p);
    expect((await api(p, 'PATCH', `/v1/partnerships/${other.partnershipId}`, { minimum_payout: { USD: 100 } })).status).toBe(200);
    await expectOutcome(p, 'invoice.paid', invoice({ email: other.email, customer: stripeId('cus'), amountPaid: 1_000 }), 'credited');
    expect((await payOut(p)).batches.map((b) => b.attributes.amount)).toEqual([200]);
  });

  it('rules are validated', async () => {
    const p = await program();
    for (const body of [
      { recurring_months: -1 },
      { recurring_months: 1.5 },
      { hold_days: 366 },
      { minimum_payout: { XXX: 1 } },
      { minimum_payout: { USD: -1 } },
      { minimum_payout: { usd: 1, USD: 2 } },
    ]) {
      expectError(await api(p, 'PATCH', '/v1/program', body), 422, 'invalid_field');
    }
  });
});

describe('the event log', () => {
  it('lists by outcome and type, shows one, and processes one again by hand', async () => {
    const p = await program();
    const early = await expectOutcome(
      p,
      'invoice.paid',
      invoice({ customer: stripeId('cus'), amountPaid: 2_000, email: 'later@shop.test' }),
      'ignored',
    );
    await expectOutcome(p, 'customer.updated', customer({}), 'ignored');
    expect((await list(p, 'integrations/stripe/events', '&type_eq=invoice.paid')).map((e) => e.id)).toEqual([early.data.id]);
    expect((await list(p, 'integrations/stripe/events', '&outcome_eq=ignored')).length).toBe(2);
    expect(await list(p, 'integrations/stripe/events', '&outcome_eq=credited')).toEqual([]);
    // The referral appears afterwards (the snippet's call came late): processing again credits it.
    await referral(p, 'later@shop.test');
    const again = await api(p, 'POST', `/v1/integrations/stripe/events/${early.data.id}/process`);
    expect(again.status).toBe(200);
    expect(again.body.data.attributes).toMatchObject({ outcome: 'credited', attempts: 2 });
    const one = await api(p, 'GET', `/v1/integrations/stripe/events/${early.data.id}`);
    expect(one.body.data.attributes.outcome).toBe('credited');
    // Processed again once more: the payment exists, nothing doubles.
    await api(p, 'POST', `/v1/integrations/stripe/events/${early.data.id}/process`);
    expect(await amounts(p)).toEqual([400]);
    const q = await program();
    expectError(await api(q, 'GET', `/v1/integrations/stripe/events/${early.data.id}`), 404, 'not_found');
    expectError(await api(q, 'POST', `/v1/integrations/stripe/events/${early.data.id}/process`), 404, 'not_found');
  });

  it('erasing the referral blanks what Stripe sent about it; the event cannot be processed again', async () => {
    const p = await program();
    const r = await paidCheckout(p, { email: 'forget.me@shop.test' });
    expect((await api(p, 'DELETE', `/v1/referrals/${r.referralId}`)).status).toBe(204);
    expectError(await api(p, 'POST', `/v1/integrations/stripe/events/${r.event.id}/process`), 409, 'conflict');
    const rows = await c.running.db.all<{ payload: string }>('SELECT payload FROM billing_events WHERE program_id = ?', [p.id]);
    expect(rows.map((x) => x.payload)).toEqual(['{}']);
    expect(await integrityProblems(c.databaseUrl)).toEqual([]);
  });
});
