// `tally payouts export` and `tally payouts mark-paid`, run as processes against the
// database of a running collector.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCsv } from '../../packages/collector/src/platform/csv.js';
import { majorUnits } from '../../packages/collector/src/core/money.js';
import { exportPayouts } from '../../packages/collector/src/flows/payout-run.js';
import { openDatabase } from '../../packages/collector/src/platform/db/open.js';
import { expectError, seedPartner, startCollector, T0, type Collector } from './harness.js';
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
    const missing = await tally(['payouts', 'mark-paid', join(dir, 'missing.csv')], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `tally: cannot read ${join(dir, 'missing.csv')}: there is no such file; mark-paid takes a file tally payouts export --csv wrote`,
    );
  });
});

const batchOf = (rows: string[][]) => /batch (\S+)$/.exec(rows[0]![4]!)![1]!;
const read = (path: string) => parseCsv(readFileSync(path, 'utf8'));

describe('a commission is in at most one open batch', () => {
  it('a second export claims nothing already exported; --batch writes that file again, byte for byte', async () => {
    await fixture();
    const a = join(dir, 'a.csv');
    const b = join(dir, 'b.csv');
    expect((await tally(['payouts', 'export', '--currency', 'USD', '--csv', a], env)).code).toBe(0);
    const second = await tally(['payouts', 'export', '--currency', 'USD', '--csv', b], env);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('Nothing to pay out.');
    expect(existsSync(b)).toBe(false);
    const batch = batchOf(read(a));
    expect(second.stderr).toContain(`Open batch ${batch} (USD`);

    const again = join(dir, 'again.csv');
    const rewritten = await tally(['payouts', 'export', '--batch', batch, '--csv', again], env);
    expect(rewritten.code).toBe(0);
    expect(readFileSync(again)).toEqual(readFileSync(a));
    const printed = await tally(['payouts', 'export', '--batch', batch], env);
    expect(printed.stdout).toBe(readFileSync(a, 'utf8'));
    expect((await tally(['payouts', 'export', '--batch', batch, '--currency', 'USD'], env)).code).toBe(2);

    // An export to stdout is a batch too, and holds what it printed.
    const eur = await tally(['payouts', 'export', '--currency', 'EUR'], env);
    expect(parseCsv(eur.stdout)).toHaveLength(2);
    expect(eur.stderr).toContain(`(batch ${batchOf(parseCsv(eur.stdout))})`);
    expect((await tally(['payouts', 'export', '--csv', join(dir, 'rest.csv')], env)).stderr).toContain('Nothing to pay out.');
  });

  it('two exports at once: each commission lands in one file only', async () => {
    const f = await fixture();
    const runs = await Promise.all(
      ['x.csv', 'y.csv'].map((name) => tally(['payouts', 'export', '--currency', 'USD', '--csv', join(dir, name)], env)),
    );
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
    const rows = ['x.csv', 'y.csv'].flatMap((name) => (existsSync(join(dir, name)) ? read(join(dir, name)) : []));
    expect(rows.map((r) => [r[0], r[1]]).sort()).toEqual([
      ['alice@pay.test', '13.00'],
      ['bob@pay.test', '1.00'],
    ]);
    expect((await tally(['payouts', 'mark-paid', join(dir, existsSync(join(dir, 'x.csv')) ? 'x.csv' : 'y.csv')], env)).code).toBe(0);
    for (const id of [...f.ids.aliceUsd, ...f.ids.bobUsd]) expect(await stateOf(id)).toBe('paid');
  });

  it('two exports from two connections in the same instant: each commission in one batch', async () => {
    await fixture();
    // Two handles, as two processes would have, started together so that both read what
    // is owed before either writes.
    const dbs = [openDatabase(c.databaseUrl), openDatabase(c.databaseUrl)];
    try {
      const results = await Promise.all(dbs.map((db) => exportPayouts(db, c.programId, 'USD', T0)));
      const rows = results.flatMap((r) => r.batches.flatMap((b) => b.rows.map((row) => [row.email, row.amount])));
      expect(rows.sort()).toEqual([
        ['alice@pay.test', '13.00'],
        ['bob@pay.test', '1.00'],
      ]);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  });

  it('payouts cancel frees a batch: its file is neither written again nor marked paid, and the next export takes its commissions', async () => {
    const f = await fixture();
    const a = join(dir, 'a.csv');
    await tally(['payouts', 'export', '--currency', 'USD', '--csv', a], env);
    const batch = batchOf(read(a));
    const cancelled = await tally(['payouts', 'cancel', batch], env);
    expect([cancelled.code, cancelled.stderr]).toEqual([0, '']);
    expect(cancelled.stdout).toContain(`Cancelled batch ${batch}; 3 commission(s) are free for the next export.`);
    const again = await tally(['payouts', 'export', '--batch', batch], env);
    expect([again.code, again.stdout]).toEqual([1, '']);
    expect(again.stderr).toMatch(/was cancelled/);
    const refused = await tally(['payouts', 'mark-paid', a], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/was cancelled/);
    for (const id of f.ids.aliceUsd) expect(await stateOf(id)).toBe('pending');
    expect((await tally(['payouts', 'cancel', batch], env)).code).toBe(1);

    const b = join(dir, 'b.csv');
    expect((await tally(['payouts', 'export', '--currency', 'USD', '--csv', b], env)).code).toBe(0);
    const next = batchOf(read(b));
    expect(next).not.toBe(batch);
    expect(read(b).map((r) => [r[0], r[1]])).toEqual(read(a).map((r) => [r[0], r[1]]));
    expect((await tally(['payouts', 'mark-paid', b], env)).code).toBe(0);
    const late = await tally(['payouts', 'cancel', next], env);
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/already marked paid/);
    expect((await tally(['payouts', 'export', '--batch', next], env)).stderr).toMatch(/already marked paid/);
    expect((await tally(['payouts', 'cancel', '01900000-0000-7000-8000-000000000000'], env)).stderr).toMatch(/no payout batch/);
    // Ten CLI processes in a row: 10 s alone, twice that beside the rest of the suite on two cores.
  }, 60_000);
});

describe('a commission an open batch holds is paid by its batch only', () => {
  it('PATCH state paid is 409 invalid_transition, naming the batch; marking the batch paid then pays it once', async () => {
    const alice = await seedPartner(c, { name: 'Alice', paypal_email: 'alice@pay.test' });
    const id = await commission(alice.partnerId, 1234, 'USD');
    const batch = (await c.call('POST', '/v1/payout_batches', { body: {} })).body.data[0];
    const refused = expectError(await c.call('PATCH', `/v1/commissions/${id}`, { body: { state: 'paid' } }), 409, 'invalid_transition');
    expect(refused.detail).toContain(batch.id);
    expect(refused.detail).toContain('tally payouts mark-paid');
    expect(await stateOf(id)).toBe('pending');
    expect((await c.call('POST', `/v1/payout_batches/${batch.id}/paid`)).status).toBe(200);
    expect(await stateOf(id)).toBe('paid');
    // A cancelled batch lets it go: then it may be paid by hand again.
    const other = await commission(alice.partnerId, 500, 'USD');
    const next = (await c.call('POST', '/v1/payout_batches', { body: {} })).body.data[0];
    expect((await c.call('POST', `/v1/payout_batches/${next.id}/cancel`)).status).toBe(200);
    expect((await c.call('PATCH', `/v1/commissions/${other}`, { body: { state: 'paid' } })).status).toBe(200);
  });
});

describe('a payout file is whole before its batch exists', () => {
  /** Batches of the program that hold commissions now. */
  const openBatches = () =>
    c.running.db.all<{ id: string }>('SELECT id FROM payout_batches WHERE paid_at IS NULL AND cancelled_at IS NULL');

  it("a --csv folder that does not exist is made, as the README's payouts/2026-11.csv on a fresh clone", async () => {
    await fixture();
    const fresh = join(dir, 'payouts', 'nested', '2026-11.csv');
    const run = await tally(['payouts', 'export', '--currency', 'USD', '--csv', fresh], env);
    expect(run.stderr).not.toMatch(/cannot write/);
    expect(run.code).toBe(0);
    expect(read(fresh).map((r) => r[1])).toEqual(['13.00', '1.00']);
    expect(readdirSync(join(dir, 'payouts', 'nested'))).toEqual(['2026-11.csv']);
  });

  it('a --csv path that cannot be a file (under a file): no batch, no file, an error naming FILE only, and the next export takes everything', async () => {
    await fixture();
    writeFileSync(join(dir, 'a-file'), '');
    const under = join(dir, 'a-file', 'payouts.csv');
    const run = await tally(['payouts', 'export', '--currency', 'USD', '--csv', under], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`tally: cannot write ${under}: a part of its path is a file, not a folder\n`);
    expect(await c.running.db.all('SELECT id FROM payout_batches')).toEqual([]);
    expect(readdirSync(dir)).toEqual(['a-file']);
    const ok = await tally(['payouts', 'export', '--currency', 'USD', '--csv', join(dir, 'ok.csv')], env);
    expect(ok.code).toBe(0);
    expect(read(join(dir, 'ok.csv')).map((r) => r[1])).toEqual(['13.00', '1.00']);
  });

  it('a file that cannot take its name after the commit: the batch is cancelled again and leaves nothing behind', async () => {
    await fixture();
    const folder = join(dir, 'taken');
    mkdirSync(join(folder, 'inside'), { recursive: true }); // a non-empty folder where the file should go
    const run = await tally(['payouts', 'export', '--currency', 'USD', '--csv', folder], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot write .*taken: .*cancelled batch/);
    expect(run.stderr).not.toMatch(/partial|rename|EISDIR|ENOTEMPTY/);
    expect(await openBatches()).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['taken']);
    expect((await tally(['payouts', 'export', '--currency', 'USD', '--csv', join(dir, 'ok.csv')], env)).code).toBe(0);
    expect(read(join(dir, 'ok.csv')).map((r) => r[1])).toEqual(['13.00', '1.00']);
  });
});

describe('several currencies, one of whose files cannot take its name', () => {
  it('keeps the batches already delivered open (they may be uploaded) and cancels the rest', async () => {
    await fixture(); // USD is owed first, so its file is placed first, then EUR's
    const file = join(dir, 'payouts.csv');
    mkdirSync(join(dir, 'payouts.EUR.csv', 'inside'), { recursive: true }); // EUR's name is taken
    const run = await tally(['payouts', 'export', '--csv', file], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/payouts\.EUR\.csv.*cancelled batch [0-9a-f-]+, so/);
    // USD's file is out and its batch still holds its commissions; EUR's batch is
    // cancelled, so its commissions go into the next export.
    expect(existsSync(join(dir, 'payouts.USD.csv'))).toBe(true);
    const batches = await c.running.db.all<{ currency: string; cancelled_at: number | null }>(
      'SELECT currency, cancelled_at FROM payout_batches ORDER BY currency',
    );
    expect(batches).toEqual([
      { currency: 'EUR', cancelled_at: expect.any(Number) },
      { currency: 'USD', cancelled_at: null },
    ]);
    const again = await tally(['payouts', 'export', '--csv', join(dir, 'again.csv')], env);
    expect(again.code).toBe(0);
    expect(read(join(dir, 'again.csv')).map((r) => r[2])).toEqual(['EUR', 'EUR']);
  });
});

describe('what a payout file holds', () => {
  it('a zero amount makes no row', async () => {
    const zed = await seedPartner(c, { name: 'Zed', paypal_email: 'zed@pay.test' });
    await commission(zed.partnerId, 0, 'USD');
    const run = await tally(['payouts', 'export', '--csv', join(dir, 'zero.csv')], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Nothing to pay out.');
    expect(existsSync(join(dir, 'zero.csv'))).toBe(false);
  });

  it("each currency's minor unit: JPY has none, KWD three", async () => {
    const p = await seedPartner(c, { name: 'Yoko', paypal_email: 'yoko@pay.test' });
    await commission(p.partnerId, 1500, 'JPY');
    await commission(p.partnerId, 1234, 'KWD');
    await tally(['payouts', 'export', '--csv', join(dir, 'p.csv')], env);
    expect(read(join(dir, 'p.JPY.csv')).map((r) => r.slice(0, 3))).toEqual([['yoko@pay.test', '1500', 'JPY']]);
    expect(read(join(dir, 'p.KWD.csv')).map((r) => r.slice(0, 3))).toEqual([['yoko@pay.test', '1.234', 'KWD']]);
  });

  it('a currency stored before codes were checked is listed on stderr, not guessed at', async () => {
    const f = await fixture();
    await c.running.db.run("UPDATE commissions SET currency = 'QQQ' WHERE id = ?", [f.ids.aliceEur[0]!]);
    const run = await tally(['payouts', 'export', '--csv', join(dir, 'p.csv')], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`not exported, unknown currency: partner ${f.alice.partnerId} (Alice) 500 QQQ`);
    expect(read(join(dir, 'p.EUR.csv')).map((r) => r[0])).toEqual(['bob@pay.test']);
  });

  it('an address stored before the formula rule is neutralised, and the file still marks paid', async () => {
    const f = await fixture();
    const evil = '=HYPERLINK("http://evil.test")@x.y';
    await c.running.db.run('UPDATE partners SET paypal_email = ? WHERE id = ?', [evil, f.alice.partnerId]);
    const file = join(dir, 'usd.csv');
    await tally(['payouts', 'export', '--currency', 'USD', '--csv', file], env);
    const raw = readFileSync(file, 'utf8');
    expect(raw).not.toMatch(/(^|,)"?=/m);
    expect(read(file).map((r) => r[0])).toContain(`'${evil}`);
    expect((await tally(['payouts', 'mark-paid', file], env)).code).toBe(0);
  });
});

describe('mark-paid takes the file only as it was exported', () => {
  it('refuses a changed payee, currency or any other cell, and a missing or repeated row', async () => {
    const f = await fixture();
    const file = join(dir, 'usd.csv');
    await tally(['payouts', 'export', '--currency', 'USD', '--csv', file], env);
    const text = readFileSync(file, 'utf8');
    const [first, second] = text.split('\n');
    const edits: Array<[string, string]> = [
      ['payee', text.replace('alice@pay.test', 'mallory@pay.test')],
      ['currency', text.replace('13.00,USD', '13.00,EUR')],
      ['customer id', text.replace('USD,,', 'USD,cust-1,')],
      ['recipient type', text.replace('PAYPAL', 'VENMO')],
      ['an extra cell', text.replace(',PAYPAL\n', ',PAYPAL,x\n')],
      ['a missing row', `${first}\n`],
      ['a repeated row', `${first}\n${second}\n${second}\n`],
    ];
    for (const [what, edited] of edits) {
      writeFileSync(join(dir, 'edited.csv'), edited);
      const run = await tally(['payouts', 'mark-paid', join(dir, 'edited.csv')], env);
      expect([what, run.code]).toEqual([what, 1]);
      expect(run.stderr, what).toMatch(/differ from what was exported/);
    }
    for (const id of [...f.ids.aliceUsd, ...f.ids.bobUsd]) expect(await stateOf(id)).toBe('pending');
    // Rows in another order, and Windows line ends, are the same file.
    writeFileSync(join(dir, 'reordered.csv'), `${second}\r\n${first}\r\n`);
    expect((await tally(['payouts', 'mark-paid', join(dir, 'reordered.csv')], env)).code).toBe(0);
  });

  it('the address as exported stays the one checked and written again after the partner changes it', async () => {
    const f = await fixture();
    const file = join(dir, 'usd.csv');
    await tally(['payouts', 'export', '--currency', 'USD', '--csv', file], env);
    await c.call('PATCH', `/v1/partners/${f.alice.partnerId}`, { body: { paypal_email: 'alice-new@pay.test' } });
    const again = await tally(['payouts', 'export', '--batch', batchOf(read(file))], env);
    expect(again.stdout).toBe(readFileSync(file, 'utf8'));
    const run = await tally(['payouts', 'mark-paid', file], env);
    expect([run.code, run.stderr]).toEqual([0, '']);
  });
});

describe('tally programs update', () => {
  it('sets the rate later payments use', async () => {
    const run = await tally(['programs', 'update', c.programId, '--commission-rate-bps', '1000'], env);
    expect(run.code).toBe(0);
    const p = await seedPartner(c);
    const conv = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'r@b.test', gr_id: 'g', pk: p.key },
    });
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
