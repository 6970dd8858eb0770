// Self-billing invoices (docs/payouts.md#invoices): one per partner of a paid payout batch,
// numbered per program without gaps, their PDF's text read back with unpdf, downloadable by
// the owner and the partner only, and numbered right when two batches are paid at once; a
// returned payout's credit note, numbered on its own, naming the invoice it corrects.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractText } from 'unpdf';
import { payBatch } from '../../packages/collector/src/flows/payout-run.js';
import { openDatabase } from '../../packages/collector/src/platform/db/open.js';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';
import { ownerSession } from './session.js';
import { CLIENT, FakePaypal, WEBHOOK_ID } from './paypal-api.js';

let c: Collector;
let paypal: FakePaypal;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tally-invoice-paypal-'));
  paypal = new FakePaypal(dir);
  await paypal.start();
});
afterAll(async () => {
  await paypal.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  c = await startCollector({ paypalApiUrl: paypal.url });
});
afterEach(() => c.close());

async function commission(partnerId: string, amount: number, currency: string, token?: string) {
  const made = await c.call('POST', '/v1/commissions', { token, body: { partner_id: partnerId, amount, currency } });
  expect(made.status).toBe(201);
  return made.body.data.id as string;
}

/** Exports what is owed, one batch per currency; resolves to the batches' ids by currency. */
async function exportBatches(token?: string): Promise<Record<string, string>> {
  const made = await c.call('POST', '/v1/payout_batches', { token, body: {} });
  expect(made.status).toBe(201);
  return Object.fromEntries(made.body.data.map((b: any) => [b.attributes.currency, b.id]));
}

const markPaid = async (id: string, token?: string) =>
  expect((await c.call('POST', `/v1/payout_batches/${id}/paid`, { token })).status).toBe(200);

/** A PDF download: the harness's call reads answers as text, which would mangle the bytes. */
async function download(path: string, headers: Record<string, string> = { authorization: `Bearer ${c.secret}` }) {
  const res = await fetch(c.url + path, { headers });
  return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  // unpdf takes the buffer over: give it a copy, so the caller's bytes stay comparable.
  const { text } = await extractText(bytes.slice(), { mergePages: true });
  return text;
}

async function invoices(query = '', token?: string) {
  const list = await c.call('GET', `/v1/invoices${query}`, { token });
  expect(list.status).toBe(200);
  return list.body.data as any[];
}

/** A partner of the program with a portal account, applying on its public page (slug `invoices`, auto-accepted). */
async function partner(n: number) {
  const reply = await c.call('POST', '/v1/public/programs/invoices/applications', {
    token: null,
    body: {
      name: `Portal ${n}`,
      email: `portal${n}@partners.test`,
      password: 'a long partner password',
      paypal_email: `p${n}@pay.test`,
    },
  });
  expect(reply.status).toBe(201);
  const cookie = reply.headers
    .getSetCookie()
    .find((x) => x.startsWith('tally_partner='))!
    .split(';')[0]!;
  const headers = { cookie, origin: c.url };
  const [partnership] = (await c.call('GET', '/v1/portal/partnerships', { token: null, headers })).body.data;
  const [record] = (await c.call('GET', `/v1/partners?email_eq=portal${n}@partners.test`)).body.data;
  return { headers, partnershipId: partnership.id as string, partnerId: record.id as string };
}

describe('invoices of paid payouts', () => {
  it('issues one invoice per partner of a paid batch, numbered 1, 2, … across batches, with both parties and the commissions', async () => {
    await c.call('PATCH', '/v1/program', {
      body: { billing_name: 'Acme Widgets GmbH', billing_address: 'Hauptstrasse 1\n10115 Berlin\nGermany', billing_vat_id: 'DE123456789' },
    });
    const alice = await seedPartner(c, { name: 'Alice', paypal_email: 'alice@pay.test' });
    const bob = await seedPartner(c, { name: 'Bob', paypal_email: 'bob@pay.test' });
    const set = await c.call('PATCH', `/v1/partners/${alice.partnerId}`, {
      body: { billing_name: 'Alice Martin EURL', billing_address: '3 rue de la Paix\n75002 Paris', billing_vat_id: 'FR40303265045' },
    });
    expect(set.body.data.attributes).toMatchObject({ billing_name: 'Alice Martin EURL', billing_vat_id: 'FR40303265045' });
    const aliceUsd = [await commission(alice.partnerId, 1234, 'USD'), await commission(alice.partnerId, 66, 'USD')];
    await commission(bob.partnerId, 100, 'USD');
    await commission(bob.partnerId, 1500, 'JPY');

    const first = await exportBatches();
    // Exported is not paid: no invoice yet.
    expect(await invoices()).toEqual([]);
    c.clock.now += 86_400;
    await markPaid(first.USD!);
    const usd = (await invoices()).reverse();
    expect(usd.map((i) => [i.attributes.number, i.attributes.partner_id, i.attributes.amount])).toEqual(
      [
        [alice.partnerId, 1300],
        [bob.partnerId, 100],
      ]
        .sort(([a], [b]) => (a! < b! ? -1 : 1))
        .map(([p, amount], n) => [n + 1, p, amount]),
    );
    const year = new Date(c.clock.now * 1000).getUTCFullYear();
    const aliceInvoice = usd.find((i) => i.attributes.partner_id === alice.partnerId)!;
    expect(aliceInvoice.attributes).toMatchObject({
      label: `INV-${year}-00000${aliceInvoice.attributes.number}`,
      payout_id: first.USD,
      currency: 'USD',
      paid_at: c.clock.now,
      supplier: { name: 'Alice Martin EURL', address: '3 rue de la Paix\n75002 Paris', vat_id: 'FR40303265045' },
      customer: { name: 'Acme Widgets GmbH', vat_id: 'DE123456789' },
    });
    expect(aliceInvoice.attributes.lines.map((l: any) => [l.commission_id, l.amount])).toEqual([
      [aliceUsd[0], 1234],
      [aliceUsd[1], 66],
    ]);

    const pdf = await download(`/v1/invoices/${aliceInvoice.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    const text = await pdfText(pdf.bytes);
    for (const words of [
      'Self-billing invoice',
      aliceInvoice.attributes.label,
      'Alice Martin EURL',
      '3 rue de la Paix',
      'VAT ID: FR40303265045',
      'Acme Widgets GmbH',
      '10115 Berlin',
      'VAT ID: DE123456789',
      '12.34 USD',
      '0.66 USD',
      '13.00 USD',
    ]) {
      expect(text).toContain(words);
    }
    // The same invoice is the same bytes, also after the partner's address changed.
    await c.call('PATCH', `/v1/partners/${alice.partnerId}`, { body: { billing_address: 'Elsewhere' } });
    c.clock.now += 3600;
    expect((await download(`/v1/invoices/${aliceInvoice.id}/pdf`)).bytes).toEqual(pdf.bytes);

    // The next batch counts on: Bob's yen, in its own exponent, is number 3.
    await markPaid(first.JPY!);
    const [jpy] = await invoices(`?payout_id_eq=${first.JPY}`);
    expect(jpy.attributes).toMatchObject({ number: 3, partner_id: bob.partnerId, amount: 1500, currency: 'JPY' });
    expect(jpy.attributes.supplier).toEqual({ name: 'Bob', address: null, vat_id: null });
    const jpyText = await pdfText((await download(`/v1/invoices/${jpy.id}/pdf`)).bytes);
    expect(jpyText).toContain('1500 JPY');
    expect(jpyText).toContain(`INV-${year}-000003`);
    expect((await invoices(`?partner_id_eq=${bob.partnerId}`)).map((i) => i.attributes.number).sort()).toEqual(
      [jpy.attributes.number, usd.find((i) => i.attributes.partner_id === bob.partnerId)!.attributes.number].sort(),
    );
  });

  it('a payout run paid through PayPal gives the partner one numbered invoice, its PDF showing the amount', async () => {
    const set = await c.call('PATCH', '/v1/integrations/paypal', {
      body: { client_id: CLIENT.id, client_secret: CLIENT.secret, webhook_id: WEBHOOK_ID },
    });
    expect(set.status).toBe(200);
    const alice = await seedPartner(c, { name: 'Alice', paypal_email: 'alice-run@pay.test' });
    await commission(alice.partnerId, 4321, 'USD');
    await commission(alice.partnerId, 679, 'USD');
    const run = (await c.call('POST', '/v1/payout_runs')).body.data.id;
    expect((await c.call('POST', `/v1/payout_runs/${run}/approve`)).status).toBe(200);
    const sent = await c.call('POST', `/v1/payout_runs/${run}/send`);
    expect(sent.body.data.attributes.items).toEqual({ paid: 1 });
    const [item] = sent.body.included;
    // Sending again, and PayPal's read of the batch, issue nothing more.
    await c.call('POST', `/v1/payout_runs/${run}/send`);
    await c.call('POST', `/v1/payout_runs/${run}/refresh`);
    const mine = await invoices(`?partner_id_eq=${alice.partnerId}`);
    expect(mine.map((i) => [i.attributes.number, i.attributes.payout_id, i.attributes.amount, i.attributes.currency])).toEqual([
      [1, item.id, 5000, 'USD'],
    ]);
    const year = new Date(c.clock.now * 1000).getUTCFullYear();
    const text = await pdfText((await download(`/v1/invoices/${mine[0].id}/pdf`)).bytes);
    for (const words of [`INV-${year}-000001`, 'Alice', '43.21 USD', '6.79 USD', '50.00 USD']) expect(text).toContain(words);
  });

  it('a cancelled batch issues nothing and takes no number', async () => {
    const alice = await seedPartner(c, { name: 'Alice', paypal_email: 'alice@pay.test' });
    await commission(alice.partnerId, 500, 'EUR');
    const { EUR } = await exportBatches();
    expect((await c.call('POST', `/v1/payout_batches/${EUR}/cancel`)).status).toBeLessThan(300);
    const { EUR: again } = await exportBatches();
    await markPaid(again!);
    expect((await invoices()).map((i) => i.attributes.number)).toEqual([1]);
  });

  it("answers 404 for another program's invoice, and a partner sees only their own in the portal", async () => {
    const alice = await seedPartner(c, { name: 'Alice', paypal_email: 'alice@pay.test' });
    await commission(alice.partnerId, 700, 'USD');
    await markPaid((await exportBatches()).USD!);
    const [mine] = await invoices();

    const other = await c.otherProgram();
    expect(await invoices('', other.secret)).toEqual([]);
    expectError(await c.call('GET', `/v1/invoices/${mine.id}`, { token: other.secret }), 404, 'not_found');
    expect((await download(`/v1/invoices/${mine.id}/pdf`, { authorization: `Bearer ${other.secret}` })).status).toBe(404);

    await c.call('PATCH', '/v1/program', { body: { slug: 'invoices', page_enabled: true, auto_accept: true } });
    const one = await partner(1);
    const two = await partner(2);
    // A partner gives their own billing details in the portal; their invoices print them.
    const account = await c.call('PATCH', '/v1/portal/account', {
      token: null,
      headers: one.headers,
      body: { billing_name: 'Portal One Ltd', billing_address: '1 High Street\nLondon', billing_vat_id: 'GB123456789' },
    });
    expect(account.body.data.attributes).toMatchObject({ billing_name: 'Portal One Ltd', billing_vat_id: 'GB123456789' });
    await commission(one.partnerId, 900, 'USD');
    await commission(two.partnerId, 800, 'USD');
    await markPaid((await exportBatches()).USD!);
    const mineIn = async (p: Awaited<ReturnType<typeof partner>>) => {
      const list = await c.call('GET', `/v1/portal/partnerships/${p.partnershipId}/invoices`, { token: null, headers: p.headers });
      expect(list.status).toBe(200);
      return list.body.data as any[];
    };
    const [oneInvoice] = await mineIn(one);
    expect(oneInvoice.attributes).toMatchObject({
      partner_id: one.partnerId,
      amount: 900,
      supplier: { name: 'Portal One Ltd', address: '1 High Street\nLondon', vat_id: 'GB123456789' },
    });
    expect((await mineIn(two)).map((i) => i.attributes.partner_id)).toEqual([two.partnerId]);

    const pdfOf = (p: Awaited<ReturnType<typeof partner>>, id: string) =>
      download(`/v1/portal/partnerships/${p.partnershipId}/invoices/${id}/pdf`, p.headers);
    const got = await pdfOf(one, oneInvoice.id);
    expect(got.status).toBe(200);
    expect(got.type).toBe('application/pdf');
    expect(await pdfText(got.bytes)).toContain('VAT ID: GB123456789');
    // The owner's dashboard downloads the same bytes with its session.
    const owner = await ownerSession(c);
    const dashboard = await download(`/v1/invoices/${oneInvoice.id}/pdf`, { cookie: owner.cookie, origin: c.url });
    expect(dashboard.status).toBe(200);
    expect(dashboard.bytes).toEqual(got.bytes);
    // Partner two cannot fetch one's invoice, nor Alice's, through their own partnership or one's.
    expect((await pdfOf(two, oneInvoice.id)).status).toBe(404);
    expect((await pdfOf(two, mine.id)).status).toBe(404);
    expect((await download(`/v1/portal/partnerships/${one.partnershipId}/invoices/${oneInvoice.id}/pdf`, two.headers)).status).toBe(404);
  });

  it('numbers two batches paid at once by two database handles without a gap or a twin', async () => {
    const partners = [];
    for (let n = 0; n < 3; n++) partners.push(await seedPartner(c, { paypal_email: `p${n}@pay.test` }));
    for (const p of partners) {
      await commission(p.partnerId, 1000, 'USD');
      await commission(p.partnerId, 2000, 'EUR');
    }
    const { USD, EUR } = await exportBatches();
    // Two handles, each with its own connections: on PostgreSQL two transactions at once, as two processes make.
    const [a, b] = [await openDatabase(c.databaseUrl), await openDatabase(c.databaseUrl)];
    try {
      await Promise.all([payBatch(a, c.programId, USD!, c.clock.now), payBatch(b, c.programId, EUR!, c.clock.now)]);
    } finally {
      await a.close();
      await b.close();
    }
    const all = await invoices();
    expect(all.map((i) => i.attributes.number).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
    // Each batch's numbers are consecutive: one transaction took them all.
    for (const batch of [USD, EUR]) {
      const numbers = all.filter((i) => i.attributes.payout_id === batch).map((i) => i.attributes.number as number);
      expect(Math.max(...numbers) - Math.min(...numbers)).toBe(2);
    }
  });

  it('a paid payout returned gets a credit note cancelling its invoice, numbered CN- on its own without gaps; the invoice never changes', async () => {
    const set = await c.call('PATCH', '/v1/integrations/paypal', {
      body: { client_id: CLIENT.id, client_secret: CLIENT.secret, webhook_id: WEBHOOK_ID },
    });
    expect(set.status).toBe(200);
    await c.call('PATCH', '/v1/program', { body: { slug: 'invoices', page_enabled: true, auto_accept: true } });
    const one = await partner(1);
    const two = await partner(2);
    await commission(one.partnerId, 4321, 'USD');
    await commission(one.partnerId, 679, 'USD');
    await commission(two.partnerId, 800, 'USD');
    const run = (await c.call('POST', '/v1/payout_runs')).body.data.id;
    expect((await c.call('POST', `/v1/payout_runs/${run}/approve`)).status).toBe(200);
    const sent = await c.call('POST', `/v1/payout_runs/${run}/send`);
    expect(sent.body.data.attributes.items).toEqual({ paid: 2 });
    const itemOf = (p: { partnerId: string }) => sent.body.included.find((i: any) => i.attributes.partner_id === p.partnerId);
    const before = await invoices();
    expect(before).toHaveLength(2);
    const invoiceOf = (p: { partnerId: string }) => before.find((i) => i.attributes.partner_id === p.partnerId);

    // PayPal returns each payout after it was paid, one's twice.
    const returnIt = async (p: { partnerId: string }, eventId: string) => {
      const item = { ...paypal.item(itemOf(p).id), transaction_status: 'RETURNED' };
      const hook = paypal.webhook('PAYMENT.PAYOUTS-ITEM.RETURNED', item, { eventId });
      const path = `/v1/integrations/paypal/webhook/${c.programId}`;
      expect((await c.call('POST', path, { token: null, raw: hook.raw, headers: hook.headers })).status).toBe(200);
    };
    await returnIt(one, 'WH-CN-1');
    await returnIt(one, 'WH-CN-1');
    await returnIt(two, 'WH-CN-2');
    const notes = (await c.call('GET', '/v1/credit_notes')).body.data as any[];
    const year = new Date(c.clock.now * 1000).getUTCFullYear();
    const summary = notes
      .map((n) => [n.attributes.label, n.attributes.partner_id, n.attributes.invoice_id, n.attributes.amount])
      .sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(summary).toEqual([
      [`CN-${year}-000001`, one.partnerId, invoiceOf(one).id, -5000],
      [`CN-${year}-000002`, two.partnerId, invoiceOf(two).id, -800],
    ]);
    // The invoices say what they said.
    expect(await invoices()).toEqual(before);
    // Only the invoice's own lines, taken back.
    const oneNote = notes.find((n) => n.attributes.partner_id === one.partnerId);
    expect(oneNote.attributes.lines.map((l: any) => l.amount).sort()).toEqual([-4321, -679].sort());
    expect((await c.call('GET', `/v1/credit_notes?invoice_id_eq=${invoiceOf(two).id}`)).body.data).toHaveLength(1);

    const text = await pdfText((await download(`/v1/credit_notes/${oneNote.id}/pdf`)).bytes);
    for (const words of [
      'Self-billing credit note',
      `Credit note number: CN-${year}-000001`,
      `Corrects invoice: ${invoiceOf(one).attributes.label}`,
      `Payout: ${itemOf(one).id}`,
      'Portal 1',
      '-43.21 USD',
      '-6.79 USD',
      '-50.00 USD',
    ])
      expect(text).toContain(words);

    // The partner lists and downloads their own; the other partner and another program get 404.
    const path = (p: typeof one, id: string) => `/v1/portal/partnerships/${p.partnershipId}/credit_notes/${id}/pdf`;
    const list = await c.call('GET', `/v1/portal/partnerships/${one.partnershipId}/credit_notes`, { token: null, headers: one.headers });
    expect(list.body.data.map((n: any) => n.id)).toEqual([oneNote.id]);
    const mine = await download(path(one, oneNote.id), one.headers);
    expect(mine.status).toBe(200);
    expect(mine.bytes).toEqual((await download(`/v1/credit_notes/${oneNote.id}/pdf`)).bytes);
    expect((await download(path(two, oneNote.id), two.headers)).status).toBe(404);
    const other = await c.otherProgram();
    expectError(await c.call('GET', `/v1/credit_notes/${oneNote.id}`, { token: other.secret }), 404, 'not_found');
  });
});
