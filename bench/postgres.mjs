// The bench's PostgreSQL: a fresh schema per target in one bench database, dropped
// after. BENCH_POSTGRES_URL names the database (made if missing); without a server
// the PostgreSQL rows are reported as not run.

import pg from 'pg';
import { randomBytes } from 'node:crypto';

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

/** A new, empty schema; `url` makes every connection work in it. */
export async function freshSchema() {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  await admin(URL_, (c) => c.query(`CREATE SCHEMA ${schema}`));
  const options = encodeURIComponent(`-c search_path=${schema}`);
  return {
    url: `${URL_}${URL_.includes('?') ? '&' : '?'}options=${options}`,
    drop: () => admin(URL_, (c) => c.query(`DROP SCHEMA ${schema} CASCADE`)),
  };
}
