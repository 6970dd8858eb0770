// tally backup FILE: SQLite's online backup while the server runs and writes, and a
// restore drill: a server started on the copy finds every row.

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { startServer } from '../../packages/collector/src/server.js';
import { seedPartner, startCollector, type Collector } from './harness.js';
import { tally } from './processes.js';

let c: Collector;
let dir: string;
beforeEach(async () => {
  c = await startCollector();
  dir = mkdtempSync(join(tmpdir(), 'tally-backup-'));
});
afterEach(async () => {
  await c.close();
  rmSync(dir, { recursive: true, force: true });
});

const convert = (key: string, email: string) =>
  c.call('POST', '/v1/tracking/conversion', { token: c.publishable, body: { email, gr_id: `g-${email}`, pk: key } });

it('copies a live database under write load; a server on the copy has every row acknowledged before it', async () => {
  const p = await seedPartner(c);
  const before: string[] = [];
  for (let i = 0; i < 200; i++) {
    const reply = await convert(p.key, `before${i}@buyer.test`);
    expect(reply.status).toBe(201);
    before.push(reply.body.data.id);
  }
  await c.call('POST', '/v1/payments', {
    body: { amount: 1234, currency: 'EUR', referral_id: before[0], idempotency_key: 'ch_backup' },
  });

  // Writers keep going while the backup runs.
  let writing = true;
  let during = 0;
  const load = (async () => {
    while (writing) if ((await convert(p.key, `during${during++}@buyer.test`)).status !== 201) throw new Error('write failed');
  })();
  const file = join(dir, 'copy.db');
  const run = await tally(['backup', file], { DATABASE_URL: c.databaseUrl });
  writing = false;
  await load;
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^Backed up to .*copy\.db: \d+ referrals, 1 commissions, 1 payments, 1 partners; integrity ok\.\n$/);
  expect(during).toBeGreaterThan(0);

  const restored = await startServer({ port: 0, host: '127.0.0.1', databaseUrl: file, logLevel: 'silent' }, createLogger('silent'));
  try {
    const get = async (path: string) => {
      const res = await fetch(restored.url + path, { headers: { authorization: `Bearer ${c.secret}` } });
      expect(res.status).toBe(200);
      return (await res.json()) as { data: Array<{ id: string }> };
    };
    const ids = new Set<string>();
    for (let page = 1; ; page++) {
      const { data } = await get(`/v1/referrals?per_page=50&page=${page}`);
      for (const r of data) ids.add(r.id);
      if (data.length < 50) break;
    }
    expect(before.filter((id) => !ids.has(id))).toEqual([]);
    expect((await get('/v1/commissions')).data).toHaveLength(1);
    expect((await get('/v1/partners')).data.map((x) => x.id)).toEqual([p.partnerId]);
  } finally {
    await restored.close();
  }
});

it('refuses to overwrite an existing file (exit 2) and leaves no partial file on failure', async () => {
  const file = join(dir, 'taken.db');
  writeFileSync(file, 'keep me');
  const run = await tally(['backup', file], { DATABASE_URL: c.databaseUrl });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/exists/);
  const missing = join(dir, 'no-such-dir', 'copy.db');
  const failed = await tally(['backup', missing], { DATABASE_URL: c.databaseUrl });
  expect(failed.code).toBe(1);
  expect(existsSync(`${missing}.partial`)).toBe(false);
});
