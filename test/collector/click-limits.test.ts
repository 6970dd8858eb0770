// What one client can make the collector store through the public click endpoint
// (security review, issue 30): a cap on new clicks per client address and program an
// hour, answered like any click.

import { afterEach, describe, expect, it } from 'vitest';
import * as clicks from '../../packages/collector/src/domain/clicks.js';
import type { Db, Param, Queryable, Tx } from '../../packages/collector/src/store/db.js';
import { ENGINE } from './database.js';
import { seedPartner, startCollector, T0, type Collector } from './harness.js';
import { msUntil } from './served.js';

/** The documented cap: new clicks stored per client address and program in a clock hour. */
const CAP = 100;

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
    const replies = await Promise.all(Array.from({ length: CAP }, (_, i) => clickFrom(col, '203.0.113.7', { gr_id: `flood-${i}`, pk: key, url })));
    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([202]));
    const over = await clickFrom(col, '203.0.113.7', { gr_id: 'flood-over', pk: key, url });
    expect([over.status, over.body]).toEqual([202, { data: { cookie_domain: 'shop.test' } }]);
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
    await Promise.all(Array.from({ length: CAP + 3 }, (_, i) => clickFrom(col, `2001:db8:1:2::${(i + 1).toString(16)}`, { gr_id: `v6-${i}`, pk: key })));
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
    expect(await clicks.recordClick(db, c.programId, input('capped'), T0)).toBe('capped');
    expect(sent.filter((s) => /^\s*(INSERT|UPDATE|DELETE)/i.test(s))).toEqual([]);
  });
});
