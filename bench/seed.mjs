// The database the list routes are measured on: one program with 100,000 partners,
// 100,000 partnerships and 1,000,000 commissions over two years. The program and its
// tokens come from a real first start of the collector; the rows are then written in
// bulk. The result is cached in bench/.cache, keyed by the seed's version and the
// schema's, and reused until either changes.

import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { startCollector, stop, TALLY } from './processes.mjs';

const SEED_VERSION = 4;
export const COUNTS = { partners: 100_000, partnerships: 100_000, commissions: 1_000_000 };
export const SPAN = { from: 1_704_067_200, seconds: 2 * 365 * 86_400 }; // 2024-01-01 UTC, two years
const CACHE = fileURLToPath(new URL('./.cache/', import.meta.url));

/** A small deterministic generator (mulberry32): the same seed gives the same database. */
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Time-ordered ids in UUIDv7 form, so each insert lands at the end of the primary key. */
function idAt(seconds, n) {
  const hex = (seconds * 1000 + (n % 1000)).toString(16).padStart(12, '0');
  const tail = n.toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${tail.slice(1, 4)}-8${tail.slice(5, 8)}-${tail.slice(8, 16)}0000`;
}

function schemaVersion(dbPath) {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get().v;
  } finally {
    db.close();
  }
}

function fill(dbPath, programId) {
  const db = new Database(dbPath);
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -524288'); // 512 MB: every index stays in memory while it grows
  const rnd = random(20261122);
  const step = (count) => SPAN.seconds / count;
  const partnerIds = [];
  const insertPartner = db.prepare(
    `INSERT INTO partners (id, program_id, name, email, email_norm, paypal_email, paypal_email_norm, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertPartnership = db.prepare(
    `INSERT INTO partnerships (id, program_id, partner_id, key, state, created_by, state_set_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'company', ?, ?, ?)`,
  );
  const insertSlug = db.prepare('INSERT INTO slugs (program_id, slug, partnership_id) VALUES (?, ?, ?)');
  const insertCommission = db.prepare(
    `INSERT INTO commissions (id, program_id, partner_id, referral_id, amount, currency, state, reject_reason,
       state_set_at, paid_at, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, 'USD', ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < COUNTS.partners; i++) {
      const at = Math.floor(SPAN.from + i * step(COUNTS.partners));
      const id = idAt(at, i);
      partnerIds.push(id);
      const email = `partner${i}@partners.bench`;
      const paypal = i % 5 === 0 ? null : `pay${i}@paypal.bench`;
      insertPartner.run(id, programId, `Partner ${i}`, email, email, paypal, paypal, at, at);
      const state = rnd() < 0.8 ? 'accepted' : rnd() < 0.75 ? 'pending' : 'declined';
      const partnershipId = idAt(at, COUNTS.partners + i);
      insertPartnership.run(partnershipId, programId, id, `p${i}`, state, at, at, at);
      insertSlug.run(programId, `p${i}`, partnershipId);
    }
    for (let i = 0; i < COUNTS.commissions; i++) {
      const at = Math.floor(SPAN.from + i * step(COUNTS.commissions));
      const roll = rnd();
      const state = roll < 0.6 ? 'paid' : roll < 0.9 ? 'pending' : 'rejected';
      const setAt = state === 'pending' ? at : at + 30 * 86_400; // paid or rejected a month later
      const partner = partnerIds[Math.floor(rnd() * partnerIds.length)];
      insertCommission.run(
        idAt(at, i),
        programId,
        partner,
        1000 + Math.floor(rnd() * 20_000),
        state,
        state === 'rejected' ? 'refunded' : null,
        setAt,
        state === 'paid' ? setAt : null,
        at,
        setAt,
      );
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** The cached seeded database, made first if needed: { path, secret, programId, seconds }. */
/** The schema's version, from a throwaway first start of the collector as it is built now. */
export async function schemaOfBuild() {
  mkdirSync(CACHE, { recursive: true });
  const probe = join(CACHE, `schema-probe-${process.pid}.db`);
  const removeProbe = () => ['', '-wal', '-shm'].forEach((s) => rmSync(probe + s, { force: true }));
  removeProbe();
  const first = await startCollector(probe, join(CACHE, `schema-probe-${process.pid}.log`));
  await stop(first.child);
  const schema = schemaVersion(probe);
  removeProbe();
  return schema;
}

export async function seededDatabase(log = console.log) {
  const schema = await schemaOfBuild();

  const path = join(CACHE, `seed-v${SEED_VERSION}-schema${schema}.db`);
  const meta = `${path}.json`;
  if (existsSync(path) && existsSync(meta)) return { path, ...JSON.parse(readFileSync(meta, 'utf8')), seconds: 0 };

  const started = performance.now();
  const partial = `${path}.partial`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(partial + suffix, { force: true });
  const collector = await startCollector(partial, join(CACHE, 'seed.log'));
  await stop(collector.child);
  const db = new Database(partial, { readonly: true });
  const programId = db.prepare('SELECT id FROM programs').get().id;
  db.close();
  log(`seeding ${COUNTS.commissions.toLocaleString('en')} commissions, ${COUNTS.partners.toLocaleString('en')} partners…`);
  fill(partial, programId);
  // The rows went in around the collector: its kept totals are filled from them, as the
  // statistics' migration fills them for an existing database.
  execFileSync(process.execPath, [TALLY, 'stats', 'check', '--repair'], {
    env: { ...process.env, DATABASE_URL: partial },
    stdio: 'ignore',
  });
  renameSync(partial, path);
  const seconds = (performance.now() - started) / 1000;
  const info = { secret: collector.secret, programId };
  writeFileSync(meta, JSON.stringify(info));
  log(`seeded in ${seconds.toFixed(1)} s`);
  return { path, ...info, seconds };
}
