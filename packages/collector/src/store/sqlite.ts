// The SQLite driver: better-sqlite3 with WAL and synchronous=FULL, so a committed
// write survives kill -9 and power loss (design/architecture.md, durability).
//
// better-sqlite3 is synchronous, but repositories await between statements. While a
// transaction is open those awaits could let another request's statement run on the
// same connection and silently join the transaction, so a small lock queues every
// statement from outside the transaction until it ends.

import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fail } from '../errors.js';
import { UniqueViolation, type Db, type Param, type Queryable } from './db.js';

type Statement = Database.Statement<unknown[], unknown>;

const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN|NOMEM|PROTOCOL)/;

/** Engine errors the caller can do nothing about become 503; uniqueness becomes UniqueViolation. */
function translate(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return err;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return new UniqueViolation((err as Error).message);
  }
  if (UNAVAILABLE.test(code)) {
    return fail('unavailable', 'The database is unavailable; try again shortly.', {
      headers: { 'Retry-After': '1' },
    });
  }
  return err;
}

export interface SqliteOptions {
  /** How long a writer waits for another process (the CLI) to release the lock. */
  busyTimeoutMs?: number;
}

export function openSqlite(path: string, opts: SqliteOptions = {}): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  let conn: Database.Database;
  try {
    conn = new Database(path);
    conn.pragma('journal_mode = WAL');
    conn.pragma('synchronous = FULL');
    conn.pragma('foreign_keys = ON');
    conn.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
  } catch (err) {
    throw translate(err);
  }

  const cache = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = conn.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
  const guard = <T>(op: () => T): T => {
    try {
      return op();
    } catch (err) {
      throw translate(err);
    }
  };

  // Direct execution: used by the open transaction, and by everyone while none is open.
  const direct: Queryable = {
    all: async <T>(sql: string, params: readonly Param[] = []) =>
      guard(() => prepare(sql).all(...params) as T[]),
    get: async <T>(sql: string, params: readonly Param[] = []) =>
      guard(() => prepare(sql).get(...params) as T | undefined),
    run: async (sql: string, params: readonly Param[] = []) =>
      guard(() => prepare(sql).run(...params).changes),
  };

  let locked = false;
  const waiting: Array<() => void> = [];
  const acquire = async (): Promise<void> => {
    if (!locked) {
      locked = true;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else locked = false;
  };
  const outside = async <T>(op: () => Promise<T>): Promise<T> => {
    if (!locked) return op();
    await acquire();
    try {
      return await op();
    } finally {
      release();
    }
  };

  return {
    engine: 'sqlite',
    all: (sql, params) => outside(() => direct.all(sql, params)),
    get: (sql, params) => outside(() => direct.get(sql, params)),
    run: (sql, params) => outside(() => direct.run(sql, params)),
    async transaction(fn) {
      await acquire();
      try {
        guard(() => conn.exec('BEGIN IMMEDIATE'));
        try {
          const result = await fn(direct);
          guard(() => conn.exec('COMMIT'));
          return result;
        } catch (err) {
          if (conn.inTransaction) conn.exec('ROLLBACK');
          throw err;
        }
      } finally {
        release();
      }
    },
    async ping() {
      await outside(async () => guard(() => conn.prepare('SELECT 1').get()));
    },
    async backup(dest) {
      // All pages in one step: one read snapshot, so writers (in the WAL) neither wait
      // for the copy nor make it start over, as they would between smaller steps.
      await outside(() => conn.backup(dest, { progress: ({ remainingPages }) => Math.max(remainingPages, 1) }));
    },
    async close() {
      // Waits for an open transaction to finish; afterwards every call fails at once.
      await acquire();
      try {
        if (conn.open) conn.close();
      } finally {
        release();
      }
    },
  };
}

/** `./data/tally.db`, `sqlite:./x.db`, `sqlite:///abs/x.db` and `file:x.db` all name a file. */
export function sqlitePath(url: string): string {
  const m = /^(?:sqlite|file):(?:\/\/)?(.*)$/.exec(url);
  return m ? (m[1] ?? '') : url;
}
