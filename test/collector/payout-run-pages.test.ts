// A payout run over more partners than one page (flows/payout-send.ts, RUN_PAGE) and more
// payouts than one answer shows (ITEMS_SHOWN): made in a few statements a page, every
// commission held once, the kept totals equal to a recount, the items read a page at a time.

import { afterEach, beforeEach, expect, it } from 'vitest';
import { ITEMS_SHOWN, RUN_PAGE } from '../../packages/collector/src/flows/payout-send.js';
import { checkStats, foldStats } from '../../packages/collector/src/modules/stats/service.js';
import { seedPartner, startCollector, type Collector } from './harness.js';
import { kind, watchSql } from './sent-sql.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

/** `n` partners with a PayPal address, each owed in USD and EUR (two payouts each), and one without an address. */
async function owedPartners(n: number): Promise<number> {
  let expected = 0;
  const one = async (i: number) => {
    const { partnerId } = await seedPartner(c, { name: `Payee ${i}`, paypal_email: `payee${i}@pay.test` });
    for (const [amount, currency] of [
      [100 + i, 'USD'],
      [200 + i, 'EUR'],
    ] as const) {
      const made = await c.call('POST', '/v1/commissions', { body: { partner_id: partnerId, amount, currency } });
      expect(made.status).toBe(201);
      expected += amount;
    }
  };
  for (let i = 0; i < n; i += 25) await Promise.all(Array.from({ length: Math.min(25, n - i) }, (_, k) => one(i + k)));
  const carol = await seedPartner(c, { name: 'Carol' });
  await c.call('POST', '/v1/commissions', { body: { partner_id: carol.partnerId, amount: 700, currency: 'USD' } });
  return expected;
}

it('makes a run over more partners than a page in a few statements a page, and shows its payouts a page at a time', async () => {
  // More than a page of partners, and more payouts (two each) than an answer shows.
  const partners = Math.max(RUN_PAGE + 2, ITEMS_SHOWN / 2 + 1);
  const pages = Math.ceil(partners / RUN_PAGE);
  const amounts = await owedPartners(partners);
  expect(partners * 2).toBeGreaterThan(ITEMS_SHOWN);

  const watch = watchSql(c.running.server);
  let made: Awaited<ReturnType<Collector['call']>> | undefined;
  const [request] = await watch.during(async () => {
    made = await c.call('POST', '/v1/payout_runs');
  });
  expect(made!.status).toBe(201);
  expect(made!.body.data.attributes.items).toEqual({ pending: partners * 2 });
  expect(made!.body.included).toHaveLength(ITEMS_SHOWN);
  expect(made!.body.meta.skipped).toEqual([expect.objectContaining({ name: 'Carol', reason: 'no paypal_email' })]);
  // A claim a page: each page's writes are a few statements, not one or two per commission.
  const writes = request!.statements.map(kind).filter((k) => /^(INSERT|UPDATE|DELETE)/.test(k));
  expect(writes.filter((k) => k === 'UPDATE commissions')).toHaveLength(pages);
  expect(writes.length).toBeLessThanOrEqual(pages * 8 + 2);

  // The second page of payouts holds the rest; together they are every partner's two, once.
  const id = made!.body.data.id;
  const second = await c.call('GET', `/v1/payout_runs/${id}?page=2`);
  expect(second.status).toBe(200);
  expect(second.body.included).toHaveLength(partners * 2 - ITEMS_SHOWN);
  const all = [...made!.body.included, ...second.body.included];
  expect(new Set(all.map((i: { id: string }) => i.id)).size).toBe(partners * 2);
  expect(all.reduce((n: number, i: { attributes: { amount: number } }) => n + i.attributes.amount, 0)).toBe(amounts);
  expect((await c.call('GET', `/v1/payout_runs/${id}?page=3`)).body.included).toEqual([]);

  // Every commission is held by the run: nothing is owed but Carol's, and a second run finds nothing.
  const owed = (await c.call('GET', '/v1/payouts/owed')).body.data.map((o: { name: string; amount: number }) => [o.name, o.amount]);
  expect(owed).toEqual([['Carol', 700]]);
  expect((await c.call('POST', '/v1/payout_runs')).status).toBe(409);
  while ((await foldStats(c.running.db)) > 0);
  expect(await checkStats(c.running.db, c.programId)).toEqual([]);
}, 60_000);
