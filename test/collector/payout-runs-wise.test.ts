// Payout runs paying partners through Wise (docs/payouts.md, "Wise"): a quote in the payout's
// currency, one transfer to the partner's recipient under a customerTransactionId of the item
// and attempt, funded from the program's balance, the fee kept apart; a lost answer resent
// makes no second transfer nor funding; transfers#state-change webhooks, signed with the fake
// Wise's RSA key, mark the payout paid once, or return it; a forged one changes nothing.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chooseWise } from '../../packages/collector/src/modules/payout-methods/service.js';
import { loadConfig } from '../../packages/collector/src/platform/config.js';
import { checkStats, foldStats } from '../../packages/collector/src/modules/stats/service.js';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';
import { startWiseApi, type WiseApi } from './wise-api.js';

const WISE_TOKEN = 'wise-runs-token-4567';
const WISE_PROFILE = 7_300_001;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let wise: WiseApi;
let c: Collector;

beforeAll(async () => {
  wise = await startWiseApi(WISE_TOKEN, WISE_PROFILE);
});
afterAll(() => wise.close());

beforeEach(async () => {
  c = await startCollector({ wiseApiUrl: wise.url, wiseWebhookPublicKey: wise.publicKey });
  const set = await c.call('PATCH', '/v1/program/payout_settings', {
    body: { offered: ['paypal', 'wise'], wise_api_token: WISE_TOKEN, wise_profile_id: WISE_PROFILE, wise_source_currency: 'EUR' },
  });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
});
afterEach(async () => {
  // The kept totals (what is owed, above all) still equal a recount of the records.
  while ((await foldStats(c.running.db)) > 0);
  expect(await checkStats(c.running.db, c.programId)).toEqual([]);
  await c.close();
});

const BANKS = {
  EUR: { country: 'DE', type: 'iban', details: { iban: 'DE89370400440532013000' } },
  JPY: { country: 'JP', type: 'japanese', details: { bankCode: '0001', branchCode: '001', accountNumber: '1234567' } },
} as const;

/** A partner paid through Wise, their recipient made in `currency`; resolves with its Wise id (the payout's address). */
async function wisePartner(name: string, currency: keyof typeof BANKS) {
  const partner = await seedPartner(c, { name });
  const bank = BANKS[currency];
  const input = { ...bank, currency, accountHolderName: `${name} Doe`, details: { ...bank.details } };
  const recipient = await chooseWise(c.running.db, c.programId, partner.partnerId, input, wise.url, c.clock.now);
  return { ...partner, recipient: recipient.id };
}

async function commission(partnerId: string, amount: number, currency: string): Promise<string> {
  return (await c.call('POST', '/v1/commissions', { body: { partner_id: partnerId, amount, currency } })).body.data.id;
}
const stateOf = async (id: string) => (await c.call('GET', `/v1/commissions/${id}`)).body.data.attributes.state;
const owed = async () => (await c.call('GET', '/v1/payouts/owed')).body.data.map((o: any) => [o.name, o.currency, o.amount]);

/** A run made, approved and sent; resolves to its id and the send's answer. */
async function sentRun() {
  const made = await c.call('POST', '/v1/payout_runs');
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = made.body.data.id as string;
  expect((await c.call('POST', `/v1/payout_runs/${id}/approve`)).status).toBe(200);
  return { id, sent: await c.call('POST', `/v1/payout_runs/${id}/send`) };
}
/** The run's items by address (the Wise recipient's id). */
const itemsOf = async (id: string) =>
  Object.fromEntries(
    (await c.call('GET', `/v1/payout_runs/${id}`)).body.included.map((i: any) => [i.attributes.address, { id: i.id, ...i.attributes }]),
  ) as Record<string, any>;
const transfersTo = (recipient: string) => [...wise.transfers.values()].filter((t) => String(t.targetAccount) === recipient);
const transferPosts = (recipient: string) =>
  wise.calls.filter((x) => x.method === 'POST' && x.path === '/v1/transfers' && String(x.body?.targetAccount) === recipient);
const fundings = (transferId: unknown) => wise.payments.filter((p) => p.transferId === Number(transferId));

/** Eva paid 25.00 EUR through Wise by a sent run: her commission, the run and her transfer's Wise id. */
async function evaSent() {
  const eva = await wisePartner('Eva', 'EUR');
  const cid = await commission(eva.partnerId, 2500, 'EUR');
  const { id } = await sentRun();
  return { eva, cid, id, transferId: Number((await itemsOf(id))[eva.recipient].provider_item_id) };
}

/** Posts a signed (or, with `signature`, a forged) Wise webhook to the program's endpoint. */
async function deliver(event: { raw: string; signature: string }, signature = event.signature) {
  const res = await fetch(`${c.url}/v1/integrations/wise/webhook/${c.programId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature-sha256': signature },
    body: event.raw,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe('payout runs through Wise', () => {
  it('pays by a quote, one transfer and its funding; the fee is kept apart and the amount exact, in JPY too', async () => {
    const eva = await wisePartner('Eva', 'EUR');
    const ken = await wisePartner('Ken', 'JPY');
    const evas = [await commission(eva.partnerId, 1234, 'EUR'), await commission(eva.partnerId, 100, 'EUR')];
    await commission(ken.partnerId, 1500, 'JPY');
    // Eva's recipient takes euros: what she earned in yen is not hers to be paid by this recipient.
    await commission(eva.partnerId, 700, 'JPY');

    const { id, sent } = await sentRun();
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const items = await itemsOf(id);
    expect(Object.keys(items).sort()).toEqual([eva.recipient, ken.recipient].sort());
    const [evaTransfer] = transfersTo(eva.recipient);
    const [kenTransfer] = transfersTo(ken.recipient);
    // Wise's fee (0.41 EUR, 62 JPY in the fake's price list) is the program's: recorded apart, not taken from the amount.
    expect(items[eva.recipient]).toMatchObject({
      method: 'wise',
      amount: 1334,
      provider_fee: 41,
      state: 'processing',
      provider_item_id: String(evaTransfer!.id),
    });
    expect(items[ken.recipient]).toMatchObject({ amount: 1500, provider_fee: 62, provider_item_id: String(kenTransfer!.id) });
    expect(evaTransfer).toMatchObject({
      targetCurrency: 'EUR',
      targetValue: 13.34,
      sourceValue: 13.75,
      customerTransactionId: expect.stringMatching(UUID),
    });
    expect(kenTransfer).toMatchObject({ targetCurrency: 'JPY', targetValue: 1500, sourceValue: 1562, status: 'processing' });
    const quoted = wise.calls.filter((x) => x.path === `/v3/profiles/${WISE_PROFILE}/quotes`).map((x) => x.body);
    expect(quoted).toEqual(
      expect.arrayContaining([
        { sourceCurrency: 'EUR', targetCurrency: 'EUR', targetAmount: 13.34, payOut: 'BALANCE' },
        { sourceCurrency: 'JPY', targetCurrency: 'JPY', targetAmount: 1500, payOut: 'BALANCE' },
      ]),
    );
    expect(fundings(evaTransfer!.id)).toEqual([{ transferId: evaTransfer!.id, type: 'BALANCE' }]);
    expect(fundings(kenTransfer!.id)).toHaveLength(1);
    // Sent, not yet paid: Wise tells when the money left.
    for (const cid of evas) expect(await stateOf(cid)).toBe('pending');
    const none = expectError(await c.call('POST', '/v1/payout_runs'), 409, 'conflict');
    expect(none.detail).toContain('Eva (JPY): wise recipient takes EUR, not JPY');

    // Sent again: every Wise payout is funded, so nothing more is asked of Wise.
    const before = wise.calls.length;
    expect((await c.call('POST', `/v1/payout_runs/${id}/send`)).status).toBe(200);
    expect(wise.calls.length).toBe(before);
  });

  it('a lost answer, sent again, makes one transfer under the same customerTransactionId and funds it once', async () => {
    const eva = await wisePartner('Eva', 'EUR');
    const cid = await commission(eva.partnerId, 2500, 'EUR');
    const balance = wise.balances.EUR!;
    wise.lose('/v1/transfers');
    const { id, sent } = await sentRun();
    // Wise made the transfer, but Tally never heard: the payout stays processing, nothing recorded.
    expect(sent.status, JSON.stringify(sent.body)).toBe(503);
    expect((await itemsOf(id))[eva.recipient]).toMatchObject({ state: 'processing', provider_item_id: null });
    expect(transfersTo(eva.recipient)).toHaveLength(1);

    // This time the funding's answer is lost: Wise took the money, Tally did not hear it.
    wise.lose(`/v3/profiles/${WISE_PROFILE}/transfers/`);
    expect((await c.call('POST', `/v1/payout_runs/${id}/send`)).status).toBe(503);
    const [transfer] = transfersTo(eva.recipient);
    expect((await itemsOf(id))[eva.recipient]).toMatchObject({ state: 'processing', provider_item_id: String(transfer!.id) });
    expect(fundings(transfer!.id)).toHaveLength(1);

    // Resumed: Wise shows the transfer funded, so it is not funded again.
    const resumed = await c.call('POST', `/v1/payout_runs/${id}/send`);
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(transfersTo(eva.recipient)).toHaveLength(1);
    expect(fundings(transfer!.id)).toHaveLength(1);
    const ids = transferPosts(eva.recipient).map((p) => p.body?.customerTransactionId);
    expect(ids).toEqual([transfer!.customerTransactionId, transfer!.customerTransactionId]);
    expect(wise.balances.EUR).toBe(balance - 25.41);
    expect(await stateOf(cid)).toBe('pending');
  });

  it('a signed outgoing_payment_sent marks the payout paid once; the same event again and a late earlier state change nothing', async () => {
    const { eva, cid, id, transferId } = await evaSent();
    const paidEvent = wise.stateChange(transferId, 'outgoing_payment_sent');

    expect((await deliver(paidEvent)).body.data).toEqual({ duplicate: false, applied: true });
    expect((await itemsOf(id))[eva.recipient]).toMatchObject({ state: 'paid', reason: null });
    expect(await stateOf(cid)).toBe('paid');
    expect(await owed()).toEqual([]);
    const paidEvents = async () => (await c.call('GET', '/v1/events?type_eq=payout.paid')).body.data.length;
    expect(await paidEvents()).toBe(1);

    expect((await deliver(paidEvent)).body.data).toEqual({ duplicate: true, applied: false });
    // `processing` delivered after the payout was sent: out of order, it moves nothing.
    expect((await deliver(wise.stateChange(transferId, 'processing'))).body.data).toEqual({ duplicate: false, applied: false });
    expect(await paidEvents()).toBe(1);
    expect((await itemsOf(id))[eva.recipient].state).toBe('paid');
  });

  it('a short balance: Wise rejects the funding, the payout fails with its reason, and the retry funds a new transfer', async () => {
    const eva = await wisePartner('Eva', 'EUR');
    const cid = await commission(eva.partnerId, 2500, 'EUR');
    const balance = wise.balances.EUR!;
    wise.balances.EUR = 10;
    const { id, sent } = await sentRun();
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((await itemsOf(id))[eva.recipient]).toMatchObject({ state: 'failed', reason: 'wise: transfer.insufficient_funds' });
    expect(await stateOf(cid)).toBe('pending');
    expect(await owed()).toEqual([['Eva', 'EUR', 2500]]);
    const [first] = transfersTo(eva.recipient);
    expect(fundings(first!.id)).toEqual([]);

    wise.balances.EUR = balance;
    expect((await c.call('POST', `/v1/payout_runs/${id}/retry`)).status).toBe(200);
    const [, second] = transfersTo(eva.recipient);
    expect((await itemsOf(id))[eva.recipient]).toMatchObject({ state: 'processing', reason: null, provider_item_id: String(second!.id) });
    expect(fundings(second!.id)).toHaveLength(1);
    expect(wise.balances.EUR).toBe(balance - 25.41);
    expect(await owed()).toEqual([]);
  });

  it('refresh reads each Wise transfer again: a missed webhook is applied once, and the delivery arriving after it is a no-op', async () => {
    const { eva, cid, id, transferId } = await evaSent();
    // Wise paid it out, and its webhook never reached Tally.
    wise.transfers.get(transferId)!.status = 'outgoing_payment_sent';
    const refreshed = await c.call('POST', `/v1/payout_runs/${id}/refresh`);
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body.data.attributes.items).toEqual({ paid: 1 });
    expect(await stateOf(cid)).toBe('paid');
    expect(wise.calls.filter((x) => x.method === 'GET' && x.path === `/v1/transfers/${transferId}`)).toHaveLength(1);
    expect((await deliver(wise.stateChange(transferId, 'outgoing_payment_sent'))).body.data).toEqual({ duplicate: false, applied: false });
    expect((await c.call('GET', '/v1/events?type_eq=payout.paid')).body.data).toHaveLength(1);
    expect((await itemsOf(id))[eva.recipient].state).toBe('paid');
  });

  it('a webhook without a valid signature is refused and changes nothing', async () => {
    const { eva, cid, id, transferId } = await evaSent();
    const real = wise.stateChange(transferId, 'outgoing_payment_sent');
    const other = wise.stateChange(transferId, 'processing');

    for (const signature of [other.signature, '', 'bm90IGEgc2lnbmF0dXJl']) {
      expectError(await deliver(real, signature), 400, 'invalid_signature');
    }
    // Signed over other bytes: the body as received is what the signature covers.
    const tampered = { raw: real.raw.replace('"processing"', '"incoming_payment_waiting"'), signature: real.signature };
    expect(tampered.raw).not.toBe(real.raw);
    expectError(await deliver(tampered), 400, 'invalid_signature');
    expect((await itemsOf(id))[eva.recipient]).toMatchObject({ state: 'processing' });
    expect(await stateOf(cid)).toBe('pending');
    // The genuine event, afterwards, still applies: nothing was recorded of the forged ones.
    expect((await deliver(real)).body.data).toEqual({ duplicate: false, applied: true });
  });

  it('a bounced transfer returns the payout and its commissions are payable again with the reason; a refund before payment fails it', async () => {
    const eva = await wisePartner('Eva', 'EUR');
    const ken = await wisePartner('Ken', 'JPY');
    const evas = await commission(eva.partnerId, 2500, 'EUR');
    const kens = await commission(ken.partnerId, 1500, 'JPY');
    const { id } = await sentRun();
    let items = await itemsOf(id);
    const evaTransfer = Number(items[eva.recipient].provider_item_id);
    expect((await deliver(wise.stateChange(evaTransfer, 'outgoing_payment_sent'))).body.data.applied).toBe(true);
    expect((await deliver(wise.stateChange(evaTransfer, 'bounced_back'))).body.data.applied).toBe(true);
    // Ken's transfer is refunded before it was paid out: it failed.
    expect((await deliver(wise.stateChange(Number(items[ken.recipient].provider_item_id), 'funds_refunded'))).body.data.applied).toBe(true);

    items = await itemsOf(id);
    expect(items[eva.recipient]).toMatchObject({ state: 'returned', reason: 'wise: bounced_back' });
    expect(items[ken.recipient]).toMatchObject({ state: 'failed', reason: 'wise: funds_refunded' });
    expect(await stateOf(evas)).toBe('pending');
    expect(await stateOf(kens)).toBe('pending');
    expect((await owed()).sort()).toEqual([
      ['Eva', 'EUR', 2500],
      ['Ken', 'JPY', 1500],
    ]);
    // Eva's payout was paid, so invoiced: its credit note cancels the invoice; Ken's was never paid, and has neither.
    const [invoice] = (await c.call('GET', `/v1/invoices?payout_id_eq=${items[eva.recipient].id}`)).body.data;
    const notes = (await c.call('GET', '/v1/credit_notes')).body.data.map((n: any) => n.attributes);
    expect(notes).toEqual([
      expect.objectContaining({
        invoice_id: invoice.id,
        payout_id: items[eva.recipient].id,
        currency: 'EUR',
        amount: -2500,
        cause: 'returned',
      }),
    ]);

    // The failed one retried: a new attempt, so a new customerTransactionId and a new transfer.
    const retried = await c.call('POST', `/v1/payout_runs/${id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    const kenTransfers = transfersTo(ken.recipient);
    expect(kenTransfers).toHaveLength(2);
    expect(kenTransfers[0]!.customerTransactionId).not.toBe(kenTransfers[1]!.customerTransactionId);
    expect((await itemsOf(id))[ken.recipient]).toMatchObject({ state: 'processing', provider_item_id: String(kenTransfers[1]!.id) });
    expect(await owed()).toEqual([['Eva', 'EUR', 2500]]);
  });

  it('WISE_WEBHOOK_PUBLIC_KEY takes a PEM key, on one line with \\n too, and refuses anything else at start', () => {
    expect(loadConfig({ WISE_WEBHOOK_PUBLIC_KEY: wise.publicKey }).wiseWebhookPublicKey).toBe(wise.publicKey);
    const oneLine = wise.publicKey.replace(/\n/g, '\\n');
    expect(oneLine).not.toContain('\n');
    expect(loadConfig({ WISE_WEBHOOK_PUBLIC_KEY: oneLine }).wiseWebhookPublicKey).toBe(wise.publicKey);
    expect(() => loadConfig({ WISE_WEBHOOK_PUBLIC_KEY: 'not a key' })).toThrow(/WISE_WEBHOOK_PUBLIC_KEY/);
  });
});
