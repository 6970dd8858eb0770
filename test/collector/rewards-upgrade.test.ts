// An upgraded database pays exactly what it paid before groups and rewards: a program
// written with the schema of the release before them (migration 16), with a rate of its
// own, a recurring limit and a holding period, and a partnership with its own rate; then
// the collector of this release migrates it and is paid for its customers.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { addMonths } from '../../packages/collector/src/core/payout-terms.js';
import { generateToken, hashToken } from '../../packages/collector/src/modules/tokens/service.js';
import { migrate } from '../../packages/collector/src/platform/db/migrate.js';
import { openDatabase } from '../../packages/collector/src/platform/db/open.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { type RunningServer, startServer } from '../../packages/collector/src/server.js';
import { testDatabase, type TestDatabase } from './database.js';

const T0 = 1_740_823_200;
const DAY = 86_400;
const secret = generateToken('secret');
let database: TestDatabase;
let running: RunningServer;
let now = T0;

/** The release before rewards, written as it wrote its rows. */
async function fixture(url: string): Promise<void> {
  const db = openDatabase(url);
  await migrate(db, T0, { to: 16 });
  const rows: Array<[string, Record<string, string | number | null>]> = [
    [
      'programs',
      {
        id: 'prog',
        name: 'Before',
        site_url: 'https://before.test/',
        commission_rate_bps: 1500,
        cookie_days: 60,
        recurring_months: 3,
        hold_days: 7,
        minimum_payout: '{}',
        created_at: T0,
        updated_at: T0,
      },
    ],
    ['tokens', { id: 'tok', program_id: 'prog', kind: 'secret', hash: hashToken(secret), hint: 'fixture', created_at: T0 }],
    ...(['ann', 'bob'] as const).flatMap(
      (who): Array<[string, Record<string, string | number | null>]> => [
        [
          'partners',
          { id: who, program_id: 'prog', name: who, email: `${who}@p.test`, email_norm: `${who}@p.test`, created_at: T0, updated_at: T0 },
        ],
        [
          'partnerships',
          {
            id: `ps-${who}`,
            program_id: 'prog',
            partner_id: who,
            key: who,
            state: 'accepted',
            created_by: 'company',
            // Bob has a rate of his own, and no recurring limit.
            commission_rate_bps: who === 'bob' ? 1000 : null,
            recurring_months: who === 'bob' ? 0 : null,
            state_set_at: T0,
            created_at: T0,
            updated_at: T0,
          },
        ],
        ['slugs', { program_id: 'prog', slug: who, partnership_id: `ps-${who}` }],
        [
          'referrals',
          {
            id: `ref-${who}`,
            program_id: 'prog',
            partnership_id: `ps-${who}`,
            partner_id: who,
            email: `${who}-customer@b.test`,
            email_norm: `${who}-customer@b.test`,
            gr_id: `g-${who}`,
            state: 'converted',
            state_set_at: T0,
            created_at: T0,
            updated_at: T0,
          },
        ],
      ],
    ),
  ];
  await db.transaction(async (tx) => {
    for (const [table, row] of rows) {
      const columns = Object.keys(row);
      await tx.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, Object.values(row));
    }
  });
  await db.close();
}

beforeAll(async () => {
  database = await testDatabase();
  await fixture(database.url);
  running = await startServer(
    { port: 0, host: '127.0.0.1', databaseUrl: database.url, logLevel: 'silent', publicUrl: 'http://localhost:8787' },
    createLogger('silent'),
    { now: () => now, background: false },
  );
});
afterAll(async () => {
  await running.close();
  await database.drop();
});

async function pay(who: string, at: number, key: string) {
  now = at;
  const res = await fetch(`${running.url}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 9_999, currency: 'USD', idempotency_key: key, referral_email: `${who}-customer@b.test` }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { included: Array<{ attributes: Record<string, unknown> }> }).included[0]!.attributes;
}

it('pays the program rate within its recurring limit, the partnership its own rate for ever, held as before', async () => {
  const first = T0 + DAY;
  // 15 % of 9,999 is 1,499.85: 1,500, half up, as the release before rounded it.
  expect(await pay('ann', first, 'a1')).toMatchObject({ amount: 1500, state: 'pending', payable_at: first + 7 * DAY });
  expect(await pay('ann', addMonths(first, 3) - 1, 'a2')).toMatchObject({ amount: 1500, state: 'pending' });
  expect(await pay('ann', addMonths(first, 3), 'a3')).toMatchObject({
    amount: 0,
    state: 'rejected',
    reject_reason: 'beyond the recurring limit of 3 months from the first payment',
  });
  expect(await pay('bob', first, 'b1')).toMatchObject({ amount: 1000, state: 'pending' });
  expect(await pay('bob', addMonths(first, 40), 'b2')).toMatchObject({ amount: 1000, state: 'pending' });
});

it('puts every partnership in the default group, whose base reward is the program rate', async () => {
  const res = await fetch(`${running.url}/v1/rewards`, { headers: { authorization: `Bearer ${secret}` } });
  const { data } = (await res.json()) as { data: Array<{ attributes: Record<string, unknown> }> };
  expect(data.map((r) => r.attributes)).toEqual([
    expect.objectContaining({ event: 'sale', kind: 'percentage', amount: 1500, base: true, duration: { kind: 'months', months: 3 } }),
  ]);
  const ps = await fetch(`${running.url}/v1/partnerships`, { headers: { authorization: `Bearer ${secret}` } });
  const groups = ((await ps.json()) as { data: Array<{ attributes: { group_id: string } }> }).data.map((p) => p.attributes.group_id);
  expect(new Set(groups).size).toBe(1);
  expect(groups[0]).toBe('grp_prog');
});
