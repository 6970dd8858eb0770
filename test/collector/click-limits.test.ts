// What one client can make the collector store through the public click endpoint
// (security review, issue 30): a cap on new clicks per client address and program an
// hour, answered like any click; and raw clicks deleted after their retention, in
// bounded batches, while the statistics keep what they counted.

import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../packages/collector/src/platform/config.js';
import * as clicks from '../../packages/collector/src/flows/click.js';
import { purgeClicks } from '../../packages/collector/src/modules/clicks/purge.js';
import { checkStats, foldStats } from '../../packages/collector/src/modules/stats/service.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { startServer } from '../../packages/collector/src/server.js';
import type { Db, Param, Queryable, Tx } from '../../packages/collector/src/platform/db/db.js';
import { ENGINE } from './database.js';
import { seedPartner, startCollector, T0, type Collector } from './harness.js';
import { oneLine, openExplainer, planning, type Planned } from './plans-explain.js';
import { msUntil } from './served.js';

/** The documented cap: new clicks stored per client address and program in a clock hour. */
const CAP = 100;
const DAY = 86_400;

let c: Collector | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

/** A collector behind one trusted proxy, so each test picks its client's address. */
async function behindProxy(): Promise<Collector> {
  c = await startCollector({ limits: { perToken: 0, perIp: 0, authFailures: 0, trustProxy: 1 } });
  return c;
}

const clickFrom = (col: Collector, address: string, body: Record<string, unknown>, token = col.publishable) =>
  col.call('POST', '/v1/tracking/click', { token, body, headers: { 'x-forwarded-for': address } });

const count = async (col: Collector, where = '1 = 1', params: Param[] = []) =>
  Number((await col.running.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM clicks WHERE ${where}`, params))?.n ?? -1);

const statsClicks = async (col: Collector, token = col.secret) =>
  (await col.call('GET', '/v1/stats?from=2025-01-01&to=2025-12-31', { token })).body.data.attributes.totals.clicks as number;

describe(`new clicks per client address and program (${ENGINE})`, () => {
  it('stores at most the cap an hour from one address; beyond it answers the same 202 and stores and counts nothing', async () => {
    const col = await behindProxy();
    const { key } = await seedPartner(col);
    const url = 'https://www.shop.test/?red=x';
    // All at once, as a flood comes: each stored click is reserved before its insert.
    const replies = await Promise.all(
      Array.from({ length: CAP }, (_, i) => clickFrom(col, '203.0.113.7', { gr_id: `flood-${i}`, pk: key, url })),
    );
    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([202]));
    const over = await clickFrom(col, '203.0.113.7', { gr_id: 'flood-over', pk: key, url });
    expect([over.status, over.body]).toEqual([202, { data: { cookie_domain: 'shop.test', discount: null } }]);
    expect(await count(col)).toBe(CAP);
    expect(await count(col, 'gr_id = ?', ['flood-over'])).toBe(0);
    expect(await statsClicks(col)).toBe(CAP);
  });

  it('over the cap, a repeat of a stored click still moves its last_seen_at; other addresses, programs and secret tokens are not held back; the next hour stores again', async () => {
    const col = await behindProxy();
    const { key } = await seedPartner(col);
    col.clock.now = T0 + 60; // 09:01 past the hour: 59 minutes left in it
    await Promise.all(Array.from({ length: CAP + 5 }, (_, i) => clickFrom(col, '203.0.113.7', { gr_id: `f-${i}`, pk: key })));
    expect(await count(col)).toBe(CAP);

    col.clock.now += 10 * 60;
    expect((await clickFrom(col, '203.0.113.7', { gr_id: 'f-0', pk: key })).status).toBe(202);
    const first = await col.running.db.get<{ last_seen_at: number }>('SELECT last_seen_at FROM clicks WHERE gr_id = ?', ['f-0']);
    expect(Number(first?.last_seen_at)).toBe(col.clock.now);

    // Another address, and another address's /64 for IPv6, each has its own allowance.
    expect((await clickFrom(col, '198.51.100.1', { gr_id: 'other-address', pk: key })).status).toBe(202);
    expect(await count(col, 'gr_id = ?', ['other-address'])).toBe(1);
    // A company's server posting with the secret token is not a visitor's address.
    expect((await clickFrom(col, '203.0.113.7', { gr_id: 'from-server', pk: key }, col.secret)).status).toBe(202);
    expect(await count(col, 'gr_id = ?', ['from-server'])).toBe(1);
    // Another program's clicks from the same address count apart.
    const other = await col.otherProgram();
    const theirs = await seedPartner(col, { token: other.secret });
    expect((await clickFrom(col, '203.0.113.7', { gr_id: 'their-visitor', pk: theirs.key }, other.publishable)).status).toBe(202);
    expect(await count(col, 'gr_id = ?', ['their-visitor'])).toBe(1);

    col.clock.now = T0 + 3600; // the next clock hour
    expect((await clickFrom(col, '203.0.113.7', { gr_id: 'next-hour', pk: key })).status).toBe(202);
    expect(await count(col, 'gr_id = ?', ['next-hour'])).toBe(1);
  });

  it('an IPv6 client is its /64: addresses varied inside it share one allowance', async () => {
    const col = await behindProxy();
    const { key } = await seedPartner(col);
    await Promise.all(
      Array.from({ length: CAP + 3 }, (_, i) => clickFrom(col, `2001:db8:1:2::${(i + 1).toString(16)}`, { gr_id: `v6-${i}`, pk: key })),
    );
    expect(await count(col)).toBe(CAP);
    expect((await clickFrom(col, '2001:db8:1:3::1', { gr_id: 'next-net', pk: key })).status).toBe(202);
    expect(await count(col)).toBe(CAP + 1);
  });
});

/** `db` with every statement it sends counted, the transaction's lock included. */
function counting(inner: Db): { db: Db; sent: string[] } {
  const sent: string[] = [];
  const wrap = (q: Queryable) => ({
    settings: q.settings,
    all: <T>(sql: string, params?: readonly Param[]) => (sent.push(sql), q.all<T>(sql, params)),
    get: <T>(sql: string, params?: readonly Param[]) => (sent.push(sql), q.get<T>(sql, params)),
    run: (sql: string, params?: readonly Param[]) => (sent.push(sql), q.run(sql, params)),
  });
  const db: Db = {
    ...inner,
    ...wrap(inner),
    engine: inner.engine,
    transaction: <T>(fn: (tx: Tx) => Promise<T>) =>
      inner.transaction((tx) => fn({ ...wrap(tx), engine: tx.engine, lock: (key: string) => (sent.push(`lock ${key}`), tx.lock(key)) })),
  };
  return { db, sent };
}

/** A statement as its kind and table: `SELECT FROM clicks`, `INSERT INTO clicks`, `lock`. */
const kind = (sql: string) => {
  const s = sql.replace(/\s+/g, ' ').trim();
  if (s.startsWith('lock ')) return 'lock';
  const select = /^SELECT .*? FROM (\w+)/i.exec(s);
  if (select) return `SELECT FROM ${select[1]}`;
  return /^(INSERT INTO \w+|UPDATE \w+|DELETE FROM \w+)/i.exec(s)?.[1] ?? s;
};

describe(`statements of a click (${ENGINE})`, () => {
  it('a new click sends what it sent before the cap (the cap is counted in memory); a capped one writes nothing', async () => {
    c = await startCollector();
    const { key } = await seedPartner(c);
    const { db, sent } = counting(c.running.db);
    // PostgreSQL tells the settings' clock once it listens: until then nothing is kept in memory.
    await msUntil(async () => c!.running.db.settings.version() !== undefined);
    const input = (gr_id: string) => ({ gr_id, pk: key, client: '203.0.113.9' });
    await clicks.recordClick(db, c.programId, input('warm'), T0); // reads the slug once; later clicks find it in memory
    sent.length = 0;
    await clicks.recordClick(db, c.programId, input('second'), T0);
    // The visitor's lock, the dedupe read, the click and its statistics delta: 4, as before.
    expect(sent.map(kind)).toEqual(['lock', 'SELECT FROM clicks', 'INSERT INTO clicks', 'INSERT INTO stat_deltas']);
    await Promise.all(Array.from({ length: CAP }, (_, i) => clicks.recordClick(db, c!.programId, input(`fill-${i}`), T0)));
    sent.length = 0;
    expect((await clicks.recordClick(db, c.programId, input('capped'), T0)).outcome).toBe('capped');
    expect(sent.filter((s) => /^\s*(INSERT|UPDATE|DELETE)/i.test(s))).toEqual([]);
  });
});

describe(`raw clicks' retention (${ENGINE})`, () => {
  /** Every kept statistics row, in a stable order: the purge must leave them as they were. */
  const buckets = (db: Db) =>
    db.all<Record<string, unknown>>(
      'SELECT program_id, partner_id, bucket, currency, clicks, referrals FROM stat_buckets ORDER BY program_id, partner_id, bucket, currency',
    );

  it('deletes clicks older than the retention, keeps the rest, and leaves the statistics as they were', async () => {
    c = await startCollector();
    const alice = await seedPartner(c);
    const bob = await seedPartner(c);
    const post = (gr_id: string, pk: string) => c!.call('POST', '/v1/tracking/click', { token: c!.publishable, body: { gr_id, pk } });
    for (const [i, day] of [0, 0, 5, 40, 89].entries()) {
      c.clock.now = T0 + day * DAY + i * 60;
      expect((await post(`old-${i}`, i % 2 ? bob.key : alice.key)).status).toBe(202);
    }
    const conversion = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'kept@buyer.test', gr_id: 'old-4', pk: alice.key },
    });
    expect(conversion.status).toBe(201);
    await foldStats(c.running.db);
    const before = await buckets(c.running.db);
    const totalsBefore = await statsClicks(c);
    expect(totalsBefore).toBe(5);

    // 91 days after the first clicks: with 90 days kept, those of days 0 go, and day 5's not yet.
    const now = T0 + 91 * DAY;
    expect(await purgeClicks(c.running.db, { now, retentionDays: 90 })).toBe(2);
    const left = await c.running.db.all<{ gr_id: string }>('SELECT gr_id FROM clicks ORDER BY gr_id');
    expect(left.map((r) => r.gr_id)).toEqual(['old-2', 'old-3', 'old-4']);

    await foldStats(c.running.db);
    expect(await buckets(c.running.db)).toEqual(before);
    expect(await statsClicks(c)).toBe(totalsBefore);
    // What the purged clicks counted is kept per partner and bucket, so the records
    // (clicks left, plus the purged tallies) still add up to the kept totals.
    const recount = await c.running.db.all<{ partner_id: string; bucket: number; clicks: number }>(
      `SELECT partner_id, bucket, SUM(n) AS clicks FROM (
         SELECT ps.partner_id, (c.created_at / 900) * 900 AS bucket, 1 AS n FROM clicks c JOIN partnerships ps ON ps.id = c.partnership_id
         UNION ALL
         SELECT partner_id, bucket, clicks FROM clicks_purged
       ) t GROUP BY partner_id, bucket ORDER BY partner_id, bucket`,
    );
    const kept = before
      .filter((r) => r.partner_id !== '' && Number(r.clicks) !== 0)
      .map((r) => ({ partner_id: r.partner_id, bucket: Number(r.bucket), clicks: Number(r.clicks) }))
      .sort((a, b) => String(a.partner_id).localeCompare(String(b.partner_id)) || a.bucket - b.bucket);
    expect(recount.map((r) => ({ partner_id: r.partner_id, bucket: Number(r.bucket), clicks: Number(r.clicks) }))).toEqual(kept);

    // The referral its click made stays, and so does attribution by a kept click.
    expect((await c.call('GET', `/v1/referrals/${conversion.body.data.id}`)).status).toBe(200);
    expect(await purgeClicks(c.running.db, { now, retentionDays: 90 })).toBe(0);
    // `tally stats check` agrees: the recount adds the purged tallies.
    expect(await checkStats(c.running.db)).toEqual([]);
    // Deleting a partner whose clicks were purged takes back what they counted too.
    expect((await c.call('DELETE', `/v1/partners/${bob.partnerId}`)).status).toBe(204);
    await foldStats(c.running.db);
    expect(await checkStats(c.running.db)).toEqual([]);
    expect(await c.running.db.all('SELECT * FROM clicks_purged WHERE partner_id = ?', [bob.partnerId])).toEqual([]);
  });

  it("never deletes a click its program's cookie may still need: a cookie_days above the retention wins", async () => {
    c = await startCollector();
    const { key } = await seedPartner(c);
    expect((await c.call('PATCH', '/v1/program', { body: { cookie_days: 120 } })).status).toBe(200);
    c.clock.now = T0;
    await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: 'long-cookie', pk: key } });
    expect(await purgeClicks(c.running.db, { now: T0 + 100 * DAY, retentionDays: 90 })).toBe(0);
    const byClick = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'late@buyer.test', gr_id: 'long-cookie' },
    });
    expect(byClick.status).toBe(201); // attributed by the click id alone, 100 days on
    expect(await purgeClicks(c.running.db, { now: T0 + 121 * DAY, retentionDays: 90 })).toBe(1);
  });

  it('deletes in bounded batches: a run stops after its batches, the next goes on', async () => {
    c = await startCollector();
    const { key } = await seedPartner(c);
    for (let i = 0; i < 7; i++) await c.call('POST', '/v1/tracking/click', { token: c.secret, body: { gr_id: `b-${i}`, pk: key } });
    const later = { now: T0 + 200 * DAY, retentionDays: 90, batch: 2, maxBatches: 2 };
    expect(await purgeClicks(c.running.db, later)).toBe(4);
    expect(await count(c)).toBe(3);
    expect(await purgeClicks(c.running.db, later)).toBe(3);
    expect(await count(c)).toBe(0);
  });

  it('each statement of a purge finds its rows through an index (the programs, one row per tenant, aside)', async () => {
    c = await startCollector();
    const { key } = await seedPartner(c);
    for (let i = 0; i < 3; i++) await c.call('POST', '/v1/tracking/click', { token: c.secret, body: { gr_id: `p-${i}`, pk: key } });
    const explainer = await openExplainer(ENGINE, c.running.db, c.databaseUrl);
    try {
      const sent: Planned[] = [];
      expect(await purgeClicks(planning(c.running.db, explainer, sent), { now: T0 + 200 * DAY, retentionDays: 90 })).toBe(3);
      const scans = sent.flatMap((s) =>
        s.plan
          .filter((n) => n.fullScan && n.table !== 'programs' && !/^SCAN programs\b/.test(n.line))
          .map((n) => `${oneLine(s.sql)}: ${n.line}`),
      );
      expect(scans).toEqual([]);
      expect(sent.some((s) => /DELETE FROM clicks/.test(s.sql))).toBe(true);
    } finally {
      await explainer.close();
    }
  });

  it('CLICK_RETENTION_DAYS: 90 days unless set, 0 keeps clicks for ever, and a server with it purges in the background', async () => {
    expect(loadConfig({}).clickRetentionDays).toBe(90);
    expect(loadConfig({ CLICK_RETENTION_DAYS: '30' }).clickRetentionDays).toBe(30);
    expect(loadConfig({ CLICK_RETENTION_DAYS: '0' }).clickRetentionDays).toBe(0);
    expect(() => loadConfig({ CLICK_RETENTION_DAYS: '-1' })).toThrow(/CLICK_RETENTION_DAYS/);

    c = await startCollector();
    const { key } = await seedPartner(c);
    await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: 'to-purge', pk: key } });
    await c.running.close(); // the database stays; c.close() drops it afterwards
    const later = await startServer(
      { port: 0, host: '127.0.0.1', databaseUrl: c.databaseUrl, logLevel: 'silent', clickRetentionDays: 90 },
      createLogger('silent'),
      { now: () => T0 + 91 * DAY },
    );
    try {
      const ms = await msUntil(async () => Number((await later.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM clicks'))?.n) === 0);
      expect(ms).toBeLessThan(5000);
    } finally {
      await later.close();
    }
  });
});
