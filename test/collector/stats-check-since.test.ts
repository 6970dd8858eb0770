// `tally stats check --since`: the kept totals of the months from `since` on (and what is
// owed) against a recount of the records made since then. A difference before it is not
// looked at; one after it is found; the records before it are not counted against
// buckets the check leaves out.

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

const DAY = 86_400;
/** T0 is 2025-03-01 00:00 UTC; April starts 31 days later. */
const APRIL = T0 + 31 * DAY;

it('checks the months from --since on, with what is owed, and leaves the earlier ones alone', async () => {
  const p = await seedPartner(c, { paypal_email: 'since@partners.test' });
  for (const [at, who] of [
    [T0 + DAY, 'march'],
    [APRIL + DAY, 'april'],
  ] as const) {
    c.clock.now = at;
    await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: who, pk: p.key } });
    const made = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: `${who}@buyer.test`, gr_id: who, pk: p.key },
    });
    const paid = await c.call('POST', '/v1/payments', {
      body: { amount: 5000, currency: 'USD', idempotency_key: who, referral_id: made.body.data.id },
    });
    expect(paid.status).toBe(201);
  }
  while ((await foldStats(c.running.db)) > 0);
  const db = c.running.db;
  // Records on both sides of April, none of them a difference: the March ones are neither kept nor counted.
  expect(await checkStats(db, c.programId, APRIL)).toEqual([]);
  expect(await checkStats(db, c.programId)).toEqual([]);

  // A lost click in March: only the whole check sees it (the partner's row, and the program's against its partners').
  await db.run("UPDATE stat_buckets SET clicks = clicks - 1 WHERE program_id = ? AND partner_id <> '' AND bucket < ? AND clicks > 0", [
    c.programId,
    APRIL,
  ]);
  expect(await checkStats(db, c.programId, APRIL)).toEqual([]);
  expect(await checkStats(db, c.programId)).toHaveLength(2);

  // A doubled referral in April, and what is owed changed by hand: both are found from April on.
  await db.run(
    "UPDATE stat_buckets SET referrals = referrals + 1 WHERE program_id = ? AND partner_id <> '' AND bucket >= ? AND referrals > 0",
    [c.programId, APRIL],
  );
  await db.run("UPDATE stat_buckets SET owed = owed + 1 WHERE program_id = ? AND partner_id <> '' AND bucket = -1", [c.programId]);
  const found = await checkStats(db, c.programId, APRIL);
  expect(found).toHaveLength(4);
  expect(found.join('\n')).toContain(`partner ${c.programId} ${p.partnerId} -1 USD`);
  expect(found.every((line) => Number(line.split(' ')[3]) === -1 || Number(line.split(' ')[3]) >= APRIL)).toBe(true);
  expect(await checkStats(db, c.programId)).toHaveLength(6);
});
