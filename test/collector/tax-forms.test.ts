// Tax forms (docs/payouts.md#tax-forms): a partner gives a W-9 or a W-8 in the portal, its
// TIN sealed at rest and shown masked; a W-8 expires; a program that requires a form skips
// partners without a valid one; the 1099-NEC export is checked against a recount.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyring } from '../../packages/collector/src/platform/keyring.js';
import { parseCsv } from '../../packages/collector/src/platform/csv.js';
import { resealTaxForms, revealTin } from '../../packages/collector/src/modules/tax-forms/service.js';
import type { TaxFormRow } from '../../packages/collector/src/modules/tax-forms/model.js';
import { tally } from './processes.js';
import { expectError, startCollector, T0, type CallOptions, type Collector, type Reply } from './harness.js';
import { CLIENT, FakePaypal, WEBHOOK_ID } from './paypal-api.js';

const KEY = randomBytes(32).toString('base64');
const keys = keyring(KEY);

let c: Collector;
let paypal: FakePaypal;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tally-tax-paypal-'));
  paypal = new FakePaypal(dir);
  await paypal.start();
  c = await startCollector({ taxFormKeys: keys, paypalApiUrl: paypal.url });
});
afterAll(async () => {
  await c.close();
  await paypal.close();
  rmSync(dir, { recursive: true, force: true });
});

type Call = (method: string, path: string, opts?: CallOptions) => Promise<Reply>;

const asPartner =
  (col: Collector, cookie: string): Call =>
  (method, path, opts = {}) =>
    col.call(method, path, { ...opts, token: null, headers: { cookie, origin: col.url, ...opts.headers } });

let n = 0;

/** A program of its own whose page accepts applications at once. */
async function program(col: Collector = c) {
  const p = await col.otherProgram();
  const slug = `tax-${++n}`;
  const set = await col.call('PATCH', '/v1/program', { token: p.secret, body: { slug, page_enabled: true, auto_accept: true } });
  expect(set.status).toBe(200);
  return { ...p, slug };
}

/** A partner of the program signed in to the portal, with their partnership's and partner's ids. */
async function partnerOf(p: { slug: string; secret: string }, col: Collector = c) {
  const k = ++n;
  const applied = await col.call('POST', `/v1/public/programs/${p.slug}/applications`, {
    token: null,
    body: {
      name: `Payee ${k}`,
      email: `payee${k}@partners.test`,
      password: 'a long partner password',
      paypal_email: `pay${k}@partners.test`,
    },
  });
  expect(applied.status).toBe(201);
  const cookie = applied.headers
    .getSetCookie()
    .find((x) => x.startsWith('tally_partner='))!
    .split(';')[0]!;
  const call = asPartner(col, cookie);
  const [ship] = (await call('GET', '/v1/portal/partnerships')).body.data;
  const [partner] = (await col.call('GET', `/v1/partners?email_eq=payee${k}@partners.test`, { token: p.secret })).body.data;
  return { call, partnershipId: ship.id as string, partnerId: partner.id as string };
}

const address = { line1: '1 Main St', line2: 'Apt 2', city: 'Springfield', region: 'IL', postal_code: '62701', country: 'US' };
const w9 = (over: Record<string, unknown> = {}) => ({
  kind: 'w9',
  name: 'Jane Doe',
  business_name: 'Doe Media LLC',
  tax_classification: 'individual',
  address,
  tin: '123-45-6789',
  signature: 'Jane Doe',
  ...over,
});
const w8ben = (over: Record<string, unknown> = {}) => ({
  kind: 'w8ben',
  name: 'Hans Muster',
  country: 'DE',
  address: { line1: 'Hauptstr. 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
  tin: 'DE 12345678901',
  date_of_birth: '1980-05-17',
  signature: 'Hans Muster',
  ...over,
});
const w8bene = {
  kind: 'w8bene',
  name: 'Muster GmbH',
  country: 'DE',
  address: w8ben().address,
  tin: 'DE999888777',
  signature: 'Hans Muster',
};

const formPath = (id: string) => `/v1/portal/partnerships/${id}/tax_form`;

const rawForms = (programId: string) =>
  c.running.db.all<TaxFormRow>('SELECT * FROM tax_forms WHERE program_id = ? ORDER BY signed_at, id', [programId]);

describe('giving a form', () => {
  it('records a W-9, a W-8BEN and a W-8BEN-E with their signature, the TIN masked', async () => {
    const p = await program();
    const a = await partnerOf(p);
    expect((await a.call('GET', formPath(a.partnershipId))).body.data.attributes).toEqual({ status: 'missing', form: null });

    const given = await a.call('POST', formPath(a.partnershipId), { body: w9() });
    expect(given.status).toBe(201);
    const form = given.body.data.attributes.form;
    expect(given.body.data.attributes.status).toBe('valid');
    expect(form).toMatchObject({
      kind: 'w9',
      name: 'Jane Doe',
      business_name: 'Doe Media LLC',
      tax_classification: 'individual',
      address,
      tin: '•••••6789',
      expires_at: null,
    });
    expect(form.signature).toEqual({ name: 'Jane Doe', ip: expect.stringMatching(/127\.0\.0\.1$/), signed_at: c.clock.now });
    expect(JSON.stringify(given.body)).not.toContain('12345');

    const b = await partnerOf(p);
    const ben = await b.call('POST', formPath(b.partnershipId), { body: w8ben() });
    expect(ben.status).toBe(201);
    expect(ben.body.data.attributes.form).toMatchObject({ kind: 'w8ben', country: 'DE', date_of_birth: '1980-05-17', tin: '•••••8901' });
    const e = await partnerOf(p);
    const bene = await e.call('POST', formPath(e.partnershipId), { body: w8bene });
    expect(bene.status).toBe(201);
    expect(bene.body.data.attributes.form).toMatchObject({ kind: 'w8bene', name: 'Muster GmbH', tin: '•••••8777' });

    // The latest form counts.
    await a.call('POST', formPath(a.partnershipId), { body: w9({ tin: '98-7654321', tax_classification: 'llc_s' }) });
    expect((await a.call('GET', formPath(a.partnershipId))).body.data.attributes.form).toMatchObject({
      tin: '•••••4321',
      tax_classification: 'llc_s',
    });

    // The owner sees every partner's status, TINs masked.
    const list = await c.call('GET', '/v1/tax_forms', { token: p.secret });
    expect(list.status).toBe(200);
    const byPartner = Object.fromEntries(list.body.data.map((s: any) => [s.id, s.attributes]));
    expect(byPartner[a.partnerId].form.tin).toBe('•••••4321');
    expect(byPartner[b.partnerId].status).toBe('valid');
    expect(JSON.stringify(list.body)).not.toMatch(/987654321|12345678901|999888777/);
    const one = await c.call('GET', `/v1/partners/${e.partnerId}/tax_form`, { token: p.secret });
    expect(one.body.data.attributes.form.kind).toBe('w8bene');
    expectError(await c.call('GET', `/v1/partners/${e.partnerId}/tax_form`), 404, 'not_found');
  });

  it('refuses a malformed form in the one error shape, never repeating the TIN', async () => {
    const p = await program();
    const a = await partnerOf(p);
    const post = (body: unknown) => a.call('POST', formPath(a.partnershipId), { body });
    const badTin = await post(w9({ tin: '98-765' }));
    expect(expectError(badTin, 422, 'invalid_field').source).toEqual({ pointer: '/tin' });
    expect(JSON.stringify(badTin.body)).not.toContain('98-765');
    expect(expectError(await post(w8ben({ country: 'US' })), 422, 'invalid_field').detail).toContain('W-9');
    expect(expectError(await post(w8ben({ date_of_birth: '1980-13-40' })), 422, 'invalid_field').source).toEqual({
      pointer: '/date_of_birth',
    });
    expect(expectError(await post({ ...w9(), kind: 'w4' }), 422, 'invalid_field').detail).toContain('w9, w8ben, w8bene');
    expect(expectError(await post(w9({ signature: ' ' })), 422, 'invalid_field').source).toEqual({ pointer: '/signature' });
    const { tax_classification: _, ...noClass } = w9();
    expectError(await post(noClass), 422, 'missing_field');
    expectError(await post(w9({ address: { ...address, country: 'usa' } })), 422, 'invalid_field');
    expectError(await post(w9({ paypal: 'x' })), 422, 'unknown_field');
    expect(await rawForms(p.id)).toEqual([]);
  });

  it("gives a second partner a 404 for the first one's form, reading or writing", async () => {
    const p = await program();
    const a = await partnerOf(p);
    const b = await partnerOf(p);
    await a.call('POST', formPath(a.partnershipId), { body: w9() });
    expectError(await b.call('GET', formPath(a.partnershipId)), 404, 'not_found');
    expectError(await b.call('POST', formPath(a.partnershipId), { body: w9() }), 404, 'not_found');
    expect((await b.call('GET', formPath(b.partnershipId))).body.data.attributes.status).toBe('missing');
    expect((await rawForms(p.id)).map((f) => f.partner_id)).toEqual([a.partnerId]);
  });

  it('refuses forms on a server without TAX_FORM_KEY, saying so', async () => {
    const bare = await startCollector();
    try {
      const p = await program(bare);
      const a = await partnerOf(p, bare);
      const refused = expectError(await a.call('POST', formPath(a.partnershipId), { body: w9() }), 503, 'unavailable');
      expect(refused.detail).toContain('TAX_FORM_KEY');
      const csv = await bare.call('GET', '/v1/tax_forms/1099_nec?year=2025', { token: p.secret });
      expect(expectError(csv, 503, 'unavailable').detail).toContain('TAX_FORM_KEY');
    } finally {
      await bare.close();
    }
  });
});

describe('at rest', () => {
  it('keeps no TIN in the row: only its ciphertext, the key id and the last four', async () => {
    const p = await program();
    const a = await partnerOf(p);
    await a.call('POST', formPath(a.partnershipId), { body: w9() });
    const [row] = await rawForms(p.id);
    expect(JSON.stringify(row)).not.toMatch(/123-?45-?6789|12345/);
    expect(row).toMatchObject({ tin_key_id: keys.currentId, tin_last4: '6789' });
    expect(revealTin(keys, row!)).toBe('123456789');
    // Bound to its row: the same ciphertext on another form's id does not open.
    expect(() => revealTin(keys, { ...row!, id: 'another' })).toThrow();
    expect(() => revealTin(keyring(randomBytes(32).toString('base64')), row!)).toThrow(/no configured key/);
  });

  it('re-encrypts with a new key (tally tax-forms reseal) while the old one still opens, then without the old one', async () => {
    const p = await program();
    const a = await partnerOf(p);
    await a.call('POST', formPath(a.partnershipId), { body: w8ben() });
    const NEW = randomBytes(32).toString('base64');
    const rotated = keyring(NEW, [KEY]);
    const [before] = await rawForms(p.id);
    expect(revealTin(rotated, before!)).toBe('DE 12345678901');
    const env = { DATABASE_URL: c.databaseUrl, TAX_FORM_KEY: NEW, TAX_FORM_OLD_KEYS: `${KEY},` };
    const run = await tally(['tax-forms', 'reseal'], env);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(new RegExp(`^Re-encrypted [1-9]\\d* tax form\\(s\\) with key ${rotated.currentId}`));
    const [after] = await rawForms(p.id);
    expect(after!.tin_key_id).toBe(rotated.currentId);
    expect(revealTin(keyring(NEW), after!)).toBe('DE 12345678901');
    expect((await tally(['tax-forms', 'reseal'], env)).stdout).toMatch(/^Re-encrypted 0 /);
    const bad = await tally(['tax-forms', 'reseal'], { ...env, TAX_FORM_KEY: 'c2hvcnQ=' });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('TAX_FORM_KEY: must be 32 bytes in base64');
    // Put back under the test's key, for the tests after this one.
    await resealTaxForms(c.running.db, keyring(KEY, [NEW]));
  });
});

describe('validity', () => {
  it('ends a W-8 at the end of the third calendar year after signing; a W-9 stays valid', async () => {
    const p = await program();
    const a = await partnerOf(p);
    const b = await partnerOf(p);
    c.clock.now = T0; // 2025-03-01
    await a.call('POST', formPath(a.partnershipId), { body: w8ben() });
    await b.call('POST', formPath(b.partnershipId), { body: w9() });
    const endOf2028 = Date.UTC(2029, 0, 1) / 1000;
    // The owner's view: the partners' portal sessions end long before 2029.
    const status = async (x: typeof a) =>
      (await c.call('GET', `/v1/partners/${x.partnerId}/tax_form`, { token: p.secret })).body.data.attributes;
    try {
      expect((await status(a)).form.expires_at).toBe(endOf2028);
      c.clock.now = endOf2028 - 1;
      expect((await status(a)).status).toBe('valid');
      c.clock.now = endOf2028;
      expect((await status(a)).status).toBe('expired');
      expect((await status(b)).status).toBe('valid');
      const list = await c.call('GET', '/v1/tax_forms', { token: p.secret });
      expect(list.body.data.find((s: any) => s.id === a.partnerId).attributes.status).toBe('expired');
    } finally {
      c.clock.now = T0;
    }
  });
});

/** Pays `amount` USD (or `currency`) to each partner through one batch marked paid at the clock's time. */
async function payBatch(p: { secret: string }, paid: ReadonlyArray<{ partnerId: string; amount: number }>, currency = 'USD') {
  for (const x of paid) {
    const made = await c.call('POST', '/v1/commissions', {
      token: p.secret,
      body: { partner_id: x.partnerId, amount: x.amount, currency },
    });
    expect(made.status).toBe(201);
  }
  const batch = await c.call('POST', '/v1/payout_batches', { token: p.secret, body: { currency } });
  expect(batch.status).toBe(201);
  const id = batch.body.data[0].id;
  expect((await c.call('POST', `/v1/payout_batches/${id}/paid`, { token: p.secret })).status).toBe(200);
  return batch.body.meta.skipped;
}

describe('required before paying', () => {
  it('skips partners without a valid form in the export, with the reason, once the program requires one', async () => {
    const p = await program();
    const none = await partnerOf(p);
    const expired = await partnerOf(p);
    const valid = await partnerOf(p);
    c.clock.now = T0;
    await expired.call('POST', formPath(expired.partnershipId), { body: w8ben() });
    await valid.call('POST', formPath(valid.partnershipId), { body: w9() });
    c.clock.now = Date.UTC(2029, 0, 2) / 1000;
    try {
      expect((await c.call('GET', '/v1/tax_forms/settings', { token: p.secret })).body.data.tax_form_required).toBe(false);
      const set = await c.call('PATCH', '/v1/tax_forms/settings', { token: p.secret, body: { tax_form_required: true } });
      expect(set.body.data.tax_form_required).toBe(true);
      for (const x of [none, expired, valid]) {
        await c.call('POST', '/v1/commissions', { token: p.secret, body: { partner_id: x.partnerId, amount: 1000, currency: 'USD' } });
      }
      const owed = await c.call('GET', '/v1/payouts/owed', { token: p.secret });
      const due = Object.fromEntries(owed.body.data.map((o: any) => [o.partner_id, o.due]));
      expect(due).toEqual({ [none.partnerId]: false, [expired.partnerId]: false, [valid.partnerId]: true });
      const exported = await c.call('POST', '/v1/payout_batches', { token: p.secret, body: { currency: 'USD' } });
      expect(exported.status).toBe(201);
      expect(exported.body.data[0]).toMatchObject({ attributes: { partners: 1, amount: 1000 } });
      const skipped = exported.body.meta.skipped.map((s: any) => [s.partner_id, s.reason]).sort();
      expect(skipped).toEqual(
        [
          [none.partnerId, 'no valid tax form'],
          [expired.partnerId, 'no valid tax form'],
        ].sort(),
      );
      // Not required: everyone with an address is paid again.
      await c.call('PATCH', '/v1/tax_forms/settings', { token: p.secret, body: { tax_form_required: false } });
      const next = await c.call('POST', '/v1/payout_batches', { token: p.secret, body: { currency: 'USD' } });
      expect(next.body.data[0].attributes.partners).toBe(2);
    } finally {
      c.clock.now = T0;
    }
  });
});

describe("the portal's next payout", () => {
  it('says a valid tax form is missing while the program requires one, and pays once one is given', async () => {
    const p = await program();
    const a = await partnerOf(p);
    await c.call('PATCH', '/v1/tax_forms/settings', { token: p.secret, body: { tax_form_required: true } });
    await c.call('POST', '/v1/commissions', { token: p.secret, body: { partner_id: a.partnerId, amount: 1000, currency: 'USD' } });
    const next = async () =>
      (await a.call('GET', `/v1/portal/partnerships/${a.partnershipId}`)).body.data.attributes.earnings.USD.next_payout;
    expect(await next()).toMatchObject({ amount: 0, reason: 'no_tax_form' });
    await a.call('POST', formPath(a.partnershipId), { body: w9() });
    expect(await next()).toMatchObject({ amount: 1000, reason: null });
  });
});

describe('the 1099-NEC export', () => {
  it('lists W-9 payees paid at least $600 in USD batches of the year, as a recount of the paid commissions says', async () => {
    const p = await program();
    const [over, under, foreign, euro, lateYear] = [
      await partnerOf(p),
      await partnerOf(p),
      await partnerOf(p),
      await partnerOf(p),
      await partnerOf(p),
    ];
    for (const x of [over, under, euro, lateYear])
      await x.call('POST', formPath(x.partnershipId), { body: w9({ name: `Name ${x.partnerId}` }) });
    await foreign.call('POST', formPath(foreign.partnershipId), { body: w8ben() });
    try {
      c.clock.now = Date.UTC(2025, 1, 1) / 1000;
      await payBatch(p, [
        { partnerId: over.partnerId, amount: 40_000 },
        { partnerId: under.partnerId, amount: 59_999 },
        { partnerId: foreign.partnerId, amount: 100_000 },
      ]);
      await payBatch(p, [{ partnerId: euro.partnerId, amount: 100_000 }], 'EUR');
      c.clock.now = Date.UTC(2025, 11, 31, 23, 59, 59) / 1000;
      await payBatch(p, [
        { partnerId: over.partnerId, amount: 25_050 },
        { partnerId: lateYear.partnerId, amount: 30_000 },
      ]);
      c.clock.now = Date.UTC(2026, 0, 1) / 1000;
      await payBatch(p, [{ partnerId: lateYear.partnerId, amount: 50_000 }]);

      const reply = await c.call('GET', '/v1/tax_forms/1099_nec?year=2025&payer_name=Acme%20Inc&payer_tin=11-2233445', { token: p.secret });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toContain('text/csv');
      const [header, ...rows] = parseCsv(reply.body as string);
      expect(header).toEqual([
        'payer_name',
        'payer_address',
        'payer_tin',
        'recipient_tin',
        'recipient_name',
        'recipient_name_2',
        'recipient_street',
        'recipient_city_state_zip',
        'recipient_country',
        'account_number',
        'box1_nonemployee_compensation',
      ]);

      // The recount: paid USD commissions per partner in 2025, from the commissions' own paid_at.
      const paid = await c.call('GET', '/v1/commissions?state_eq=paid&per_page=50', { token: p.secret });
      const sums = new Map<string, number>();
      for (const cm of paid.body.data) {
        const at = cm.attributes.paid_at;
        if (cm.attributes.currency !== 'USD' || at < Date.UTC(2025, 0, 1) / 1000 || at >= Date.UTC(2026, 0, 1) / 1000) continue;
        const who = cm.attributes.partner_id;
        sums.set(who, (sums.get(who) ?? 0) + cm.attributes.amount);
      }
      const w9s = new Set([over, under, euro, lateYear].map((x) => x.partnerId));
      const expected = [...sums]
        .filter(([who, sum]) => w9s.has(who) && sum >= 60_000)
        .map(([who, sum]) => [who, (sum / 100).toFixed(2)])
        .sort();
      expect(expected).toEqual([[over.partnerId, '650.50']]);
      expect(rows.map((r) => [r[9], r[10]]).sort()).toEqual(expected);
      expect(rows[0]).toEqual([
        'Acme Inc',
        '',
        '11-2233445',
        '123456789',
        `Name ${over.partnerId}`,
        'Doe Media LLC',
        '1 Main St, Apt 2',
        'Springfield, IL 62701',
        'US',
        over.partnerId,
        '650.50',
      ]);
      const next = parseCsv((await c.call('GET', '/v1/tax_forms/1099_nec?year=2026', { token: p.secret })).body as string);
      expect(next.slice(1).map((r) => r[9])).toEqual([]);
      expectError(await c.call('GET', '/v1/tax_forms/1099_nec', { token: p.secret }), 400, 'invalid_parameter');
    } finally {
      c.clock.now = T0;
    }
  });

  it('leaves out what payout runs paid through PayPal or Stripe Connect (1099-K); files and Wise count, a returned payout does not', async () => {
    const p = await program();
    const set = await c.call('PATCH', '/v1/integrations/paypal', {
      token: p.secret,
      body: { client_id: CLIENT.id, client_secret: CLIENT.secret, webhook_id: WEBHOOK_ID },
    });
    expect(set.status).toBe(200);
    const [file, mixed, wise, stripe, returned] = [
      await partnerOf(p),
      await partnerOf(p),
      await partnerOf(p),
      await partnerOf(p),
      await partnerOf(p),
    ];
    for (const x of [file, mixed, wise, stripe, returned]) {
      await x.call('POST', formPath(x.partnershipId), { body: w9({ name: `Name ${x.partnerId}` }) });
    }
    try {
      c.clock.now = Date.UTC(2025, 2, 1) / 1000;
      await payBatch(p, [
        { partnerId: file.partnerId, amount: 70_000 },
        { partnerId: mixed.partnerId, amount: 20_000 },
      ]);
      for (const x of [mixed, wise, stripe, returned]) {
        await c.call('POST', '/v1/commissions', { token: p.secret, body: { partner_id: x.partnerId, amount: 70_000, currency: 'USD' } });
      }
      const run = (await c.call('POST', '/v1/payout_runs', { token: p.secret })).body.data.id;
      expect((await c.call('POST', `/v1/payout_runs/${run}/approve`, { token: p.secret })).status).toBe(200);
      const sent = await c.call('POST', `/v1/payout_runs/${run}/send`, { token: p.secret });
      expect(sent.body.data.attributes.items).toEqual({ paid: 4 });
      const itemOf = (x: { partnerId: string }) => sent.body.included.find((i: any) => i.attributes.partner_id === x.partnerId).id;
      // The other methods' items as their sends record them (only the method and state matter here).
      const recorded = 'UPDATE payout_run_items SET method = ?, state = ? WHERE id = ?';
      await c.running.db.run(recorded, ['wise', 'paid', itemOf(wise)]);
      await c.running.db.run(recorded, ['stripe_connect', 'paid', itemOf(stripe)]);
      await c.running.db.run(recorded, ['wise', 'returned', itemOf(returned)]);

      const csv = parseCsv((await c.call('GET', '/v1/tax_forms/1099_nec?year=2025', { token: p.secret })).body as string);
      // The file's 700.00 and Wise's 700.00; the mixed partner's file paid only 200.00, below $600.
      expect(
        csv
          .slice(1)
          .map((r) => [r[9], r[10]])
          .sort(),
      ).toEqual(
        [
          [file.partnerId, '700.00'],
          [wise.partnerId, '700.00'],
        ].sort(),
      );
    } finally {
      c.clock.now = T0;
    }
  });
});
