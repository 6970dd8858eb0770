// The kept totals while writes keep coming, on both engines: concurrent payments of one
// referral make one paying customer; `tally stats check` (checkStats) finds no difference
// in the middle of a write load, where a recount read at another moment than the kept
// totals would; and a repair under that load leaves totals that equal a recount.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkStats, foldStats, rebuildStats } from '../../packages/collector/src/modules/stats/service.js';
import { seedPartner, startCollector, type Collector } from './harness.js';

let c: Collector;
let key: string;
beforeAll(async () => {
  c = await startCollector();
  key = (await seedPartner(c)).key;
});
afterAll(async () => {
  await c?.close();
});

let sequence = 0;
/** Conversions from `workers` concurrent clients until `stop()`; resolves once all have ended. */
function load(workers: number): { made(): number; stop(): Promise<number> } {
  let stopped = false;
  let made = 0;
  const worker = async () => {
    while (!stopped) {
      const email = `live${sequence++}@buyer.test`;
      const reply = await c.call('POST', '/v1/tracking/conversion', { token: c.publishable, body: { email, gr_id: email, pk: key } });
      if (reply.status !== 201) throw new Error(`conversion: ${reply.status} ${JSON.stringify(reply.body)}`);
      made++;
      // And a click now and then, so two kinds of delta arrive together.
      if (made % 3 === 0) await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: `c${email}`, pk: key } });
    }
  };
  const running = Promise.all(Array.from({ length: workers }, worker));
  return {
    made: () => made,
    async stop() {
      stopped = true;
      await running;
      return made;
    },
  };
}

it('concurrent payments of one referral make one paying customer', async () => {
  const email = 'twice@buyer.test';
  const referral = await c.call('POST', '/v1/tracking/conversion', { token: c.publishable, body: { email, gr_id: email, pk: key } });
  const paid = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      c.call('POST', '/v1/payments', {
        body: { amount: 1000, currency: 'USD', idempotency_key: `twice${i}`, referral_id: referral.body.data.id },
      }),
    ),
  );
  expect(paid.map((p) => p.status)).toEqual(paid.map(() => 201));
  const firsts = await c.running.db.all<{ n: number }>(
    'SELECT COUNT(*) AS n FROM payments WHERE referral_id = ? AND first_of_referral = 1',
    [referral.body.data.id],
  );
  expect(Number(firsts[0]?.n)).toBe(1);
  const s = await c.call('GET', '/v1/stats?from=2025-03-01&to=2025-03-01');
  expect(s.body.data.attributes.totals).toMatchObject({ referrals: 1, customers: 1, payments: 8 });
  expect(await checkStats(c.running.db, c.programId)).toEqual([]);
});

it('a check in the middle of a write load finds no difference, and a repair under load keeps the totals exact', async () => {
  const writes = load(8);
  try {
    // Checks (and folds) until the load has made 150 conversions, so they overlap it.
    for (let i = 0; writes.made() < 150; i++) {
      expect(await checkStats(c.running.db, c.programId)).toEqual([]);
      if (i % 2 === 1) await foldStats(c.running.db, 50);
    }
    await rebuildStats(c.running.db);
    for (const after = writes.made() + 50; writes.made() < after; ) await new Promise((r) => setTimeout(r, 10));
  } finally {
    await writes.stop();
  }
  expect(await checkStats(c.running.db)).toEqual([]);
  while ((await foldStats(c.running.db)) > 0);
  expect(await checkStats(c.running.db)).toEqual([]);
});
