// The bench's PostgreSQL: a fresh schema per target in one bench database, dropped
// after. BENCH_POSTGRES_URL names the database (made if missing); without a server
// the PostgreSQL rows are reported as not run.

import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { createSchemaRole, inSchema } from '../test/collector/database.js';

const URL_ = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/tally_bench';

async function admin(url, fn) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Resolves to false, with the reason printed, when there is no server to bench. */
export async function postgresReady() {
  const name = new URL(URL_).pathname.slice(1);
  const maintenance = Object.assign(new URL(URL_), { pathname: '/postgres' }).toString();
  try {
    await admin(maintenance, async (c) => {
      const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) await c.query(`CREATE DATABASE "${name}"`);
    });
    return true;
  } catch (err) {
    console.log(`PostgreSQL rows not run: ${err.message} (BENCH_POSTGRES_URL=${URL_})`);
    return false;
  }
}

/**
 * A new, empty schema, and a login role of its name whose search_path it is: `url` works in
 * it directly, `pooled` (given PgBouncer's URL) through the pooler, where a startup
 * `options` could not pass (docs/scaling.md).
 */
export async function freshSchema(pooledBase) {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  await admin(URL_, (c) => createSchemaRole(c, schema));
  return {
    url: inSchema(schema, URL_),
    pooled: pooledBase === undefined ? undefined : inSchema(schema, pooledBase),
    drop: () => admin(URL_, (c) => c.query(`DROP SCHEMA ${schema} CASCADE; DROP ROLE ${schema}`)),
  };
}

export const BENCH_POSTGRES_URL = URL_;
