// Once before the PostgreSQL run: the test database exists, and no schema of an
// earlier, crashed run is left in it (hours old: a run going on beside this one keeps
// its schemas). Without a server, the run fails and says how
// to get one.

import { randomBytes } from 'node:crypto';
import { admin, PG_TEST_URL, SCHEMA_PREFIX, SCHEMA_STALE_SECONDS, schemaMadeAt } from '../collector/database.js';
import { startPgBouncer } from './pgbouncer.js';

const HOW =
  'The PostgreSQL suite needs a server: on Debian, `apt-get install -y postgresql` and ' +
  '`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` ' +
  '(trust authentication on 127.0.0.1:5432), or set TALLY_TEST_POSTGRES_URL.';

export default async function setup(): Promise<() => Promise<void>> {
  // The workers inherit it: the schemas they keep for reuse carry it, and the teardown drops them.
  const run = randomBytes(4).toString('hex');
  process.env.TALLY_TEST_RUN = run;
  const url = new URL(PG_TEST_URL);
  const name = url.pathname.slice(1);
  const maintenance = Object.assign(new URL(PG_TEST_URL), { pathname: '/postgres' }).toString();
  try {
    await admin(async (c) => {
      const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount === 0) await c.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    }, maintenance);
  } catch (err) {
    throw new Error(`PostgreSQL is not reachable at ${url.host}: ${(err as Error).message}. ${HOW}`);
  }
  // Each test schema has a login role of its name (database.ts): both go together.
  // One after another: a connection runs one query at a time (pg 9 refuses a queue).
  const drop = async (c: Parameters<Parameters<typeof admin>[0]>[0], names: string[]) => {
    for (const n of names) await c.query(`DROP SCHEMA IF EXISTS ${n} CASCADE; DROP ROLE IF EXISTS ${n}`);
  };
  const ours = `SELECT nspname AS n FROM pg_namespace WHERE starts_with(nspname, $1)
                UNION SELECT rolname FROM pg_roles WHERE starts_with(rolname, $1)`;
  await admin(async (c) => {
    const left = await c.query<{ n: string }>(ours, [SCHEMA_PREFIX]);
    const stale = Math.floor(Date.now() / 1000) - SCHEMA_STALE_SECONDS;
    // A name of the old form (no time) is from before this rule, so certainly stale.
    await drop(
      c,
      left.rows.map((r) => r.n).filter((n) => (schemaMadeAt(n) ?? 0) < stale),
    );
  });
  // The collector under test reaches PostgreSQL through PgBouncer in transaction pooling
  // mode, as large deployments run it; its listening session goes straight to the server.
  const bouncer = process.env.TALLY_TEST_POOLED_URL ? undefined : await startPgBouncer(PG_TEST_URL);
  if (bouncer) {
    process.env.TALLY_TEST_POOLED_URL = bouncer.url;
    process.env.DATABASE_DIRECT_URL = Object.assign(new URL(PG_TEST_URL), { username: '', password: '' }).toString();
  }
  return async () => {
    await bouncer?.stop();
    await admin(async (c) => {
      const mine = await c.query<{ n: string }>(`SELECT n FROM (${ours}) o WHERE strpos(n, $2) > 0`, [SCHEMA_PREFIX, `_${run}_`]);
      await drop(
        c,
        mine.rows.map((r) => r.n),
      );
    });
  };
}
