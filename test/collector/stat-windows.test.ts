// The leaderboard's kept windows (modules/stats/windows.ts): random workloads with folds and
// builds in small slices at random moments, and deltas left unfolded at the end; a ranking
// from a window must be the live ranking, page by page, and the windows equal their buckets.

import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkStats, foldStats, keepWindows, partnerTotals, WINDOWS_KEPT } from '../../packages/collector/src/modules/stats/service.js';
import { rankPartners, type Rank } from '../../packages/collector/src/modules/stats/repo.js';
import { rankFromWindow } from '../../packages/collector/src/modules/stats/windows.js';
import * as windows from '../../packages/collector/src/modules/stats/window-repo.js';
import { seedPartner, startCollector, T0, type Collector } from './harness.js';

let c: Collector;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(async () => {
  await c?.close();
});

type Op =
  | { kind: 'click' | 'convert'; partner: number; visitor: number }
  | { kind: 'pay'; referral: number; amount: number; currency: 'USD' | 'EUR' }
  | { kind: 'refund'; payment: number }
  | { kind: 'fold' | 'keep' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('click' as const, 'convert' as const), partner: fc.nat(4), visitor: fc.nat(6) }),
  fc.record({
    kind: fc.constant('pay' as const),
    referral: fc.nat(6),
    amount: fc.integer({ min: 1, max: 50_000 }),
    currency: fc.constantFrom('USD' as const, 'EUR' as const),
  }),
  fc.record({ kind: fc.constant('refund' as const), payment: fc.nat(5) }),
  fc.record({ kind: fc.constantFrom('fold' as const, 'keep' as const) }),
);

const RANGE = { from: '2025-02-28', to: '2025-03-05', tz: 'Europe/Paris' };
const QUERY = `from=${RANGE.from}&to=${RANGE.to}&tz=${RANGE.tz}`;
/** The range in Unix seconds: Paris midnights, an hour before UTC's in winter. */
const START = Date.UTC(2025, 1, 27, 23) / 1000;
const END = Date.UTC(2025, 2, 5, 23) / 1000;

let run = 0;
let fromWindows = 0;

async function apply(ops: Array<[Op, number]>, partners: Array<{ key: string }>, referrals: string[], payments: string[]) {
  for (const [o, offset] of ops) {
    c.clock.now = T0 + offset;
    if (o.kind === 'click' || o.kind === 'convert') {
      const gr = `w${run}v${o.visitor}`;
      const pk = partners[o.partner]!.key;
      if (o.kind === 'click') await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: gr, pk } });
      else {
        const made = await c.call('POST', '/v1/tracking/conversion', {
          token: c.publishable,
          body: { email: `${gr}@buyer.test`, gr_id: gr, pk },
        });
        if (made.status === 201) referrals.push(made.body.data.id);
      }
    } else if (o.kind === 'pay' && referrals.length > 0) {
      const key = `w${run}p${payments.length}`;
      const paid = await c.call('POST', '/v1/payments', {
        body: { amount: o.amount, currency: o.currency, idempotency_key: key, referral_id: referrals[o.referral % referrals.length] },
      });
      if (paid.status === 201) payments.push(key);
    } else if (o.kind === 'refund' && payments.length > 0) {
      await c.call('POST', '/v1/refunds', { body: { payment_id: payments[o.payment % payments.length] } });
    } else if (o.kind === 'fold') {
      await foldStats(c.running.db, 3);
    } else if (o.kind === 'keep') {
      // Slices of two bucket rows: a window is built over several upkeeps, folds in between.
      await keepWindows(c.running.db, c.clock.now, 1, 2);
    }
  }
}

it('a ranking from a kept window is the live ranking, with deltas unfolded, and the windows equal their buckets', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(op, fc.integer({ min: 0, max: 3 * 86400 })), { minLength: 5, maxLength: 25 }),
      fc.array(fc.tuple(op, fc.integer({ min: 0, max: 3 * 86400 })), { maxLength: 8 }),
      async (before, after) => {
        run++;
        const partners = await Promise.all(Array.from({ length: 5 }, () => seedPartner(c)));
        const referrals: string[] = [];
        const payments: string[] = [];
        // The range is asked for first: the upkeeps among the writes register and build its window.
        expect((await c.call('GET', `/v1/stats/partners?${QUERY}&sort=clicks`)).status).toBe(200);
        await apply(before, partners, referrals, payments);
        await keepWindows(c.running.db, c.clock.now, 10_000);
        await apply(after, partners, referrals, payments);

        const db = c.running.db;
        const ranks: Rank[] = [
          { measure: 'clicks' },
          { measure: 'referrals' },
          { measure: 'revenue', currency: 'USD' },
          { measure: 'commissions', currency: 'EUR' },
        ];
        for (const rank of ranks) {
          const currency = 'currency' in rank ? rank.currency : '';
          for (const [limit, offset] of [
            [1, 0],
            [2, 1],
            [6, 0],
          ] as const) {
            const kept = await rankFromWindow(
              db,
              c.programId,
              { start: START, end: END },
              rank.measure as windows.Ranked,
              currency,
              limit,
              offset,
            );
            if (kept === undefined) continue;
            fromWindows++;
            expect(kept.ids).toEqual(await rankPartners(db, c.programId, START, END, rank, limit, offset));
          }
        }
        // The page's figures, read from the window when it ranked them, are the buckets' and deltas' own.
        const page = (await c.call('GET', `/v1/stats/partners?${QUERY}&sort=clicks&per_page=2`)).body.data;
        const live = await partnerTotals(
          db,
          c.programId,
          START,
          END,
          page.map((r: { id: string }) => r.id),
        );
        for (const row of page) {
          const mine = live.filter((t) => t.partner_id === row.id);
          const sum = (m: 'clicks' | 'referrals' | 'revenue') => mine.reduce((n, t) => n + Number(t[m]), 0);
          expect([row.attributes.clicks, row.attributes.referrals]).toEqual([sum('clicks'), sum('referrals')]);
          const usd = mine.find((t) => t.currency === 'USD');
          expect(row.attributes.revenue.USD ?? 0).toBe(Number(usd?.revenue ?? 0));
        }
        expect(await checkStats(db, c.programId)).toEqual([]);
      },
    ),
    { numRuns: 12, seed: 20261207 },
  );
  // The property held over rankings that did come from a window.
  expect(fromWindows).toBeGreaterThan(10);
  while ((await foldStats(c.running.db)) > 0);
  expect(await checkStats(c.running.db)).toEqual([]);
});

it('a range that ends tomorrow has tomorrow’s window made ahead, and a window nobody asks for is dropped after two days', async () => {
  const now = Date.UTC(2025, 2, 5, 12) / 1000;
  c.clock.now = now;
  const today = `from=2025-02-04&to=2025-03-05&tz=UTC`;
  expect((await c.call('GET', `/v1/stats/partners?${today}&sort=clicks`)).status).toBe(200);
  await keepWindows(c.running.db, now, 10_000);
  const ranges = async () =>
    (await windows.all(c.running.db)).filter((w) => w.zone === 'UTC').map((w) => [w.from_day, w.to_day, w.building]);
  expect(await ranges()).toEqual([
    ['2025-02-04', '2025-03-05', 0],
    ['2025-02-05', '2025-03-06', 0],
  ]);
  // A day later, nobody having asked again: tomorrow's window makes no window of its own.
  await keepWindows(c.running.db, now + 86_400 + 60, 10_000);
  expect(await ranges()).toHaveLength(2);
  await keepWindows(c.running.db, now + 2 * 86_400 + 1, 10_000);
  expect(await ranges()).toEqual([]);
});

it('a program keeps its latest asked-for windows only, however many ranges it asks for', async () => {
  const now = Date.UTC(2025, 3, 1) / 1000;
  for (let d = 1; d <= WINDOWS_KEPT + 3; d++) {
    c.clock.now = now + d;
    const day = String(d).padStart(2, '0');
    expect((await c.call('GET', `/v1/stats/partners?from=2025-01-${day}&to=2025-01-20&tz=Asia/Tokyo&sort=clicks`)).status).toBe(200);
  }
  await keepWindows(c.running.db, now + 100, 10_000);
  const tokyo = (await windows.all(c.running.db)).filter((w) => w.zone === 'Asia/Tokyo').map((w) => w.from_day);
  expect(tokyo.sort()).toEqual(Array.from({ length: WINDOWS_KEPT }, (_, i) => `2025-01-${String(i + 4).padStart(2, '0')}`));
});

it('a range asked for on one database is kept on that database only, however many a process serves', async () => {
  const other = await startCollector();
  try {
    const now = Date.UTC(2025, 4, 10) / 1000;
    other.clock.now = now;
    expect((await other.call('GET', '/v1/stats/partners?from=2025-05-01&to=2025-05-07&tz=UTC&sort=clicks')).status).toBe(200);
    const may = async (db: typeof c.running.db) => (await windows.all(db)).filter((w) => w.from_day === '2025-05-01').length;
    await keepWindows(c.running.db, now, 10_000);
    expect(await may(c.running.db)).toBe(0);
    await keepWindows(other.running.db, now, 10_000);
    expect(await may(other.running.db)).toBe(1);
  } finally {
    await other.close();
  }
});
