// Recurly's JSON webhook notifications (recurly-fixtures.ts), signed as Recurly signs them
// (recurly-signature: a millisecond time and hex HMAC-SHA256s of "<time>.<body>"), on both
// engines. They name objects by id only: the invoices, accounts, coupon redemptions and
// subscriptions are answered by a local server as Recurly's API v3 documents them
// (recurly-api.ts). A sale, renewals within and past the recurring limit, partial and full
// refunds, duplicates, a refund before its payment, bad signatures, a code-only sale, a
// cancellation, and the API's absence or refusal.

import { afterAll, describe, expect, it } from 'vitest';
import { billingKit, type Connected, type Json } from './billing-kit.js';
import { expectError } from './harness.js';
import { startRecurlyApi } from './recurly-api.js';
import {
  newRcApiKey,
  newRcSecret,
  postRc,
  rcAccount,
  rcAccountMini,
  rcId,
  rcInvoice,
  rcNotification,
  rcRedemptions,
  rcSignature,
  rcSubscription,
  type InvoiceOptions,
} from './recurly-fixtures.js';

const rcApi = await startRecurlyApi();
afterAll(() => rcApi.close());
const KEY = newRcApiKey();
rcApi.keys.add(KEY);

const kit = billingKit('recurly', { platformApiUrls: { recurly: rcApi.url } });
const { ok, connected, referral, list, amounts, events } = kit;

const DAY = 86_400;

interface SendOptions {
  secrets?: string[];
  /** When the notification happened, unix seconds (its event_time). */
  at?: number;
}

function bodyOf(objectType: string, eventType: string, id: string, at?: number): string {
  return JSON.stringify(rcNotification(objectType, eventType, id, at));
}

const sign = (p: Connected, body: string, secrets = [p.signing]) => rcSignature(body, secrets, kit.c.clock.now * 1000);

async function send(p: Connected, type: string, id: string, opts: SendOptions = {}) {
  const [objectType = '', eventType = ''] = type.split('.');
  const body = bodyOf(objectType, eventType, id, opts.at);
  return postRc(kit.c, p.endpoint, body, sign(p, body, opts.secrets));
}

async function expectOutcome(p: Connected, type: string, id: string, outcome: string, opts: SendOptions = {}): Promise<Json> {
  const reply = await send(p, type, id, opts);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.data.attributes.outcome, JSON.stringify(reply.body.data.attributes)).toBe(outcome);
  return reply.body;
}

/** A program of its own with a Recurly secret key and the site's private API key. */
async function program(changes: Json = {}): Promise<Connected> {
  const p = await connected(newRcSecret(), changes);
  await ok(p, 'POST', '/v1/integrations/recurly/credential', { api_key: KEY, region: 'us' });
  return p;
}

/** An account on the API: the full one at /accounts/<id>, its mini for the objects naming it. */
function account(email: string, customFields: Record<string, string> = {}): Json {
  const id = rcId();
  rcApi.objects.set(`/accounts/${id}`, rcAccount({ id, email, customFields }));
  return rcAccountMini({ id, email });
}

/** A charge invoice on the API, with the codes its coupon redemptions name. */
function invoice(o: Omit<InvoiceOptions, 'account'> & { account: Json; codes?: string[] }): Json {
  const made = rcInvoice(o);
  rcApi.objects.set(`/invoices/${made.id}`, made);
  rcApi.objects.set(`/invoices/${made.id}/coupon_redemptions`, rcRedemptions(o.account, o.codes ?? []));
  return made;
}

/** A credit invoice refunding `of` by `amount` (major units). */
function credit(of: Json, amount: number): Json {
  return invoice({ account: of.account as Json, type: 'credit', subtotal: amount, previousInvoiceId: of.id as string });
}

/** A referral whose account carries its click id as the tally_gr_id custom field, and its paid purchase. */
async function paidPurchase(p: Connected, o: { subtotal?: number; tax?: number; discount?: number } = {}) {
  const r = await referral(p);
  const acct = account(r.email, { tally_gr_id: r.grId });
  const inv = invoice({ account: acct, subtotal: o.subtotal ?? 100, tax: o.tax, discount: o.discount });
  const body = await expectOutcome(p, 'charge_invoice.paid', inv.id as string, 'credited');
  return { ...r, account: acct, invoice: inv, event: body };
}

describe('connecting and signatures', () => {
  it('shows the URL, the events and the secret by hint; refuses a secret Recurly would not show', async () => {
    const p = await program();
    const got = (await ok(p, 'GET', '/v1/integrations/recurly')).data.attributes;
    expect(got.endpoint_url).toMatch(new RegExp(`/v1/integrations/recurly/webhook/${p.endpoint}$`));
    expect(got.events).toEqual(['charge_invoice.paid', 'credit_invoice.created', 'subscription.expired']);
    expect(got.secrets[0].attributes.hint).toBe(`…${p.signing.slice(-4)}`);
    expect(JSON.stringify(got)).not.toContain(p.signing);
    expect(JSON.stringify(got)).not.toContain(KEY);
    expect(got.credential).toEqual({ api_key: `…${KEY.slice(-4)}`, region: 'us' });
    const badKey = await kit.api(p, 'POST', '/v1/integrations/recurly/credential', { api_key: 'not a key', region: 'us' });
    expectError(badKey, 422, 'invalid_field');
    expectError(await kit.api(p, 'POST', '/v1/integrations/recurly/credential', { api_key: KEY, region: 'asia' }), 422, 'invalid_field');
    for (const secret of ['short', 'has spaces in it, many', 'x'.repeat(129)]) {
      expectError(await kit.api(p, 'POST', '/v1/integrations/recurly/secrets', { secret }), 422, 'invalid_field');
    }
  });

  it('a missing, wrong, altered or stale recurly-signature is 400 with the reason; nothing is recorded or asked', async () => {
    const p = await program();
    const r = await referral(p);
    const inv = invoice({ account: account(r.email, { tally_gr_id: r.grId }), subtotal: 50 });
    const body = bodyOf('charge_invoice', 'paid', inv.id as string);
    const now = kit.c.clock.now * 1000;
    const calls = rcApi.calls.length;
    const missing = await postRc(kit.c, p.endpoint, body, undefined);
    const wrong = await postRc(kit.c, p.endpoint, body, rcSignature(body, [newRcSecret()], now));
    const altered = await postRc(kit.c, p.endpoint, body.replace(inv.id as string, rcId()), sign(p, body));
    const garbled = await postRc(kit.c, p.endpoint, body, `t=${now},v1=${sign(p, body).split(',')[1]}`);
    const stale = await postRc(kit.c, p.endpoint, body, rcSignature(body, [p.signing], now - 6 * 60_000));
    for (const reply of [missing, wrong, altered, garbled, stale]) expectError(reply, 400, 'invalid_signature');
    expect(missing.body.errors[0].detail).toMatch(/no Recurly-Signature header/);
    expect(wrong.body.errors[0].detail).toMatch(/matches none/);
    expect(stale.body.errors[0].detail).toMatch(/five minutes/);
    expect(rcApi.calls.length).toBe(calls);
    expect(await events(p)).toEqual([]);
    expect(await list(p, 'payments')).toEqual([]);
  });

  it('a header with two signatures (a secret key regenerated: both hold a day) verifies by either', async () => {
    const p = await program();
    const r = await referral(p);
    const inv = invoice({ account: account(r.email, { tally_gr_id: r.grId }), subtotal: 20 });
    await expectOutcome(p, 'charge_invoice.paid', inv.id as string, 'credited', { secrets: [newRcSecret(), p.signing] });
    expect(await amounts(p)).toEqual([400]);
  });

  it('an unknown endpoint is 404; a notification Tally does not act on is ignored without asking the API', async () => {
    const p = await program();
    const body = bodyOf('charge_invoice', 'paid', rcId());
    expect((await postRc(kit.c, 'no-such-endpoint', body, sign(p, body))).status).toBe(404);
    const calls = rcApi.calls.length;
    const reply = await expectOutcome(p, 'account.created', rcId(), 'ignored');
    expect(reply.data.attributes.reason).toBe('not an event Tally acts on');
    expect(rcApi.calls.length).toBe(calls);
  });
});

describe('payments', () => {
  it("a sale by the account's tally_gr_id earns on the total after discounts, net of tax; sent twice, once", async () => {
    const p = await program();
    const r = await paidPurchase(p, { subtotal: 100, discount: 10, tax: 18 });
    // 20 % of 90.00: 108.00 less 18.00 of tax.
    expect(await amounts(p)).toEqual([1_800]);
    expect(rcApi.calls).toEqual(
      expect.arrayContaining([`/invoices/${r.invoice.id}`, `/invoices/${r.invoice.id}/coupon_redemptions`, `/accounts/${r.account.id}`]),
    );
    const again = await send(p, 'charge_invoice.paid', r.invoice.id as string);
    expect(again.status).toBe(200);
    expect(again.body.meta.duplicate).toBe(true);
    const [payment] = await list(p, 'payments');
    expect(payment!.attributes).toMatchObject({ amount: 9_000, currency: 'USD' });
    expect(payment!.relationships.referral.data.id).toBe(r.referralId);
    expect(await amounts(p)).toEqual([1_800]);
  });

  it("amounts in each currency's minor units: JPY has none, KWD three", async () => {
    const p = await program();
    for (const [currency, subtotal, minor] of [
      ['JPY', 1_500, 1_500],
      ['KWD', 12.345, 12_345],
    ] as const) {
      const r = await referral(p);
      const inv = invoice({ account: account(r.email, { tally_gr_id: r.grId }), currency, subtotal });
      await expectOutcome(p, 'charge_invoice.paid', inv.id as string, 'credited');
      const payment = (await list(p, 'payments')).find((x) => x.attributes.currency === currency);
      expect(payment!.attributes.amount).toBe(minor);
    }
  });

  it("a sale matched by the account's e-mail to the snippet's referral, with no custom field", async () => {
    const p = await program();
    const r = await referral(p);
    const inv = invoice({ account: account(r.email), subtotal: 30 });
    await expectOutcome(p, 'charge_invoice.paid', inv.id as string, 'credited');
    expect((await list(p, 'payments'))[0]!.relationships.referral.data.id).toBe(r.referralId);
  });

  it('renewals credit by the linked account, within the recurring limit; past it, recorded at 0 with the reason', async () => {
    const p = await program({ recurring_months: 2 });
    const r = await paidPurchase(p, { subtotal: 30 });
    for (let month = 1; month <= 3; month++) {
      const at = kit.c.clock.now + month * 31 * DAY;
      const renewal = invoice({ account: r.account, subtotal: 30, origin: 'renewal', closedAt: at });
      await expectOutcome(p, 'charge_invoice.paid', renewal.id as string, 'credited', { at });
    }
    const rows = await list(p, 'commissions');
    expect(rows.filter((x) => x.attributes.state === 'pending').map((x) => x.attributes.amount)).toEqual([600, 600]);
    const beyond = rows.filter((x) => x.attributes.state === 'rejected');
    expect(beyond.map((x) => x.attributes.amount)).toEqual([0, 0]);
    expect(beyond.every((x) => /recurring limit of 2 months/.test(x.attributes.reject_reason))).toBe(true);
    expect(new Set((await list(p, 'payments')).map((x) => x.relationships.referral.data.id))).toEqual(new Set([r.referralId]));
  });

  it('a renewal of an account not linked yet waits; a purchase with no referral is ignored for good', async () => {
    const p = await program();
    const renewal = invoice({ account: account('stranger@shop.test'), subtotal: 30, origin: 'renewal' });
    const waiting = await expectOutcome(p, 'charge_invoice.paid', renewal.id as string, 'ignored');
    expect(waiting.data.attributes.waiting_on).toBe(`recurly:account:${(renewal.account as Json).id}`);
    const purchase = invoice({ account: account('other@shop.test'), subtotal: 30 });
    const none = await expectOutcome(p, 'charge_invoice.paid', purchase.id as string, 'ignored');
    expect(none.data.attributes.waiting_on).toBeNull();
    expect(await list(p, 'payments')).toEqual([]);
  });
});

describe('refunds and cancellation', () => {
  it('a partial then a full refund, each credit invoice once', async () => {
    const p = await program();
    const r = await paidPurchase(p, { subtotal: 100 });
    const partial = credit(r.invoice, 25);
    await expectOutcome(p, 'credit_invoice.created', partial.id as string, 'refunded');
    expect(await amounts(p)).toEqual([1_500]);
    // The same credit invoice told again later: applied already.
    await expectOutcome(p, 'credit_invoice.created', partial.id as string, 'ignored', { at: kit.c.clock.now + 60 });
    expect(await amounts(p)).toEqual([1_500]);
    await expectOutcome(p, 'credit_invoice.created', credit(r.invoice, 75).id as string, 'refunded');
    const [payment] = await list(p, 'payments');
    expect(payment!.attributes.refunded).toBe(10_000);
    expect((await list(p, 'commissions'))[0]!.attributes.state).toBe('rejected');
  });

  it('a refund before its payment waits for it (reverse order), and is applied when the payment comes', async () => {
    const p = await program();
    const r = await referral(p);
    const inv = invoice({ account: account(r.email, { tally_gr_id: r.grId }), subtotal: 80 });
    const refund = credit(inv, 20);
    const waiting = await expectOutcome(p, 'credit_invoice.created', refund.id as string, 'ignored');
    expect(waiting.data.attributes.waiting_on).toBe(`recurly:invoice:${inv.id}`);
    await expectOutcome(p, 'charge_invoice.paid', inv.id as string, 'credited');
    // 20 % of 80.00, less a quarter.
    expect(await amounts(p)).toEqual([1_200]);
  });

  it('a credit invoice that is no refund takes nothing back', async () => {
    const p = await program();
    const r = await paidPurchase(p, { subtotal: 50 });
    const proration = invoice({
      account: r.account,
      type: 'credit',
      origin: 'immediate_change',
      subtotal: 10,
      previousInvoiceId: r.invoice.id as string,
    });
    const reply = await expectOutcome(p, 'credit_invoice.created', proration.id as string, 'ignored');
    expect(reply.data.attributes.reason).toMatch(/origin immediate_change, not a refund/);
    expect(await amounts(p)).toEqual([1_000]);
  });

  it('subscription.canceled is told, not acted on; subscription.expired churns the paid referral', async () => {
    const p = await program();
    const r = await paidPurchase(p, { subtotal: 30 });
    const sub = rcSubscription({ account: r.account });
    rcApi.objects.set(`/subscriptions/${sub.id}`, sub);
    const canceled = await expectOutcome(p, 'subscription.canceled', sub.id as string, 'ignored');
    expect(canceled.data.attributes.reason).toMatch(/subscription\.expired churns/);
    await expectOutcome(p, 'subscription.expired', sub.id as string, 'churned');
    expect((await ok(p, 'GET', `/v1/referrals/${r.referralId}`)).data.attributes.state).toBe('churned');
  });
});

describe('codes', () => {
  it("a code-only sale: no referral names the customer, the invoice's coupon code credits its partner", async () => {
    const p = await program();
    const maya = await referral(p);
    await ok(p, 'POST', '/v1/discount_codes', { partnership_id: maya.partnershipId, code: 'MAYA' });
    const inv = invoice({ account: account('listener@shop.test'), subtotal: 100, discount: 20, codes: ['maya'] });
    await expectOutcome(p, 'charge_invoice.paid', inv.id as string, 'credited');
    const [commission] = await list(p, 'commissions');
    expect(commission!.attributes.amount).toBe(1_600);
    expect(commission!.attributes.partner_id).toBe(maya.partnerId);
  });
});

describe("Recurly's API", () => {
  it('without an API key a notification Tally acts on is 503 and recorded nowhere; with it, the same one is credited', async () => {
    const p = await connected(newRcSecret());
    const r = await referral(p);
    const inv = invoice({ account: account(r.email, { tally_gr_id: r.grId }), subtotal: 10 });
    const reply = await send(p, 'charge_invoice.paid', inv.id as string);
    expectError(reply, 503, 'unavailable');
    expect(reply.body.errors[0].detail).toMatch(/API key/);
    expect(await events(p)).toEqual([]);
    await ok(p, 'POST', '/v1/integrations/recurly/credential', { api_key: KEY, region: 'us' });
    await expectOutcome(p, 'charge_invoice.paid', inv.id as string, 'credited');
  });

  it('a busy API (429) or a key it refuses is 503, nothing recorded; sent again once it answers, credited', async () => {
    const p = await program();
    const r = await referral(p);
    const inv = invoice({ account: account(r.email, { tally_gr_id: r.grId }), subtotal: 10 });
    rcApi.failWith = 429;
    try {
      expectError(await send(p, 'charge_invoice.paid', inv.id as string), 503, 'unavailable');
    } finally {
      rcApi.failWith = undefined;
    }
    await ok(p, 'POST', '/v1/integrations/recurly/credential', { api_key: newRcApiKey(), region: 'us' });
    const refused = await send(p, 'charge_invoice.paid', inv.id as string);
    expectError(refused, 503, 'unavailable');
    expect(refused.body.errors[0].detail).toMatch(/refused the program's API key/);
    expect(await events(p)).toEqual([]);
    await ok(p, 'POST', '/v1/integrations/recurly/credential', { api_key: KEY, region: 'us' });
    await expectOutcome(p, 'charge_invoice.paid', inv.id as string, 'credited');
  });

  it('an invoice the API does not know is ignored with the reason', async () => {
    const p = await program();
    const reply = await expectOutcome(p, 'charge_invoice.paid', rcId(), 'ignored');
    expect(reply.data.attributes.reason).toMatch(/no such invoice/);
  });
});
