// Which engine a database URL names, and opening it: `postgres://…` (or `postgresql://`)
// is PostgreSQL; anything else names a SQLite file (a path, `sqlite:` or `file:`).

import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { durableCommits, isPostgresUrl, openPostgres } from './postgres.js';

export { isPostgresUrl };
import { openSqlite, sqlitePath } from './sqlite.js';

export interface OpenOptions {
  /** PostgreSQL: connections this process keeps. */
  poolSize?: number | undefined;
  /** Writes (SQLite) or callers waiting for a connection (PostgreSQL) before 503 at once. */
  maxQueued?: number | undefined;
  /** PostgreSQL: an idle connection broke; it is replaced on the next query. */
  onIdleError?: ((err: Error) => void) | undefined;
  /**
   * PostgreSQL behind a pooler: the same database reached directly, for the settings
   * LISTEN (postgres.ts). DATABASE_DIRECT_URL unless given, so the CLI finds it too.
   */
  directUrl?: string | undefined;
  /** PostgreSQL: a streaming replica for lists and statistics. DATABASE_REPLICA_URL unless given. */
  replicaUrl?: string | undefined;
}

export function openDatabase(url: string, opts: OpenOptions = {}): Db {
  const maxQueued = opts.maxQueued === undefined ? {} : { maxQueued: opts.maxQueued };
  return isPostgresUrl(url)
    ? openPostgres(url, {
        ...maxQueued,
        onIdleError: opts.onIdleError,
        directUrl: opts.directUrl ?? process.env.DATABASE_DIRECT_URL,
        replicaUrl: opts.replicaUrl ?? process.env.DATABASE_REPLICA_URL,
        ...(opts.poolSize === undefined ? {} : { poolSize: opts.poolSize }),
      })
    : openSqlite(sqlitePath(url), maxQueued);
}

/** Opened and brought up to the current schema, as every server and command needs it. */
export async function openMigrated(url: string, now: number, opts: OpenOptions = {}): Promise<Db> {
  const db = openDatabase(url, opts);
  try {
    await migrate(db, now);
    if (db.engine === 'postgres') await durableCommits(db);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  return db;
}
