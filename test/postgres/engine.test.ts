// What only the PostgreSQL driver does: `?` placeholders, migrations and first starts
// that race, a server that is down, and the commands that belong to SQLite.

import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../packages/collector/src/app.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { ensureFirstProgram } from '../../packages/collector/src/flows/program.js';
import { generateToken } from '../../packages/collector/src/modules/tokens/service.js';
import { migrate } from '../../packages/collector/src/platform/db/migrate.js';
import { numbered, openPostgres } from '../../packages/collector/src/platform/db/postgres.js';
import { openDatabase } from '../../packages/collector/src/platform/db/open.js';
import { describeCause } from '../../packages/collector/src/platform/errors.js';
import { expectError } from '../collector/harness.js';
import { admin, directUrl, testDatabase, withDb, type TestDatabase } from '../collector/database.js';
import { tally } from '../collector/processes.js';

let database: TestDatabase;
beforeEach(async () => {
  database = await testDatabase('postgres');
});
afterEach(async () => {
  await database.drop();
});

describe('placeholders', () => {
  it('numbers each ? in order and leaves quoted literals alone', () => {
    expect(numbered("SELECT a FROM t WHERE b = ? AND c = '?' AND d IN (?, ?) AND e = 'it''s ?'")).toBe(
      "SELECT a FROM t WHERE b = $1 AND c = '?' AND d IN ($2, $3) AND e = 'it''s ?'",
    );
  });
});

describe('starting together', () => {
  it('six processes migrating one empty schema at once: each version is applied exactly once', async () => {
    const dbs = Array.from({ length: 6 }, () => openDatabase(database.url));
    try {
      const versions = await Promise.all(dbs.map((db) => migrate(db, 1)));
      expect(new Set(versions).size).toBe(1);
      const applied = await dbs[0]!.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(applied.map((r) => r.version)).toEqual(Array.from({ length: versions[0]! }, (_, i) => i + 1));
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  });

  it('six first starts on one empty database make one program, and only one of them prints its tokens', async () => {
    const dbs = Array.from({ length: 6 }, () => openDatabase(database.url));
    try {
      await migrate(dbs[0]!, 1);
      const made = await Promise.all(dbs.map((db) => ensureFirstProgram(db, { name: 'First', siteUrl: 'https://first.test/' }, 1)));
      expect(made.filter(Boolean)).toHaveLength(1);
      expect(await dbs[0]!.all('SELECT name FROM programs')).toEqual([{ name: 'First' }]);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  });
});

describe('a database that does not answer', () => {
  it('is 503 unavailable with Retry-After on every route, and /readyz says so', async () => {
    // Port 1: nothing listens there; the pool's connect fails at once.
    const db = openPostgres('postgres://postgres@127.0.0.1:1/tally', { poolSize: 1 });
    const app = createApp({ db, log: createLogger('silent') });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as { port: number };
    const call = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, init);
      return { status: res.status, headers: res.headers, body: await res.json() };
    };
    try {
      const token = { authorization: `Bearer ${generateToken('secret')}` }; // well-formed: it reaches the lookup
      const list = await call('/v1/partners', { headers: token });
      expectError(list, 503, 'unavailable');
      expect(list.headers.get('retry-after')).toBe('1');
      expect(JSON.stringify(list.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);
      expectError(await call('/readyz'), 503, 'unavailable');
    } finally {
      server.close();
      await db.close();
    }
  });

  it('a connection the server drops is told to the opener with its cause, and replaced', async () => {
    let told!: (err: Error) => void;
    const broke = new Promise<Error>((resolve) => (told = resolve));
    // Its own connections to the server: behind PgBouncer, the pooler would hide the drop.
    const db = openDatabase(directUrl(database.url), { onIdleError: (err) => told(err) });
    try {
      await migrate(db, 1);
      const pid = (await db.get<{ pid: number }>('SELECT pg_backend_pid() AS pid'))!.pid;
      await withDb(database.url, (other) => other.get('SELECT pg_terminate_backend(?)', [pid]));
      // The pool sees the idle connection close, and says so, instead of dropping it silently.
      expect(describeCause(await broke)).toMatch(/terminat/i);
      const after = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM schema_migrations');
      expect(after!.n).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  });

  it("a database that cannot be reached is named in the CLI's error, without its password, with the cause", async () => {
    const run = await tally(['programs', 'list'], { DATABASE_URL: 'postgres://bob:hunter2@127.0.0.1:1/nowhere?password=swordfish' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^tally: cannot use the database at postgres:\/\/127\.0\.0\.1:1\/nowhere: .*ECONNREFUSED/);
    expect(run.stderr).not.toContain('hunter2');
    expect(run.stderr).not.toContain('bob');
    expect(run.stderr).not.toContain('swordfish');
  });
});

describe('a row held by another transaction', () => {
  it('is waited for only lock_timeout, then 503 unavailable, and the holder is unharmed', async () => {
    const db = openPostgres(database.url, { lockTimeoutMs: 100 });
    try {
      await migrate(db, 1);
      const made = await ensureFirstProgram(db, { name: 'Held', siteUrl: 'https://held.test/' }, 1);
      const programId = made!.program.id;
      await admin(async (other) => {
        await other.query('BEGIN');
        await other.query('SELECT * FROM programs WHERE id = $1 FOR UPDATE', [programId]);
        const started = Date.now();
        // In a transaction, whose BEGIN sets it (a statement alone waits as long as its role's lock_timeout says).
        const write = db.transaction((tx) => tx.run('UPDATE programs SET name = ? WHERE id = ?', ['Changed', programId]));
        await expect(write).rejects.toMatchObject({ code: 'unavailable', retryAfter: 1 });
        expect(Date.now() - started).toBeLessThan(3000);
        await other.query('COMMIT');
      }, database.url);
      expect(await db.get('SELECT name FROM programs WHERE id = ?', [programId])).toEqual({ name: 'Held' });
    } finally {
      await db.close();
    }
  });
});

describe('choosing the engine', () => {
  it('postgres:// and postgresql:// are PostgreSQL; a path, sqlite: and file: are SQLite', async () => {
    const engines = [
      'postgres://u@127.0.0.1:1/x',
      'postgresql://u@127.0.0.1:1/x',
      join(database.dir, 'a.db'),
      `sqlite:${join(database.dir, 'b.db')}`,
      `file:${join(database.dir, 'c.db')}`,
    ].map((databaseUrl) => openDatabase(databaseUrl));
    try {
      expect(engines.map((db) => db.engine)).toEqual(['postgres', 'postgres', 'sqlite', 'sqlite', 'sqlite']);
    } finally {
      await Promise.all(engines.map((db) => db.close()));
    }
  });
});

describe('the CLI on PostgreSQL', () => {
  it('tally backup refuses and names the tools that back PostgreSQL up', async () => {
    const run = await tally(['backup', `${database.dir}/copy.db`], { DATABASE_URL: database.url });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('pg_dump');
  });
});
