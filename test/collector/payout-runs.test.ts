// Payout runs through PayPal's Payouts API (docs/payouts.md, "Payout runs"), against a local
// server answering as PayPal's reference documents: OAuth2 client credentials, one batch per
// sender_batch_id (a duplicate refused with a link to the original), 429 rate limits, the
// batch read back, and webhooks signed with a certificate it serves (made here with openssl).

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { crc32 } from '../../packages/collector/src/modules/payout-runs/paypal.js';
import { checkStats, foldStats } from '../../packages/collector/src/modules/stats/service.js';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';
import { ownerSession } from './session.js';
import { testDatabase, type TestDatabase } from './database.js';
import { serve, tokensIn, type Served } from './processes.js';
import { CLIENT, FakePaypal, WEBHOOK_ID } from './paypal-api.js';

let dir: string;
let paypal: FakePaypal;
let c: Collector;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tally-paypal-'));
  paypal = new FakePaypal(dir);
  await paypal.start();
});
afterAll(async () => {
  await paypal.close();
  rmSync(dir, { recursive: true, force: true });
});
async function commission(partnerId: string, amount: number, currency: string): Promise<string> {
  return (await c.call('POST', '/v1/commissions', { body: { partner_id: partnerId, amount, currency } })).body.data.id;
}
const stateOf = async (id: string) => (await c.call('GET', `/v1/commissions/${id}`)).body.data.attributes.state;
const owed = async () => (await c.call('GET', '/v1/payouts/owed')).body.data.map((o: any) => [o.name, o.currency, o.amount]);
const eventsOf = async (type: string) => (await c.call('GET', `/v1/events?type_eq=${type}`)).body.data;

/** Alice is owed 13.00 USD in two commissions and 5.00 EUR; Bob 1.00 USD; Carol, without a PayPal address, 7.00 USD. */
async function fixture() {
  const alice = await seedPartner(c, { name: 'Alice', paypal_email: 'alice@pay.test' });
  const bob = await seedPartner(c, { name: 'Bob', paypal_email: 'bob@pay.test' });
  const carol = await seedPartner(c, { name: 'Carol' });
  const ids = {
    aliceUsd: [await commission(alice.partnerId, 1234, 'USD'), await commission(alice.partnerId, 66, 'USD')],
    aliceEur: [await commission(alice.partnerId, 500, 'EUR')],
    bobUsd: [await commission(bob.partnerId, 100, 'USD')],
    carolUsd: [await commission(carol.partnerId, 700, 'USD')],
  };
  return { alice, bob, carol, ids };
}

/** Makes a run and approves it, as a secret token may; resolves to its id and its items by receiver and currency. */
async function approvedRun() {
  const made = await c.call('POST', '/v1/payout_runs');
  expect(made.status).toBe(201);
  const id = made.body.data.id as string;
  expect((await c.call('POST', `/v1/payout_runs/${id}/approve`)).body.data.attributes.state).toBe('approved');
  return { id, made };
}

const itemsOf = async (id: string) => {
  const run = await c.call('GET', `/v1/payout_runs/${id}`);
  return Object.fromEntries(
    run.body.included.map((i: any) => [`${i.attributes.address} ${i.attributes.currency}`, i.attributes]),
  ) as Record<string, any>;
};
const itemIdOf = async (id: string, key: string) =>
  (await c.call('GET', `/v1/payout_runs/${id}`)).body.included.find((i: any) => `${i.attributes.address} ${i.attributes.currency}` === key)
    .id as string;

it('the CRC-32 in the signed message is the standard one', () => {
  expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
});

describe('payout runs through PayPal', () => {
  beforeEach(async () => {
    c = await startCollector({ paypalApiUrl: paypal.url });
    paypal.batches.clear();
    paypal.posts = [];
    paypal.outcome.clear();
    paypal.rateLimited = 0;
    paypal.itemFee = undefined;
    paypal.holdAnswer = undefined;
    await c.call('PATCH', '/v1/integrations/paypal', {
      body: { client_id: CLIENT.id, client_secret: CLIENT.secret, webhook_id: WEBHOOK_ID },
    });
  });
  afterEach(async () => {
    // Whatever a scenario did, the kept totals (what is owed, above all) equal a recount of the records.
    while ((await foldStats(c.running.db)) > 0);
    expect(await checkStats(c.running.db, c.programId)).toEqual([]);
    await c.close();
  });

  it('pays a run end to end: an admin makes it, only an owner approves it, one batch per currency, through a rate limit', async () => {
    const f = await fixture();
    const admin = await ownerSession(c, { role: 'admin' });
    const made = await admin.call('POST', '/v1/payout_runs');
    expect(made.status).toBe(201);
    expect(made.body.data.attributes).toMatchObject({ state: 'draft', items: { pending: 3 } });
    expect(made.body.meta.skipped).toEqual([
      expect.objectContaining({ name: 'Carol', currency: 'USD', amount: '7.00', reason: 'no paypal_email' }),
    ]);
    const id = made.body.data.id;
    // Claimed by the run: no export and no second run asks for the same money.
    expect(await owed()).toEqual([['Carol', 'USD', 700]]);
    expectError(await c.call('POST', '/v1/payout_runs'), 409, 'conflict');
    expectError(await admin.call('POST', `/v1/payout_runs/${id}/send`), 409, 'conflict');
    expectError(await admin.call('POST', `/v1/payout_runs/${id}/approve`), 403, 'forbidden');
    const owner = await ownerSession(c);
    expect((await owner.call('POST', `/v1/payout_runs/${id}/approve`)).body.data.attributes.approved_by).toMatch(/^user /);

    paypal.rateLimited = 1;
    paypal.itemFee = '0.25';
    const sent = await admin.call('POST', `/v1/payout_runs/${id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.data.attributes).toMatchObject({ state: 'sent', attempt: 1, items: { paid: 3 } });
    // One batch per currency; the first POST met the rate limit and was sent again, same id.
    const taken = paypal.posts.filter((p) => p.status === 201);
    expect(taken.map((p) => [p.senderBatchId, p.receivers.sort()])).toEqual(
      expect.arrayContaining([
        [`${id}-EUR-1`, ['alice@pay.test']],
        [`${id}-USD-1`, ['alice@pay.test', 'bob@pay.test']],
      ]),
    );
    expect(paypal.posts.map((p) => p.status).sort()).toEqual([201, 201, 429]);
    const items = await itemsOf(id);
    // PayPal's fee is recorded apart, in minor units: the partner's amount is what they earned.
    expect(items['alice@pay.test USD']).toMatchObject({
      amount: 1300,
      provider_fee: 25,
      state: 'paid',
      reason: null,
      provider_batch_id: expect.any(String),
    });
    expect(items['alice@pay.test EUR']).toMatchObject({ amount: 500, state: 'paid' });
    expect(paypal.item(await itemIdOf(id, 'alice@pay.test USD')).payout_item.amount).toEqual({ value: '13.00', currency: 'USD' });
    for (const cid of [...f.ids.aliceUsd, ...f.ids.aliceEur, ...f.ids.bobUsd]) expect(await stateOf(cid)).toBe('paid');
    expect(await stateOf(f.ids.carolUsd[0]!)).toBe('pending');
    expect((await eventsOf('payout.paid')).length).toBe(3);
    // The existing notice: each partner hears of each payout, with its amount.
    const notices = await c.running.db.all<{ recipient_id: string; data: string }>(
      "SELECT recipient_id, data FROM notifications WHERE kind = 'payout_sent' ORDER BY recipient_id, data",
    );
    expect(notices.map((n) => [n.recipient_id, JSON.parse(n.data).amount, JSON.parse(n.data).currency]).sort()).toEqual(
      [
        [f.alice.partnerId, 1300, 'USD'],
        [f.alice.partnerId, 500, 'EUR'],
        [f.bob.partnerId, 100, 'USD'],
      ].sort(),
    );
    // The CSV export's batches do not show a run's payouts, and it has nothing left to take of them.
    expect((await c.call('GET', '/v1/payout_batches')).body.data).toEqual([]);
    const itemId = await itemIdOf(id, 'bob@pay.test USD');
    expectError(await c.call('POST', `/v1/payout_batches/${itemId}/cancel`), 404, 'not_found');
    expectError(await c.call('POST', `/v1/payout_batches/${itemId}/paid`), 404, 'not_found');
    expect((await c.call('GET', '/v1/payout_runs')).body.data.map((r: any) => r.id)).toEqual([id]);
    // Sending again sends nothing.
    await admin.call('POST', `/v1/payout_runs/${id}/send`);
    expect(paypal.posts.length).toBe(3);
  });

  it('retries only the failed payout, as a new batch; its commissions were payable meanwhile with the reason shown', async () => {
    const f = await fixture();
    paypal.outcome.set('bob@pay.test', 'FAILED');
    const { id } = await approvedRun();
    await c.call('POST', `/v1/payout_runs/${id}/send`);
    const items = await itemsOf(id);
    expect(items['bob@pay.test USD']).toMatchObject({
      state: 'failed',
      reason: 'RECEIVER_ACCOUNT_LOCKED: Receiver account is locked or inactive',
    });
    expect(items['alice@pay.test USD'].state).toBe('paid');
    expect(await stateOf(f.ids.bobUsd[0]!)).toBe('pending');
    expect(await owed()).toEqual(expect.arrayContaining([['Bob', 'USD', 100]]));
    const failed = await eventsOf('payout.failed');
    expect(failed.map((e: any) => e.attributes.data.attributes.partner_id)).toEqual([f.bob.partnerId]);

    paypal.outcome.clear();
    const before = paypal.posts.length;
    const retried = await c.call('POST', `/v1/payout_runs/${id}/retry`);
    expect(retried.body.data.attributes).toMatchObject({ attempt: 2, items: { paid: 3 } });
    expect(paypal.posts.slice(before)).toEqual([{ senderBatchId: `${id}-USD-2`, receivers: ['bob@pay.test'], status: 201 }]);
    expect(await stateOf(f.ids.bobUsd[0]!)).toBe('paid');
    expect(await owed()).toEqual([['Carol', 'USD', 700]]);
    expectError(await c.call('POST', `/v1/payout_runs/${id}/retry`), 409, 'conflict');
  });

  it('a payout returned after it was paid gives its commissions back to payable, with the reason; duplicates and late events change nothing', async () => {
    const f = await fixture();
    const { id } = await approvedRun();
    await c.call('POST', `/v1/payout_runs/${id}/send`);
    const itemId = await itemIdOf(id, 'alice@pay.test USD');
    const item = {
      ...paypal.item(itemId),
      transaction_status: 'RETURNED',
      errors: { name: 'RECEIVER_UNCONFIRMED', message: 'Receiver unconfirmed' },
    };
    const returned = paypal.webhook('PAYMENT.PAYOUTS-ITEM.RETURNED', item, { eventId: 'WH-RETURNED-1' });
    const path = `/v1/integrations/paypal/webhook/${c.programId}`;
    expect((await c.call('POST', path, { token: null, raw: returned.raw, headers: returned.headers })).body.data).toEqual({
      duplicate: false,
      applied: true,
    });
    const after = await itemsOf(id);
    expect(after['alice@pay.test USD']).toMatchObject({ state: 'returned', reason: 'RECEIVER_UNCONFIRMED: Receiver unconfirmed' });
    for (const cid of f.ids.aliceUsd) expect(await stateOf(cid)).toBe('pending');
    expect(await owed()).toEqual(expect.arrayContaining([['Alice', 'USD', 1300]]));

    // The same event again, and a success delivered late: nothing moves.
    expect((await c.call('POST', path, { token: null, raw: returned.raw, headers: returned.headers })).body.data).toEqual({
      duplicate: true,
      applied: false,
    });
    const late = paypal.webhook('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', { ...paypal.item(itemId), transaction_status: 'SUCCESS' });
    expect((await c.call('POST', path, { token: null, raw: late.raw, headers: late.headers })).body.data).toEqual({
      duplicate: false,
      applied: false,
    });
    expect((await itemsOf(id))['alice@pay.test USD'].state).toBe('returned');
    for (const cid of f.ids.aliceUsd) expect(await stateOf(cid)).toBe('pending');
    // A returned payout is not retried: its money is payable by the next run.
    expectError(await c.call('POST', `/v1/payout_runs/${id}/retry`), 409, 'conflict');
    expect((await c.call('POST', '/v1/payout_runs')).body.included.map((i: any) => [i.attributes.address, i.attributes.amount])).toEqual([
      ['alice@pay.test', 1300],
    ]);
  });

  it('events in any order: RETURNED before SUCCEEDED leaves it returned, and the batch read agrees', async () => {
    const f = await fixture();
    paypal.outcome.set('bob@pay.test', 'PENDING');
    const { id } = await approvedRun();
    await c.call('POST', `/v1/payout_runs/${id}/send`);
    const itemId = await itemIdOf(id, 'bob@pay.test USD');
    expect((await itemsOf(id))['bob@pay.test USD'].state).toBe('processing');
    const path = `/v1/integrations/paypal/webhook/${c.programId}`;
    const ret = paypal.webhook('PAYMENT.PAYOUTS-ITEM.RETURNED', { ...paypal.item(itemId), transaction_status: 'RETURNED' });
    const ok = paypal.webhook('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', { ...paypal.item(itemId), transaction_status: 'SUCCESS' });
    expect((await c.call('POST', path, { token: null, raw: ret.raw, headers: ret.headers })).body.data.applied).toBe(true);
    expect((await c.call('POST', path, { token: null, raw: ok.raw, headers: ok.headers })).body.data.applied).toBe(false);
    paypal.item(itemId).transaction_status = 'SUCCESS';
    await c.call('POST', `/v1/payout_runs/${id}/refresh`);
    expect((await itemsOf(id))['bob@pay.test USD']).toMatchObject({ state: 'returned', reason: 'returned' });
    expect(await stateOf(f.ids.bobUsd[0]!)).toBe('pending');
    expect((await eventsOf('payout.paid')).map((e: any) => e.attributes.data.attributes.partner_id)).not.toContain(f.bob.partnerId);
  });

  it('refuses a forged webhook: a wrong signature, an altered body, a certificate from elsewhere', async () => {
    await fixture();
    paypal.outcome.set('bob@pay.test', 'PENDING');
    const { id } = await approvedRun();
    await c.call('POST', `/v1/payout_runs/${id}/send`);
    const item = { ...paypal.item(await itemIdOf(id, 'bob@pay.test USD')), transaction_status: 'SUCCESS' };
    const path = `/v1/integrations/paypal/webhook/${c.programId}`;
    const good = paypal.webhook('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', item);
    const altered = good.raw.replace('SUCCESS', 'SUCCESS ');
    expectError(await c.call('POST', path, { token: null, raw: altered, headers: good.headers }), 400, 'invalid_signature');
    const wrongSig = { ...good.headers, 'paypal-transmission-sig': Buffer.from('forged').toString('base64') };
    expectError(await c.call('POST', path, { token: null, raw: good.raw, headers: wrongSig }), 400, 'invalid_signature');
    // A certificate served elsewhere is never fetched.
    let fetched = 0;
    const evil = createServer((_req, res) => {
      fetched++;
      res.end('');
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    const evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/v1/notifications/certs/CERT-fake`;
    const elsewhere = paypal.webhook('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', item, { certUrl: evilUrl });
    expectError(await c.call('POST', path, { token: null, raw: elsewhere.raw, headers: elsewhere.headers }), 400, 'invalid_signature');
    await new Promise((r) => evil.close(r));
    expect(fetched).toBe(0);
    expect((await itemsOf(id))['bob@pay.test USD'].state).toBe('processing');
    // The genuine one counts.
    expect((await c.call('POST', path, { token: null, raw: good.raw, headers: good.headers })).body.data.applied).toBe(true);
    expect((await itemsOf(id))['bob@pay.test USD'].state).toBe('paid');
  });

  it('an answer lost after PayPal took the batch: sending again meets the duplicate sender_batch_id and pays once', async () => {
    const f = await fixture();
    const { id } = await approvedRun();
    paypal.loseAnswer = true;
    expect((await c.call('POST', `/v1/payout_runs/${id}/send`)).status).toBe(503);
    expect((await itemsOf(id))['bob@pay.test USD']).toMatchObject({ state: 'processing', provider_batch_id: null });
    const resumed = await c.call('POST', `/v1/payout_runs/${id}/send`);
    expect(resumed.body.data.attributes.items).toEqual({ paid: 3 });
    // PayPal took each sender_batch_id once; the resend of the lost one was refused as a duplicate.
    expect(paypal.batches.size).toBe(2);
    expect(paypal.posts.filter((p) => p.status === 400).length).toBe(1);
    expect(await stateOf(f.ids.bobUsd[0]!)).toBe('paid');
  });
});

describe('a crash between PayPal taking the batch and the commit', () => {
  let database: TestDatabase;
  let running: Served | undefined;
  afterEach(async () => {
    if (running?.child.exitCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    await database.drop();
  });

  it('kill -9 of tally serve while PayPal holds its answer: after a restart, sending again pays once and loses nothing', async () => {
    database = await testDatabase();
    paypal.batches.clear();
    paypal.posts = [];
    const env = { DATABASE_URL: database.url, RATE_LIMIT_IP: '0', RATE_LIMIT_TOKEN: '0', PAYPAL_API_URL: paypal.url };
    running = await serve(env);
    const { secret } = tokensIn(running.output());
    const api = async (url: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const url = running.url;
    await api(url, 'PATCH', '/v1/integrations/paypal', { client_id: CLIENT.id, client_secret: CLIENT.secret, webhook_id: WEBHOOK_ID });
    const partner = await api(url, 'POST', '/v1/partners', { name: 'Dora', email: 'dora@p.test', paypal_email: 'dora@pay.test' });
    await api(url, 'POST', '/v1/partnerships', { partner_id: partner.body.data.id, state: 'accepted' });
    const commissionId = (await api(url, 'POST', '/v1/commissions', { partner_id: partner.body.data.id, amount: 4200, currency: 'USD' }))
      .body.data.id;
    const run = (await api(url, 'POST', '/v1/payout_runs')).body.data.id;
    await api(url, 'POST', `/v1/payout_runs/${run}/approve`);

    const taken = new Promise<void>((r) => (paypal.holdAnswer = r));
    const sending = api(url, 'POST', `/v1/payout_runs/${run}/send`).catch(() => 'killed');
    await taken;
    running.child.kill('SIGKILL');
    await running.exited;
    expect(await sending).toBe('killed');
    expect(paypal.batches.size).toBe(1);

    running = await serve(env);
    const before = await api(running.url, 'GET', `/v1/payout_runs/${run}`);
    expect(before.body.included[0].attributes).toMatchObject({ state: 'processing', provider_batch_id: null });
    const resumed = await api(running.url, 'POST', `/v1/payout_runs/${run}/send`);
    expect(resumed.body.data.attributes.items).toEqual({ paid: 1 });
    expect(resumed.body.included[0].attributes).toMatchObject({ amount: 4200, provider_batch_id: [...paypal.batches.values()][0]!.id });
    // PayPal was asked twice for the same sender_batch_id, and took it once.
    expect(paypal.posts.map((p) => [p.senderBatchId, p.status])).toEqual([
      [`${run}-USD-1`, 201],
      [`${run}-USD-1`, 400],
    ]);
    expect(paypal.batches.size).toBe(1);
    expect((await api(running.url, 'GET', `/v1/commissions/${commissionId}`)).body.data.attributes.state).toBe('paid');
  });
});
