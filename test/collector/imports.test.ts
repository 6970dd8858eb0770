// `tally import` (docs/importing.md) against fixture APIs written from each platform's
// documentation (import-api.ts), run in process on the collector's own database: what
// each platform's records become, the old links crediting through the real collector,
// the rate limit and the 5xx waited out, a refused key, a second run that changes
// nothing, an interrupted import finished by the next run, and the CSV format.

import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCollector, type Collector } from './harness.js';
import { tally } from './processes.js';
import { startFixtureApi } from './import-api.js';
import { checkStats } from '../../packages/collector/src/modules/stats/service.js';

let c: Collector;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(async () => {
  await c.close();
});

const run = (programId: string, ...args: string[]) => tally(['import', ...args, '--program', programId], { DATABASE_URL: c.databaseUrl });
const rows = <T = Record<string, unknown>>(sql: string, ...params: unknown[]) => c.running.db.all<T>(sql, params as never);
const counts = async (programId: string) =>
  Object.fromEntries(
    await Promise.all(
      ['partners', 'partnerships', 'referrals', 'commissions', 'import_links', 'stat_deltas'].map(async (t) => [
        t,
        Number((await rows<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t} WHERE program_id = ?`, programId))[0]?.n),
      ]),
    ),
  );
const partnershipOf = (programId: string, email: string) =>
  rows<{ key: string; state: string; competitor_slugs: string; name: string; paypal_email: string | null }>(
    `SELECT ps.key, ps.state, ps.competitor_slugs, pa.name, pa.paypal_email FROM partnerships ps JOIN partners pa ON pa.id = ps.partner_id
      WHERE ps.program_id = ? AND pa.email = ?`,
    programId,
    email,
  ).then((r) => r[0]);
const commissionsOf = (programId: string) =>
  rows<{ amount: number; currency: string; state: string; reject_reason: string | null; paid_at: number | null; payable_at: number }>(
    'SELECT amount, currency, state, reject_reason, paid_at, payable_at FROM commissions WHERE program_id = ? ORDER BY created_at, amount, currency',
    programId,
  );
const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** A click through an old link, then a sign-up with the same click id: the partner it credits. */
async function credited(program: { publishable: string; secret: string }, slug: string, email: string): Promise<string> {
  const gr = `visit-${slug}`;
  const click = await c.call('POST', '/v1/tracking/click', {
    token: program.publishable,
    body: { gr_id: gr, pk: slug, url: `https://shop.test/?x=${slug}` },
  });
  expect(click.status).toBe(202);
  const conversion = await c.call('POST', '/v1/tracking/conversion', { token: program.secret, body: { email, gr_id: gr } });
  expect(conversion.status).toBe(201);
  const [partner] = await rows<{ email: string }>(
    'SELECT pa.email FROM referrals r JOIN partners pa ON pa.id = r.partner_id WHERE r.id = ?',
    conversion.body.data.id,
  );
  return partner!.email;
}

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

describe('tally import rewardful', () => {
  it('brings affiliates with their ?via= links, referrals and commissions in their states; waits out a 429 and a 503; a second run changes nothing', async () => {
    const program = await c.otherProgram();
    const api = await startFixtureApi('rewardful', (h) => h.authorization === basic('sk_rw'), { error: 'Invalid API Secret.' });
    api.faults.push(
      { path: '/referrals', page: '1', status: 429, headers: { 'retry-after': '30' }, times: 1 },
      { path: '/commissions', page: '2', status: 503, times: 1 },
    );
    try {
      const first = await run(program.id, 'rewardful', '--api-key', 'sk_rw', '--base-url', api.url, '--max-wait', '0');
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('partners     3 imported, 0 updated, 0 unchanged, 1 skipped');
      expect(first.stdout).toContain('referrals    3 imported, 0 updated, 0 unchanged, 1 skipped');
      expect(first.stdout).toContain('commissions  4 imported, 0 updated, 0 unchanged, 1 skipped');
      expect(first.stdout).toContain('partner 5768bd90-7953-493f-ae6c-6562eb4d7e72: no e-mail address');
      expect(first.stdout).toContain('referral 11111111-278a-4103-b191-5cbebae40473: a visitor who never signed up');
      expect(first.stdout).toContain(
        'commission 39e68c88-d84a-4510-b3b4-43c75016a084: its partner 5768bd90-7953-493f-ae6c-6562eb4d7e72 was not imported',
      );
      // Documented paging, and the retried pages asked again.
      const paths = api.requests.map((r) => r.path);
      expect(paths.filter((p) => p.startsWith('/referrals?page=1&limit=100'))).toHaveLength(2);
      expect(paths.filter((p) => p.startsWith('/commissions?page=2&limit=100'))).toHaveLength(2);
      expect(paths).toContain('/affiliates?page=2&limit=100&expand%5B%5D=links');

      expect(await partnershipOf(program.id, 'james@example.com')).toEqual({
        key: 'jb007',
        state: 'accepted',
        competitor_slugs: '["007"]',
        name: 'James Bond',
        paypal_email: null,
      });
      expect(await partnershipOf(program.id, 'adam.jones@example.com')).toMatchObject({
        key: 'adam',
        paypal_email: 'adam.pay@example.com',
      });
      expect(await partnershipOf(program.id, 'joe@example.com')).toMatchObject({ key: 'joe', state: 'declined' });
      expect(await rows('SELECT email, state, created_at FROM referrals WHERE program_id = ? ORDER BY email', program.id)).toEqual([
        { email: 'fred@customer.test', state: 'converted', created_at: at('2020-08-19T16:13:12Z') },
        { email: 'freddie@customer.test', state: 'paid', created_at: at('2020-08-19T16:13:12Z') },
        { email: 'gone@customer.test', state: 'churned', created_at: at('2020-08-19T16:13:12Z') },
      ]);
      expect(await commissionsOf(program.id)).toEqual([
        {
          amount: 999,
          currency: 'USD',
          state: 'rejected',
          reject_reason: 'voided in Rewardful',
          paid_at: null,
          payable_at: at('2020-09-18T16:28:25Z'),
        },
        { amount: 1500, currency: 'JPY', state: 'pending', reject_reason: null, paid_at: null, payable_at: at('2030-01-01T00:00:00Z') },
        {
          amount: 1500,
          currency: 'USD',
          state: 'paid',
          reject_reason: null,
          paid_at: at('2020-10-01T09:00:00Z'),
          payable_at: at('2020-09-18T16:28:25Z'),
        },
        { amount: 3000, currency: 'USD', state: 'pending', reject_reason: null, paid_at: null, payable_at: at('2020-09-18T16:28:25Z') },
      ]);
      // Each commission raised its commission.created, as any commission does; the partners and
      // referrals of history raised none, and nothing made an e-mail. Its totals equal a recount.
      expect(await rows('SELECT type, COUNT(*) AS n FROM events WHERE program_id = ? GROUP BY type', program.id)).toEqual([
        { type: 'commission.created', n: 4 },
      ]);
      expect(await rows('SELECT kind FROM notifications WHERE program_id = ?', program.id)).toEqual([]);
      expect(await checkStats(c.running.db, program.id)).toEqual([]);

      // ?via=007, the second link of James, credits him through the collector.
      expect(await credited(program, '007', 'new@customer.test')).toBe('james@example.com');

      const before = await counts(program.id);
      const second = await run(program.id, 'rewardful', '--api-key', 'sk_rw', '--base-url', api.url, '--max-wait', '0', '--json');
      expect(second.code).toBe(0);
      const summary = JSON.parse(second.stdout);
      expect(summary.counts).toEqual({
        partner: { imported: 0, updated: 0, unchanged: 3, skipped: 1 },
        referral: { imported: 0, updated: 0, unchanged: 3, skipped: 1 },
        commission: { imported: 0, updated: 0, unchanged: 4, skipped: 1 },
      });
      expect(await counts(program.id)).toEqual(before);

      // A refused key is named by its option, and never printed.
      const refused = await run(program.id, 'rewardful', '--api-key', 'sk_wrong_secret', '--base-url', api.url);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Rewardful refused the key given with --api-key (401)');
      expect(refused.stderr + refused.stdout).not.toContain('sk_wrong_secret');
    } finally {
      await api.close();
    }
  });

  it('finishes an import interrupted at page 2 without duplicates, and a commission paid since at the source is paid in Tally', async () => {
    const program = await c.otherProgram();
    const api = await startFixtureApi('rewardful', () => true, {});
    api.faults.push({ path: '/affiliates', page: '2', status: 500 });
    try {
      const broken = await run(program.id, 'rewardful', '--api-key', 'k', '--base-url', api.url, '--max-wait', '0');
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(
        /Rewardful \(GET \/affiliates\) failed 4 times \(500: fixture fault\)\. What was written so far is kept: run the same command again/,
      );
      expect(broken.stdout).toContain('partners     2 imported');
      expect((await counts(program.id)).partners).toBe(2);

      api.faults.length = 0;
      const again = await run(program.id, 'rewardful', '--api-key', 'k', '--base-url', api.url, '--json');
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout).counts.partner).toEqual({ imported: 1, updated: 0, unchanged: 2, skipped: 1 });
      expect(await counts(program.id)).toMatchObject({ partners: 3, partnerships: 3, referrals: 3, commissions: 4, import_links: 10 });

      // Paid at the source since: moved to paid here, out of what is owed, and no payout takes it.
      const page = JSON.parse((await fetch(`${api.url}/commissions?page=1`).then((r) => r.text())) as string);
      page.data[0].state = 'paid';
      page.data[0].paid_at = '2020-10-05T00:00:00.000Z';
      api.faults.push({ path: '/commissions', page: '1', status: 200, body: page });
      const paid = await run(program.id, 'rewardful', '--api-key', 'k', '--base-url', api.url, '--json');
      expect(JSON.parse(paid.stdout).counts.commission).toMatchObject({ updated: 1, unchanged: 3 });
      expect((await commissionsOf(program.id)).filter((r) => r.state === 'paid').map((r) => [r.amount, r.paid_at])).toEqual([
        [1500, at('2020-10-01T09:00:00Z')],
        [3000, at('2020-10-05T00:00:00Z')],
      ]);
      expect(await checkStats(c.running.db, program.id)).toEqual([]);
      // The move has its event, as every commission's move has (commissions/ledger.ts); history sends no e-mail.
      const moved = await c.running.db.all<{ data: string }>(
        "SELECT data FROM events WHERE program_id = ? AND type = 'commission.updated'",
        [program.id],
      );
      expect(moved.map((e) => [JSON.parse(e.data).attributes.state, JSON.parse(e.data).attributes.amount])).toEqual([['paid', 3000]]);
    } finally {
      await api.close();
    }
  });
});

describe('redirects', () => {
  it('follows none, as webhooks: a 302 to a service on another port is refused and the service gets nothing; one to the same server is refused too', async () => {
    const program = await c.otherProgram();
    const api = await startFixtureApi('rewardful', () => true, {});
    // An internal service on this machine, which the platform's 302 points at.
    const internal: string[] = [];
    const service = createServer((req, res) => {
      internal.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"pagination":{}}');
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const elsewhere = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    try {
      api.faults.push({ path: '/affiliates', status: 302, headers: { location: `${elsewhere}/admin/affiliates` }, times: 1 });
      const away = await run(program.id, 'rewardful', '--api-key', 'k', '--base-url', api.url, '--max-wait', '0');
      expect(away.code).toBe(1);
      expect(away.stderr).toContain(
        `Rewardful (GET /affiliates) answered with a redirect (302) to ${elsewhere}/admin/affiliates, which is not followed`,
      );
      expect(internal).toEqual([]);

      // The same server's own address: not followed either (the redirected page would have answered).
      const here = `${api.url}/affiliates?page=1&limit=100&expand%5B%5D=links`;
      api.faults.push({ path: '/affiliates', status: 301, headers: { location: here }, times: 1 });
      const before = api.requests.length;
      const same = await run(program.id, 'rewardful', '--api-key', 'k', '--base-url', api.url, '--max-wait', '0');
      expect(same.code).toBe(1);
      expect(same.stderr).toContain(`answered with a redirect (301) to ${here}, which is not followed`);
      expect(api.requests.length - before).toBe(1);
      expect((await counts(program.id)).partners).toBe(0);
    } finally {
      await api.close();
      await new Promise((resolve) => service.close(resolve));
    }
  });
});

describe('tally import firstpromoter', () => {
  it('reads promoters page by page with the Account-ID header, maps referral and commission states, and ?fpr= links credit', async () => {
    const program = await c.otherProgram();
    const api = await startFixtureApi('firstpromoter', (h) => h.authorization === 'Bearer fp_key' && h['account-id'] === 'acc_9', {});
    try {
      const runFp = await run(
        program.id,
        'firstpromoter',
        '--api-key',
        'fp_key',
        '--account-id',
        'acc_9',
        '--currency',
        'eur',
        '--base-url',
        api.url,
      );
      expect(runFp.stderr).toBe('');
      expect(runFp.stdout).toContain('partners     102 imported');
      expect(runFp.stdout).toContain('referrals    3 imported, 0 updated, 0 unchanged, 1 skipped');
      expect(runFp.stdout).toContain('commission 14: a reward in points, not money');
      expect(runFp.stdout).toContain('referral 3: moved to another promoter in FirstPromoter');
      expect(api.requests.map((r) => r.path).filter((p) => p.startsWith('/promoters'))).toEqual([
        '/promoters?page=1&per_page=100',
        '/promoters?page=2&per_page=100',
      ]);
      expect(await partnershipOf(program.id, 'sam@fp.test')).toMatchObject({
        key: 'sam',
        competitor_slugs: '["sam-blog"]',
        state: 'accepted',
      });
      expect(await partnershipOf(program.id, 'pat@fp.test')).toMatchObject({ state: 'pending' });
      expect(await partnershipOf(program.id, 'rex@fp.test')).toMatchObject({ state: 'declined' });
      expect(await rows('SELECT email, state FROM referrals WHERE program_id = ? ORDER BY email', program.id)).toEqual([
        { email: 'ann@customer.test', state: 'paid' },
        { email: 'bob@customer.test', state: 'converted' },
        { email: 'dee@customer.test', state: 'churned' },
      ]);
      expect((await commissionsOf(program.id)).map((r) => [r.amount, r.currency, r.state, r.reject_reason])).toEqual([
        [500, 'EUR', 'rejected', 'denied in FirstPromoter'],
        [2970, 'EUR', 'paid', null],
        [2970, 'EUR', 'pending', null],
      ]);
      expect(await credited(program, 'sam-blog', 'fpr@customer.test')).toBe('sam@fp.test');
      const missing = await run(program.id, 'firstpromoter', '--api-key', 'fp_key', '--account-id', 'acc_9');
      expect([missing.code, missing.stderr]).toEqual([
        2,
        'tally: --currency is required: the platform gives amounts without their currency\n',
      ]);
    } finally {
      await api.close();
    }
  });
});

describe('tally import tolt', () => {
  it('follows next_cursor, waits as long as Retry-After says, keeps ?ref= and ?via= values as slugs, reads amounts as strings of minor units', async () => {
    const program = await c.otherProgram();
    const api = await startFixtureApi('tolt', (h) => h.authorization === 'Bearer tlt_live_x', {
      success: false,
      error: { message: 'Invalid API key provided', type: 'authentication_error' },
    });
    // Tolt documents the 429 without a Retry-After; a server that sends one is waited for, up to --max-wait.
    api.faults.push({ path: '/customers', status: 429, headers: { 'retry-after': '1' }, times: 1 });
    try {
      // The key on stdin (`--api-key -`), out of the shell's history and the process list.
      const runTolt = await tally(
        ['import', 'tolt', '--api-key', '-', '--currency', 'USD', '--base-url', api.url, '--max-wait', '5', '--program', program.id],
        { DATABASE_URL: c.databaseUrl },
        'tlt_live_x\n',
      );
      expect(runTolt.stderr).toBe('');
      const [limited, retried] = api.requests.filter((r) => r.path.startsWith('/customers'));
      expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(990);
      expect(runTolt.stdout).toContain('partners     2 imported');
      expect(api.requests.map((r) => r.path)).toContain('/partners?limit=100&starting_after=cur_WyIyMDI1LTAxIl0');
      expect(await partnershipOf(program.id, 'michael.scott@dundermifflin.test')).toEqual({
        key: 'michael',
        state: 'accepted',
        competitor_slugs: '["dunder"]',
        name: 'Michael Scott',
        paypal_email: 'michael.paypal@dundermifflin.test',
      });
      expect(await partnershipOf(program.id, 'dwight@dundermifflin.test')).toMatchObject({ key: 'dwight', state: 'declined' });
      expect(await rows('SELECT email, state, uid FROM referrals WHERE program_id = ? ORDER BY email', program.id)).toEqual([
        { email: 'jim@customer.test', state: 'paid', uid: 'app_cus_dK9bzRGn46BhVgNFHD6fDgXW' },
        { email: 'pam@customer.test', state: 'converted', uid: 'app_cus_LBfjvtfct9pVUeLojMHiGnXv' },
      ]);
      expect((await commissionsOf(program.id)).map((r) => [r.amount, r.currency, r.state, r.reject_reason])).toEqual([
        [1234, 'KWD', 'rejected', 'refunded in Tolt'],
        [1999, 'USD', 'pending', null],
        [2999, 'USD', 'paid', null],
      ]);
      // Each commission keeps the referral (Tolt's customer) it was earned on.
      expect(
        await rows(
          'SELECT c.amount, r.email FROM commissions c JOIN referrals r ON r.id = c.referral_id WHERE c.program_id = ? ORDER BY c.amount',
          program.id,
        ),
      ).toEqual([
        { amount: 1234, email: 'pam@customer.test' },
        { amount: 1999, email: 'jim@customer.test' },
        { amount: 2999, email: 'jim@customer.test' },
      ]);
      expect(await credited(program, 'dunder', 'via@customer.test')).toBe('michael.scott@dundermifflin.test');
    } finally {
      await api.close();
    }
  });
});

describe('tally import csv', () => {
  it('imports the documented files, skips bad rows with their line and why, and a second run changes nothing', async () => {
    const program = await c.otherProgram();
    const file = (name: string, text: string) => {
      const path = join(c.dir, `${program.id}-${name}`);
      writeFileSync(path, text);
      return path;
    };
    const partners = file(
      'partners.csv',
      'id,name,email,paypal_email,state,slugs,created_at\n' +
        'p1,Maya Lee,maya@partners.test,pay@maya.test,accepted,maya maya-yt,2024-05-01T00:00:00Z\n' +
        'p2,Noor,not-an-address,,accepted,noor,\n' +
        'p3,Omar,omar@partners.test,,retired,omar,\n' +
        'p4,"Lee, Pat",pat@partners.test,,pending,,\n',
    );
    const referrals = file(
      'referrals.csv',
      'id,partner_id,email,uid,state,created_at\nr1,p1,ann@customer.test,u-1,paid,2024-06-01T12:00:00Z\nr2,p2,bo@customer.test,,converted,\nr3,p1,cy@customer.test,,lost,\n',
    );
    const commissions = file(
      'commissions.csv',
      'id,partner_id,referral_id,amount,currency,state,created_at,paid_at,reject_reason\n' +
        'c1,p1,r1,12.34,USD,pending,2024-06-02T00:00:00Z,,\n' +
        'c2,p1,r1,1500,jpy,paid,2024-06-03T00:00:00Z,2024-07-01T00:00:00Z,\n' +
        'c3,p1,,1.234,KWD,rejected,2024-06-04T00:00:00Z,,refunded\n' +
        'c4,p1,,12.345,USD,pending,,,\n' +
        'c5,p1,,10,XYZ,pending,,,\n' +
        'c6,p4,,5.00,EUR,paid,2024-06-05T00:00:00Z,,\n',
    );
    const args = ['csv', '--partners', partners, '--referrals', referrals, '--commissions', commissions];
    const first = await run(program.id, ...args);
    expect(first.stderr).toBe('');
    expect(first.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        '  partners     2 imported, 0 updated, 0 unchanged, 2 skipped',
        '  referrals    1 imported, 0 updated, 0 unchanged, 2 skipped',
        '  commissions  4 imported, 0 updated, 0 unchanged, 2 skipped',
        '  partner p2: e-mail address: must be a valid e-mail address',
        '  partner p3: line 4: state "retired" is not accepted, pending or declined',
        '  referral r2: its partner p2 was not imported',
        '  referral r3: line 4: state "lost" is not one of converted, paid, churned, rejected',
        '  commission c4: line 5: amount "12.345" is not a decimal in USD (at most 2 digits after the point)',
        '  commission c5: line 6: currency "XYZ" is not an ISO 4217 code',
      ]),
    );
    expect(await partnershipOf(program.id, 'maya@partners.test')).toMatchObject({
      key: 'maya',
      competitor_slugs: '["maya-yt"]',
      paypal_email: 'pay@maya.test',
    });
    expect(await partnershipOf(program.id, 'pat@partners.test')).toMatchObject({ key: 'lee-pat', state: 'pending', name: 'Lee, Pat' });
    expect((await commissionsOf(program.id)).map((r) => [r.amount, r.currency, r.state, r.reject_reason, r.paid_at])).toEqual([
      [1234, 'USD', 'pending', null, null],
      [1500, 'JPY', 'paid', null, at('2024-07-01T00:00:00Z')],
      [1234, 'KWD', 'rejected', 'refunded', null],
      [500, 'EUR', 'paid', null, at('2024-06-05T00:00:00Z')],
    ]);
    const before = await counts(program.id);
    const second = await run(program.id, ...args);
    expect(second.stdout).toContain('commissions  0 imported, 0 updated, 4 unchanged, 2 skipped');
    expect(await counts(program.id)).toEqual(before);

    const headless = await run(program.id, 'csv', '--partners', file('bad.csv', 'name,email\nX,x@p.test\n'));
    expect(headless.code).toBe(1);
    expect(headless.stderr).toContain('the header has no column id (see docs/importing.md)');
  });

  it('names a bad row by its own line, after blank lines and a quoted cell that spans lines', async () => {
    const program = await c.otherProgram();
    const path = join(c.dir, `${program.id}-lines.csv`);
    // Line 3 is blank, the name of p2 spans lines 4 and 5, with CRLF line ends after it.
    writeFileSync(
      path,
      'id,name,email,state\np1,Maya,maya@lines.test,accepted\n\np2,"Two\nLines",two@lines.test,accepted\r\np3,Omar,omar@lines.test,retired\r\n\r\np4,Pat,pat@lines.test,gone\n',
    );
    const { stdout, stderr } = await run(program.id, 'csv', '--partners', path);
    expect(stderr).toBe('');
    const printed = stdout.split('\n');
    expect(printed).toContain('  partners     2 imported, 0 updated, 0 unchanged, 2 skipped');
    expect(printed).toContain('  partner p3: line 6: state "retired" is not accepted, pending or declined');
    expect(printed).toContain('  partner p4: line 8: state "gone" is not accepted, pending or declined');
  });

  it('refuses a file that is not UTF-8 with its line and column, accepts a UTF-8 BOM, and prints no control character of a cell', async () => {
    const program = await c.otherProgram();
    const path = (name: string, bytes: Buffer | string) => {
      const p = join(c.dir, `${program.id}-${name}`);
      writeFileSync(p, bytes);
      return p;
    };
    // Latin-1, as a spreadsheet saves "CSV" on many systems: é is the single byte 0xE9.
    const latin1 = path('latin1.csv', Buffer.from('id,name,email\np1,Maya,maya@enc.test\np2,Jos\u00e9 Ruiz,jose@enc.test\n', 'latin1'));
    const refused = await run(program.id, 'csv', '--partners', latin1);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${latin1}: line 3, column 7: not UTF-8 (byte 0xE9)`);
    expect(refused.stderr).toContain('save it as UTF-8');
    expect(refused.stderr).toContain('once the file is fixed, run the same command again');
    expect((await counts(program.id)).partners).toBe(0);

    const bom = path('bom.csv', '\uFEFFid,name,email\np1,Jos\u00e9 Ruiz,jose@enc.test\n');
    const withBom = await run(program.id, 'csv', '--partners', bom);
    expect([withBom.code, withBom.stderr]).toEqual([0, '']);
    expect(await partnershipOf(program.id, 'jose@enc.test')).toMatchObject({ name: 'Jos\u00e9 Ruiz' });

    // An escape sequence (ESC, BEL, the C1 CSI) in a cell would reach the terminal in "Left out".
    const hostile = path(
      'controls.csv',
      'id,name,email,state\np\u001b[2J9,Eve,eve@enc.test,\u001b]0;owned\u0007x\nq\u009b31m1,Ivy,ivy@enc.test,\u202egone\n',
    );
    const text = await run(program.id, 'csv', '--partners', hostile);
    expect(text.stdout).toContain('  partner p\\u001b[2J9: line 2: state "\\u001b]0;owned\\u0007x" is not accepted, pending or declined');
    expect(text.stdout).toContain('  partner q\\u009b31m1: line 3: state "\\u202egone"');
    const asJson = await run(program.id, 'csv', '--partners', hostile, '--json');
    for (const out of [text.stdout, text.stderr, asJson.stdout, asJson.stderr]) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
      expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
    // The JSON keeps the values themselves, escaped the JSON way.
    expect(JSON.parse(asJson.stdout).skipped.map((s: { id: string }) => s.id)).toEqual(['p\u001b[2J9', 'q\u009b31m1']);
  });
});
