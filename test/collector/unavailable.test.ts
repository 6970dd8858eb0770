// A database that cannot take a write answers 503 unavailable with Retry-After: never a
// 2xx for data that was not stored, never a 500 with an internal message.

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../packages/collector/src/platform/db/db.js';
import { openSqlite } from '../../packages/collector/src/platform/db/sqlite.js';
import { expectError } from './harness.js';
import { serve, type Served } from './served.js';

let dir: string;
let db: Db;
let app: Served;
let url: string;
let secret: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tally-busy-'));
  // A short busy timeout keeps the test quick; the server's default waits 5 s for the CLI.
  db = openSqlite(join(dir, 'tally.db'), { busyTimeoutMs: 50 });
  app = await serve(db);
  ({ url, secret } = app);
});
afterEach(async () => {
  await app.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const postPartner = () =>
  fetch(`${url}/v1/partners`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `P ${++n} ${'x'.repeat(150)}`, email: `p${n}@p.test` }),
  });

/** Posts partners until one is refused; checks the refusal and that exactly the 201s are stored. */
async function writeUntilRefused() {
  const created: string[] = [];
  for (let i = 0; i < 5000; i++) {
    const res = await postPartner();
    const body = await res.json();
    if (res.status === 201) {
      created.push(body.data.id);
      continue;
    }
    expectError({ status: res.status, headers: res.headers, body }, 503, 'unavailable');
    expect(res.headers.get('retry-after')).toBe('1');
    expect(JSON.stringify(body)).not.toMatch(/SQLITE|full|readonly|read-only/i);
    const stored = await db.all<{ id: string }>('SELECT id FROM partners ORDER BY id');
    expect(stored.map((r) => r.id)).toEqual([...created].sort());
    return created;
  }
  throw new Error('never refused');
}

it('a full database (no page left) gets 503 with Retry-After; every 201 is stored and nothing else', async () => {
  const { pages } = (await db.get<{ pages: number }>('SELECT page_count AS pages FROM pragma_page_count()'))!;
  await db.run(`PRAGMA max_page_count = ${pages + 3}`);
  const created = await writeUntilRefused();
  expect(created.length).toBeGreaterThan(0);
  await db.run('PRAGMA max_page_count = 1000000');
  expect((await postPartner()).status).toBe(201); // and it recovers once there is room
});

it('a read-only database gets 503 with Retry-After on writes, and reads still work', async () => {
  await db.run('PRAGMA query_only = ON');
  expect(await writeUntilRefused()).toEqual([]);
  const list = await fetch(`${url}/v1/partners`, { headers: { authorization: `Bearer ${secret}` } });
  expect(list.status).toBe(200);
  await db.run('PRAGMA query_only = OFF');
  expect((await postPartner()).status).toBe(201);
});

it('a write while another process holds the write lock gets 503 with Retry-After, and nothing is stored', async () => {
  const other = new Database(join(dir, 'tally.db'));
  other.exec('BEGIN EXCLUSIVE');
  const post = () =>
    fetch(`${url}/v1/partners`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'x-request-id': 'req-503' },
      body: JSON.stringify({ name: 'Locked out', email: 'locked@p.test' }),
    });
  const res = await post();
  const body = await res.json();
  expect(res.headers.get('retry-after')).toBe('1');
  const err = expectError({ status: res.status, headers: res.headers, body }, 503, 'unavailable');
  expect(err.meta).toEqual({ request_id: 'req-503' });
  expect(JSON.stringify(body)).not.toMatch(/SQLITE|locked|busy/i);
  other.exec('ROLLBACK');

  expect(await db.get('SELECT COUNT(*) AS n FROM partners')).toEqual({ n: 0 });
  expect((await post()).status).toBe(201); // and it recovers once the lock is gone
  other.close();
});
