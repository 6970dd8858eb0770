// Two `tally serve` processes on one PostgreSQL database paying the same payout run: the
// same approved run sent to both at once, and one process's provider call held until the
// other has sent the whole run; the same provider webhook delivered to both at once, and two
// outcomes of one payout (PayPal's SUCCEEDED and RETURNED, Wise's outgoing_payment_sent and
// bounced_back) delivered to the two at once, in both orders. Each partner is paid once, each
// outcome applied once, and the commissions, events and webhook deliveries agree with a recount.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStats, foldStats } from '../../packages/collector/src/modules/stats/service.js';
import { testDatabase, withDb, type TestDatabase } from '../collector/database.js';
import type { Held } from '../collector/held.js';
import {
  approvedRun,
  type Call,
  caller,
  commission,
  configure,
  currencyOf,
  type Fakes,
  itemsOf,
  type Method,
  payee,
  serveEnv,
  startFakes,
} from '../collector/payout-kit.js';
import { serve, stopServers, tokensIn, type Served } from '../collector/processes.js';
import { startReceiver, type Receiver } from '../collector/receiver.js';

let f: Fakes;
let database: TestDatabase;
let receiver: Receiver;
let a: Served;
let b: Served;
let call: Call;
let programId: string;

beforeAll(async () => {
  [f, database, receiver] = await Promise.all([startFakes(), testDatabase('postgres'), startReceiver()]);
  const env = { ...serveEnv(database.url, f), WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1' };
  a = await serve(env);
  b = await serve(env);
  call = caller(tokensIn(a.output()).secret!);
  programId = await configure(call, a.url);
  // An endpoint for every event: each payout.paid and payout.failed is one delivery to it.
  expect((await call(a.url, 'POST', '/v1/webhook_endpoints', { url: `${receiver.url}/payouts` })).status).toBe(201);
});
afterAll(async () => {
  await stopServers(a, b);
  await Promise.all([f?.close(), receiver?.close()]);
  await database?.drop();
});

const rows = <T>(sql: string, params: string[] = []) => withDb(database.url, (db) => db.all<T>(sql, params));

/** The payout events of each item, by type, and the webhook deliveries of each event. */
async function outcomes(): Promise<Map<string, string[]>> {
  const events = await rows<{ id: string; type: string; data: string }>(
    "SELECT id, type, data FROM events WHERE type IN ('payout.paid', 'payout.failed') ORDER BY created_at, id",
  );
  const deliveries = await rows<{ event_id: string }>('SELECT event_id FROM webhook_deliveries');
  const byItem = new Map<string, string[]>();
  for (const e of events) {
    const item = JSON.parse(e.data).id as string;
    byItem.set(item, [...(byItem.get(item) ?? []), e.type]);
    expect(deliveries.filter((d) => d.event_id === e.id)).toHaveLength(1);
  }
  return byItem;
}

/**
 * The recount: a paid payout's commissions are paid and held by it; a failed or returned one's
 * are pending and held by nothing; a processing one's pending and held by it. And the kept totals equal a recount.
 */
async function expectLedgerAgrees(run: string): Promise<void> {
  const items = await rows<{ id: string; state: string }>('SELECT id, state FROM payout_run_items WHERE run_id = ?', [run]);
  for (const item of items) {
    const held = await rows<{ state: string; payout_batch_id: string | null }>(
      'SELECT c.state, c.payout_batch_id FROM commissions c JOIN payout_items p ON p.commission_id = c.id WHERE p.batch_id = ?',
      [item.id],
    );
    expect(held.length).toBeGreaterThan(0);
    const expected =
      item.state === 'paid'
        ? { state: 'paid', payout_batch_id: item.id }
        : item.state === 'processing'
          ? { state: 'pending', payout_batch_id: item.id }
          : { state: 'pending', payout_batch_id: null };
    for (const c of held) expect(c, `${item.state} payout ${item.id}`).toEqual(expected);
  }
  await withDb(database.url, async (db) => {
    while ((await foldStats(db)) > 0);
    expect(await checkStats(db, programId)).toEqual([]);
  });
}

/** One payee per method, each owed once more; a run of it, approved. */
async function runFor(methods: readonly Method[], tag: string) {
  const payees: Record<string, { partnerId: string; address: string; method: Method }> = {};
  for (const [n, method] of methods.entries()) {
    const p = await payee(call, a.url, database.url, f, method, `${tag}${n}`);
    await commission(call, a.url, p.partnerId, 1000 + n, currencyOf(method));
    payees[p.address] = { ...p, method };
  }
  return { payees, run: await approvedRun(call, a.url) };
}

/** What each provider did for the run's payouts: PayPal batches taken, Stripe transfers and Wise transfers and fundings made. */
function providerCalls(run: string, address: string, method: Method) {
  if (method === 'paypal') {
    const batches = [...f.paypal.batches.entries()].filter(([sender]) => sender.startsWith(run));
    return { made: batches.flatMap(([, batch]) => batch.items).filter((i) => i.payout_item.receiver === address).length, funded: 0 };
  }
  if (method === 'stripe_connect')
    return { made: [...f.stripe.transfers.values()].filter((t) => t.destination === address).length, funded: 0 };
  const transfers = [...f.wise.transfers.values()].filter((t) => String(t.targetAccount) === address);
  return { made: transfers.length, funded: f.wise.payments.filter((p) => transfers.some((t) => t.id === p.transferId)).length };
}

/** Each payee paid once: one PayPal item, Stripe transfer or funded Wise transfer; paid (Wise: processing until Wise says), once. */
async function expectPaidOnce(run: string, payees: Record<string, { method: Method }>) {
  const items = await itemsOf(call, a.url, run);
  const events = await outcomes();
  for (const [address, { method }] of Object.entries(payees)) {
    expect(providerCalls(run, address, method), `${method} ${address}`).toEqual({ made: 1, funded: method === 'wise' ? 1 : 0 });
    expect(items[address]).toMatchObject({ state: method === 'wise' ? 'processing' : 'paid', reason: null });
    expect(events.get(items[address].id) ?? []).toEqual(method === 'wise' ? [] : ['payout.paid']);
  }
  await expectLedgerAgrees(run);
}

const METHODS: Method[] = ['paypal', 'stripe_connect', 'wise'];

describe('the same run sent by two processes', () => {
  it('to both at once: each partner paid once, whichever process answered', async () => {
    const { payees, run } = await runFor([...METHODS, ...METHODS], 'Both');
    const answers = await Promise.all([a, b].map((s) => call(s.url, 'POST', `/v1/payout_runs/${run}/send`)));
    // The second resumed the sent run, found it moved under it (409), or met Stripe busy with the same key (503).
    for (const x of answers) expect([200, 409, 503], JSON.stringify(x.body)).toContain(x.status);
    // What an owner does after a 503: send again, which resumes what was never answered.
    if (!answers.every((x) => x.status === 200)) expect((await call(a.url, 'POST', `/v1/payout_runs/${run}/send`)).status).toBe(200);
    await expectPaidOnce(run, payees);
    // PayPal took the run's sender_batch_id once; any second ask was refused as the duplicate it is.
    expect(f.paypal.posts.filter((p) => p.senderBatchId === `${run}-USD-1` && p.status === 201)).toHaveLength(1);
  });

  for (const method of METHODS) {
    it(`${method}: one process's call held by the provider while the other sends the whole run; released, it pays nothing more`, async () => {
      const { payees, run } = await runFor([method], `Held-${method}-`);
      const held = holdFirst(method);
      const first = call(a.url, 'POST', `/v1/payout_runs/${run}/send`);
      await held.taken;
      const second = await call(b.url, 'POST', `/v1/payout_runs/${run}/send`);
      // Stripe refuses a key whose first request is still going through (409, idempotency_key_in_use): no
      // answer to Tally, so that payout stays processing, for the first send's answer to settle.
      expect(second.status, JSON.stringify(second.body)).toBe(method === 'stripe_connect' ? 503 : 200);
      if (method === 'stripe_connect') expect(Object.values(await itemsOf(call, a.url, run))[0]).toMatchObject({ state: 'processing' });
      held.release();
      expect((await first).status).toBe(200);
      await expectPaidOnce(run, payees);
    });
  }
});

/** Holds the provider's answer to the first call that moves money: PayPal's batch, Stripe's transfer, Wise's transfer. */
function holdFirst(method: Method): Held {
  if (method === 'stripe_connect') return f.stripe.hold('/v1/transfers');
  if (method === 'wise') return f.wise.hold('/v1/transfers');
  return f.paypal.hold();
}

/** A signed provider webhook posted to one process. */
async function deliver(to: Served, provider: 'paypal' | 'wise', event: { raw: string; headers: Record<string, string> }) {
  const res = await fetch(`${to.url}/v1/integrations/${provider}/webhook/${programId}`, {
    method: 'POST',
    headers: event.headers,
    body: event.raw,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { duplicate: boolean; applied: boolean } }).data;
}
const paypalEvent = (type: string, itemId: string, status: string) =>
  f.paypal.webhook(type, { ...f.paypal.item(itemId), transaction_status: status });
const wiseEvent = (transferId: number, state: string) => {
  const e = f.wise.stateChange(transferId, state);
  return { raw: e.raw, headers: { 'content-type': 'application/json', 'x-signature-sha256': e.signature } };
};

describe('provider webhooks delivered to two processes at once', () => {
  const PAIRS = 6;

  it('PayPal: the same event to both is applied once; SUCCEEDED and RETURNED at once, in both orders, leave each payout returned', async () => {
    const { payees, run } = await runFor(Array(PAIRS + 1).fill('paypal'), 'Hook');
    for (const address of Object.keys(payees)) f.paypal.outcome.set(address, 'PENDING');
    expect((await call(a.url, 'POST', `/v1/payout_runs/${run}/send`)).status).toBe(200);
    // The run also pays what earlier tests gave back to payable: these are the payees made here.
    const [first, ...rest] = Object.values(await itemsOf(call, a.url, run)).filter((i) => i.address in payees);

    const same = paypalEvent('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', first.id, 'SUCCESS');
    const twice = await Promise.all([deliver(a, 'paypal', same), deliver(b, 'paypal', same)]);
    expect(twice.map((d) => d.duplicate).sort()).toEqual([false, true]);
    expect(twice.map((d) => d.applied).sort()).toEqual([false, true]);

    await Promise.all(
      rest.flatMap((item, n) => {
        const ok = paypalEvent('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', item.id, 'SUCCESS');
        const back = paypalEvent('PAYMENT.PAYOUTS-ITEM.RETURNED', item.id, 'RETURNED');
        const [x, y] = n % 2 === 0 ? [a, b] : [b, a];
        return [deliver(x, 'paypal', ok), deliver(y, 'paypal', back)];
      }),
    );
    const items = await itemsOf(call, a.url, run);
    const events = await outcomes();
    expect(items[first.address]).toMatchObject({ state: 'paid' });
    expect(events.get(first.id)).toEqual(['payout.paid']);
    // RETURNED is final whichever came first: after SUCCEEDED it returns the payout, before it SUCCEEDED changes nothing.
    for (const item of rest) {
      expect(items[item.address], item.address).toMatchObject({ state: 'returned', reason: 'returned' });
      expect([['payout.failed'], ['payout.paid', 'payout.failed']]).toContainEqual(events.get(item.id));
    }
    await expectLedgerAgrees(run);
  });

  it('Wise: the same event to both is applied once; outgoing_payment_sent and bounced_back at once end as one order or the other', async () => {
    const { payees, run } = await runFor(Array(PAIRS + 1).fill('wise'), 'Bank');
    expect((await call(a.url, 'POST', `/v1/payout_runs/${run}/send`)).status).toBe(200);
    // The run also pays what earlier tests gave back to payable: these are the payees made here.
    const [first, ...rest] = Object.values(await itemsOf(call, a.url, run)).filter((i) => i.address in payees);
    expect(rest).toHaveLength(PAIRS);

    const same = wiseEvent(Number(first.provider_item_id), 'outgoing_payment_sent');
    const twice = await Promise.all([deliver(a, 'wise', same), deliver(b, 'wise', same)]);
    expect(twice.map((d) => d.duplicate).sort()).toEqual([false, true]);

    await Promise.all(
      rest.flatMap((item, n) => {
        const sent = wiseEvent(Number(item.provider_item_id), 'outgoing_payment_sent');
        const bounced = wiseEvent(Number(item.provider_item_id), 'bounced_back');
        const [x, y] = n % 2 === 0 ? [a, b] : [b, a];
        return [deliver(x, 'wise', sent), deliver(y, 'wise', bounced)];
      }),
    );
    const items = await itemsOf(call, a.url, run);
    const events = await outcomes();
    expect(items[first.address]).toMatchObject({ state: 'paid' });
    expect(events.get(first.id)).toEqual(['payout.paid']);
    for (const item of rest) {
      // Sent then bounced: paid, then returned. Bounced first: failed, and the late sent moves nothing. Never left paid.
      const after = items[item.address];
      expect(after.reason).toBe('wise: bounced_back');
      expect(events.get(item.id)).toEqual(after.state === 'returned' ? ['payout.paid', 'payout.failed'] : ['payout.failed']);
      expect(['returned', 'failed']).toContain(after.state);
    }
    await expectLedgerAgrees(run);
  });
});
