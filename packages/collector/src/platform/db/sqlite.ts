// The SQLite driver: better-sqlite3 in WAL mode. A write is answered only once its
// commit is on disk, so it survives kill -9 and power loss (docs/api.md §21,
// durability); the fsync that ensures it runs off the event loop (wal-sync.ts).
//
// This file opens and sets the connection, turns SQLite's errors into the store's, and
// answers reads. Its parts, each in its own file because each is a job of its own:
//   group-commit.ts  writes: queued, and committed together in one transaction and fsync
//   mutex.ts         keeps other requests' statements out of an open batch
//   busy.ts          waits for another process's lock on timers, not on the event loop
//   wal-sync.ts      the fsync, on libuv's thread pool

import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SPIN_MS, whileBusy } from './busy.js';
import {
  ConstraintViolation,
  DEFAULT_MAX_QUEUED,
  SETTINGS_LAG_MS,
  UniqueViolation,
  type Db,
  type Param,
  type SettingsClock,
  type Tx,
} from './db.js';
import { groupCommit } from './group-commit.js';
import { Mutex } from './mutex.js';
import { unavailable } from './unavailable.js';
import { walSync, type WalSync } from './wal-sync.js';

type Statement = Database.Statement<unknown[], unknown>;

const PRAGMA = /^\s*PRAGMA\b/i;

const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN|NOMEM|PROTOCOL)/;

/** Engine errors the caller can do nothing about become 503; uniqueness becomes UniqueViolation. */
function translate(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return err;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return new UniqueViolation((err as Error).message);
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return new ConstraintViolation((err as Error).message);
  if (UNAVAILABLE.test(code)) return unavailable(err);
  return err;
}

/** A memory database: nothing to wait for. */
const inMemory: WalSync = { committed: () => 0, latest: () => 0, durable: async () => {}, close: () => {} };

export interface SqliteOptions {
  /**
   * How long a statement waits for another process (the CLI) to release a lock before
   * 503; waited on timers, never by stopping the event loop. 5000 by default.
   */
  busyTimeoutMs?: number;
  /**
   * Transactions that may wait for the next commit; beyond it a new one is refused at
   * once with 503, so a held lock or a flood cannot grow the queue without end. 10,000.
   */
  maxQueued?: number;
}

/**
 * The statements themselves, synchronous and with SQLite's own errors, each prepared once.
 * `writes()` counts every statement that may write, once done (an `UPDATE … RETURNING`
 * read by `get` too, and a trigger's writes behind a run that changed no row of its own):
 * only a statement that failed undid itself (group-commit.ts reads it).
 */
function statementsOn(conn: Database.Database) {
  const cache = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = conn.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
  let written = 0;
  return {
    prepare,
    writes: () => written,
    all: <T>(sql: string, params: readonly Param[] = []) => {
      const stmt = prepare(sql);
      const rows = stmt.all(...params) as T[];
      if (!stmt.readonly) written++;
      return rows;
    },
    get: <T>(sql: string, params: readonly Param[] = []) => {
      const stmt = prepare(sql);
      const row = stmt.get(...params) as T | undefined;
      if (!stmt.readonly) written++;
      return row;
    },
    run: (sql: string, params: readonly Param[] = []) => {
      const stmt = prepare(sql);
      const changes = stmt.run(...params).changes;
      if (!stmt.readonly) written++;
      return changes;
    },
  };
}

export function openSqlite(path: string, opts: SqliteOptions = {}): Db {
  const onDisk = path !== ':memory:' && path !== '';
  const limitMs = opts.busyTimeoutMs ?? 5000;
  if (onDisk) mkdirSync(dirname(path), { recursive: true });
  let conn: Database.Database;
  try {
    // Opening may wait the whole limit in SQLite itself (switching to WAL needs the
    // file to itself): nothing is being served yet. From then on it waits on timers.
    conn = new Database(path, { timeout: limitMs });
    conn.pragma('journal_mode = WAL');
    // NORMAL: COMMIT writes the WAL without waiting for the disk; wal-sync.ts does the
    // waiting, off the event loop, before anyone is answered. A memory database has no disk.
    conn.pragma(`synchronous = ${onDisk ? 'NORMAL' : 'FULL'}`);
    conn.pragma('foreign_keys = ON');
    // Savepoints (a batch's writes run again after one failed halfway) journal into temp storage: keep it off the disk.
    conn.pragma('temp_store = MEMORY');
    conn.pragma(`busy_timeout = ${Math.min(SPIN_MS, limitMs)}`);
  } catch (err) {
    throw translate(err);
  }

  const wal = onDisk ? walSync(path, unavailable) : inMemory;
  const mutex = new Mutex();

  const raw = statementsOn(conn);
  const { prepare } = raw;
  const guard = <T>(op: () => T): T => {
    try {
      return op();
    } catch (err) {
      throw translate(err);
    }
  };

  // Triggers count every change to the settings in settings_version (migrations.ts). The
  // count is read after each of our own commits, and otherwise at most every
  // SETTINGS_LAG_MS for other processes' (the CLI's): once per batch or per interval, never
  // per request. Seeing a count move, even one not yet committed, only empties the cache.
  const counted = { version: 0, seen: undefined as number | undefined, readAt: 0 };
  const observeSettings = (): boolean => {
    try {
      const n = raw.get<{ n: number }>('SELECT n FROM settings_version')?.n;
      if (n !== counted.seen) {
        counted.seen = n;
        counted.version++;
      }
      counted.readAt = Date.now();
      return n !== undefined;
    } catch {
      counted.seen = undefined; // not migrated yet, or unreadable: nothing may be kept
      return false;
    }
  };
  const settings: SettingsClock = {
    version() {
      const due = Date.now() - counted.readAt >= SETTINGS_LAG_MS;
      if ((due || counted.seen === undefined) && !(conn.open && observeSettings())) return undefined;
      return counted.version;
    },
  };

  // Inside a batch the connection holds SQLite's one write lock: nothing more to take,
  // and nothing to wait for.
  const tx: Tx = {
    engine: 'sqlite',
    settings,
    all: async (sql, params) => guard(() => raw.all(sql, params)),
    get: async (sql, params) => guard(() => raw.get(sql, params)),
    run: async (sql, params) => guard(() => raw.run(sql, params)),
    lock: async () => {},
  };

  /**
   * A statement outside the batch; if another process holds a lock it needs, tried
   * again on a timer, without our lock held meanwhile, until the limit has passed.
   */
  const patiently = <T>(op: () => T): Promise<T> =>
    whileBusy(() => mutex.whenFree(async () => op()), limitMs).catch((err: unknown) => {
      throw translate(err);
    });
  /** A read may see a commit whose fsync is still running; its answer waits for the disk too. */
  const read = async <T>(op: () => T): Promise<T> => {
    const seen = wal.latest();
    const result = await patiently(op);
    await wal.durable(seen);
    return result;
  };

  const writes = groupCommit(
    {
      control: (sql) => void prepare(sql).run(),
      committed: () => void observeSettings(),
      inTransaction: () => conn.open && conn.inTransaction,
      writes: raw.writes,
      tx,
      mutex,
      wal,
      translate,
    },
    { limitMs, maxQueued: opts.maxQueued ?? DEFAULT_MAX_QUEUED },
  );

  return {
    engine: 'sqlite',
    all: (sql, params) => read(() => raw.all(sql, params)),
    get: (sql, params) => read(() => raw.get(sql, params)),
    // A lone write is a batch of one statement, so it shares the next commit too. A PRAGMA
    // sets the connection, and some cannot run inside a transaction at all.
    run: (sql, params) => (PRAGMA.test(sql) ? patiently(() => raw.run(sql, params)) : writes.transaction((tx) => tx.run(sql, params))),
    transaction: writes.transaction,
    readThenWrite: writes.transaction,
    stats: writes.stats,
    settings,
    async ping() {
      // read(): after a failed fsync the database is not ready until a restart.
      await read(() => conn.prepare('SELECT 1').get());
    },
    async backup(dest) {
      // All pages in one step: one read snapshot, so writers (in the WAL) neither wait
      // for the copy nor make it start over, as they would between smaller steps.
      await mutex.whenFree(() => conn.backup(dest, { progress: ({ remainingPages }) => Math.max(remainingPages, 1) }));
    },
    async close() {
      // Waits for an open transaction to finish; afterwards every call fails at once.
      await mutex.acquire();
      try {
        await wal.durable(wal.latest()).catch(() => {}); // no fsync may be left running on the file
        if (conn.open) conn.close();
        wal.close();
      } finally {
        mutex.release();
      }
    },
  };
}

/** `./data/tally.db`, `sqlite:./x.db`, `sqlite:///abs/x.db` and `file:x.db` all name a file. */
export function sqlitePath(url: string): string {
  const m = /^(?:sqlite|file):(?:\/\/)?(.*)$/.exec(url);
  return m ? (m[1] ?? '') : url;
}
