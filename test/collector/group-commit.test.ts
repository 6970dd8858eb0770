// Group commit: writes that arrive together share one transaction and one fsync, each
// is answered only after that commit, and a failure stays with the requests it belongs
// to. Driven on a real database file, and through the real app.

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../packages/collector/src/platform/errors.js';
import { UniqueViolation, type Db } from '../../packages/collector/src/platform/db/db.js';
import { openSqlite } from '../../packages/collector/src/platform/db/sqlite.js';
import { seedPartner, startCollector } from './harness.js';

let dir: string;
let path: string;
let db: Db;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tally-group-'));
  path = join(dir, 'group.db');
  db = openSqlite(path, { busyTimeoutMs: 50 });
  await db.run('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)');
});
afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const insert = (k: string, v = 1) => db.transaction(async (tx) => (await tx.run('INSERT INTO t (k, v) VALUES (?, ?)', [k, v]), k));
/** What another process would read from the file: only committed rows. */
const storedElsewhere = () => {
  const other = new Database(path, { readonly: true });
  try {
    return (other.prepare('SELECT k FROM t ORDER BY k').all() as Array<{ k: string }>).map((r) => r.k);
  } finally {
    other.close();
  }
};

describe('the driver', () => {
  it('commits writes queued in the same turn once, and answers each with its own result', async () => {
    const before = db.stats();
    const keys = Array.from({ length: 20 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    expect(await Promise.all(keys.map((k) => insert(k)))).toEqual(keys);
    const after = db.stats();
    expect(after.batches - before.batches).toBe(1);
    expect(after.transactions - before.transactions).toBe(20);
    expect(storedElsewhere()).toEqual(keys);
  });

  it('a write queued in a later turn gets its own commit', async () => {
    const before = db.stats().batches;
    await insert('a');
    await insert('b');
    expect(db.stats().batches - before).toBe(2);
  });

  it('a function that throws is rolled back alone; the rest of its batch commits', async () => {
    const failing = () =>
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO t (k, v) VALUES (?, ?)', ['mine', 1]);
        throw new Error('the domain refused');
      });
    const duplicate = () =>
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO t (k, v) VALUES (?, ?)', ['solo', 2]);
        await tx.run('INSERT INTO t (k, v) VALUES (?, ?)', ['a', 2]); // a's key, queued before it
      });
    const results = await Promise.allSettled([insert('a'), failing(), insert('b'), duplicate(), insert('c')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('the domain refused');
    expect((results[3] as PromiseRejectedResult).reason).toBeInstanceOf(UniqueViolation);
    expect(storedElsewhere()).toEqual(['a', 'b', 'c']);
  });

  it('a function that fails before writing costs its batch nothing; one that fails halfway runs the others again, once', async () => {
    const runs = { a: 0, b: 0 };
    const counted = (k: 'a' | 'b') =>
      db.transaction(async (tx) => {
        runs[k]++;
        await tx.run('INSERT INTO t (k, v) VALUES (?, ?)', [k, runs[k]]);
        return k;
      });
    const refusing = () =>
      db.transaction(async (tx) => {
        await tx.get('SELECT COUNT(*) AS n FROM t');
        throw new Error('refused before writing');
      });
    const clean = await Promise.allSettled([counted('a'), refusing(), counted('b')]);
    expect(clean.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(runs).toEqual({ a: 1, b: 1 });

    const halfway = () =>
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO t (k, v) VALUES (?, ?)', ['half', 1]);
        throw new Error('refused after writing');
      });
    const before = db.stats().batches;
    await db.run('DELETE FROM t');
    const mixed = await Promise.allSettled([counted('a'), halfway(), counted('b')]);
    expect(mixed.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((mixed[1] as PromiseRejectedResult).reason.message).toBe('refused after writing');
    // a ran in the batch that was rolled back and again in the next, which committed it; b, never reached in the first, ran once.
    expect(runs).toEqual({ a: 3, b: 2 });
    expect(db.stats().batches - before).toBe(2);
    expect(storedElsewhere()).toEqual(['a', 'b']);
    expect((await db.all<{ v: number }>('SELECT v FROM t ORDER BY k')).map((r) => r.v)).toEqual([3, 2]);
  });

  it("later functions in a batch see the earlier ones' writes, in the order they were queued", async () => {
    const seen = await Promise.all(
      [1, 2, 3].map((v) =>
        db.transaction(async (tx) => {
          await tx.run('INSERT INTO t (k, v) VALUES (?, ?)', [`k${v}`, v]);
          return (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM t'))?.n;
        }),
      ),
    );
    expect(seen).toEqual([1, 2, 3]);
  });

  it('a batch that cannot commit fails every request in it with 503; the next batch is unaffected', async () => {
    const other = new Database(path);
    other.exec('BEGIN EXCLUSIVE');
    const refused = await Promise.allSettled(['x', 'y', 'z'].map((k) => insert(k)));
    for (const r of refused) {
      expect(r.status).toBe('rejected');
      const err = (r as PromiseRejectedResult).reason;
      expect(err).toBeInstanceOf(ServiceError);
      expect(err.code).toBe('unavailable');
      expect(err.retryAfter).toBe(1);
    }
    other.exec('ROLLBACK');
    other.close();
    expect(await Promise.all(['p', 'q'].map((k) => insert(k)))).toEqual(['p', 'q']);
    expect(storedElsewhere()).toEqual(['p', 'q']);
  });

  it('a disk that fills up mid-batch: every resolved write is stored, every refused one is 503 and absent', async () => {
    await insert('seed');
    const { pages } = (await db.get<{ pages: number }>('SELECT page_count AS pages FROM pragma_page_count()'))!;
    await db.run(`PRAGMA max_page_count = ${pages + 2}`);
    const big = 'x'.repeat(1500);
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        db.transaction(async (tx) => (await tx.run('INSERT INTO t (k, v) VALUES (?, ?)', [`${big}${i}`, i]), i)),
      ),
    );
    const resolved = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(refused.length).toBeGreaterThan(0);
    for (const err of refused) expect((err as ServiceError).code).toBe('unavailable');
    const keys = storedElsewhere().filter((k) => k !== 'seed');
    expect(keys.map((k) => Number(k.slice(big.length))).sort((a, b) => a - b)).toEqual(resolved);
  });
});

/**
 * Posts `n` conversions at once from a worker thread: a client on the server's own
 * event loop would stall whenever the server does, and never let requests pile up.
 */
async function sendFromAnotherThread(url: string, token: string, pk: string, n: number): Promise<number[]> {
  const code = `
    const { parentPort, workerData: w } = require('node:worker_threads');
    Promise.all(Array.from({ length: w.n }, (_, i) =>
      fetch(w.url + '/v1/tracking/conversion', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + w.token, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'group' + i + '@customers.test', gr_id: 'g' + i, pk: w.pk }),
      }).then((r) => r.status),
    )).then((statuses) => parentPort.postMessage(statuses));
  `;
  const worker = new Worker(code, { eval: true, workerData: { url, token, pk, n } });
  try {
    return await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe('through the app', () => {
  it('50 simultaneous conversions: all 201, all stored, in far fewer commits than requests', async () => {
    // The server's own background writes (the webhook loop's claims, the statistics' folds)
    // would count among the transactions measured: neither runs during this test.
    const c = await startCollector({ webhookPollMs: 3_600_000, foldEveryMs: 3_600_000 });
    try {
      const { key } = await seedPartner(c);
      const before = c.running.db.stats();
      const statuses = await sendFromAnotherThread(c.url, c.publishable, key, 50);
      expect(statuses).toEqual(Array(50).fill(201));
      const after = c.running.db.stats();
      expect(after.transactions - before.transactions).toBe(50);
      expect(after.batches - before.batches).toBeLessThan(25);
      const count = await c.running.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM referrals WHERE email_norm LIKE 'group%'");
      expect(count?.n).toBe(50);
    } finally {
      await c.close();
    }
  });
});
