// Payout runs paying partners through Stripe Connect (docs/payouts.md, "Payout runs"): one
// Transfer per payout to the partner's connected account, beside PayPal's batches in the same
// run; a lost answer or a resend never transfers twice (the Idempotency-Key); a refused
// transfer fails the payout and a retry is a new attempt; transfer.reversed returns it once.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chooseStripe, payoutMethodOf } from '../../packages/collector/src/modules/payout-methods/service.js';
import { findProgram } from '../../packages/collector/src/modules/programs/service.js';
import { checkStats, foldStats } from '../../packages/collector/src/modules/stats/service.js';
import { seedPartner, startCollector, type Collector } from './harness.js';
import { CLIENT, FakePaypal, WEBHOOK_ID } from './paypal-api.js';
import { startStripeApi, type StripeApi } from './stripe-api.js';
import { newSecret, postEvent, stripeEvent } from './stripe-fixtures.js';

const STRIPE_KEY = 'rk_test_payoutruns0123456789';

let dir: string;
let paypal: FakePaypal;
let stripe: StripeApi;
let c: Collector;
/** The program's Stripe webhook endpoint and its signing secret. */
let hook: { url: string; secret: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tally-paypal-'));
  paypal = new FakePaypal(dir);
  [stripe] = await Promise.all([startStripeApi(STRIPE_KEY), paypal.start()]);
});
afterAll(async () => {
  await Promise.all([paypal.close(), stripe.close()]);
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  c = await startCollector({ paypalApiUrl: paypal.url, stripeApiUrl: stripe.url });
  for (const [path, body] of [
    ['/v1/integrations/paypal', { client_id: CLIENT.id, client_secret: CLIENT.secret, webhook_id: WEBHOOK_ID }],
    ['/v1/program', { stripe_api_key: STRIPE_KEY }],
    ['/v1/program/payout_settings', { offered: ['paypal', 'stripe_connect'] }],
  ] as const) {
    const set = await c.call('PATCH', path, { body });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
  }
  const secret = newSecret();
  const added = await c.call('POST', '/v1/integrations/stripe/secrets', { body: { secret, label: 'connect' } });
  hook = { url: c.url + new URL(added.body.meta.endpoint_url).pathname, secret };
});
afterEach(async () => {
  // The kept totals (what is owed, above all) still equal a recount of the records.
  while ((await foldStats(c.running.db)) > 0);
  expect(await checkStats(c.running.db, c.programId)).toEqual([]);
  await c.close();
});

const signed = (type: string, object: Record<string, unknown>, id?: string) =>
  postEvent(hook.url, stripeEvent(type, object, { id, created: c.clock.now }), hook.secret, { timestamp: c.clock.now });

/** A partner paid through Stripe Connect, their Express account made; `ready`: onboarded, as account.updated told Tally. */
async function stripePartner(name: string, ready: boolean) {
  const partner = await seedPartner(c, { name });
  const program = (await findProgram(c.running.db, c.programId))!;
  const email = `${name.toLowerCase()}@partners.test`;
  await chooseStripe(c.running.db, program, partner.partnerId, { country: 'US', email }, stripe.url, c.clock.now);
  const account = (await payoutMethodOf(c.running.db, c.programId, partner.partnerId)).stripeAccountId!;
  if (ready) {
    Object.assign(stripe.accounts.get(account)!, { payouts_enabled: true, requirements: { currently_due: [], past_due: [] } });
    expect((await signed('account.updated', stripe.accounts.get(account)!)).status).toBe(200);
  }
  return { ...partner, account };
}

async function commission(partnerId: string, amount: number, currency: string): Promise<string> {
  return (await c.call('POST', '/v1/commissions', { body: { partner_id: partnerId, amount, currency } })).body.data.id;
}
const stateOf = async (id: string) => (await c.call('GET', `/v1/commissions/${id}`)).body.data.attributes.state;
const owed = async () => (await c.call('GET', '/v1/payouts/owed')).body.data.map((o: any) => [o.name, o.currency, o.amount]);

/** A run made and approved; resolves to its id and what making it skipped. */
async function approvedRun() {
  const made = await c.call('POST', '/v1/payout_runs');
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = made.body.data.id as string;
  expect((await c.call('POST', `/v1/payout_runs/${id}/approve`)).status).toBe(200);
  return { id, skipped: made.body.meta.skipped };
}
/** The run's items by address (an e-mail or an acct_ id). */
const itemsOf = async (id: string) =>
  Object.fromEntries(
    (await c.call('GET', `/v1/payout_runs/${id}`)).body.included.map((i: any) => [i.attributes.address, { id: i.id, ...i.attributes }]),
  ) as Record<string, any>;
const transfersTo = (account: string) => [...stripe.transfers.values()].filter((t) => t.destination === account);
const transferPosts = () => stripe.calls.filter((x) => x.method === 'POST' && x.path === '/v1/transfers');

describe('payout runs through Stripe Connect', () => {
  it('pays a mixed run end to end: PayPal at the partner record, Stripe by one transfer; a partner not onboarded is skipped', async () => {
    const alice = await seedPartner(c, { name: 'Alice', paypal_email: 'alice@pay.test' });
    const bea = await stripePartner('Bea', true);
    const cleo = await stripePartner('Cleo', false);
    const ids = [await commission(alice.partnerId, 1300, 'USD'), await commission(bea.partnerId, 2500, 'USD')];
    await commission(bea.partnerId, 400, 'USD');
    await commission(cleo.partnerId, 900, 'USD');

    const { id, skipped } = await approvedRun();
    expect(skipped).toEqual([expect.objectContaining({ name: 'Cleo', amount: '9.00', reason: 'stripe_connect not ready: onboarding' })]);
    const before = transferPosts().length;
    const sent = await c.call('POST', `/v1/payout_runs/${id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data.attributes).toMatchObject({ state: 'sent', items: { paid: 2 } });

    const items = await itemsOf(id);
    expect(items['alice@pay.test']).toMatchObject({ method: 'paypal', amount: 1300, state: 'paid' });
    expect(items[bea.account]).toMatchObject({
      method: 'stripe_connect',
      amount: 2900,
      state: 'paid',
      provider_item_id: expect.stringMatching(/^tr_/),
    });
    // PayPal had the PayPal partner only; Stripe one transfer, as the reference has it.
    expect([...paypal.batches.values()].flatMap((b) => b.items.map((i) => i.payout_item.receiver))).toEqual(['alice@pay.test']);
    expect(transfersTo(bea.account)).toEqual([
      expect.objectContaining({
        id: items[bea.account].provider_item_id,
        amount: 2900,
        currency: 'usd',
        transfer_group: id,
        metadata: { tally_payout_item_id: items[bea.account].id },
      }),
    ]);
    expect(transferPosts().length - before).toBe(1);
    for (const cid of ids) expect(await stateOf(cid)).toBe('paid');
    expect(await owed()).toEqual([['Cleo', 'USD', 900]]);

    // Sent again: nothing is unanswered, so nothing is transferred.
    expect((await c.call('POST', `/v1/payout_runs/${id}/send`)).status).toBe(200);
    expect(transfersTo(bea.account)).toHaveLength(1);
  });

  it('a lost answer is asked again under the same Idempotency-Key; a refused transfer fails, and its retry is a new attempt', async () => {
    const bea = await stripePartner('Bea', true);
    const dana = await stripePartner('Dana', true);
    await commission(bea.partnerId, 2500, 'USD');
    const danas = await commission(dana.partnerId, 1800, 'USD');
    // Dana's account lost its payouts since Tally last heard: Stripe refuses her transfer.
    stripe.accounts.get(dana.account)!.payouts_enabled = false;
    const { id } = await approvedRun();
    const before = transferPosts().length;
    stripe.loseAnswers = 1;
    const sent = await c.call('POST', `/v1/payout_runs/${id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    let items = await itemsOf(id);
    expect(items[bea.account]).toMatchObject({ state: 'paid' });
    expect(items[dana.account]).toMatchObject({
      state: 'failed',
      reason: expect.stringContaining('insufficient_capabilities_for_transfer'),
    });
    expect(await stateOf(danas)).toBe('pending');
    const posts = transferPosts().slice(before);
    const keyOf = (item: { id: string }, attempt: number) => `tally-transfer-${item.id}-${attempt}`;
    // Bea's first answer was cut: Stripe was asked again with the same key and replayed it.
    expect(posts.filter((p) => p.form.destination === bea.account)).toHaveLength(2);
    expect(transfersTo(bea.account)).toHaveLength(1);

    stripe.accounts.get(dana.account)!.payouts_enabled = true;
    const retried = await c.call('POST', `/v1/payout_runs/${id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    items = await itemsOf(id);
    expect(items[dana.account]).toMatchObject({ state: 'paid', reason: null });
    expect(items[bea.account]).toMatchObject({ state: 'paid' });
    expect(transfersTo(dana.account)).toEqual([expect.objectContaining({ amount: 1800 })]);
    expect(transfersTo(bea.account)).toHaveLength(1);
    expect(await stateOf(danas)).toBe('paid');
    // The keys Stripe saw: attempt 1's twice for Bea (the cut answer), attempts 1 and 2 for Dana.
    const keysTo = (account: string) =>
      transferPosts()
        .slice(before)
        .filter((p) => p.form.destination === account)
        .map((p) => p.key);
    expect(keysTo(bea.account)).toEqual([keyOf(items[bea.account], 1), keyOf(items[bea.account], 1)]);
    expect(keysTo(dana.account)).toEqual([keyOf(items[dana.account], 1), keyOf(items[dana.account], 2)]);
  });

  it('no answer at all leaves the payout processing (503); sending again asks under the same key and Stripe transfers once', async () => {
    const bea = await stripePartner('Bea', true);
    const cid = await commission(bea.partnerId, 2500, 'USD');
    const { id } = await approvedRun();
    // Both the request and the library's own retry lose their answers: Stripe made the transfer all the same.
    stripe.loseAnswers = 2;
    expect((await c.call('POST', `/v1/payout_runs/${id}/send`)).status).toBe(503);
    const item = (await itemsOf(id))[bea.account];
    expect(item).toMatchObject({ state: 'processing', provider_item_id: null });
    expect(await stateOf(cid)).toBe('pending');
    expect(transfersTo(bea.account)).toHaveLength(1);

    const resumed = await c.call('POST', `/v1/payout_runs/${id}/send`);
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect((await itemsOf(id))[bea.account]).toMatchObject({ state: 'paid', provider_item_id: transfersTo(bea.account)[0]!.id });
    expect(await stateOf(cid)).toBe('paid');
    expect(transfersTo(bea.account)).toHaveLength(1);
    const keys = transferPosts()
      .filter((p) => p.form.destination === bea.account)
      .map((p) => p.key);
    expect(keys).toEqual([`tally-transfer-${item.id}-1`, `tally-transfer-${item.id}-1`, `tally-transfer-${item.id}-1`]);
  });

  it('transfer.reversed returns the paid payout once and its commissions are owed again; the same event again changes nothing', async () => {
    const bea = await stripePartner('Bea', true);
    const cid = await commission(bea.partnerId, 2500, 'USD');
    const { id } = await approvedRun();
    expect((await c.call('POST', `/v1/payout_runs/${id}/send`)).status).toBe(200);
    const item = (await itemsOf(id))[bea.account];
    expect(item.state).toBe('paid');
    const reversed = { ...stripe.transfers.get(item.provider_item_id)!, amount_reversed: 2500, reversed: true };

    const first = await signed('transfer.reversed', reversed, 'evt_transfer_reversed');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await itemsOf(id))[bea.account]).toMatchObject({ state: 'returned', reason: 'transfer reversed' });
    expect(await stateOf(cid)).toBe('pending');
    expect(await owed()).toEqual([['Bea', 'USD', 2500]]);
    const failedEvents = async () => (await c.call('GET', '/v1/events?type_eq=payout.failed')).body.data.length;
    expect(await failedEvents()).toBe(1);

    // The same event delivered again, and the same reversal under another event id: applied once.
    expect((await signed('transfer.reversed', reversed, 'evt_transfer_reversed')).status).toBe(200);
    expect((await signed('transfer.reversed', reversed, 'evt_transfer_reversed_2')).status).toBe(200);
    expect(await failedEvents()).toBe(1);
    expect(await owed()).toEqual([['Bea', 'USD', 2500]]);
    const log = (await c.call('GET', '/v1/integrations/stripe/events?type_eq=transfer.reversed')).body.data.map((e: any) => [
      e.id,
      e.attributes.outcome,
    ]);
    expect(log).toEqual(
      expect.arrayContaining([
        ['evt_transfer_reversed', 'linked'],
        ['evt_transfer_reversed_2', 'ignored'],
      ]),
    );
  });
});
