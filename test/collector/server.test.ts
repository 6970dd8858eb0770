// The collector as a process: first start, restart, durability settings, graceful stop.

import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../packages/collector/src/platform/db/sqlite.js';
import { ENGINE, testDatabase, withDb, type TestDatabase } from './database.js';
import { rawExchange } from './edge.js';
import { halfSent, serve, tokensIn } from './processes.js';

let database: TestDatabase;
let env: Record<string, string>;
beforeEach(async () => {
  database = await testDatabase();
  // SQLite: a folder that does not exist yet, which the first start makes.
  env = { DATABASE_URL: ENGINE === 'sqlite' ? join(database.dir, 'nested', 'tally.db') : database.url };
});
afterEach(async () => {
  await database.drop();
});

/**
 * Posts a JSON body in two halves: once the server has read the headers and the first
 * half is sent, `between` runs; once it says it has taken effect, the rest is sent.
 */
async function slowPost(url: string, token: string, body: string, between: () => Promise<void>) {
  const post = halfSent(url, token, body);
  await post.written;
  await between();
  post.finish();
  return post.reply;
}

/** Resolves once the server at `url` accepts no new connection. */
async function refusingNewConnections(url: string): Promise<void> {
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; ) {
    if (
      await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) }).then(
        () => false,
        () => true,
      )
    )
      return;
  }
  throw new Error('the server still accepts connections');
}

describe('tally serve', () => {
  it('creates the database and a first program, prints its tokens once, and keeps data across restarts', async () => {
    const first = await serve(env);
    const tokens = tokensIn(first.output());
    expect(tokens.secret).toBeDefined();
    expect(tokens.publishable).toBeDefined();
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);

    const auth = { authorization: `Bearer ${tokens.secret}`, 'content-type': 'application/json' };
    const partner = await fetch(`${first.url}/v1/partners`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Kept', email: 'kept@p.test' }),
    });
    expect(partner.status).toBe(201);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await serve(env);
    try {
      expect(tokensIn(second.output())).toEqual({ secret: undefined, publishable: undefined });
      const list = (await (await fetch(`${second.url}/v1/partners`, { headers: auth })).json()) as {
        data: Array<{ attributes: { name: string } }>;
      };
      expect(list.data.map((p) => p.attributes.name)).toEqual(['Kept']);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('on SIGTERM finishes the request in flight, then exits 0 and refuses new connections', async () => {
    const s = await serve(env);
    const { secret } = tokensIn(s.output());
    const body = JSON.stringify({ name: 'In flight', email: 'flight@p.test' });
    const reply = await slowPost(`${s.url}/v1/partners`, secret!, body, async () => {
      s.child.kill('SIGTERM');
      await refusingNewConnections(s.url);
    });
    expect(reply.status).toBe(201);
    expect(JSON.parse(reply.text).data.attributes.name).toBe('In flight');
    expect(await s.exited).toBe(0);
    await expect(fetch(`${s.url}/healthz`)).rejects.toThrow();

    // The answered write is in the database.
    const rows = await withDb(env.DATABASE_URL!, (db) => db.all('SELECT name FROM partners'));
    expect(rows).toEqual([{ name: 'In flight' }]);
  });

  it('takes the edge settings from the environment: DEMO, and the timeouts that cut a silent client', async () => {
    const s = await serve({ ...env, DEMO: '0', HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600' });
    try {
      expect((await fetch(`${s.url}/demo/`)).status).toBe(404);
      const silent = await rawExchange(Number(new URL(s.url).port), [], 5000);
      expect(silent.closedAfterMs).toBeGreaterThan(0);
      expect(silent.closedAfterMs).toBeLessThan(2000);
      expect(silent.status).toBe(408);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });

  // SQLite: WAL mode, and COMMIT leaves the fsync to wal-sync.ts (synchronous=NORMAL).
  // PostgreSQL: COMMIT returns once the commit is flushed (synchronous_commit=on).
  it(`sets the ${ENGINE} connection so that a commit is on disk before anyone is answered`, async () => {
    if (ENGINE === 'sqlite') {
      const db = openSqlite(join(database.dir, 'pragma.db'));
      expect(await db.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
      expect(await db.get('PRAGMA synchronous')).toEqual({ synchronous: 1 });
      await db.close();
    } else {
      const setting = await withDb(database.url, (db) => db.get('SHOW synchronous_commit'));
      expect(setting).toEqual({ synchronous_commit: 'on' });
    }
  });
});
