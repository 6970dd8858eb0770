// The database a test runs against. The suite runs once per engine (vitest.config.ts):
// on SQLite each test gets a file in its own temp folder, on PostgreSQL its own schema
// in the test database, dropped afterwards. Tests name it by URL, as a user would.

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { checkStats } from '../../packages/collector/src/modules/stats/service.js';
import { openDatabase, openMigrated } from '../../packages/collector/src/platform/db/open.js';
import type { Db, Engine } from '../../packages/collector/src/platform/db/db.js';

export const ENGINE: Engine = process.env.TALLY_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** The database that holds the test schemas; postgres-setup.ts makes it. */
export const PG_TEST_URL = process.env.TALLY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/tally_test';

/**
 * Test schemas are named so, followed by the Unix time they were made at: a run drops
 * those a crashed run left behind hours ago, never those of a run going on beside it.
 */
export const SCHEMA_PREFIX = 'tally_t_';

/** Schemas older than this are a crashed run's leftovers. */
export const SCHEMA_STALE_SECONDS = 6 * 3600;

/** When a test schema was made, from its name; undefined for a name of another form. */
export function schemaMadeAt(name: string): number | undefined {
  const m = new RegExp(`^${SCHEMA_PREFIX}(\\d{10})_`).exec(name);
  return m ? Number(m[1]) : undefined;
}

export interface TestDatabase {
  engine: Engine;
  /** A DATABASE_URL for the server and the CLI. */
  url: string;
  /** A temp folder of the test's own, for anything else it writes (SQLite keeps its file here). */
  dir: string;
  drop(): Promise<void>;
}

/**
 * Where the collector under test connects: PgBouncer in transaction pooling mode, which
 * test/postgres/setup.ts starts for the run (docs/scaling.md), else the server itself.
 */
export const PG_POOLED_URL = process.env.TALLY_TEST_POOLED_URL ?? PG_TEST_URL;

/**
 * A URL whose connections all work in `schema`: each test schema has a login role of the
 * same name whose search_path is the schema, the way a pooler's connections get theirs
 * (a startup `options` would not pass PgBouncer, and a SET would leak to the next client).
 */
export function inSchema(schema: string, base = PG_POOLED_URL): string {
  return Object.assign(new URL(base), { username: schema, password: '' }).toString();
}

/** The same database past the pooler, for a test that needs a session of its own (SETs, EXPLAIN). */
export function directUrl(url: string): string {
  const direct = new URL(PG_TEST_URL);
  return Object.assign(new URL(url), { host: direct.host }).toString();
}

/** The schema (and role) a test URL works in. */
export const schemaOf = (url: string): string | undefined => /^\w+$/.exec(decodeURIComponent(new URL(url).username))?.[0];

/** `schema`, and a login role of its name whose search_path it is: inSchema's URL works in it. */
export const createSchemaRole = (c: pg.Client, schema: string) =>
  c.query(`CREATE ROLE ${schema} LOGIN; CREATE SCHEMA ${schema} AUTHORIZATION ${schema}; ALTER ROLE ${schema} SET search_path = ${schema}`);

export async function admin<T>(fn: (client: pg.Client) => Promise<T>, url = PG_TEST_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function testDatabase(engine: Engine = ENGINE): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-test-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  if (engine === 'sqlite') {
    return { engine, url: join(dir, 'tally.db'), dir, drop: async () => removeDir() };
  }
  const schema = `${SCHEMA_PREFIX}${Math.floor(Date.now() / 1000)}_${RUN}_${randomBytes(6).toString('hex')}`;
  await admin((c) => createSchemaRole(c, schema));
  return {
    engine,
    url: inSchema(schema),
    dir,
    async drop() {
      await admin((c) => c.query(`DROP SCHEMA ${schema} CASCADE`));
      removeDir(); // the role goes at the run's end (setup.ts): a pooled connection may still be logged in as it
    },
  };
}

/** This run's tag in its schemas' names (test/postgres/setup.ts sets it), so that its teardown drops its own. */
export const RUN = process.env.TALLY_TEST_RUN ?? 'solo';

/** Schemas this worker migrated and emptied after a test, for the next: creating the tables costs PostgreSQL 120-400 ms, emptying them a few. */
const emptied: string[] = [];

/** A SQLite file this worker migrated (at the time given first), copied for each collector: migrating one takes 70 ms, a copy 1. */
let migratedSqlite: Promise<string> | undefined;

function migratedCopy(url: string, migratedAt: number): Promise<void> {
  migratedSqlite ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-migrated-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'tally.db');
    // Closed, so the WAL is folded into the file and gone: the copy is the whole database.
    await (await openMigrated(file, migratedAt)).close();
    return file;
  })();
  return migratedSqlite.then((file) => copyFileSync(file, url));
}

/**
 * A database for a whole collector, as a fresh migration at `migratedAt` leaves it: the
 * tables, empty, and the migrations' own rows. On SQLite a copy of a file this worker
 * migrated; on PostgreSQL a schema an earlier test of this worker migrated and left empty,
 * when there is one, and dropping it empties it for the next test instead.
 */
export async function collectorDatabase(migratedAt: number, engine: Engine = ENGINE): Promise<TestDatabase> {
  const schema = engine === 'postgres' ? emptied.pop() : undefined;
  if (schema === undefined) {
    const fresh = await testDatabase(engine);
    if (engine === 'sqlite') {
      await migratedCopy(fresh.url, migratedAt);
      return fresh;
    }
    return { ...fresh, drop: () => emptyForNext(fresh) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'tally-test-'));
  const reused: TestDatabase = { engine, url: inSchema(schema), dir, drop: () => emptyForNext(reused) };
  return reused;
}

let shapeOfMigrated: string | undefined;

/** The schema's relations (tables, indexes, sequences) with their column counts, its triggers and its migrations: enough to tell one a test changed. */
async function shapeOf(c: pg.Client, schema: string): Promise<string> {
  const { rows } = await c.query<{ shape: string }>(
    `SELECT (SELECT string_agg(relname || ':' || relkind::text || ':' || relnatts, ',' ORDER BY relname) FROM pg_class WHERE relnamespace = $1::regnamespace)
         || '|' || (SELECT count(*) FROM pg_trigger WHERE tgrelid IN (SELECT oid FROM pg_class WHERE relnamespace = $1::regnamespace))
         || '|' || (SELECT string_agg(version::text, ',' ORDER BY version) FROM ${schema}.schema_migrations) AS shape`,
    [schema],
  );
  return rows[0]?.shape ?? '';
}

/** Tables whose rows a migration wrote: kept. */
const MIGRATION_ROWS = ['schema_migrations', 'settings_version'];

async function emptyForNext(database: TestDatabase): Promise<void> {
  const schema = schemaOf(database.url);
  if (!schema) throw new Error(`no schema in ${database.url}`);
  await admin(async (c) => {
    const { rows } = await c.query<{ t: string }>('SELECT tablename AS t FROM pg_tables WHERE schemaname = $1', [schema]);
    const tables = rows.map((r) => r.t).filter((t) => !MIGRATION_ROWS.includes(t));
    // Only a schema exactly as the migrations left it is kept: a test that dropped an index, or
    // made a table of its own, leaves one that is not.
    const shape = rows.some((r) => r.t === 'schema_migrations') ? await shapeOf(c, schema) : undefined;
    shapeOfMigrated ??= shape;
    if (shape === undefined || shape !== shapeOfMigrated) {
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      return;
    }
    // DELETE, not TRUNCATE: a handful of rows go in a millisecond, where TRUNCATE makes every table's files anew.
    // Replica role: no foreign-key checks, so the order of the tables does not matter.
    const deletes = tables.map((t) => `DELETE FROM ${schema}.${t}`).join('; ');
    await c.query(`BEGIN; SET LOCAL session_replication_role = replica; ${deletes}; COMMIT`);
    emptied.push(schema);
  });
  rmSync(database.dir, { recursive: true, force: true });
}

/** Opens the test's database with the collector's own driver, for a look behind the API. */
export async function withDb<T>(url: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = openDatabase(url);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

export async function tableNames(db: Db): Promise<string[]> {
  const sql =
    db.engine === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
      : // A partitioned table's months are its own rows, not tables of their own.
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()
          AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition AND relnamespace = current_schema()::regnamespace) ORDER BY table_name`;
  return (await db.all<{ name: string }>(sql)).map((r) => r.name);
}

/** Each table's rows as text, one string per table. */
export function contents(url: string): Promise<Map<string, string>> {
  return withDb(url, async (db) => {
    const tables = new Map<string, string>();
    for (const table of await tableNames(db)) {
      const rows = await db.all<Record<string, unknown>>(`SELECT * FROM ${table}`);
      tables.set(table, rows.map((row) => Object.values(row).join('\u0000')).join('\n'));
    }
    return tables;
  });
}

/** Every table that still holds `text` anywhere in a row, in any letter case. */
export async function tablesHolding(url: string, text: string): Promise<string[]> {
  const needle = text.toLowerCase();
  return [...(await contents(url))].filter(([, rows]) => rows.toLowerCase().includes(needle)).map(([table]) => table);
}

/**
 * The database's own consistency checks. SQLite's integrity and foreign-key checks;
 * PostgreSQL enforces foreign keys on every statement and checks pages itself, so
 * there it is an orphan scan of the references the API relies on.
 */
export function integrityProblems(url: string): Promise<unknown[]> {
  return withDb(url, async (db) => {
    // The dashboard's kept totals must equal a recount, whatever happened to the writes.
    const stats = (await checkStats(db)).map((problem) => ({ stats: problem }));
    if (db.engine === 'sqlite') {
      const integrity = await db.all<{ integrity_check: string }>('PRAGMA integrity_check');
      const problems: unknown[] = integrity.filter((r) => r.integrity_check !== 'ok');
      return [...problems, ...(await db.all('PRAGMA foreign_key_check')), ...stats];
    }
    return [
      ...stats,
      ...(await db.all(
        `SELECT 'referral' AS kind, r.id FROM referrals r LEFT JOIN partnerships p ON p.id = r.partnership_id WHERE p.id IS NULL
       UNION ALL
       SELECT 'commission', c.id FROM commissions c LEFT JOIN partners p ON p.id = c.partner_id WHERE p.id IS NULL
       UNION ALL
       SELECT 'payment', y.id FROM payments y LEFT JOIN commissions c ON c.id = y.commission_id WHERE c.id IS NULL`,
      )),
    ];
  });
}
