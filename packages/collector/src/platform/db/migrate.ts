// Forward-only migrations, applied at start inside one write transaction. Processes
// starting together (servers, the CLI) take one lock first, so exactly one of them
// migrates and the others then see its work. The migrations themselves are frozen files,
// one per version, in platform/db/migrations/; the SQL sticks to what SQLite and
// PostgreSQL share, and a step that cannot be shared says it once per engine.

import { MIGRATIONS, type Migration, type Script } from './migrations/index.js';
import type { Db } from './db.js';

export interface MigrateOptions {
  /** Stop after this version instead of the newest: the upgrade test builds old databases so. */
  to?: number | undefined;
}

/**
 * Brings the database to `to` (the newest by default); returns the version it is then at
 * (a database already past `to` is left as it is).
 */
export async function migrate(db: Db, now: number, opts: MigrateOptions = {}): Promise<number> {
  const target = opts.to ?? MIGRATIONS.length;
  if (!Number.isInteger(target) || target < 0 || target > MIGRATIONS.length) {
    throw new Error(`migrate: no version ${target} (there are ${MIGRATIONS.length})`);
  }
  return db.transaction(async (tx) => {
    // The others wait for the one migrating as long as it takes: a request's 5 s lock_timeout
    // is too short for a whole schema on a busy machine (six processes at once once failed so).
    if (db.engine === 'postgres') await tx.run('SET LOCAL lock_timeout = 0');
    await tx.lock('migrate');
    await tx.run('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
    const row = await tx.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
    const current = row?.v ?? 0;
    for (let version = current + 1; version <= target; version++) {
      const migration = MIGRATIONS[version - 1] ?? '';
      const script = isShared(migration) ? migration : migration[db.engine];
      for (const statement of typeof script === 'string' ? splitStatements(script) : script) await tx.run(statement);
      await tx.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [version, now]);
    }
    return Math.max(current, target);
  });
}

function isShared(migration: Migration): migration is Script {
  return typeof migration === 'string' || Array.isArray(migration);
}

/** One statement per call works on every driver; the migrations hold no `;` inside literals. */
function splitStatements(script: string): string[] {
  return script
    .split(';')
    .map((s) => s.replace(/--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}
