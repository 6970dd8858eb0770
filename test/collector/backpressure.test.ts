// Work the database cannot take yet waits in a bounded queue: SQLite's group-commit
// queue, PostgreSQL's callers waiting for a pooled connection. Past the bound a request
// is refused at once with 503 and Retry-After, instead of the queue (and the memory it
// holds) growing without end; what was queued completes and is stored.

import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../packages/collector/src/platform/db/db.js';
import { loadConfig } from '../../packages/collector/src/platform/config.js';
import { openDatabase } from '../../packages/collector/src/platform/db/open.js';
import { testDatabase, type TestDatabase } from './database.js';
import { expectError, type Reply } from './harness.js';
import { serve, until, type Served } from './served.js';

const BOUND = 5;
const REQUESTS = 30;

let database: TestDatabase;
let db: Db;
let app: Served;
/** Lets the held database go; afterEach calls it too, should a test fail while holding. */
let release: (() => Promise<void>) | undefined;

beforeEach(async () => {
  database = await testDatabase();
  // Opened as the server opens its configured database (DB_MAX_QUEUED, PG_POOL_SIZE).
  db = openDatabase(database.url, { poolSize: 1, maxQueued: BOUND });
  app = await serve(db);
});
afterEach(async () => {
  await release?.();
  await app.close();
  await db.close();
  await database.drop();
});

/**
 * Makes the database's work wait until the returned function is called. SQLite: another
 * process holds the write lock, so writes queue for the next commit. PostgreSQL: a
 * transaction holds the pool's one connection, so every query waits for it.
 */
async function holdTheDatabase(): Promise<void> {
  if (database.engine === 'sqlite') {
    const other = new Database(database.url);
    other.exec('BEGIN IMMEDIATE');
    release = async () => {
      release = undefined;
      other.exec('COMMIT');
      other.close();
    };
    return;
  }
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let holding = false;
  const held = db.transaction(async (tx) => {
    await tx.get('SELECT 1');
    holding = true;
    await gate;
  });
  await until(() => holding);
  release = async () => {
    release = undefined;
    open();
    await held;
  };
}

it(`past ${BOUND} waiting, requests are refused at once with 503 and Retry-After; every one queued is stored`, async () => {
  await holdTheDatabase();
  const answered: Reply[] = [];
  const replies = Array.from({ length: REQUESTS }, (_, i) =>
    app.call('POST', '/v1/partners', { name: `Queued ${i}`, email: `q${i}@p.test` }).then((reply) => {
      answered.push(reply);
      return reply;
    }),
  );

  // While the database is held, exactly the requests beyond the bound are answered: 503.
  await until(() => answered.length >= REQUESTS - BOUND);
  expect(answered).toHaveLength(REQUESTS - BOUND);
  for (const reply of answered) {
    expectError(reply, 503, 'unavailable');
    expect(reply.headers.get('retry-after')).toBe('1');
  }
  expect(db.stats().waiting).toBe(BOUND);

  await release?.();
  const all = await Promise.all(replies);
  const created = all.filter((r) => r.status === 201);
  expect(all.filter((r) => r.status !== 201 && r.status !== 503)).toEqual([]); // none 500
  expect(created).toHaveLength(BOUND);
  const stored = await db.all<{ id: string }>('SELECT id FROM partners ORDER BY id');
  expect(stored.map((r) => r.id)).toEqual(created.map((r) => r.body.data.id).sort());

  // And the bound refuses only while it is full.
  expect((await app.call('POST', '/v1/partners', { name: 'After', email: 'after@p.test' })).status).toBe(201);
});

it('takes the bound from DB_MAX_QUEUED, 10,000 by default', () => {
  expect(loadConfig({}).dbMaxQueued).toBe(10_000);
  expect(loadConfig({ DB_MAX_QUEUED: '250' }).dbMaxQueued).toBe(250);
  expect(() => loadConfig({ DB_MAX_QUEUED: '0' })).toThrow(/DB_MAX_QUEUED/);
});
