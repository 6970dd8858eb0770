// The seeded program again on PostgreSQL, for the statistics' figures there: the SQLite
// seed's partners, partnerships, slugs and commissions copied into a fresh schema under
// the program a real first start of the collector made, in batches of multi-row inserts,
// then the kept totals filled by `tally stats check --repair` and a VACUUM ANALYZE. Made
// anew for each run.

import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { freshSchema } from './postgres.mjs';
import { startCollector, stop, TALLY } from './processes.mjs';

const TABLES = {
  partners: ['id', 'program_id', 'name', 'email', 'email_norm', 'paypal_email', 'paypal_email_norm', 'created_at', 'updated_at'],
  partnerships: ['id', 'program_id', 'partner_id', 'key', 'state', 'created_by', 'state_set_at', 'created_at', 'updated_at'],
  slugs: ['program_id', 'slug', 'partnership_id'],
  commissions: [
    'id',
    'program_id',
    'partner_id',
    'referral_id',
    'amount',
    'currency',
    'state',
    'reject_reason',
    'state_set_at',
    'paid_at',
    'created_at',
    'updated_at',
  ],
};
const BATCH = 1000;

export async function seededPostgres(sqlitePath, workDir, log = console.log) {
  const schema = await freshSchema();
  const first = await startCollector(schema.url, join(workDir, 'pg-seed.log'));
  await stop(first.child);
  const client = new pg.Client({ connectionString: schema.url });
  await client.connect();
  const source = new Database(sqlitePath, { readonly: true });
  const started = performance.now();
  try {
    const programId = (await client.query('SELECT id FROM programs')).rows[0].id;
    for (const [table, columns] of Object.entries(TABLES)) {
      const rows = source
        .prepare(`SELECT ${columns.join(', ')} FROM ${table}`)
        .raw()
        .iterate();
      let batch = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const marks = batch.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ');
        await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${marks}`, batch.flat());
        batch = [];
      };
      await client.query('BEGIN');
      for (const row of rows) {
        row[columns.indexOf('program_id')] = programId;
        batch.push(row);
        if (batch.length === BATCH) await flush();
      }
      await flush();
      await client.query('COMMIT');
    }
  } finally {
    source.close();
    await client.end();
  }
  execFileSync(process.execPath, [TALLY, 'stats', 'check', '--repair'], {
    env: { ...process.env, DATABASE_URL: schema.url },
    stdio: 'ignore',
  });
  // What autovacuum does soon after a bulk load: statistics for the planner, and the
  // visibility map that lets a covering index be read without the table.
  const vacuum = new pg.Client({ connectionString: schema.url });
  await vacuum.connect();
  await vacuum.query('VACUUM ANALYZE').finally(() => vacuum.end());
  log(`copied the seed into PostgreSQL in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { url: schema.url, secret: first.secret, drop: schema.drop };
}
