// The big program of issue 47: 100,000 partners, 10,000,000 clicks over the 120 days
// before END, 1,000,000 referrals (every tenth click's visitor), 2,000,000 commissions
// (two per referral), made by the database itself from one generator written once in SQL
// for both engines (a recursive CTE on SQLite, generate_series on PostgreSQL), so both
// hold the same rows. The program and its tokens come from a real first start of the
// collector; the kept totals from `tally stats check --repair`, timed, as a deployment
// that imported these rows would fill them. Cached until the schema or BIG_SEED_VERSION
// changes: a file in bench/.cache/ for SQLite, a schema of the bench database on PostgreSQL.

import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createSchemaRole, inSchema } from '../test/collector/database.js';
import { BENCH_POSTGRES_URL, postgresReady } from './postgres.mjs';
import { startCollector, stop, TALLY } from './processes.mjs';
import { schemaOfBuild } from './seed.mjs';

const BIG_SEED_VERSION = 1;
/** BENCH_BIG_SCALE (default 1) shrinks every count, for a quick try of the bench itself. */
const SCALE = Number(process.env.BENCH_BIG_SCALE ?? 1);
const scaled = (n) => Math.max(10, Math.round(n * SCALE));
export const BIG = { partners: scaled(100_000), clicks: scaled(10_000_000), referrals: scaled(1_000_000), commissions: scaled(2_000_000) };
const SCALE_TAG = SCALE === 1 ? '' : `-scale${SCALE}`;
/** 2026-12-01 UTC: the clicks end here, so the seed does not change with the day it is made. */
export const END = 1_796_083_200;
const CLICK_SPAN = 120 * 86_400;
const CLICK_START = END - CLICK_SPAN;
/** Partners joined over the year before the clicks, one every 300 s. */
const PARTNER_START = CLICK_START - BIG.partners * 300;
const CACHE = fileURLToPath(new URL('./.cache/', import.meta.url));

// Deterministic uniform numbers in [0, 1) from a row number: multiplicative hashes with
// different odd constants, computed alike by both engines in 64-bit integers and doubles.
const u = (x, a) => `(CAST(((${x}) * ${a}) % 4294967296 AS DOUBLE PRECISION) / 4294967296)`;
const [A1, A2, A3, A4] = [2654435761, 2246822519, 3266489917, 668265263];
const int = (x) => `CAST(floor(${x}) AS BIGINT)`;
/**
 * The partner of click `c`: half the clicks spread evenly over every partner, half skewed
 * (u⁴: partner 0 gets 2.8 % of all clicks, the first 100 about 9 %), as a few partners
 * bring most of a real program's traffic.
 */
const partnerOf = (c) =>
  `CASE WHEN ${u(c, A1)} < 0.5 THEN ${int(`${u(c, A2)} * ${BIG.partners}`)} ELSE ${int(`${BIG.partners} * power(${u(c, A2)}, 4)`)} END`;
const clickAt = (c) => `(${CLICK_START} + (${c}) * ${CLICK_SPAN} / ${BIG.clicks})`;
/** The click a referral came from: the 4th of every ten. */
const clickOf = (r) => `((${r}) * 10 + 3)`;

const ENGINES = {
  sqlite: {
    hex: (x, w) => `printf('%0${w}x', ${x})`,
    rows: (n) => ({ with: `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${n - 1})`, from: 's' }),
  },
  postgres: {
    hex: (x, w) => `lpad(to_hex(${x}), ${w}, '0')`,
    rows: (n) => ({ with: '', from: `generate_series(0::BIGINT, ${n - 1}) AS s(i)` }),
  },
};

/** UUIDv7-shaped ids, time first, so each table's rows are in its primary key's order; `tag` keeps tables apart. */
const idOf = (e, at, n, tag) => `${e.hex(at, 8)} || '-0000-7000-${tag}-' || ${e.hex(n, 12)}`;
const partnerAt = (p) => `(${PARTNER_START} + (${p}) * 300)`;
const partnerId = (e, p) => idOf(e, partnerAt(p), p, '8000');
const partnershipId = (e, p) => idOf(e, partnerAt(p), p, '8001');

/** The statements that fill the tables, in order, for one engine; `?` is the program's id. */
function statements(engine) {
  const e = ENGINES[engine];
  const insert = (table, columns, n, select, inner) => {
    const { with: w, from } = e.rows(n);
    return `${w} INSERT INTO ${table} (${columns}) SELECT ${select} FROM (SELECT ${inner} FROM ${from}) x`;
  };
  return [
    insert(
      'partners',
      'id, program_id, name, email, email_norm, paypal_email, paypal_email_norm, created_at, updated_at',
      BIG.partners,
      `${partnerId(e, 'i')}, ?, 'Partner ' || i, 'partner' || i || '@partners.bench', 'partner' || i || '@partners.bench',
       CASE WHEN i % 5 = 0 THEN NULL ELSE 'pay' || i || '@paypal.bench' END,
       CASE WHEN i % 5 = 0 THEN NULL ELSE 'pay' || i || '@paypal.bench' END, ${partnerAt('i')}, ${partnerAt('i')}`,
      'i',
    ),
    insert(
      'partnerships',
      'id, program_id, partner_id, key, state, created_by, state_set_at, created_at, updated_at',
      BIG.partners,
      `${partnershipId(e, 'i')}, ?, ${partnerId(e, 'i')}, 'p' || i, 'accepted', 'company', ${partnerAt('i')}, ${partnerAt('i')}, ${partnerAt('i')}`,
      'i',
    ),
    insert('slugs', 'program_id, slug, partnership_id', BIG.partners, `?, 'p' || i, ${partnershipId(e, 'i')}`, 'i'),
    insert(
      'clicks',
      'id, program_id, partnership_id, gr_id, pk, url, referrer, created_at, last_seen_at',
      BIG.clicks,
      `${idOf(e, 't', 'i', '8002')}, ?, ${partnershipId(e, 'p')}, 'v' || i, 'p' || p, 'https://shop.bench.test/?red=p' || p,
       CASE WHEN i % 3 = 0 THEN NULL ELSE 'https://partner' || p || '.bench.test/' END, t, t`,
      `i, ${partnerOf('i')} AS p, ${clickAt('i')} AS t`,
    ),
    insert(
      'referrals',
      'id, program_id, partnership_id, partner_id, email, email_norm, gr_id, state, state_set_at, created_at, updated_at',
      BIG.referrals,
      `${idOf(e, 't', 'i', '8003')}, ?, ${partnershipId(e, 'p')}, ${partnerId(e, 'p')}, 'customer' || i || '@customers.bench',
       'customer' || i || '@customers.bench', 'v' || c, 'converted', t, t, t`,
      `i, ${clickOf('i')} AS c, ${partnerOf(clickOf('i'))} AS p, ${clickAt(clickOf('i'))} + 600 AS t`,
    ),
    // Two commissions per referral, an hour apart: 60 % paid (a day later), 30 % pending, 10 % rejected.
    insert(
      'commissions',
      'id, program_id, partner_id, referral_id, amount, currency, state, reject_reason, state_set_at, paid_at, created_at, updated_at',
      BIG.commissions,
      `${idOf(e, 't', 'i', '8004')}, ?, ${partnerId(e, 'p')}, ${idOf(e, `${clickAt(clickOf('r'))} + 600`, 'r', '8003')},
       1000 + ${int(`${u('i', A3)} * 20000`)}, 'USD', CASE WHEN s < 0.6 THEN 'paid' WHEN s < 0.9 THEN 'pending' ELSE 'rejected' END,
       CASE WHEN s >= 0.9 THEN 'refunded' END, CASE WHEN s < 0.6 OR s >= 0.9 THEN t + 86400 ELSE t END,
       CASE WHEN s < 0.6 THEN t + 86400 END, t, t`,
      `i, i / 2 AS r, ${partnerOf(clickOf('i / 2'))} AS p, ${clickAt(clickOf('i / 2'))} + 600 + (i % 2) * 3600 AS t, ${u('i', A4)} AS s`,
    ),
  ];
}

const TABLES = ['partners', 'partnerships', 'slugs', 'clicks', 'referrals', 'commissions'];
const timed = async (what, fn, log) => {
  const started = performance.now();
  const out = await fn();
  log(`  ${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return out;
};

/** SQLite: the secondary indexes dropped while the rows go in, then built once each (a sort, not 10 million random inserts). */
function fillSqlite(path, programId, log) {
  const db = new Database(path);
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1048576');
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('clicks', 'referrals', 'commissions')`,
    )
    .all();
  const sql = statements('sqlite');
  db.transaction(() => {
    for (const { name } of indexes) db.exec(`DROP INDEX ${name}`);
    sql.forEach((s, i) => {
      const started = performance.now();
      db.prepare(s).run(programId);
      log(`  ${TABLES[i]}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    });
    const started = performance.now();
    for (const { sql: create } of indexes) db.exec(create);
    log(`  indexes: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  })();
  // No ANALYZE: the collector plans on SQLite's defaults (decision 0033), and so does the bench.
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** Runs `tally stats check --repair` against `databaseUrl`: the kept totals filled from the rows; resolves to its seconds. */
function repairStats(databaseUrl) {
  const started = performance.now();
  execFileSync(process.execPath, [TALLY, 'stats', 'check', '--repair'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: 'ignore',
  });
  return (performance.now() - started) / 1000;
}

/** The cached big SQLite database, made first if needed: { path, secret, programId, seedSeconds }. */
export async function bigSqlite(log = console.log) {
  mkdirSync(CACHE, { recursive: true });
  const schema = await schemaOfBuild();
  const path = join(CACHE, `big-v${BIG_SEED_VERSION}${SCALE_TAG}-schema${schema}.db`);
  const meta = `${path}.json`;
  if (existsSync(path) && existsSync(meta)) return { path, ...JSON.parse(readFileSync(meta, 'utf8')), cached: true };
  const partial = `${path}.partial`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(partial + suffix, { force: true });
  const collector = await startCollector(partial, join(CACHE, 'big-seed.log'));
  await stop(collector.child);
  const db = new Database(partial, { readonly: true });
  const programId = db.prepare('SELECT id FROM programs').get().id;
  db.close();
  log('seeding the big program on SQLite…');
  const started = performance.now();
  fillSqlite(partial, programId, log);
  const rows = (performance.now() - started) / 1000;
  const stats = repairStats(partial);
  log(`  kept totals (tally stats check --repair): ${stats.toFixed(1)} s`);
  renameSync(partial, path);
  const info = { secret: collector.secret, programId, seedSeconds: { rows, stats } };
  writeFileSync(meta, JSON.stringify(info));
  return { path, ...info, cached: false };
}

/** The indexes of `table` that back no constraint, and their definitions. */
const looseIndexes = (c, table) =>
  c
    .query(
      `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
        WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
      [table],
    )
    .then((r) => r.rows);

/** The months of clicks as partitions made apart and attached when full, which builds their indexes once (as the collector's makePartition does, empty). */
async function fillClicksPostgres(c, sql, programId, log) {
  const months = [];
  for (let d = new Date(CLICK_START * 1000); d.getTime() < END * 1000; d = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1))) {
    const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
    const to = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
    months.push({ from, to, name: `clicks_${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}` });
  }
  await c.query(`CREATE TABLE clicks_fill (LIKE clicks INCLUDING DEFAULTS)`);
  await timed('clicks', () => c.query(sql.replace('INSERT INTO clicks', 'INSERT INTO clicks_fill'), [programId]), log);
  await timed(
    'clicks into months, attached',
    async () => {
      for (const m of months) {
        await c.query(`CREATE TABLE ${m.name} (LIKE clicks INCLUDING DEFAULTS)`);
        await c.query(`INSERT INTO ${m.name} SELECT * FROM clicks_fill WHERE created_at >= $1 AND created_at < $2`, [m.from, m.to]);
        await c.query(`ALTER TABLE clicks ATTACH PARTITION ${m.name} FOR VALUES FROM (${m.from}) TO (${m.to})`);
      }
      await c.query('DROP TABLE clicks_fill');
    },
    log,
  );
}

const vacuum = (admin, schema, tables) => admin.query(`VACUUM ANALYZE ${tables.map((t) => `${schema}.${t}`).join(', ')}`);

/** The kept totals of rows made: `tally stats check --repair`, timed, and the cache's mark; resolves to what the mark holds. */
async function keptTotals(admin, schema, url, made, log) {
  const stats = repairStats(url);
  log(`  kept totals (tally stats check --repair): ${stats.toFixed(1)} s`);
  await vacuum(admin, schema, ['stat_buckets', 'stat_deltas']);
  const info = { secret: made.secret, programId: made.programId, seedSeconds: { rows: made.rows, stats } };
  await admin.query(
    `CREATE TABLE ${schema}.bench_seed (info TEXT NOT NULL); INSERT INTO ${schema}.bench_seed VALUES ('${JSON.stringify(info)}')`,
  );
  return info;
}

/** The cached big program on PostgreSQL, in a schema of its own kept between runs: { url, secret, programId, seedSeconds }. */
export async function bigPostgres(log = console.log) {
  const version = await schemaOfBuild();
  if (!(await postgresReady())) return undefined;
  const schema = `big_v${BIG_SEED_VERSION}_s${version}${SCALE_TAG.replace(/\W/g, '_')}`;
  const admin = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
  await admin.connect();
  try {
    const url = inSchema(schema, BENCH_POSTGRES_URL);
    // After a run that changed the rows (a payout run): the next bench makes them again.
    const spoil = async () => {
      const c = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
      await c.connect();
      await c.query(`DROP TABLE IF EXISTS ${schema}.bench_seed, ${schema}.bench_rows`).finally(() => c.end());
    };
    const found = await admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (found.rowCount > 0) {
      const meta = await admin.query(`SELECT info FROM ${schema}.bench_seed`).catch(() => undefined);
      if (meta?.rows[0]) return { url, ...JSON.parse(meta.rows[0].info), cached: true, spoil };
      // The rows were made and committed, and the run stopped before their totals: only those are made again.
      const made = await admin.query(`SELECT info FROM ${schema}.bench_rows`).catch(() => undefined);
      if (made?.rows[0])
        return { url, ...(await keptTotals(admin, schema, url, JSON.parse(made.rows[0].info), log)), cached: false, spoil };
      await admin.query(`DROP SCHEMA ${schema} CASCADE; DROP ROLE ${schema}`);
    }
    await createSchemaRole(admin, schema);
    const collector = await startCollector(url, join(CACHE, 'big-seed-pg.log'));
    await stop(collector.child);
    log('seeding the big program on PostgreSQL…');
    const started = performance.now();
    // The schema's own role owns what is made here, as the collector's tables; foreign keys are not checked row by row (the generator makes them true).
    await admin.query(
      `SET session_replication_role = replica; SET maintenance_work_mem = '512MB'; SET ROLE ${schema}; SET search_path = ${schema}`,
    );
    const programId = (await admin.query('SELECT id FROM programs')).rows[0].id;
    const sql = statements('postgres').map((s) => s.replaceAll('?', '$1'));
    await admin.query('BEGIN');
    for (const [i, table] of TABLES.entries()) {
      if (table === 'clicks') {
        await fillClicksPostgres(admin, sql[i], programId, log);
        continue;
      }
      const indexes = await looseIndexes(admin, table);
      for (const x of indexes) await admin.query(`DROP INDEX ${x.name}`);
      await timed(table, () => admin.query(sql[i], [programId]), log);
      await timed(
        `${table} indexes`,
        async () => {
          for (const x of indexes) await admin.query(x.def);
        },
        log,
      );
    }
    await admin.query('COMMIT');
    await admin.query('RESET ROLE; SET session_replication_role = DEFAULT');
    await timed('VACUUM ANALYZE', () => vacuum(admin, schema, TABLES), log);
    const rows = { secret: collector.secret, programId, rows: (performance.now() - started) / 1000 };
    await admin.query(
      `CREATE TABLE ${schema}.bench_rows (info TEXT NOT NULL); INSERT INTO ${schema}.bench_rows VALUES ('${JSON.stringify(rows)}')`,
    );
    return { url, ...(await keptTotals(admin, schema, url, rows, log)), cached: false, spoil };
  } finally {
    await admin.end();
  }
}
