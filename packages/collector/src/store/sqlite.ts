// The SQLite driver: better-sqlite3 in WAL mode. A write is answered only once its
// commit is on disk, so it survives kill -9 and power loss (design/architecture.md,
// durability); the fsync that ensures it runs off the event loop (wal-sync.ts).
//
// Group commit: an fsync costs more than everything else a write does, so writes that
// arrive together share one. transaction() queues its function; on the next turn of
// the event loop every queued function runs in one BEGIN IMMEDIATE … COMMIT, each inside
// its own savepoint, and each caller is answered only after that COMMIT. A function that
// throws rolls back to its savepoint and fails alone; a batch that cannot commit fails
// every request in it with 503, and no other.
//
// better-sqlite3 is synchronous, but repositories await between statements. While a
// batch is open those awaits could let another request's statement run on the same
// connection and silently join it, so a small lock queues every statement from outside
// the batch until it ends.
//
// Another process (the CLI, a backup) may hold SQLite's write lock. SQLite's own wait
// for it (busy_timeout) sleeps in the calling thread, which here is the event loop: a
// 5 s wait froze every request, health checks included. So SQLite waits only a few ms
// per try, and between tries the batch waits on a timer, holding neither SQLite's lock
// nor ours, so reads (which on WAL never need the write lock) go on. Writes queued
// meanwhile join the batch that finally gets the lock; each gets 503 once it has waited
// the whole limit.

import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fail } from '../errors.js';
import { ConstraintViolation, DEFAULT_MAX_QUEUED, UniqueViolation, type Db, type Param, type Tx } from './db.js';
import { walSync, type WalSync } from './wal-sync.js';

type Statement = Database.Statement<unknown[], unknown>;

/** SQLite's own wait for a lock, per try: it stops the event loop, so only a few ms. */
const SPIN_MS = 2;
/** Between tries the wait is a timer, doubling from the first to the last delay. */
const BACKOFF_FIRST_MS = 2;
const BACKOFF_LAST_MS = 50;

/** Another connection (another process) holds a lock this statement needs: worth another try. */
const isBusy = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** SQLite rolled the whole transaction back on its own (a full disk, an I/O error). */
const lostTransaction = () => Object.assign(new Error('the transaction was rolled back'), { code: 'SQLITE_IOERR' });

const PRAGMA = /^\s*PRAGMA\b/i;

const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN|NOMEM|PROTOCOL)/;

const unavailable = () =>
  fail('unavailable', 'The database is unavailable; try again shortly.', { headers: { 'Retry-After': '1' } });

/** Engine errors the caller can do nothing about become 503; uniqueness becomes UniqueViolation. */
function translate(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return err;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return new UniqueViolation((err as Error).message);
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return new ConstraintViolation((err as Error).message);
  if (UNAVAILABLE.test(code)) return unavailable();
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

export function openSqlite(path: string, opts: SqliteOptions = {}): Db {
  const onDisk = path !== ':memory:' && path !== '';
  const limitMs = opts.busyTimeoutMs ?? 5000;
  const maxQueued = opts.maxQueued ?? DEFAULT_MAX_QUEUED;
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
    // Savepoints (one per write in a batch) journal into temp storage: keep it off the disk.
    conn.pragma('temp_store = MEMORY');
    conn.pragma(`busy_timeout = ${Math.min(SPIN_MS, limitMs)}`);
  } catch (err) {
    throw translate(err);
  }

  const wal = onDisk ? walSync(path, unavailable) : inMemory;

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

  // The statements themselves, synchronous and with SQLite's own errors.
  const raw = {
    all: <T>(sql: string, params: readonly Param[] = []) => prepare(sql).all(...params) as T[],
    get: <T>(sql: string, params: readonly Param[] = []) => prepare(sql).get(...params) as T | undefined,
    run: (sql: string, params: readonly Param[] = []) => prepare(sql).run(...params).changes,
  };

  // Inside a batch the connection holds SQLite's one write lock: nothing more to take,
  // and nothing to wait for.
  const tx: Tx = {
    all: async (sql, params) => guard(() => raw.all(sql, params)),
    get: async (sql, params) => guard(() => raw.get(sql, params)),
    run: async (sql, params) => guard(() => raw.run(sql, params)),
    lock: async () => {},
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
  /**
   * A statement outside the batch; if another process holds a lock it needs, tried
   * again on a timer, without our lock held meanwhile, until the limit has passed.
   */
  const patiently = async <T>(op: () => T): Promise<T> => {
    const deadline = Date.now() + limitMs;
    for (let delay = BACKOFF_FIRST_MS; ; delay = Math.min(delay * 2, BACKOFF_LAST_MS)) {
      try {
        return await outside(async () => op());
      } catch (err) {
        const left = deadline - Date.now();
        if (!isBusy(err) || left <= 0) throw translate(err);
        await sleep(Math.min(delay, left));
      }
    }
  };
  /** A read may see a commit whose fsync is still running; its answer waits for the disk too. */
  const read = async <T>(op: () => T): Promise<T> => {
    const seen = wal.latest();
    const result = await patiently(op);
    await wal.durable(seen);
    return result;
  };

  interface Queued {
    fn: (tx: Tx) => Promise<unknown>;
    /** Date.now() past which it has waited the whole limit for another process's lock. */
    deadline: number;
    resolve: (value: unknown) => void;
    reject: (err: unknown) => void;
  }
  type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };
  let queue: Queued[] = [];
  let scheduled = false;
  const stats = { batches: 0, transactions: 0 };

  /** Runs one function in its savepoint; its own failure is rolled back and kept for it alone. */
  const runOne = async (item: Queued): Promise<Outcome> => {
    prepare('SAVEPOINT one').run();
    try {
      const value = await item.fn(tx);
      prepare('RELEASE one').run();
      return { ok: true, value };
    } catch (err) {
      // Some errors (a full disk, I/O) end the whole transaction; then no savepoint is left.
      if (conn.inTransaction) {
        prepare('ROLLBACK TO one').run();
        prepare('RELEASE one').run();
      }
      return { ok: false, err };
    }
  };

  /**
   * Takes our lock and SQLite's write lock (BEGIN IMMEDIATE), and resolves holding both,
   * or to false when no queued write is left to commit. While another process holds
   * SQLite's lock, ours is released between tries, and writes that have waited the
   * whole limit are refused with 503, the oldest first.
   */
  const begin = async (): Promise<boolean> => {
    for (let delay = BACKOFF_FIRST_MS; ; delay = Math.min(delay * 2, BACKOFF_LAST_MS)) {
      await acquire();
      try {
        prepare('BEGIN IMMEDIATE').run();
        return true;
      } catch (err) {
        release();
        if (!isBusy(err)) {
          // Not a wait that may end (a closed handle, an I/O error): every queued write fails.
          refuse(queue.splice(0), translate(err));
          return false;
        }
      }
      const now = Date.now();
      const expired = queue.findIndex((item) => item.deadline > now);
      refuse(queue.splice(0, expired < 0 ? queue.length : expired), unavailable());
      const oldest = queue[0];
      if (!oldest) return false;
      await sleep(Math.min(delay, oldest.deadline - now));
    }
  };
  const refuse = (items: Queued[], err: unknown) => items.forEach((item) => item.reject(err));

  /** The open transaction for the whole batch; resolves to its commit's number, or to why it was lost. */
  const commitBatch = async (batch: Queued[], outcomes: Outcome[]): Promise<{ seq: number } | { lost: unknown }> => {
    try {
      for (const item of batch) {
        outcomes.push(await runOne(item));
        if (!conn.inTransaction) throw lostTransaction();
      }
      guard(() => prepare('COMMIT').run());
      stats.batches++;
      stats.transactions += outcomes.filter((o) => o.ok).length;
      return { seq: wal.committed() };
    } catch (err) {
      if (conn.open && conn.inTransaction) conn.exec('ROLLBACK');
      return { lost: translate(err) };
    }
  };

  const flush = async (): Promise<void> => {
    // Until the queue is taken this is the only flush: writes queued meanwhile join it.
    const began = await begin();
    scheduled = false;
    if (!began) return;
    const batch = queue;
    queue = [];
    const outcomes: Outcome[] = [];
    let committed: { seq: number } | { lost: unknown };
    try {
      committed = await commitBatch(batch, outcomes);
    } finally {
      release(); // the next batch may start while this one's fsync runs
    }
    let lost = 'lost' in committed ? committed.lost : undefined;
    if ('seq' in committed) {
      try {
        await wal.durable(committed.seq);
      } catch (err) {
        lost = err;
      }
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome && !outcome.ok) item.reject(outcome.err); // its own failure, rolled back alone
      else if (lost !== undefined || !outcome) item.reject(lost);
      else item.resolve(outcome.value);
    });
  };

  const transaction = <T>(fn: (tx: Tx) => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (queue.length >= maxQueued) return reject(unavailable());
      queue.push({ fn, deadline: Date.now() + limitMs, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        // After this turn's I/O callbacks: every request read in this turn joins the batch.
        setImmediate(() => void flush());
      }
    });

  return {
    engine: 'sqlite',
    all: (sql, params) => read(() => raw.all(sql, params)),
    get: (sql, params) => read(() => raw.get(sql, params)),
    // A lone write is a batch of one statement, so it shares the next commit too. A PRAGMA
    // sets the connection, and some cannot run inside a transaction at all.
    run: (sql, params) =>
      PRAGMA.test(sql) ? patiently(() => raw.run(sql, params)) : transaction((tx) => tx.run(sql, params)),
    transaction,
    stats: () => ({ ...stats, waiting: queue.length }),
    async ping() {
      // read(): after a failed fsync the database is not ready until a restart.
      await read(() => conn.prepare('SELECT 1').get());
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
        await wal.durable(wal.latest()).catch(() => {}); // no fsync may be left running on the file
        if (conn.open) conn.close();
        wal.close();
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
