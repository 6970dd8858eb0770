// The import's write path on both engines (imports.test.ts runs the platforms on SQLite
// alone): each object in its own transaction with its link, written once; a second run
// finds them all and writes nothing, and the kept totals equal a recount. An imported
// commission raises its commission.created, which a webhook receives, and no e-mail.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCollector, type Collector } from './harness.js';
import { tally } from './processes.js';
import { tablesHolding } from './database.js';
import { checkStats } from '../../packages/collector/src/modules/stats/service.js';
import { startReceiver, type Receiver } from './receiver.js';

let c: Collector;
let receiver: Receiver;
beforeAll(async () => {
  c = await startCollector({ outbound: { allowHttp: true, allowPrivate: true, timeoutMs: 1000 } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await c.close();
  await receiver.close();
});

it('a CSV import run twice, at once and then again, writes its rows once, and a later run says unchanged; erasing an imported person leaves no trace', async () => {
  const path = (name: string, text: string) => {
    writeFileSync(join(c.dir, name), text);
    return join(c.dir, name);
  };
  const args = [
    'import',
    'csv',
    '--program',
    c.programId,
    '--json',
    '--partners',
    path('p.csv', 'id,name,email,slugs\np1,Maya Lee,maya@partners.test,maya-old\n'),
    '--referrals',
    path('r.csv', 'id,partner_id,email,state\nr1,p1,ann@customer.test,paid\n'),
    '--commissions',
    path('c.csv', 'id,partner_id,referral_id,amount,currency,state\nc1,p1,r1,19.90,EUR,pending\nc2,p1,r1,5,EUR,paid\n'),
  ];
  const hook = await c.call('POST', '/v1/webhook_endpoints', { body: { url: `${receiver.url}/hook` } });
  expect(hook.status).toBe(201);
  const tables = [
    'partners',
    'partnerships',
    'slugs',
    'referrals',
    'commissions',
    'import_links',
    'stat_deltas',
    'events',
    'webhook_deliveries',
    'notifications',
  ];
  const counts = async () => {
    const n: Record<string, number> = {};
    for (const t of tables)
      n[t] = Number((await c.running.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t} WHERE program_id = ?`, [c.programId]))?.n);
    return n;
  };
  // Two runs at once (a second terminal, a retry beside a stuck run) take turns per object:
  // each object is imported by one of them and found unchanged by the other.
  const both = await Promise.all([tally(args, { DATABASE_URL: c.databaseUrl }), tally(args, { DATABASE_URL: c.databaseUrl })]);
  expect(both.map((r) => r.stderr)).toEqual(['', '']);
  const [a, b] = both.map((r) => JSON.parse(r.stdout).counts);
  for (const [kind, n] of [
    ['partner', 1],
    ['referral', 1],
    ['commission', 2],
  ] as const) {
    expect(a[kind].imported + b[kind].imported).toBe(n);
    expect(a[kind].unchanged + b[kind].unchanged).toBe(n);
  }
  const after = await counts();
  // Each commission's event once, with a delivery to the endpoint; history makes no e-mail (docs/importing.md).
  expect(after).toMatchObject({
    partners: 1,
    partnerships: 1,
    slugs: 1,
    referrals: 1,
    commissions: 2,
    import_links: 4,
    events: 2,
    webhook_deliveries: 2,
    notifications: 0,
  });
  const events = await c.running.db.all<{ type: string; data: string }>('SELECT type, data FROM events WHERE program_id = ?', [
    c.programId,
  ]);
  const made = await c.running.db.all<{ id: string }>('SELECT id FROM commissions WHERE program_id = ?', [c.programId]);
  expect(events.map((e) => e.type)).toEqual(['commission.created', 'commission.created']);
  expect(events.map((e) => JSON.parse(e.data).id).sort()).toEqual(made.map((r) => r.id).sort());
  // The server's delivery loop sends them (its clock set past the import's time).
  c.clock.now = Math.floor(Date.now() / 1000) + 60;
  await c.running.work.deliver();
  const got = receiver.received.filter((r) => r.path === '/hook');
  expect(got.map((r) => [r.json.type, r.json.data.attributes.amount, r.json.data.attributes.state]).sort()).toEqual([
    ['commission.created', 1990, 'pending'],
    ['commission.created', 500, 'paid'],
  ]);
  expect(got[0]!.json.data.attributes.reward_description).toBe('imported from CSV files');

  const second = await tally(args, { DATABASE_URL: c.databaseUrl });
  expect(JSON.parse(second.stdout).counts.commission).toEqual({ imported: 0, updated: 0, unchanged: 2, skipped: 0 });
  expect(await counts()).toEqual(after);
  expect(await checkStats(c.running.db, c.programId)).toEqual([]);

  // Erasing an imported person leaves no trace of their address, import_links included.
  expect((await tally(['forget', 'ann@customer.test'], { DATABASE_URL: c.databaseUrl })).code).toBe(0);
  expect(await tablesHolding(c.databaseUrl, 'ann@customer.test')).toEqual([]);
});
