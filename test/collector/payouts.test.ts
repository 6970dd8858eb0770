// `tally payouts export` and `tally payouts mark-paid`, run as processes against the
// database of a running collector.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCsv } from '../../packages/collector/src/csv.js';
import { majorUnits } from '../../packages/collector/src/domain/money.js';
import { seedPartner, startCollector, type Collector } from './harness.js';
import { tally } from './processes.js';

let c: Collector;
let dir: string;
let env: Record<string, string>;
beforeEach(async () => {
  c = await startCollector();
  dir = mkdtempSync(join(tmpdir(), 'tally-payouts-'));
  env = { DATABASE_URL: c.databaseUrl };
});
afterEach(async () => {
  await c.close();
  rmSync(dir, { recursive: true, force: true });
});

async function commission(partnerId: string, amount: number, currency: string, state?: 'paid' | 'rejected') {
  const made = await c.call('POST', '/v1/commissions', { body: { partner_id: partnerId, amount, currency } });
  if (state) {
    const body = state === 'paid' ? { state } : { state, reject_reason: 'test' };
    await c.call('PATCH', `/v1/commissions/${made.body.data.id}`, { body });
  }
  return made.body.data.id as string;
}

const stateOf = async (id: string) => (await c.call('GET', `/v1/commissions/${id}`)).body.data.attributes.state;

/** Alice and Bob are payable in USD and EUR; Carol has no PayPal address; Dave is declined. */
async function fixture() {
  const alice = await seedPartner(c, { name: 'Alice', paypal_email: 'alice@pay.test' });
  const bob = await seedPartner(c, { name: 'Bob', paypal_email: 'bob@pay.test' });
  const carol = await seedPartner(c, { name: 'Carol' });
  const dave = await seedPartner(c, { name: 'Dave', paypal_email: 'dave@pay.test', state: 'declined' });
  const ids = {
    aliceUsd: [await commission(alice.partnerId, 1234, 'USD'), await commission(alice.partnerId, 66, 'USD')],
    aliceEur: [await commission(alice.partnerId, 500, 'EUR')],
    bobUsd: [await commission(bob.partnerId, 100, 'USD')],
    bobEur: [await commission(bob.partnerId, 1999, 'EUR')],
    bobDone: [await commission(bob.partnerId, 7777, 'USD', 'paid'), await commission(bob.partnerId, 8888, 'USD', 'rejected')],
    carolUsd: [await commission(carol.partnerId, 700, 'USD')],
    daveUsd: [await commission(dave.partnerId, 900, 'USD')],
  };
  return { alice, bob, carol, dave, ids };
}

describe('tally payouts export', () => {
  it('writes one PayPal file per currency, checked cell by cell, and lists partners it could not pay', async () => {
    const f = await fixture();
    const file = join(dir, 'payouts.csv');
    const run = await tally(['payouts', 'export', '--csv', file], env);
    expect(run.code).toBe(0);
    expect(existsSync(file)).toBe(false);
    const usd = parseCsv(readFileSync(join(dir, 'payouts.USD.csv'), 'utf8'));
    const eur = parseCsv(readFileSync(join(dir, 'payouts.EUR.csv'), 'utf8'));
    const batch = (rows: string[][]) => /batch (\S+)$/.exec(rows[0]![4]!)![1];
    const usdBatch = batch(usd);
    const eurBatch = batch(eur);
    expect(usdBatch).not.toBe(eurBatch);
    expect(usd).toEqual([
      ['alice@pay.test', '13.00', 'USD', '', `Commission payout, partner ${f.alice.partnerId}, batch ${usdBatch}`, 'PAYPAL'],
      ['bob@pay.test', '1.00', 'USD', '', `Commission payout, partner ${f.bob.partnerId}, batch ${usdBatch}`, 'PAYPAL'],
    ]);
    expect(eur).toEqual([
      ['alice@pay.test', '5.00', 'EUR', '', `Commission payout, partner ${f.alice.partnerId}, batch ${eurBatch}`, 'PAYPAL'],
      ['bob@pay.test', '19.99', 'EUR', '', `Commission payout, partner ${f.bob.partnerId}, batch ${eurBatch}`, 'PAYPAL'],
    ]);
    // The raw file quotes the note, which holds commas.
    expect(readFileSync(join(dir, 'payouts.USD.csv'), 'utf8').split('\n')[0]).toBe(
      `alice@pay.test,13.00,USD,,"Commission payout, partner ${f.alice.partnerId}, batch ${usdBatch}",PAYPAL`,
    );
    expect(run.stderr).toContain(`not exported, no paypal_email: partner ${f.carol.partnerId} (Carol) 7.00 USD`);
    expect(run.stderr).not.toContain(f.dave.partnerId);
  });

  it('--currency keeps one currency; without --csv the rows go to stdout', async () => {
    await fixture();
    const run = await tally(['payouts', 'export', '--currency', 'eur'], env);
    expect(run.code).toBe(0);
    const rows = parseCsv(run.stdout);
    expect(rows.map((r) => [r[0], r[1], r[2]])).toEqual([
      ['alice@pay.test', '5.00', 'EUR'],
      ['bob@pay.test', '19.99', 'EUR'],
    ]);
  });

  it('--currency takes only what the API takes: ISO 4217 codes of currencies, read in ASCII', async () => {
    await fixture();
    for (const bad of ['QQQ', 'XXX', '\u0131sd', 'XAU']) {
      const run = await tally(['payouts', 'export', '--currency', bad], env);
      expect([run.code, run.stdout], bad).toEqual([2, '']);
      expect(run.stderr).toMatch(/^tally: --currency must be the ISO 4217 code of a currency/);
    }
    expect((await tally(['payouts', 'export', '--currency', 'usd'], env)).code).toBe(0);
  });

  it('says when there is nothing to pay, and needs --program when there are several', async () => {
    const empty = await tally(['payouts', 'export'], env);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('Nothing to pay out.');
    await c.otherProgram();
    const several = await tally(['payouts', 'export'], env);
    expect(several.code).toBe(2);
    expect(several.stderr).toMatch(/^tally: --program is required/);
    expect((await tally(['payouts', 'export', '--program', c.programId], env)).code).toBe(0);
  });
});

describe('tally payouts mark-paid', () => {
  it('moves exactly the commissions in the file to paid, in one go', async () => {
    const f = await fixture();
    const file = join(dir, 'usd.csv');
    await tally(['payouts', 'export', '--currency', 'USD', '--csv', file], env);
    const run = await tally(['payouts', 'mark-paid', file], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Marked 3 commission(s) paid.');
    for (const id of [...f.ids.aliceUsd, ...f.ids.bobUsd]) expect(await stateOf(id)).toBe('paid');
    for (const id of [...f.ids.aliceEur, ...f.ids.bobEur, ...f.ids.carolUsd, ...f.ids.daveUsd]) expect(await stateOf(id)).toBe('pending');
    const paid = (await c.call('GET', `/v1/commissions/${f.ids.aliceUsd[0]}`)).body.data.attributes;
    expect(paid.paid_at).toEqual(expect.any(Number));
    // Nothing is left to export in USD but Carol's, who has no address.
    const again = await tally(['payouts', 'export', '--currency', 'USD'], env);
    expect(again.stdout).toBe('');
  });

  it('refuses a stale export, moving nothing, if any of its commissions changed state', async () => {
    const f = await fixture();
    const file = join(dir, 'eur.csv');
    await tally(['payouts', 'export', '--currency', 'EUR', '--csv', file], env);
    await c.call('PATCH', `/v1/commissions/${f.ids.aliceEur[0]}`, { body: { state: 'rejected', reject_reason: 'chargeback' } });
    const run = await tally(['payouts', 'mark-paid', file], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^tally: 1 commission\(s\) of batch \S+ changed state since the export: /);
    expect(run.stderr).toContain(f.ids.aliceEur[0]);
    expect(await stateOf(f.ids.bobEur[0]!)).toBe('pending');
    expect(await stateOf(f.ids.aliceEur[0]!)).toBe('rejected');
  });

  it('refuses a file marked already, and a file edited since the export', async () => {
    await fixture();
    const file = join(dir, 'usd.csv');
    await tally(['payouts', 'export', '--currency', 'USD', '--csv', file], env);
    const edited = join(dir, 'edited.csv');
    writeFileSync(edited, readFileSync(file, 'utf8').replace('13.00', '130.00'));
    const tampered = await tally(['payouts', 'mark-paid', edited], env);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/differ from what was exported/);
    expect((await tally(['payouts', 'mark-paid', file], env)).code).toBe(0);
    const twice = await tally(['payouts', 'mark-paid', file], env);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/already marked paid/);
  });

  it('a file that is not an export is a bad argument', async () => {
    const file = join(dir, 'other.csv');
    writeFileSync(file, 'someone@x.test,1.00,USD\n');
    const run = await tally(['payouts', 'mark-paid', file], env);
    expect(run.code).toBe(2);
    expect((await tally(['payouts', 'mark-paid', join(dir, 'missing.csv')], env)).code).toBe(2);
  });
});

describe('tally programs update', () => {
  it('sets the rate later payments use', async () => {
    const run = await tally(['programs', 'update', c.programId, '--commission-rate-bps', '1000'], env);
    expect(run.code).toBe(0);
    const p = await seedPartner(c);
    const conv = await c.call('POST', '/v1/tracking/conversion', { token: c.publishable, body: { email: 'r@b.test', gr_id: 'g', pk: p.key } });
    const pay = await c.call('POST', '/v1/payments', {
      body: { amount: 12345, currency: 'USD', idempotency_key: 'k', referral_id: conv.body.data.id },
    });
    expect(pay.body.included[0].attributes.amount).toBe(1235); // 1234.5, up
    for (const bad of ['10001', 'ten', '-1']) {
      expect((await tally(['programs', 'update', c.programId, '--commission-rate-bps', bad], env)).code).toBe(2);
    }
  });
});

describe('amounts in major units', () => {
  it('follow each currency', () => {
    expect(majorUnits(1234, 'USD')).toBe('12.34');
    expect(majorUnits(5, 'EUR')).toBe('0.05');
    expect(majorUnits(1500, 'JPY')).toBe('1500');
    expect(majorUnits(1234, 'KWD')).toBe('1.234');
    expect(majorUnits(0, 'USD')).toBe('0.00');
  });
});
