// Random workloads through the API, with folds at random moments: the kept totals must
// equal a recount of the records after every one, on both engines, and the program's
// totals for a range must be its partners' totals added up.

import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkStats, foldStats } from '../../packages/collector/src/modules/stats/service.js';
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
  | { kind: 'pay'; referral: number; amount: number; currency: 'USD' | 'JPY' }
  | { kind: 'refund' | 'reject'; payment: number }
  | { kind: 'erase'; referral: number }
  | { kind: 'export' | 'cancel' | 'paid' }
  | { kind: 'fold' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('click' as const, 'convert' as const), partner: fc.nat(2), visitor: fc.nat(5) }),
  fc.record({
    kind: fc.constant('pay' as const),
    referral: fc.nat(5),
    amount: fc.integer({ min: 1, max: 100_000 }),
    currency: fc.constantFrom('USD' as const, 'JPY' as const),
  }),
  fc.record({ kind: fc.constantFrom('refund' as const, 'reject' as const), payment: fc.nat(5) }),
  fc.record({ kind: fc.constant('erase' as const), referral: fc.nat(5) }),
  fc.constant({ kind: 'fold' as const }),
  fc.record({ kind: fc.constantFrom('export' as const, 'cancel' as const, 'paid' as const) }),
);

let run = 0;
it('kept totals equal a recount after any mix of writes and folds', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(op, fc.integer({ min: 0, max: 3 * 86400 })), { minLength: 5, maxLength: 25 }), async (ops) => {
      run++;
      const partners = [await seedPartner(c, { paypal_email: `pay${run}@partners.test` }), await seedPartner(c), await seedPartner(c)];
      const referrals: string[] = [];
      const payments: Array<{ key: string; commission: string }> = [];
      for (const [o, offset] of ops) {
        c.clock.now = T0 + offset;
        if (o.kind === 'click' || o.kind === 'convert') {
          const p = partners[o.partner]!;
          const gr = `r${run}v${o.visitor}`;
          if (o.kind === 'click') await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: gr, pk: p.key } });
          const made =
            o.kind === 'convert' &&
            (await c.call('POST', '/v1/tracking/conversion', {
              token: c.publishable,
              body: { email: `${gr}@buyer.test`, gr_id: gr, pk: p.key },
            }));
          if (made && made.status === 201) referrals.push(made.body.data.id);
        } else if (o.kind === 'pay' && referrals.length > 0) {
          const key = `r${run}p${payments.length}`;
          const paid = await c.call('POST', '/v1/payments', {
            body: { amount: o.amount, currency: o.currency, idempotency_key: key, referral_id: referrals[o.referral % referrals.length] },
          });
          if (paid.status === 201) payments.push({ key, commission: paid.body.data.relationships.commission.data.id });
        } else if ((o.kind === 'refund' || o.kind === 'reject') && payments.length > 0) {
          const p = payments[o.payment % payments.length]!;
          if (o.kind === 'refund') await c.call('POST', '/v1/refunds', { body: { payment_id: p.key } });
          else await c.call('PATCH', `/v1/commissions/${p.commission}`, { body: { state: 'rejected', reject_reason: 'fraud' } });
        } else if (o.kind === 'erase' && referrals.length > 0) {
          await c.call('DELETE', `/v1/referrals/${referrals[o.referral % referrals.length]}`);
        } else if (o.kind === 'export') {
          await c.call('POST', '/v1/payout_batches', { body: {} });
        } else if (o.kind === 'cancel' || o.kind === 'paid') {
          const open = (await c.call('GET', '/v1/payout_batches')).body.data.find(
            (b: { attributes: { state: string } }) => b.attributes.state === 'open',
          );
          if (open) await c.call('POST', `/v1/payout_batches/${open.id}/${o.kind}`);
        } else if (o.kind === 'fold') {
          await foldStats(c.running.db, 7);
        }
      }
      expect(await checkStats(c.running.db, c.programId)).toEqual([]);
      // What the dashboard says is owed is what the payouts would take, and more only by
      // what no PayPal address or declined partnership holds back.
      const owed = (await c.call('GET', '/v1/stats?from=2025-03-01&to=2025-03-01')).body.data.attributes.owed;
      const payable = (await c.call('GET', '/v1/payouts/owed')).body.data as Array<{ currency: string; amount: number }>;
      for (const p of payable) expect(owed[p.currency] ?? 0).toBeGreaterThanOrEqual(p.amount);
      const whole = (await c.call('GET', '/v1/stats?from=2025-02-28&to=2025-03-05')).body.data.attributes.totals;
      const board = (await c.call('GET', '/v1/stats/partners?from=2025-02-28&to=2025-03-05&per_page=50')).body.data;
      expect(board.reduce((n: number, r: { attributes: { clicks: number } }) => n + r.attributes.clicks, 0)).toBe(whole.clicks);
      expect(board.reduce((n: number, r: { attributes: { referrals: number } }) => n + r.attributes.referrals, 0)).toBe(whole.referrals);
      // Ranked by the database, largest first, whatever the page size.
      for (const sort of ['clicks', 'referrals', 'customers'] as const) {
        const ranked = (await c.call('GET', `/v1/stats/partners?from=2025-02-28&to=2025-03-05&sort=${sort}&per_page=50`)).body.data.map(
          (r: { attributes: Record<string, number> }) => r.attributes[sort],
        );
        expect(ranked).toEqual([...ranked].sort((a: number, b: number) => b - a));
        const paged = [1, 2, 3].map((p) =>
          c.call('GET', `/v1/stats/partners?from=2025-02-28&to=2025-03-05&sort=${sort}&per_page=2&page=${p}`),
        );
        const pages = (await Promise.all(paged)).flatMap((r) =>
          r.body.data.map((x: { attributes: Record<string, number> }) => x.attributes[sort]),
        );
        expect(pages).toEqual(ranked.slice(0, pages.length));
      }
    }),
    { numRuns: 12, seed: 20261124 },
  );
  while ((await foldStats(c.running.db)) > 0);
  expect(await checkStats(c.running.db)).toEqual([]);
});
