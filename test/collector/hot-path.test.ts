// A guard on the hot path: the SQL a conversion and a click send to the database, counted
// exactly on both engines (and PostgreSQL's round trips), so that a statement added to
// every conversion is a decision someone makes with a benchmark, not a side effect.
// Counted at the drivers, only for the request itself (sent-sql.ts). The server's loops are
// slowed to once an hour too: SQLite runs a request's write in whichever batch was scheduled
// first, and a loop's batch would carry it out of the request's count.

import { afterEach, describe, expect, it } from 'vitest';
import { SETTINGS_LAG_MS, type Engine } from '../../packages/collector/src/platform/db/db.js';
import { ENGINE } from './database.js';
import { PUBLIC_URL, seedPartner, startCollector, type Collector } from './harness.js';
import { msUntil } from './served.js';
import { kind, watchSql, type RequestSql, type SqlWatch } from './sent-sql.js';

type Case =
  | 'a new conversion by pk'
  | 'a conversion by gr_id after a click'
  | 'a retried conversion (200)'
  | 'a new click'
  | 'a repeated click (within 30 minutes)';

interface Cost {
  statements: number;
  /** PostgreSQL only: queries sent, each waiting for its answer. */
  roundTrips?: number;
}

/**
 * Today's cost of each request once the settings it reads are in memory (platform/db/remembered.ts).
 * The first request after a settings change reads them too ("cold", in the comments): the
 * token, the origin, the slug's partnership, and a conversion the program's webhook endpoints.
 */
const HOT_PATH: Record<Engine, Record<Case, Cost>> = {
  sqlite: {
    // BEGIN IMMEDIATE, review's evidence (one SELECT: the visitor's click, the address's
    // and the browser's recent people; issue 34; whether the partnership was referred
    // before, issue 36), INSERT referrals, stat_deltas, events, COMMIT, the settings clock.
    // No SAVEPOINT and RELEASE since issue 47: a batch is rolled back and run again only
    // when a function fails after writing (group-commit.ts). A partnership's first
    // conversion (the cold one here) writes its partner's first-referral e-mail too: one
    // INSERT more, once per partnership.
    'a new conversion by pk': { statements: 7 },
    // As by pk, plus the click's partnership (read each time).
    'a conversion by gr_id after a click': { statements: 8 },
    // Review's evidence, the insert that finds the person referred, then their referral.
    'a retried conversion (200)': { statements: 6 },
    // The dedupe read, INSERT clicks and stat_deltas inside the batch. Cold: 9.
    'a new click': { statements: 6 },
    // The dedupe read and UPDATE clicks. Cold: 8.
    'a repeated click (within 30 minutes)': { statements: 5 },
  },
  postgres: {
    // Review's evidence (one SELECT; issue 34), then one INSERT … ON CONFLICT DO NOTHING
    // with the delta and the event as WITHs.
    'a new conversion by pk': { statements: 2, roundTrips: 2 },
    // Plus the click's partnership.
    'a conversion by gr_id after a click': { statements: 3, roundTrips: 3 },
    // Review's evidence, the insert that finds the person referred, then their referral.
    'a retried conversion (200)': { statements: 3, roundTrips: 3 },
    // BEGIN (with its three SET LOCALs in the same round trip, for PgBouncer:
    // issue 35), the visitor's advisory lock, the dedupe read, two inserts, COMMIT. Cold: 9 round trips.
    'a new click': { statements: 9, roundTrips: 6 },
    // BEGIN (+3 in its round trip), lock, the dedupe read, UPDATE clicks, COMMIT. Cold: 8 round trips.
    'a repeated click (within 30 minutes)': { statements: 8, roundTrips: 5 },
  },
};

/** SQLite's settings clock (platform/db/sqlite.ts): read after each commit, and again once 100 ms have passed. */
const SETTINGS_CLOCK = 'SELECT n FROM settings_version';

let c: Collector | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

interface Measured {
  status: number;
  statements: string[];
  roundTrips: number;
}

async function collector(): Promise<{ col: Collector; watch: SqlWatch }> {
  const col = await startCollector({ webhookPollMs: 3_600_000, foldEveryMs: 3_600_000 });
  c = col;
  const watch = watchSql(col.running.server);
  // PostgreSQL keeps nothing in memory until its listener is up (platform/db/pg-settings.ts).
  await msUntil(async () => col.running.db.settings.version() !== undefined);
  return { col, watch };
}

/** The request as the snippet sends it: the publishable token, from an allowed origin. */
async function measure(col: Collector, watch: SqlWatch, path: string, body: object): Promise<Measured> {
  let status = 0;
  const started = performance.now();
  const requests: RequestSql[] = await watch.during(async () => {
    status = (await col.call('POST', path, { token: col.publishable, body, headers: { origin: PUBLIC_URL } })).status;
  });
  const elapsed = performance.now() - started;
  expect(requests.length, 'one request, counted').toBe(1);
  const [{ statements, roundTrips }] = requests as [RequestSql];
  if (ENGINE !== 'sqlite') return { status, statements, roundTrips };
  // The clock's read after each COMMIT belongs to the request; a re-read because 100 ms
  // passed since the last one is shared by every request of those 100 ms, and left out.
  const commits = statements.filter((s) => s === 'COMMIT').length;
  const reads = statements.filter((s) => s === SETTINGS_CLOCK).length;
  expect(reads, 'the settings clock is read after each commit').toBeGreaterThanOrEqual(commits);
  expect(reads - commits, 'the settings clock re-read at most once per 100 ms').toBeLessThanOrEqual(
    1 + Math.floor(elapsed / SETTINGS_LAG_MS),
  );
  let extra = reads - commits;
  const counted = statements.filter((s) => s !== SETTINGS_CLOCK || extra-- <= 0);
  return { status, statements: counted, roundTrips };
}

/** A settings change, as an owner makes them: the next request reads its settings again. */
const settingsChange = (col: Collector) => seedPartner(col);

/** Fails with what to do about it when a count moved. */
function expectCost(which: Case, measured: Measured, expected = HOT_PATH[ENGINE][which]): void {
  const what = which.includes('click') ? 'click' : 'conversion';
  const sent = measured.statements.map(kind).join(', ') || 'nothing';
  const advice = (now: number, was: number) =>
    now > was
      ? `a statement added to the hot path costs every ${what}; if it is needed, measure \`npm run bench\` ` +
        '(CPU per conversion over the bare baseline) and update HOT_PATH in test/collector/hot-path.test.ts with the reason'
      : 'if that is a saving, update HOT_PATH in test/collector/hot-path.test.ts so that the guard keeps it; ' +
        'if the request ran no SQL at all, its statements were not counted (see sent-sql.ts)';
  expect(
    measured.statements.length,
    `${which} now sends ${measured.statements.length} statements on ${ENGINE} (was ${expected.statements}): ${sent}. ` +
      advice(measured.statements.length, expected.statements),
  ).toBe(expected.statements);
  if (expected.roundTrips !== undefined) {
    expect(
      measured.roundTrips,
      `${which} now takes ${measured.roundTrips} round trips to PostgreSQL (was ${expected.roundTrips}): ${sent}. ` +
        advice(measured.roundTrips, expected.roundTrips),
    ).toBe(expected.roundTrips);
  }
}

describe(`the hot path's SQL, counted (${ENGINE})`, () => {
  it('a new conversion by pk', async () => {
    const { col, watch } = await collector();
    const { key } = await seedPartner(col);
    // Their landings first, as the snippet records them: a conversion with none is held for review, which costs its event.
    for (const gr_id of ['visitor-1', 'visitor-2'])
      await col.call('POST', '/v1/tracking/click', { token: col.publishable, body: { gr_id, pk: key } });
    const cold = await measure(col, watch, '/v1/tracking/conversion', { email: 'first@buyers.test', gr_id: 'visitor-1', pk: key });
    expect(cold.status).toBe(201);
    const warm = await measure(col, watch, '/v1/tracking/conversion', { email: 'second@buyers.test', gr_id: 'visitor-2', pk: key });
    expect(warm.status).toBe(201);
    expectCost('a new conversion by pk', warm);
  });

  it('a conversion by gr_id after a click', async () => {
    const { col, watch } = await collector();
    const { key } = await seedPartner(col);
    const click = (gr_id: string) => col.call('POST', '/v1/tracking/click', { token: col.publishable, body: { gr_id, pk: key } });
    expect((await click('visitor-1')).status).toBe(202);
    await settingsChange(col);
    const cold = await measure(col, watch, '/v1/tracking/conversion', { email: 'first@buyers.test', gr_id: 'visitor-1' });
    expect(cold.status).toBe(201);
    expect((await click('visitor-2')).status).toBe(202);
    const warm = await measure(col, watch, '/v1/tracking/conversion', { email: 'second@buyers.test', gr_id: 'visitor-2' });
    expect(warm.status).toBe(201);
    expectCost('a conversion by gr_id after a click', warm);
  });

  it('a retried conversion (200)', async () => {
    const { col, watch } = await collector();
    const { key } = await seedPartner(col);
    const conversion = (n: number) => ({ email: `buyer-${n}@buyers.test`, gr_id: `visitor-${n}`, pk: key });
    const convert = (n: number) => col.call('POST', '/v1/tracking/conversion', { token: col.publishable, body: conversion(n) });
    expect((await convert(1)).status).toBe(201);
    await settingsChange(col);
    const cold = await measure(col, watch, '/v1/tracking/conversion', conversion(1));
    expect(cold.status).toBe(200);
    expect((await convert(2)).status).toBe(201);
    const warm = await measure(col, watch, '/v1/tracking/conversion', conversion(2));
    expect(warm.status).toBe(200);
    expectCost('a retried conversion (200)', warm);
  });

  it('a new click', async () => {
    const { col, watch } = await collector();
    const { key } = await seedPartner(col);
    const cold = await measure(col, watch, '/v1/tracking/click', { gr_id: 'visitor-1', pk: key });
    expect(cold.status).toBe(202);
    const warm = await measure(col, watch, '/v1/tracking/click', { gr_id: 'visitor-2', pk: key });
    expect(warm.status).toBe(202);
    expectCost('a new click', warm);
  });

  it('a repeated click (within 30 minutes)', async () => {
    const { col, watch } = await collector();
    const { key } = await seedPartner(col);
    const click = (gr_id: string) => col.call('POST', '/v1/tracking/click', { token: col.publishable, body: { gr_id, pk: key } });
    expect((await click('visitor-1')).status).toBe(202);
    await settingsChange(col);
    col.clock.now += 29 * 60;
    const cold = await measure(col, watch, '/v1/tracking/click', { gr_id: 'visitor-1', pk: key });
    expect(cold.status).toBe(202);
    expect((await click('visitor-2')).status).toBe(202);
    col.clock.now += 60;
    const warm = await measure(col, watch, '/v1/tracking/click', { gr_id: 'visitor-2', pk: key });
    expect(warm.status).toBe(202);
    expectCost('a repeated click (within 30 minutes)', warm);
  });
});
