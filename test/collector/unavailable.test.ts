// A database that cannot take a write answers 503 unavailable with Retry-After: never a
// 2xx for data that was not stored, never a 500 with an internal message.

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createApp } from '../../packages/collector/src/app.js';
import { createProgram } from '../../packages/collector/src/domain/programs.js';
import { createLogger } from '../../packages/collector/src/log.js';
import type { Db } from '../../packages/collector/src/store/db.js';
import { migrate } from '../../packages/collector/src/store/migrations.js';
import { openSqlite } from '../../packages/collector/src/store/sqlite.js';
import { expectError } from './harness.js';

let dir: string;
let db: Db;
let server: Server;
let url: string;
let secret: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tally-busy-'));
  // A short busy timeout keeps the test quick; the server's default waits 5 s for the CLI.
  db = openSqlite(join(dir, 'tally.db'), { busyTimeoutMs: 50 });
  await migrate(db, 1);
  secret = (await createProgram(db, { name: 'P', siteUrl: 'https://p.test' }, 1)).tokens.secret;
  server = createServer(createApp({ db, log: createLogger('silent') }).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  await db.close();
  rmSync(dir, { recursive: true, force: true });
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
