// A crash of `tally serve` (kill -9) between a provider doing the work and Tally committing
// its answer, for Wise (its transfer made; its funding taken) and Stripe Connect (its
// transfer made): after a restart, sending again neither pays twice nor loses the payout.
// PayPal's own is in payout-runs.test.ts. The fakes hold the answer until the process is dead.

import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { testDatabase, type TestDatabase } from './database.js';
import type { Held } from './held.js';
import {
  approvedRun,
  type Call,
  caller,
  commission,
  configure,
  type Fakes,
  itemsOf,
  payee,
  serveEnv,
  startFakes,
  WISE_PROFILE,
} from './payout-kit.js';
import { serve, tokensIn, type Served } from './processes.js';

let f: Fakes;
let database: TestDatabase;
let running: Served;
let call: Call;

beforeAll(async () => {
  f = await startFakes();
});
afterAll(() => f.close());

beforeEach(async () => {
  database = await testDatabase();
  running = await serve(serveEnv(database.url, f));
  call = caller(tokensIn(running.output()).secret!);
  await configure(call, running.url);
});
afterEach(async () => {
  if (running.child.exitCode === null) {
    running.child.kill('SIGKILL');
    await running.exited;
  }
  await database.drop();
});

/** Sends the run, and kills the server once the provider has done the held call; then starts it again. */
async function crashWhile(held: Held, run: string): Promise<void> {
  const sending = call(running.url, 'POST', `/v1/payout_runs/${run}/send`).catch(() => 'killed');
  await held.taken;
  running.child.kill('SIGKILL');
  await running.exited;
  expect(await sending).toBe('killed');
  held.release();
  running = await serve(serveEnv(database.url, f));
}

const programId = async () => (await call(running.url, 'GET', '/v1/program')).body.data.id as string;
const stateOf = async (id: string) => (await call(running.url, 'GET', `/v1/commissions/${id}`)).body.data.attributes.state;
const wiseTransfersTo = (recipient: string) => [...f.wise.transfers.values()].filter((t) => String(t.targetAccount) === recipient);
const wisePosts = (recipient: string) =>
  f.wise.calls.filter((x) => x.method === 'POST' && x.path === '/v1/transfers' && String(x.body?.targetAccount) === recipient);

for (const step of ['transfer', 'funding'] as const) {
  it(`Wise: kill -9 after Wise ${step === 'transfer' ? 'made the transfer' : 'took the funding'}, before the commit: sending again makes one transfer, funds it once, loses nothing`, async () => {
    const ida = await payee(call, running.url, database.url, f, 'wise', 'Ida');
    const cid = await commission(call, running.url, ida.partnerId, 3100, 'EUR');
    const run = await approvedRun(call, running.url);
    await crashWhile(f.wise.hold(step === 'transfer' ? '/v1/transfers' : `/v3/profiles/${WISE_PROFILE}/transfers/`), run);
    const [transfer] = wiseTransfersTo(ida.address);
    expect(wiseTransfersTo(ida.address)).toHaveLength(1);
    const before = (await itemsOf(call, running.url, run))[ida.address];
    // Wise's answer never reached the database: the payout is still processing, the transfer unrecorded or unfunded.
    expect(before).toMatchObject({ state: 'processing', provider_item_id: step === 'transfer' ? null : String(transfer!.id) });

    const resumed = await call(running.url, 'POST', `/v1/payout_runs/${run}/send`);
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(wiseTransfersTo(ida.address)).toHaveLength(1);
    expect(f.wise.payments.filter((p) => p.transferId === transfer!.id)).toHaveLength(1);
    const ids = wisePosts(ida.address).map((p) => p.body?.customerTransactionId);
    expect(new Set(ids)).toEqual(new Set([transfer!.customerTransactionId]));
    expect(ids).toHaveLength(step === 'transfer' ? 2 : 1);
    expect((await itemsOf(call, running.url, run))[ida.address]).toMatchObject({
      state: 'processing',
      amount: 3100,
      provider_item_id: String(transfer!.id),
    });
    // Wise pays it out: the payout is paid once, its commission with it.
    const paid = f.wise.stateChange(transfer!.id as number, 'outgoing_payment_sent');
    const hook = await fetch(`${running.url}/v1/integrations/wise/webhook/${await programId()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature-sha256': paid.signature },
      body: paid.raw,
    });
    expect(await hook.json()).toMatchObject({ data: { applied: true } });
    expect(await stateOf(cid)).toBe('paid');
    expect((await call(running.url, 'GET', '/v1/events?type_eq=payout.paid')).body.data).toHaveLength(1);
  });
}

it('Stripe Connect: kill -9 after Stripe made the transfer, before the commit: the retry under the same Idempotency-Key pays once', async () => {
  const jo = await payee(call, running.url, database.url, f, 'stripe_connect', 'Jo');
  const cid = await commission(call, running.url, jo.partnerId, 2700, 'USD');
  const run = await approvedRun(call, running.url);
  await crashWhile(f.stripe.hold('/v1/transfers'), run);
  const transfers = () => [...f.stripe.transfers.values()].filter((t) => t.destination === jo.address);
  expect(transfers()).toHaveLength(1);
  const item = (await itemsOf(call, running.url, run))[jo.address];
  expect(item).toMatchObject({ state: 'processing', provider_item_id: null });
  expect(await stateOf(cid)).toBe('pending');

  const resumed = await call(running.url, 'POST', `/v1/payout_runs/${run}/send`);
  expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
  expect(transfers()).toHaveLength(1);
  expect((await itemsOf(call, running.url, run))[jo.address]).toMatchObject({
    state: 'paid',
    amount: 2700,
    provider_item_id: transfers()[0]!.id,
  });
  const keys = f.stripe.calls.filter((x) => x.path === '/v1/transfers' && x.form.destination === jo.address).map((x) => x.key);
  expect(keys).toEqual([`tally-transfer-${item.id}-1`, `tally-transfer-${item.id}-1`]);
  expect(await stateOf(cid)).toBe('paid');
  expect((await call(running.url, 'GET', '/v1/events?type_eq=payout.paid')).body.data).toHaveLength(1);
});
