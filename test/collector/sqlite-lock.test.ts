// Another process (the CLI, a backup) holding SQLite's write lock: a write waits for it
// without stopping the event loop, so health checks and reads go on answering at once
// (WAL readers never need the write lock); the write completes when the lock is
// released, or gets 503 with Retry-After once the limit has passed.

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../packages/collector/src/platform/db/db.js';
import { openSqlite } from '../../packages/collector/src/platform/db/sqlite.js';
import { expectError } from './harness.js';
import { serve, timed, until, type Served } from './served.js';

/** The limit on waiting for the lock: short for the test, long enough to tell from "at once". */
const LIMIT_MS = 1500;
/**
 * What "answers at once" means here: a few ms on an idle machine, but the suite shares
 * its cores, so a margin; far below the limit, which is what a frozen loop would take.
 */
const PROMPT_MS = 200;

let dir: string;
let path: string;
let db: Db;
let app: Served;
/** The other process: a second connection on the same file. */
let other: Database.Database;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tally-lock-'));
  path = join(dir, 'tally.db');
  db = openSqlite(path, { busyTimeoutMs: LIMIT_MS });
  app = await serve(db);
  other = new Database(path);
});
afterEach(async () => {
  if (other.inTransaction) other.exec('ROLLBACK');
  other.close();
  await app.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const partner = (name: string) => ({ name, email: `${name.toLowerCase()}@p.test` });
const partnerCount = async () => (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM partners'))?.n;

it('while the lock is held, /healthz, /readyz and a list answer at once; releasing it lets the write complete', async () => {
  for (const route of ['/healthz', '/readyz', '/v1/partners']) await app.call('GET', route); // the first calls' setup is not timed
  other.exec('BEGIN IMMEDIATE');
  const write = app.call('POST', '/v1/partners', partner('Waits'));
  await until(() => db.stats().waiting === 1); // the write has reached the driver and waits there

  for (const route of ['/healthz', '/readyz', '/v1/partners']) {
    const { value: reply, ms } = await timed(() => app.call('GET', route));
    expect(reply.status, route).toBe(200);
    expect(ms, route).toBeLessThan(PROMPT_MS);
  }
  expect((await app.call('GET', '/v1/partners')).body.data).toEqual([]); // not committed yet
  expect(db.stats().waiting).toBe(1); // and still waiting

  other.exec('COMMIT');
  const reply = await write;
  expect(reply.status).toBe(201);
  expect(reply.body.data.attributes.name).toBe('Waits');
  expect(await partnerCount()).toBe(1);
});

it('held past the limit: 503 with Retry-After once the limit has passed, and the server is fine afterwards', async () => {
  other.exec('BEGIN IMMEDIATE');
  const { value: refused, ms } = await timed(() => app.call('POST', '/v1/partners', partner('Refused')));
  expectError(refused, 503, 'unavailable');
  expect(refused.headers.get('retry-after')).toBe('1');
  expect(ms).toBeGreaterThanOrEqual(LIMIT_MS - 50); // it did wait for the lock, as long as allowed
  expect(ms).toBeLessThan(LIMIT_MS + 1000);
  expect(db.stats().waiting).toBe(0);
  other.exec('ROLLBACK');

  expect((await app.call('GET', '/healthz')).status).toBe(200);
  expect((await app.call('POST', '/v1/partners', partner('After'))).status).toBe(201);
  expect(await partnerCount()).toBe(1);
});

it('every write queued while waiting for the lock joins the one commit made once it is had', async () => {
  await db.run('CREATE TABLE t (k INTEGER PRIMARY KEY)');
  other.exec('BEGIN IMMEDIATE');
  const before = db.stats();
  const writes: Array<Promise<number>> = [];
  for (let k = 0; k < 10; k++) {
    writes.push(db.transaction(async (tx) => (await tx.run('INSERT INTO t (k) VALUES (?)', [k]), k)));
    await new Promise((resolve) => setTimeout(resolve, 5)); // each in a later turn, while the lock is held
  }
  await until(() => db.stats().waiting === 10);
  // A read meanwhile is not queued behind them, nor behind the driver's own lock.
  const { value: count, ms } = await timed(() => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM t'));
  expect(count).toEqual({ n: 0 });
  expect(ms).toBeLessThan(PROMPT_MS);

  other.exec('COMMIT');
  expect(await Promise.all(writes)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const after = db.stats();
  expect(after.batches - before.batches).toBe(1);
  expect(after.transactions - before.transactions).toBe(10);
});
