// Which engine a database URL names, and opening it: `postgres://…` (or `postgresql://`)
// is PostgreSQL; anything else names a SQLite file (a path, `sqlite:` or `file:`).

import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { isPostgresUrl, openPostgres } from './postgres.js';

export { isPostgresUrl };
import { openSqlite, sqlitePath } from './sqlite.js';

export interface OpenOptions {
  /** PostgreSQL: connections this process keeps. */
  poolSize?: number | undefined;
  /** Writes (SQLite) or callers waiting for a connection (PostgreSQL) before 503 at once. */
  maxQueued?: number | undefined;
  /** PostgreSQL: an idle connection broke; it is replaced on the next query. */
  onIdleError?: ((err: Error) => void) | undefined;
}

export function openDatabase(url: string, opts: OpenOptions = {}): Db {
  const maxQueued = opts.maxQueued === undefined ? {} : { maxQueued: opts.maxQueued };
  return isPostgresUrl(url)
    ? openPostgres(url, {
        ...maxQueued,
        onIdleError: opts.onIdleError,
        ...(opts.poolSize === undefined ? {} : { poolSize: opts.poolSize }),
      })
    : openSqlite(sqlitePath(url), maxQueued);
}

/** Opened and brought up to the current schema, as every server and command needs it. */
export async function openMigrated(url: string, now: number, opts: OpenOptions = {}): Promise<Db> {
  const db = openDatabase(url, opts);
  try {
    await migrate(db, now);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  return db;
}
