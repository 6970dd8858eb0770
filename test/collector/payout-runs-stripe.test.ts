// Payout runs paying partners through Stripe Connect (docs/payouts.md, "Payout runs"): one
// Transfer per payout to the partner's connected account, beside PayPal's batches in the same
// run; a lost answer or a resend never transfers twice (the Idempotency-Key); a refused
// transfer fails the payout and a retry is a new attempt; transfer.reversed returns it once, and
// partial reversals are owed to the partner again, each once, and credited on the invoice.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractText } from 'unpdf';
import { transferReversed } from '../../packages/collector/src/flows/payout-reversal.js';
import { openDatabase } from '../../packages/collector/src/platform/db/open.js';
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
/** Reverses the transfer at Stripe (the rest when no amount); resolves to the transfer as it is then, as events show it. */
async function reverse(transfer: string, amount?: number): Promise<Record<string, any>> {
  const res = await fetch(`${stripe.url}/v1/transfers/${transfer}/reversals`, {
    method: 'POST',
    headers: { authorization: `Bearer ${STRIPE_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: amount === undefined ? '' : `amount=${amount}`,
  });
  expect(res.status).toBe(200);
  return structuredClone(stripe.transfers.get(transfer)!);
}
/** The program's credit notes: number, invoice, payout, cause and amount. */
const creditNotes = async (): Promise<[number, string, string, string, number][]> =>
  (await c.call('GET', '/v1/credit_notes')).body.data.map((n: any) => [
    n.attributes.number,
    n.attributes.invoice_id,
    n.attributes.payout_id,
    n.attributes.cause,
    n.attributes.amount,
  ]);
/** A PDF the owner downloads, as its text. */
async function pdfText(path: string): Promise<string> {
  const res = await fetch(c.url + path, { headers: { authorization: `Bearer ${c.secret}` } });
  expect(res.headers.get('content-type')).toBe('application/pdf');
  return (await extractText(new Uint8Array(await res.arrayBuffer()), { mergePages: true })).text;
}
const outcomes = async (type: string) =>
  (await c.call('GET', `/v1/integrations/stripe/events?type_eq=${type}`)).body.data.map((e: any) => [e.id, e.attributes.outcome]);
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

  it('transfer.reversed in full returns the paid payout once, its commissions owed again and its invoice credited; the same event again changes nothing', async () => {
    const bea = await stripePartner('Bea', true);
    const cid = await commission(bea.partnerId, 2500, 'USD');
    const { id } = await approvedRun();
    expect((await c.call('POST', `/v1/payout_runs/${id}/send`)).status).toBe(200);
    const item = (await itemsOf(id))[bea.account];
    expect(item.state).toBe('paid');
    const reversed = await reverse(item.provider_item_id);
    expect(reversed).toMatchObject({ amount_reversed: 2500, reversed: true });

    const first = await signed('transfer.reversed', reversed, 'evt_transfer_reversed');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await itemsOf(id))[bea.account]).toMatchObject({ state: 'returned', reason: 'transfer reversed', amount_reversed: 2500 });
    expect(await stateOf(cid)).toBe('pending');
    expect(await owed()).toEqual([['Bea', 'USD', 2500]]);
    const failedEvents = async () => (await c.call('GET', '/v1/events?type_eq=payout.failed')).body.data.length;
    expect(await failedEvents()).toBe(1);
    const [invoice] = (await c.call('GET', `/v1/invoices?payout_id_eq=${item.id}`)).body.data;
    expect(await creditNotes()).toEqual([[1, invoice.id, item.id, 'returned', -2500]]);

    // The same event delivered again, and the same reversal under another event id: applied once.
    expect((await signed('transfer.reversed', reversed, 'evt_transfer_reversed')).status).toBe(200);
    expect((await signed('transfer.reversed', reversed, 'evt_transfer_reversed_2')).status).toBe(200);
    expect(await failedEvents()).toBe(1);
    expect(await owed()).toEqual([['Bea', 'USD', 2500]]);
    expect(await creditNotes()).toHaveLength(1);
    expect(await outcomes('transfer.reversed')).toEqual(
      expect.arrayContaining([
        ['evt_transfer_reversed', 'linked'],
        ['evt_transfer_reversed_2', 'ignored'],
      ]),
    );
  });

  it('partial reversals: the payout stays paid, each part is owed again with its reason and credited once, in any order; reversed whole, the partner is owed the payout once', async () => {
    const bea = await stripePartner('Bea', true);
    const cid = await commission(bea.partnerId, 2500, 'USD');
    const { id } = await approvedRun();
    expect((await c.call('POST', `/v1/payout_runs/${id}/send`)).status).toBe(200);
    const item = (await itemsOf(id))[bea.account];
    const first = await reverse(item.provider_item_id, 1000);
    const second = await reverse(item.provider_item_id, 500);
    expect(second).toMatchObject({ amount_reversed: 1500, reversed: false });
    const [r1, r2] = [first.reversals.data[0].id, second.reversals.data[0].id];

    // The later event first: it lists both reversals, and both are applied.
    expect((await signed('transfer.reversed', second, 'evt_rev_2')).status).toBe(200);
    expect((await itemsOf(id))[bea.account]).toMatchObject({ state: 'paid', amount_reversed: 1500, reason: null });
    expect(await stateOf(cid)).toBe('paid');
    const owedAgain = (await c.call('GET', `/v1/commissions?partner_id_eq=${bea.partnerId}&state_eq=pending`)).body.data.map((x: any) => [
      x.attributes.amount,
      x.attributes.reward_description,
    ]);
    expect(owedAgain).toEqual(
      expect.arrayContaining([
        [1000, `Reversed by Stripe from payout ${item.id} (${r1})`],
        [500, `Reversed by Stripe from payout ${item.id} (${r2})`],
      ]),
    );
    expect(await owed()).toEqual([['Bea', 'USD', 1500]]);
    const [invoice] = (await c.call('GET', `/v1/invoices?payout_id_eq=${item.id}`)).body.data;
    expect((await creditNotes()).sort()).toEqual(
      [
        [1, invoice.id, item.id, expect.any(String), expect.any(Number)],
        [2, invoice.id, item.id, expect.any(String), expect.any(Number)],
      ].sort(),
    );
    expect((await creditNotes()).map((n) => [n[3], n[4]]).sort()).toEqual([r1, r2].map((r) => [r, r === r1 ? -1000 : -500]).sort());

    // The earlier event late, the later one again, and a transfer.updated of the same state: nothing more.
    expect((await signed('transfer.reversed', first, 'evt_rev_1')).status).toBe(200);
    expect((await signed('transfer.reversed', second, 'evt_rev_2')).status).toBe(200);
    expect((await signed('transfer.updated', second, 'evt_upd_2')).status).toBe(200);
    expect(await owed()).toEqual([['Bea', 'USD', 1500]]);
    expect(await creditNotes()).toHaveLength(2);
    expect(await outcomes('transfer.reversed')).toEqual(
      expect.arrayContaining([
        ['evt_rev_2', 'linked'],
        ['evt_rev_1', 'ignored'],
      ]),
    );

    // The next run pays what the reversals owed again, by a transfer of its own.
    const next = await approvedRun();
    expect((await c.call('POST', `/v1/payout_runs/${next.id}/send`)).status).toBe(200);
    expect((await itemsOf(next.id))[bea.account]).toMatchObject({ state: 'paid', amount: 1500 });
    expect(await owed()).toEqual([]);

    // Then the first transfer's rest is reversed: it is returned, its 2500 owed again, less the 1500 paid since.
    const whole = await reverse(item.provider_item_id);
    expect((await signed('transfer.reversed', whole, 'evt_rev_3')).status).toBe(200);
    expect((await itemsOf(id))[bea.account]).toMatchObject({ state: 'returned', amount_reversed: 2500 });
    expect(await stateOf(cid)).toBe('pending');
    expect(await owed()).toEqual([['Bea', 'USD', 1000]]);
    // Its last credit note takes back the rest of the invoice: the three credit it whole.
    const notes = await creditNotes();
    expect(notes.find((n) => n[0] === 3)).toEqual([3, invoice.id, item.id, 'returned', -1000]);
    expect(notes.reduce((sum, n) => sum + n[4], 0)).toBe(-2500);
    expect((await signed('transfer.reversed', whole, 'evt_rev_3b')).status).toBe(200);
    expect(await owed()).toEqual([['Bea', 'USD', 1000]]);
    const label = invoice.attributes.label;
    const year = new Date(c.clock.now * 1000).getUTCFullYear();
    const byNumber = async (n: number) =>
      pdfText(`/v1/credit_notes/${(await c.call('GET', `/v1/credit_notes`)).body.data.find((x: any) => x.attributes.number === n).id}/pdf`);
    const part = await byNumber(1);
    for (const words of [`Corrects invoice: ${label}`, `cancelling invoice ${label} in part`, `Stripe reversal ${r1}`, '-10.00 USD'])
      expect(part).toContain(words);
    const rest = await byNumber(3);
    for (const words of [`cancelling invoice ${label} in full`, `Already credited by CN-${year}-000001`, '25.00 USD', '-10.00 USD'])
      expect(rest).toContain(words);
  });

  it('two processes applying the same partial reversal at once apply it once', async () => {
    const bea = await stripePartner('Bea', true);
    await commission(bea.partnerId, 2500, 'USD');
    const { id } = await approvedRun();
    expect((await c.call('POST', `/v1/payout_runs/${id}/send`)).status).toBe(200);
    const item = (await itemsOf(id))[bea.account];
    const reversal = (await reverse(item.provider_item_id, 1000)).reversals.data[0];
    const fact = { transfer: item.provider_item_id, item: item.id, full: false, reversals: [{ id: reversal.id, amount: 1000 }] };
    // Two handles, each with its own connections: on PostgreSQL two transactions at once, as two processes make.
    const [a, b] = [await openDatabase(c.databaseUrl), await openDatabase(c.databaseUrl)];
    try {
      const applied = await Promise.all([a, b].map((db) => db.transaction((tx) => transferReversed(tx, c.programId, fact, c.clock.now))));
      expect(applied.filter((x) => x !== undefined)).toEqual(['partial']);
    } finally {
      await a.close();
      await b.close();
    }
    expect((await itemsOf(id))[bea.account]).toMatchObject({ state: 'paid', amount_reversed: 1000 });
    expect(await owed()).toEqual([['Bea', 'USD', 1000]]);
    expect((await creditNotes()).map((n) => [n[0], n[3], n[4]])).toEqual([[1, reversal.id, -1000]]);
  });
});
