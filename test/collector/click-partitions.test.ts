// Clicks by month (issue 35, part 3; decision 0283): on PostgreSQL a partition per UTC
// month, made ahead by the collector, a DEFAULT partition for a click whose month has none,
// and CLICK_RETENTION_MONTHS dropping months whole; on SQLite one table, and the same
// retention deleting rows in batches. What the API answers is the same on both.

import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../packages/collector/src/platform/config.js';
import {
  CLICK_PARTITIONS_AHEAD,
  dropOldClicks,
  maintainClicks,
  makeClickPartitions,
  retentionCutoff,
} from '../../packages/collector/src/modules/clicks/partitions.js';
import * as parts from '../../packages/collector/src/modules/clicks/partitions-repo.js';
import { checkStats, foldStats } from '../../packages/collector/src/modules/stats/service.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { startServer } from '../../packages/collector/src/server.js';
import { ENGINE, withDb } from './database.js';
import { seedPartner, startCollector, T0, type Collector } from './harness.js';

/** Registered on PostgreSQL only (not skipped elsewhere: a skipped test proves nothing). */
const itOnPostgres = (ENGINE === 'postgres' ? it : () => undefined) as typeof it;

const DAY = 86_400;
/** Unix seconds of a UTC instant. */
const utc = (iso: string) => Date.parse(iso) / 1000;

let c: Collector | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

/** The months attached to clicks (PostgreSQL), or none (SQLite). */
async function months(col: Collector): Promise<string[]> {
  return parts.partitioned(col.running.db) ? (await parts.partitions(col.running.db)).map((p) => p.name) : [];
}

/** A click at `time` through the partner's link; its id. */
async function clickAt(col: Collector, time: number, grId: string, key: string): Promise<string> {
  const saved = col.clock.now;
  col.clock.now = time;
  try {
    const reply = await col.call('POST', '/v1/tracking/click', { token: col.publishable, body: { gr_id: grId, pk: key } });
    expect(reply.status).toBe(202);
  } finally {
    col.clock.now = saved;
  }
  const row = await col.running.db.get<{ id: string }>('SELECT id FROM clicks WHERE program_id = ? AND gr_id = ?', [col.programId, grId]);
  return row!.id;
}

const listed = async (col: Collector, query = 'per_page=50'): Promise<string[]> =>
  (await col.call('GET', `/v1/clicks?${query}`)).body.data.map((d: { id: string }) => d.id);

const inDefault = async (col: Collector) =>
  Number((await col.running.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${parts.DEFAULT_PARTITION}`))?.n);

describe(`clicks by month (${ENGINE})`, () => {
  it('the start makes the current month and the next three, again and again only once; SQLite keeps one table', async () => {
    c = await startCollector();
    if (ENGINE === 'postgres') {
      // T0 is 2025-03-01 10:00 UTC.
      expect(await months(c)).toEqual(['clicks_2025_03', 'clicks_2025_04', 'clicks_2025_05', 'clicks_2025_06', 'clicks_default']);
      const [march] = (await parts.partitions(c.running.db)).filter((p) => p.name === 'clicks_2025_03');
      expect(march).toEqual({ name: 'clicks_2025_03', from: utc('2025-03-01T00:00:00Z'), to: utc('2025-04-01T00:00:00Z') });
      expect(await c.running.work.maintainClicks()).toEqual({ made: [], moved: 0, dropped: [], deleted: 0 });
      // The hourly step 40 days on: July comes into the window.
      c.clock.now = T0 + 40 * DAY;
      expect((await c.running.work.maintainClicks()).made).toEqual(['clicks_2025_07']);
    } else {
      expect(await c.running.work.maintainClicks()).toEqual({ made: [], moved: 0, dropped: [], deleted: 0 });
      const tables = await c.running.db.all<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'clicks%'",
      );
      expect(tables.map((t) => t.name).sort()).toEqual(['clicks', 'clicks_purged']);
    }
    expect(CLICK_PARTITIONS_AHEAD).toBe(3);
  });

  it('two makers at once, in three connections, make each month once and neither fails', async () => {
    c = await startCollector();
    const later = T0 + 365 * DAY; // 2026-03: four months no one made yet
    const runs = await withDb(c.databaseUrl, (a) =>
      withDb(c!.databaseUrl, (b) =>
        Promise.all([makeClickPartitions(a, later), makeClickPartitions(b, later), makeClickPartitions(c!.running.db, later)]),
      ),
    );
    const made = runs.flatMap((r) => r.made).sort();
    if (ENGINE === 'postgres') {
      expect(made).toEqual(['clicks_2026_03', 'clicks_2026_04', 'clicks_2026_05', 'clicks_2026_06']);
      expect((await months(c)).filter((m) => m >= 'clicks_2026')).toEqual([...made, 'clicks_default']);
    } else {
      expect(made).toEqual([]);
    }
  });

  it('a click in a month with no partition is kept (DEFAULT) and listed, and the next run moves it into its month', async () => {
    c = await startCollector();
    const { key } = await seedPartner(c);
    const far = T0 + 200 * DAY; // 2025-09-17: the start made March to June
    const id = await clickAt(c, far, 'stray', key);
    expect(await listed(c)).toEqual([id]);
    if (ENGINE === 'postgres') expect(await inDefault(c)).toBe(1);
    const done = await maintainClicks(c.running.db, { now: far });
    expect(done.moved).toBe(ENGINE === 'postgres' ? 1 : 0);
    if (ENGINE === 'postgres') {
      expect(done.made).toEqual(['clicks_2025_09', 'clicks_2025_10', 'clicks_2025_11', 'clicks_2025_12']);
      expect(await inDefault(c)).toBe(0);
      const row = await c.running.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM clicks_2025_09 WHERE id = ?', [id]);
      expect(Number(row?.n)).toBe(1);
    }
    expect(await listed(c)).toEqual([id]);
    // A stray of a month before the window is moved too (a clock set right after a long stop).
    const early = utc('2024-06-15T12:00:00Z');
    const old = await clickAt(c, early, 'early', key);
    const again = await maintainClicks(c.running.db, { now: far });
    if (ENGINE === 'postgres') expect(again).toEqual({ made: ['clicks_2024_06'], moved: 1, dropped: [], deleted: 0 });
    expect(await listed(c)).toEqual([id, old]);
  });

  it('pages by cursor and time ranges cross month boundaries as one list', async () => {
    c = await startCollector();
    await makeClickPartitions(c.running.db, utc('2025-01-10T00:00:00Z')); // January and February too
    const { key } = await seedPartner(c);
    const times = [
      '2025-01-15T12:00:00Z',
      '2025-01-31T23:59:59Z',
      '2025-02-01T00:00:00Z',
      '2025-02-28T23:59:59Z',
      '2025-03-01T00:00:00Z',
      '2025-03-31T23:59:59Z',
      '2025-04-01T00:00:00Z',
    ];
    const ids: string[] = [];
    for (const [i, t] of times.entries()) ids.push(await clickAt(c, utc(t), `edge-${i}`, key));
    const newestFirst = [...ids].reverse();
    expect(await listed(c)).toEqual(newestFirst);
    // Forwards two at a time, each page starting after the last one's last click.
    const forwards: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await c.call('GET', `/v1/clicks?per_page=2${cursor ? `&starting_after=${cursor}` : ''}`);
      forwards.push(...page.body.data.map((d: { id: string }) => d.id));
      cursor = page.body.data.at(-1)?.id;
      if (!page.body.meta.pagination.has_more) break;
    }
    expect(forwards).toEqual(newestFirst);
    // Backwards from the oldest, each page ending before the last one's first click.
    const backwards: string[] = [];
    cursor = ids[0];
    for (;;) {
      const page = await c.call('GET', `/v1/clicks?per_page=2&ending_before=${cursor}`);
      backwards.unshift(...page.body.data.map((d: { id: string }) => d.id));
      cursor = page.body.data[0]?.id;
      if (!page.body.meta.pagination.has_more) break;
    }
    expect(backwards).toEqual(newestFirst.slice(0, -1));
    // A range that spans the ends of months, and a cursor inside it.
    const range = 'created_at_gt=2025-01-31T23:59:58Z&created_at_lt=2025-03-01T00:00:01Z';
    expect(await listed(c, `${range}&per_page=50`)).toEqual(newestFirst.slice(2, 6));
    expect(await listed(c, `${range}&per_page=50&starting_after=${ids[3]}`)).toEqual([ids[2], ids[1]]);
    expect(await listed(c, `${range}&per_page=50&ending_before=${ids[2]}`)).toEqual([ids[4], ids[3]]);
  });
});

describe(`CLICK_RETENTION_MONTHS (${ENGINE})`, () => {
  it('is unset unless given (clicks kept), 0 is unset too, and it takes a number of months', () => {
    expect(loadConfig({}).clickRetentionMonths).toBeUndefined();
    expect(loadConfig({ CLICK_RETENTION_MONTHS: '0' }).clickRetentionMonths).toBeUndefined();
    expect(loadConfig({ CLICK_RETENTION_MONTHS: '13' }).clickRetentionMonths).toBe(13);
    expect(() => loadConfig({ CLICK_RETENTION_MONTHS: '-1' })).toThrow(/CLICK_RETENTION_MONTHS/);
    expect(() => loadConfig({ CLICK_RETENTION_MONTHS: 'two' })).toThrow(/CLICK_RETENTION_MONTHS/);
    // Counted back from the first of the current month (UTC).
    expect(retentionCutoff(utc('2025-04-20T08:00:00Z'), 2)).toBe(utc('2025-02-01T00:00:00Z'));
    expect(retentionCutoff(utc('2025-01-01T00:00:00Z'), 13)).toBe(utc('2023-12-01T00:00:00Z'));
  });

  /** Clicks of two partners in January to April 2025; the statistics folded. */
  async function fourMonths(col: Collector): Promise<Record<string, string>> {
    await makeClickPartitions(col.running.db, utc('2025-01-10T00:00:00Z'));
    const ann = await seedPartner(col);
    const bob = await seedPartner(col);
    const ids: Record<string, string> = {};
    for (const [name, t] of Object.entries({
      jan: '2025-01-20T10:00:00Z',
      jan2: '2025-01-31T23:59:59Z',
      feb: '2025-02-01T00:00:00Z',
      mar: '2025-03-15T10:00:00Z',
      apr: '2025-04-10T10:00:00Z',
    })) {
      ids[name] = await clickAt(col, utc(t), `r-${name}`, name === 'jan2' ? bob.key : ann.key);
    }
    await foldStats(col.running.db);
    return ids;
  }

  const stats = async (col: Collector) =>
    (await col.call('GET', '/v1/stats?from=2025-01-01&to=2025-12-31&interval=month')).body.data.attributes as {
      totals: { clicks: number };
      series: Array<{ start: string; clicks: number }>;
    };

  it('drops the months before the cutoff whole (PostgreSQL) or their clicks in batches (SQLite), and the statistics keep their totals', async () => {
    c = await startCollector();
    const ids = await fourMonths(c);
    const before = await stats(c);
    expect(before.totals.clicks).toBe(5);
    const now = utc('2025-04-20T08:00:00Z'); // two months back: February on is kept
    const done = await dropOldClicks(c.running.db, { now, retentionMonths: 2, batch: 1 });
    expect(done.deleted).toBe(2);
    if (ENGINE === 'postgres') {
      expect(done.dropped).toEqual(['clicks_2025_01']);
      expect(await months(c)).not.toContain('clicks_2025_01');
      expect(await c.running.db.get("SELECT to_regclass('clicks_2025_01') AS t")).toEqual({ t: null });
    } else {
      expect(done.dropped).toEqual([]);
    }
    expect(await listed(c)).toEqual([ids.apr, ids.mar, ids.feb]);
    // The totals and each month's count are what they were, January's clicks included.
    expect(await stats(c)).toEqual(before);
    // `tally stats check`: the records (clicks left, plus the dropped months' tallies) add up to them.
    expect(await checkStats(c.running.db)).toEqual([]);
    const purged = await c.running.db.all<{ clicks: number }>('SELECT clicks FROM clicks_purged WHERE program_id = ?', [c.programId]);
    expect(purged.map((p) => Number(p.clicks)).sort()).toEqual([1, 1]);
    // Again: nothing left to drop.
    expect(await dropOldClicks(c.running.db, { now, retentionMonths: 2 })).toEqual({ dropped: [], deleted: 0 });
    // The clicks before the cutoff stay, without the setting.
    expect(await maintainClicks(c.running.db, { now: now + 400 * DAY })).toMatchObject({ dropped: [], deleted: 0 });
  });

  itOnPostgres('a month detached by a run that stopped before dropping it is tallied and dropped by the next', async () => {
    c = await startCollector();
    await fourMonths(c);
    const before = await stats(c);
    await c.running.db.transaction((tx) => parts.detach(tx, 'clicks_2025_01'));
    expect(await parts.detached(c.running.db)).toEqual(['clicks_2025_01']);
    const done = await dropOldClicks(c.running.db, { now: utc('2025-04-20T08:00:00Z'), retentionMonths: 2 });
    expect(done).toEqual({ dropped: ['clicks_2025_01'], deleted: 2 });
    expect(await parts.detached(c.running.db)).toEqual([]);
    expect(await stats(c)).toEqual(before);
    expect(await checkStats(c.running.db)).toEqual([]);
  });

  it('a server with the setting drops old months at start', async () => {
    c = await startCollector();
    const ids = await fourMonths(c);
    await c.running.close(); // the database stays; c.close() drops it afterwards
    const later = await startServer(
      { port: 0, host: '127.0.0.1', databaseUrl: c.databaseUrl, logLevel: 'silent', clickRetentionMonths: 1, clickRetentionDays: 0 },
      createLogger('silent'),
      { now: () => utc('2025-04-20T08:00:00Z'), background: false },
    );
    try {
      const left = await later.db.all<{ id: string }>('SELECT id FROM clicks ORDER BY created_at');
      expect(left.map((r) => r.id)).toEqual([ids.mar, ids.apr]);
      if (ENGINE === 'postgres') {
        const names = (await parts.partitions(later.db)).map((p) => p.name);
        expect(names.filter((n) => n < 'clicks_2025_03')).toEqual([]);
        expect(names).toContain('clicks_2025_07');
      }
      expect(await checkStats(later.db)).toEqual([]);
    } finally {
      await later.close();
    }
  });
});
