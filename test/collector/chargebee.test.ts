// Chargebee's webhooks (API v2), written from its public reference (chargebee-fixtures.ts),
// authenticated as Chargebee does it (the webhook URL's basic auth username and password),
// on both engines: a sale by the customer's custom field, metadata or tracked address, a
// paid invoice told twice (invoice_generated and payment_succeeded), renewals within and
// past the recurring limit, partial and full refunds, each sent twice and in reverse
// order, a code-only sale by a coupon set's code or a coupon's id, a cancellation, and
// missing or wrong credentials. The event fetched back through Chargebee's API is another file's.

import { describe, expect, it } from 'vitest';
import { billingKit, type Connected, type Json } from './billing-kit.js';
import { expectError } from './harness.js';
import {
  T0,
  basicAuth,
  cbEvent,
  cbId,
  customer,
  invoice,
  newCbSecret,
  payment,
  postCb,
  refund,
  subscription,
  type InvoiceOptions,
} from './chargebee-fixtures.js';

const kit = billingKit('chargebee');
const { ok, connected, referral, list, amounts, events } = kit;

const MONTH = 31 * 86_400;

async function sendBody(p: Connected, body: string, secret = p.signing) {
  return postCb(kit.c, p.endpoint, body, basicAuth(secret));
}

const send = (p: Connected, type: string, content: Json, opts: { id?: string; secret?: string } = {}) =>
  sendBody(p, JSON.stringify(cbEvent(type, content, { id: opts.id })), opts.secret);

async function expectOutcome(p: Connected, type: string, content: Json, outcome: string, opts: { id?: string } = {}): Promise<Json> {
  const reply = await send(p, type, content, opts);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.data.attributes.outcome, JSON.stringify(reply.body.data.attributes)).toBe(outcome);
  return reply.body;
}

const program = (changes: Json = {}) => connected(newCbSecret(), changes);

interface Buyer {
  customerId: string;
  email: string;
  cf?: Record<string, string>;
  metaData?: Json;
}

/** payment_succeeded's content: the payment, the invoice it paid, the customer and the subscription. */
function paid(b: Buyer, o: Omit<InvoiceOptions, 'customerId'> & { coupons?: Array<{ couponId: string; couponCode?: string }> }) {
  const subscriptionId = o.subscriptionId ?? `sub-${b.customerId}`;
  const inv = invoice({ ...o, customerId: b.customerId, subscriptionId });
  const content = {
    transaction: payment({ invoice: inv }),
    invoice: inv,
    customer: customer({ id: b.customerId, email: b.email, cf: b.cf }),
    subscription: subscription({ id: subscriptionId, customerId: b.customerId, metaData: b.metaData, coupons: o.coupons }),
  };
  return { content, invoiceId: inv.id as string, paymentId: (content.transaction as Json).id as string };
}

/** payment_refunded's content for `amount` of a paid invoice. */
function refunded(sale: ReturnType<typeof paid>, amount: number) {
  const r = refund({ invoice: sale.content.invoice, paymentId: sale.paymentId, amount });
  return { ...r, invoice: sale.content.invoice, customer: sale.content.customer, subscription: sale.content.subscription };
}

/** A referral whose checkout set the customer's cf_tally_gr_id, and its first paid invoice. */
async function firstSale(p: Connected, o: { subTotal?: number; tax?: number } = {}) {
  const r = await referral(p);
  const buyer = { customerId: cbId('cus'), email: r.email, cf: { tally_gr_id: r.grId } };
  const sale = paid(buyer, { subTotal: o.subTotal ?? 10_000, tax: o.tax ?? 0, firstInvoice: true });
  const body = await expectOutcome(p, 'payment_succeeded', sale.content, 'credited');
  return { ...r, buyer, sale, event: body.data };
}

const eventsOf = async (p: Connected, type: string) => (await events(p)).filter((e) => e.attributes.type === type).reverse();

describe('connecting and basic auth', () => {
  it('shows the URL, the events and the username only; refuses a secret that is not username:password', async () => {
    const p = await program();
    const got = (await ok(p, 'GET', '/v1/integrations/chargebee')).data.attributes;
    expect(got.endpoint_url).toMatch(new RegExp(`/v1/integrations/chargebee/webhook/${p.endpoint}$`));
    expect(got.events).toEqual(['payment_succeeded', 'invoice_generated', 'payment_refunded', 'subscription_cancelled']);
    expect(got.secrets[0].attributes.hint).toBe(`${p.signing.split(':')[0]}:…`);
    expect(JSON.stringify(got)).not.toContain(p.signing.split(':')[1]);
    for (const secret of ['no-colon-at-all', 'user:short', 'has space:long-enough-password', ':no-username-here']) {
      const bad = await kit.api(p, 'POST', '/v1/integrations/chargebee/secrets', { secret });
      expectError(bad, 422, 'invalid_field');
      expect(bad.body.errors[0].detail).toMatch(/username:password/);
    }
  });

  it('no credentials, a wrong password or another scheme is 400 with the reason, and nothing is recorded', async () => {
    const p = await program();
    const r = await referral(p);
    const sale = paid({ customerId: cbId('cus'), email: r.email, cf: { tally_gr_id: r.grId } }, { subTotal: 5_000 });
    const body = JSON.stringify(cbEvent('payment_succeeded', sale.content));
    const [user] = p.signing.split(':');
    const missing = await postCb(kit.c, p.endpoint, body, undefined);
    const wrong = await postCb(kit.c, p.endpoint, body, basicAuth(`${user}:not-the-password`));
    const bearer = await postCb(kit.c, p.endpoint, body, `Bearer ${p.signing}`);
    for (const reply of [missing, wrong, bearer]) expectError(reply, 400, 'invalid_signature');
    expect(missing.body.errors[0].detail).toMatch(/no basic auth/);
    expect(wrong.body.errors[0].detail).toMatch(/match none/);
    expect(await events(p)).toEqual([]);
    expect(await list(p, 'payments')).toEqual([]);
    expect(await list(p, 'commissions')).toEqual([]);
  });

  it('any of the secrets set is accepted (a rotation, the test site); an unknown endpoint is 404; other events are ignored', async () => {
    const p = await program();
    const second = newCbSecret();
    await ok(p, 'POST', '/v1/integrations/chargebee/secrets', { secret: second, label: 'test site' });
    const r = await referral(p);
    const sale = paid({ customerId: cbId('cus'), email: r.email, cf: { tally_gr_id: r.grId } }, { subTotal: 2_000 });
    const reply = await send(p, 'payment_succeeded', sale.content, { secret: second });
    expect(reply.body.data.attributes.outcome).toBe('credited');
    expect(await amounts(p)).toEqual([400]);
    const body = JSON.stringify(cbEvent('payment_succeeded', sale.content));
    expect((await postCb(kit.c, 'no-such-endpoint', body, basicAuth(p.signing))).status).toBe(404);
    const other = await expectOutcome(p, 'customer_changed', { customer: customer({ email: r.email }) }, 'ignored');
    expect(other.data.attributes.reason).toBe('not an event Tally acts on');
  });
});

describe('payments', () => {
  it('a sale by the custom field cf_tally_gr_id earns on the total net of tax; sent twice, once', async () => {
    const p = await program();
    const r = await referral(p);
    const buyer = { customerId: cbId('cus'), email: r.email, cf: { tally_gr_id: r.grId } };
    const sale = paid(buyer, { subTotal: 10_000, discount: 1_000, tax: 1_710 });
    const body = JSON.stringify(cbEvent('payment_succeeded', sale.content));
    const first = await sendBody(p, body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.id).toBe(`chargebee:${JSON.parse(body).id}`);
    expect(first.body.data.attributes).toMatchObject({ platform: 'chargebee', type: 'payment_succeeded', outcome: 'credited' });
    // 20 % of 9,000: the invoice's total (10,710) without its tax.
    expect(await amounts(p)).toEqual([1_800]);
    const again = await sendBody(p, body);
    expect(again.body.meta.duplicate).toBe(true);
    const [row] = await list(p, 'payments');
    expect(row!.attributes).toMatchObject({ amount: 9_000, currency: 'USD', idempotency_key: `chargebee:invoice:${sale.invoiceId}` });
    expect(row!.relationships.referral.data.id).toBe(r.referralId);
    expect(await amounts(p)).toEqual([1_800]);
    expect(await events(p)).toHaveLength(1);
  });

  it('invoice_generated and payment_succeeded of one paid invoice credit it once; a tax-inclusive price earns net of its tax', async () => {
    const p = await program();
    const r = await referral(p);
    const buyer = { customerId: cbId('cus'), email: r.email, cf: { tally_gr_id: r.grId } };
    const sale = paid(buyer, { subTotal: 11_900, tax: 1_900, priceType: 'tax_inclusive' });
    const { transaction: _, ...generated } = sale.content;
    await expectOutcome(p, 'invoice_generated', generated, 'credited');
    const second = await expectOutcome(p, 'payment_succeeded', sale.content, 'ignored');
    expect(second.data.attributes.reason).toMatch(/already credited/);
    expect(await list(p, 'payments')).toHaveLength(1);
    expect(await amounts(p)).toEqual([2_000]);
  });

  it("a customer's tally_referral_id in the subscription's meta_data names the referral", async () => {
    const p = await program();
    const r = await referral(p);
    const sale = paid(
      { customerId: cbId('cus'), email: 'someone.else@shop.test', metaData: { tally_referral_id: r.referralId } },
      { subTotal: 1_500 },
    );
    await expectOutcome(p, 'payment_succeeded', sale.content, 'credited');
    expect((await list(p, 'payments'))[0]!.relationships.referral.data.id).toBe(r.referralId);
    expect(await amounts(p)).toEqual([300]);
  });

  it("a sale naming nothing is matched by the referral's tracked address, its domain in any case; a stranger's waits on its customer", async () => {
    const p = await program();
    const r = await referral(p, 'Chargebee.Buyer@shop.test');
    await expectOutcome(
      p,
      'payment_succeeded',
      paid({ customerId: cbId('cus'), email: 'Chargebee.Buyer@SHOP.Test' }, { subTotal: 4_000 }).content,
      'credited',
    );
    expect((await list(p, 'payments'))[0]!.relationships.referral.data.id).toBe(r.referralId);
    const stranger = await expectOutcome(
      p,
      'payment_succeeded',
      paid({ customerId: cbId('cus'), email: 'stranger@elsewhere.test' }, { subTotal: 4_000 }).content,
      'ignored',
    );
    expect(stranger.data.attributes.reason).toMatch(/no referral matched/);
    expect(await list(p, 'payments')).toHaveLength(1);
  });

  it('amounts are minor units of each currency: a yen sale (no decimals) earns 20 % of its yen', async () => {
    const p = await program();
    const r = await referral(p);
    const sale = paid({ customerId: cbId('cus'), email: r.email, cf: { tally_gr_id: r.grId } }, { subTotal: 3_000, currency: 'JPY' });
    await expectOutcome(p, 'payment_succeeded', sale.content, 'credited');
    expect((await list(p, 'payments'))[0]!.attributes).toMatchObject({ amount: 3_000, currency: 'JPY' });
    expect((await list(p, 'commissions'))[0]!.attributes).toMatchObject({ amount: 600, currency: 'JPY' });
  });
});

describe('renewals', () => {
  it("renewals of the linked customer earn within the reward's two months and are recorded at 0 past them", async () => {
    const p = await program({ recurring_months: 2 });
    const r = await firstSale(p, { subTotal: 3_000 });
    for (let month = 1; month <= 2; month++) {
      // A renewal's customer has no click id and another address: the customer leads to the referral.
      const renewal = paid(
        { customerId: r.buyer.customerId, email: 'changed@elsewhere.test' },
        { subTotal: 3_000, date: T0 + month * MONTH },
      );
      await expectOutcome(p, 'payment_succeeded', renewal.content, 'credited');
    }
    const rows = await list(p, 'commissions');
    expect(rows.filter((x) => x.attributes.state === 'pending').map((x) => x.attributes.amount)).toEqual([600, 600]);
    const beyond = rows.filter((x) => x.attributes.state === 'rejected');
    expect(beyond.map((x) => x.attributes.amount)).toEqual([0]);
    expect(beyond[0]!.attributes.reject_reason).toMatch(/recurring limit of 2 months/);
    const payments = await list(p, 'payments');
    expect(payments).toHaveLength(3);
    expect(new Set(payments.map((x) => x.relationships.referral.data.id))).toEqual(new Set([r.referralId]));
  });

  it('a renewal of a customer not linked yet waits on the customer, and is credited when the first sale links them', async () => {
    const p = await program();
    const r = await referral(p);
    const customerId = cbId('cus');
    const renewal = paid({ customerId, email: 'not.the.referral@elsewhere.test' }, { subTotal: 2_500, date: T0 + MONTH });
    const waiting = await expectOutcome(p, 'payment_succeeded', renewal.content, 'ignored');
    expect(waiting.data.attributes.waiting_on).toBe(`chargebee:customer:${customerId}`);
    const first = paid({ customerId, email: r.email, cf: { tally_gr_id: r.grId } }, { subTotal: 2_500 });
    await expectOutcome(p, 'payment_succeeded', first.content, 'credited');
    expect(await amounts(p)).toEqual([500, 500]);
    const [event] = await eventsOf(p, 'payment_succeeded');
    expect(event!.attributes).toMatchObject({ outcome: 'credited', waiting_on: null });
  });
});

describe('refunds', () => {
  it('a partial then a full refund, each refund once by its transaction, also told in another event', async () => {
    const p = await program();
    const r = await firstSale(p, { subTotal: 10_000, tax: 2_000 });
    expect(await amounts(p)).toEqual([2_000]);
    // A quarter of the 12,000 charged: a quarter of what it earned.
    const quarter = refunded(r.sale, 3_000);
    const body = JSON.stringify(cbEvent('payment_refunded', quarter));
    expect((await sendBody(p, body)).body.data.attributes.outcome).toBe('refunded');
    expect(await amounts(p)).toEqual([1_500]);
    expect((await sendBody(p, body)).body.meta.duplicate).toBe(true);
    // The same refund transaction in an event of another id (resent from the console): taken once.
    await send(p, 'payment_refunded', quarter);
    expect(await amounts(p)).toEqual([1_500]);
    expect((await list(p, 'payments'))[0]!.attributes.refunded).toBe(2_500);

    await expectOutcome(p, 'payment_refunded', refunded(r.sale, 9_000), 'refunded');
    const [row] = await list(p, 'payments');
    expect(row!.attributes.refunded).toBe(10_000);
    const [commission] = await list(p, 'commissions');
    expect(commission!.attributes.state).toBe('rejected');
  });

  it('a refund before its payment waits for the invoice (reverse order), and is applied when the payment comes', async () => {
    const p = await program();
    const r = await referral(p);
    const buyer = { customerId: cbId('cus'), email: r.email, cf: { tally_gr_id: r.grId } };
    const sale = paid(buyer, { subTotal: 8_000 });
    const waiting = await expectOutcome(p, 'payment_refunded', refunded(sale, 2_000), 'ignored');
    expect(waiting.data.attributes.waiting_on).toBe(`chargebee:invoice:${sale.invoiceId}`);
    await expectOutcome(p, 'payment_succeeded', sale.content, 'credited');
    // 20 % of 8,000, less a quarter.
    expect(await amounts(p)).toEqual([1_200]);
    const [event] = await eventsOf(p, 'payment_refunded');
    expect(event!.attributes).toMatchObject({ outcome: 'refunded', waiting_on: null });
  });
});

describe('coupon codes', () => {
  async function partnerWithCode(p: Connected, code: string) {
    const r = await referral(p);
    await ok(p, 'POST', '/v1/discount_codes', { partnership_id: r.partnershipId, code });
    return r;
  }
  const partnerOf = async (p: Connected) => (await list(p, 'commissions')).map((x) => x.attributes.partner_id as string);

  it("a code-only sale: the coupon set's code the customer typed credits the code's partner", async () => {
    const p = await program();
    const maya = await partnerWithCode(p, 'MAYA20');
    const sale = paid(
      { customerId: cbId('cus'), email: 'podcast.listener@shop.test' },
      { subTotal: 10_000, discount: 2_000, coupon: { id: 'PARTNERS20', setCode: 'maya20' } },
    );
    await expectOutcome(p, 'payment_succeeded', sale.content, 'credited');
    expect((await list(p, 'payments'))[0]!.attributes.amount).toBe(8_000);
    expect(await partnerOf(p)).toEqual([maya.partnerId]);
    expect((await list(p, 'commissions'))[0]!.attributes.amount).toBe(1_600);
    expect(await list(p, 'events', '&type_eq=discount_code.used')).toHaveLength(1);
  });

  it("a coupon named as the partner's code, on the subscription: a 100 %-off first invoice links the customer, the paid renewal earns", async () => {
    const p = await program();
    const leo = await partnerWithCode(p, 'LEOFREE');
    const buyer = { customerId: cbId('cus'), email: 'free.first@shop.test' };
    const coupons = [{ couponId: 'LEOFREE' }];
    const free = paid(buyer, { subTotal: 3_000, discount: 3_000, coupon: { id: 'LEOFREE' }, coupons });
    const { transaction: _, ...generated } = free.content;
    await expectOutcome(p, 'invoice_generated', generated, 'linked');
    expect(await list(p, 'payments')).toEqual([]);
    const renewal = paid(buyer, { subTotal: 3_000, date: T0 + MONTH });
    await expectOutcome(p, 'payment_succeeded', renewal.content, 'credited');
    expect(await partnerOf(p)).toEqual([leo.partnerId]);
  });
});

describe('cancellations and the log', () => {
  it('subscription_cancelled churns the paid referral; of a customer Tally does not know, it is ignored', async () => {
    const p = await program();
    const r = await firstSale(p, { subTotal: 3_000 });
    const cancelled = {
      subscription: subscription({ id: `sub-${r.buyer.customerId}`, customerId: r.buyer.customerId, status: 'cancelled' }),
      customer: customer({ id: r.buyer.customerId, email: 'renamed@elsewhere.test' }),
    };
    const churned = await expectOutcome(p, 'subscription_cancelled', cancelled, 'churned');
    expect(churned.data.attributes.touched).toEqual([{ type: 'referral', id: r.referralId }]);
    expect((await ok(p, 'GET', `/v1/referrals/${r.referralId}`)).data.attributes.state).toBe('churned');
    const strangerId = cbId('cus');
    const stranger = {
      subscription: subscription({ customerId: strangerId, status: 'cancelled' }),
      customer: customer({ id: strangerId, email: 'stranger@elsewhere.test' }),
    };
    const ignored = await expectOutcome(p, 'subscription_cancelled', stranger, 'ignored');
    expect(ignored.data.attributes.reason).toMatch(/no referral matched/);
  });

  it('lists its events in the one log, filtered by platform', async () => {
    const p = await program();
    const r = await firstSale(p, { subTotal: 1_000 });
    const all = await list(p, 'billing_events', '&platform_eq=chargebee');
    expect(all.map((e) => e.id)).toEqual([r.event.id]);
    expect(await list(p, 'billing_events', '&platform_eq=paddle')).toEqual([]);
    const one = await ok(p, 'GET', `/v1/integrations/chargebee/events/${encodeURIComponent(r.event.id)}`);
    expect(one.data.attributes).toMatchObject({ outcome: 'credited', livemode: true, type: 'payment_succeeded' });
  });
});
