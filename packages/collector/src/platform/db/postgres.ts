// The PostgreSQL driver: a connection pool (pg) behind the same Db interface as SQLite,
// so repositories, domain and routes run unchanged on both. Several collector
// processes may share one database; what must hold across them is held by the
// database itself: unique constraints, conditional updates, and advisory locks (Tx.lock).
//
// A 2xx still means committed: a transaction's promise resolves after COMMIT returns,
// and with synchronous_commit on (set in every transaction) a commit is flushed first.
// Commits that arrive together share a WAL flush in PostgreSQL itself, so there is no
// batching here.
//
// Everything here works behind PgBouncer in transaction pooling mode (docs/scaling.md):
// no named prepared statements, no session settings (SET LOCAL in each transaction's
// BEGIN), only transaction-scoped advisory locks; the settings LISTEN alone needs a
// session, on a connection of its own to `directUrl`.

import pg from 'pg';
import { ConstraintViolation, DEFAULT_MAX_QUEUED, UniqueViolation, type Db, type Param, type Queryable, type Tx, withEnds } from './db.js';
import { unavailable } from './unavailable.js';
import { SETTINGS_NOTICE, settingsWatch, WRITES_SETTINGS, type SettingsWatch } from './pg-settings.js';
import { replicaRouter, type ReplicaRouter } from './pg-replica.js';

export interface PostgresOptions {
  /**
   * The same database past any pooler, for the one session this process keeps (the
   * settings LISTEN). A user, password or database it does not name are `url`'s.
   */
  directUrl?: string | undefined;
  /** A streaming replica lists and statistics may read from (pg-replica.ts). */
  replicaUrl?: string | undefined;
  /** An idle pooled connection broke (the server restarted, say): told, not thrown. */
  onIdleError?: ((err: Error) => void) | undefined;
  /** Connections this process may hold. */
  poolSize?: number;
  /** How long a statement waits for a row another transaction holds; then 503, as SQLite's busy timeout. */
  lockTimeoutMs?: number;
  /**
   * Callers that may wait for a pooled connection (pg's pool queues them without
   * limit); beyond it a new one is refused at once with 503. 10,000, as SQLite's queue.
   */
  maxQueued?: number;
}

/** PostgreSQL retries that are ours to make: the transaction lost a race, not an argument. */
class Conflict extends Error {}
const RETRIES = 5;

// SQLSTATEs that say "not now" rather than "not this": no connection, no resources, an
// operator shutting the server down, a read-only standby, a lock or statement timeout.
const UNAVAILABLE = /^(08|53|57P0|57014|55P03|25006)/;

/** Errors from the driver, never from the function a transaction runs. */
function translate(err: unknown): unknown {
  if (err instanceof TypeError || err instanceof RangeError) return err; // ours: a bad parameter
  if (!(err instanceof pg.DatabaseError)) return unavailable(err); // the connection itself failed
  const code = err.code ?? '';
  if (code === '23505') return new UniqueViolation(err.message);
  if (code === '23503') return new ConstraintViolation(err.message); // a referenced row went meanwhile
  if (code === '40001' || code === '40P01') return new Conflict(err.message); // serialization, deadlock
  if (UNAVAILABLE.test(code)) return unavailable(err);
  // A bug of ours. PostgreSQL's message and detail may quote the row (an e-mail address),
  // and this error is logged: keep only the names of what failed.
  const where = [err.table, err.column, err.constraint].filter(Boolean).join(' ');
  return new Error(`PostgreSQL error ${code}${where ? ` at ${where}` : ''}`);
}

/** `?` becomes `$1`, `$2`…, outside quoted literals; the store writes SQL once, for both engines. */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/'(?:[^']|'')*'|\?/g, (m) => (m === '?' ? `$${++n}` : m));
}

// BIGINT (unix seconds, amounts in cents) and NUMERIC (sums) arrive as strings by
// default, to be safe beyond 2^53; ours never get near it, and SQLite gives numbers.
const asNumber = (value: string): number => Number(value);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
      ? asNumber
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Settings for every transaction, sent with its BEGIN in one round trip, so that none
 * outlives it on a pooled server connection. synchronous_commit: the server's default may
 * have been relaxed, and a 2xx here means flushed, whatever it is. lock_timeout: a request
 * waits for a row another transaction holds only so long, then gets 503, never hangs.
 * client_min_messages: the settings triggers' NOTICE must reach us (pg-settings.ts).
 */
const begin = (lockTimeoutMs: number): string =>
  `BEGIN; SET LOCAL synchronous_commit = on; SET LOCAL lock_timeout = ${lockTimeoutMs}; SET LOCAL client_min_messages = notice`;

type Query = (sql: string, params?: readonly Param[]) => Promise<pg.QueryResult>;

/** A statement that only reads: a replica may answer it, and it marks no write. */
const READS = /^\s*SELECT\b/i;

/** `direct` completed from `url`: what it leaves out (user, password, database, options) is `url`'s. */
export function directOf(url: string, direct: string | undefined): string {
  if (!direct) return url;
  const [u, d] = [new URL(url), new URL(direct)];
  if (!d.username) [d.username, d.password] = [u.username, u.password];
  if (d.pathname === '' || d.pathname === '/') d.pathname = u.pathname;
  if (!d.search) d.search = u.search;
  return d.toString();
}

/** The pool of this process's connections (types above), its idle connections' errors told to `onIdleError`. */
function openPool(url: string, opts: PostgresOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    application_name: 'tally',
    types,
  });
  // An idle connection that breaks is dropped by the pool; the next query reconnects.
  // Whoever opened the database hears of it (the server logs it), or nobody does.
  pool.on('error', (err) => opts.onIdleError?.(err));
  return pool;
}

/** The settings' version (pg-settings.ts), and what a connection's own changes tell it once they commit or roll back. */
interface OwnChanges {
  watch: SettingsWatch;
  /** Once what `client` did is committed: if it changed settings, this process knows now. */
  settled(client: pg.PoolClient): void;
  /** It rolled back: no NOTIFY is coming. */
  undone(client: pg.PoolClient): void;
}

function ownChanges(pool: pg.Pool, directUrl: string): OwnChanges {
  // Our own settings changes, told at once by the triggers' NOTICE, must not count again
  // when their NOTIFY comes back (pg-settings.ts). Both name the server backend that made
  // the change (the NOTICE in its detail, migration 0025): behind a pooler that is not a
  // connection we hold, so a NOTICE expects one NOTIFY from its backend.
  const changedBy = new WeakMap<pg.PoolClient, number>();
  const expected = new Map<number, number>();
  const expect = (pid: number, by: number): void => {
    const n = (expected.get(pid) ?? 0) + by;
    if (n > 0) expected.set(pid, n);
    else expected.delete(pid);
  };
  const watch = settingsWatch(directUrl, {
    claim(pid) {
      if (!expected.has(pid)) return false;
      expect(pid, -1);
      return true;
    },
    forget: () => expected.clear(),
  });
  pool.on('connect', (client) => {
    // A client the pool has lent out has no 'error' listener of the pool's: one whose
    // connection ends meanwhile (the server died, a pooler dropped it) would emit an error
    // nobody hears, and end the process. Its query fails with that error instead, and the
    // pool drops it on release.
    client.on('error', () => undefined);
    client.on('notice', (notice) => {
      const pid = Number(notice.detail);
      if (notice.message !== SETTINGS_NOTICE || changedBy.has(client as pg.PoolClient)) return;
      changedBy.set(client as pg.PoolClient, pid); // NaN before 0025: nothing NOTIFYs by it
      expect(pid, 1);
    });
  });
  return {
    watch,
    settled(client) {
      if (changedBy.delete(client)) watch.changed();
    },
    undone(client) {
      const pid = changedBy.get(client);
      if (pid !== undefined && changedBy.delete(client)) expect(pid, -1);
    },
  };
}

type Statement = (sql: string, params: readonly Param[]) => pg.QueryConfig;

/**
 * Unnamed statements (a pooler cannot keep a named one across transactions): PostgreSQL
 * plans each anew, while the `?` to `$n` translation is made once per process.
 */
function statements(): Statement {
  const translated = new Map<string, string>();
  return (sql, params) => {
    let text = translated.get(sql);
    if (text === undefined) {
      text = numbered(sql);
      translated.set(sql, text);
    }
    return { text, values: params as Param[] };
  };
}

const queryable = (query: Query, watch: SettingsWatch): Queryable => ({
  engine: 'postgres',
  settings: watch,
  all: async <T>(sql: string, params?: readonly Param[]) => (await query(sql, params)).rows as T[],
  get: async <T>(sql: string, params?: readonly Param[]) => (await query(sql, params)).rows[0] as T | undefined,
  run: async (sql, params) => (await query(sql, params)).rowCount ?? 0,
});

/** What the parts of one open database share. */
interface Open {
  /** Set by close(): a statement after it is ours to avoid, as with a closed SQLite handle: an internal error, not "try again". */
  closed: boolean;
  statement: Statement;
  own: OwnChanges;
  replica: ReplicaRouter | undefined;
  /** A pooled connection, or 503 at once when too many callers wait for one. */
  connect(): Promise<pg.PoolClient>;
}

const ensureOpen = (open: Open): void => {
  if (open.closed) throw new Error('the database is closed');
};

/**
 * Every query outside a transaction, and every transaction, first waits in the pool's
 * queue for a connection. Past the bound, 503 at once instead of a queue (holding each
 * request's memory) that grows while the database is slow or a flood goes on.
 */
function connector(pool: pg.Pool, maxQueued: number, isClosed: () => boolean): () => Promise<pg.PoolClient> {
  return async () => {
    if (isClosed()) throw new Error('the database is closed');
    if (pool.waitingCount >= maxQueued) throw unavailable();
    try {
      return await pool.connect();
    } catch (err) {
      throw unavailable(err);
    }
  };
}

/** Statements on `client`, a transaction's. */
function on(open: Open, client: pg.PoolClient): Queryable & { query: Query } {
  const query: Query = async (sql, params = []) => {
    ensureOpen(open);
    try {
      return await client.query(open.statement(sql, params));
    } catch (err) {
      throw translate(err);
    }
  };
  return { ...queryable(query, open.own.watch), query };
}

type Transaction = <T>(fn: (tx: Tx, query: Query) => Promise<T>) => Promise<T>;

/** Transactions, each tried again (up to RETRIES) when it lost a race; `stats` counts those committed. */
function transactions(open: Open, beginWith: string, stats: { batches: number; transactions: number }): Transaction {
  /** One attempt: BEGIN, the function, COMMIT; anything else rolls back. */
  const attempt = async <T>(fn: (tx: Tx, query: Query) => Promise<T>): Promise<T> => {
    const client = await open.connect();
    const q = on(open, client);
    const tx: Tx = {
      ...q,
      engine: 'postgres',
      async lock(key) {
        // Per schema, so that deployments sharing a database do not wait on each other.
        await q.get("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ':' || ?, 0))", [key]);
      },
    };
    let broken: Error | undefined;
    try {
      await client.query(beginWith).catch((err: unknown) => {
        throw translate(err);
      });
      const value = await withEnds(tx, (t) => fn(t, q.query));
      await q.run('COMMIT');
      open.own.settled(client);
      open.replica?.wrote();
      return value;
    } catch (err) {
      open.own.undone(client);
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw err;
    } finally {
      client.release(broken); // a connection that cannot roll back is closed, not reused
    }
  };

  return async (fn) => {
    for (let n = 1; ; n++) {
      try {
        const value = await attempt(fn);
        stats.batches++;
        stats.transactions++;
        return value;
      } catch (err) {
        if (!(err instanceof Conflict)) throw err;
        if (n >= RETRIES) throw unavailable();
      }
    }
  };
}

/**
 * A statement outside a transaction, alone on a pooled connection, committed by itself
 * in one round trip (the conversion's insert is one). Its lock_timeout and
 * synchronous_commit are the role's (docs/scaling.md; durableCommits checks the latter).
 * A write to a settings table goes in a transaction: committing on its own, it could
 * have its NOTIFY heard before its NOTICE (sent with the statement's answer) and count twice.
 */
function alone(open: Open, transaction: Transaction): Query {
  const { statement, own, replica } = open;
  return async (sql, params = []) => {
    ensureOpen(open);
    if (WRITES_SETTINGS.test(sql)) return transaction((_tx, query) => query(sql, params));
    const reads = READS.test(sql);
    if (reads && replica) {
      const from = await replica.choose();
      if (from) {
        try {
          return await from.query(statement(sql, params));
        } catch (err) {
          if (err instanceof pg.DatabaseError && !UNAVAILABLE.test(err.code ?? '')) throw translate(err);
          replica.failed(); // down or gone: the primary answers
        }
      }
    }
    const client = await open.connect();
    try {
      const result = await client.query(statement(sql, params));
      own.settled(client); // committed on its own
      if (!reads) replica?.wrote();
      return result;
    } catch (err) {
      own.undone(client);
      throw translate(err);
    } finally {
      client.release();
    }
  };
}

export function openPostgres(url: string, opts: PostgresOptions = {}): Db {
  const pool = openPool(url, opts);
  const own = ownChanges(pool, directOf(url, opts.directUrl));
  const replica = opts.replicaUrl
    ? replicaRouter(
        opts.replicaUrl,
        async () => (await pool.query<{ l: string }>('SELECT pg_current_wal_lsn()::text AS l')).rows[0]?.l ?? null,
        opts.poolSize ?? 10,
      )
    : undefined;
  const open: Open = {
    closed: false,
    statement: statements(),
    own,
    replica,
    connect: connector(pool, opts.maxQueued ?? DEFAULT_MAX_QUEUED, () => open.closed),
  };
  const stats = { batches: 0, transactions: 0 };
  const transaction = transactions(open, begin(opts.lockTimeoutMs ?? 5000), stats);
  const direct = queryable(alone(open, transaction), own.watch);
  return {
    ...direct,
    transaction,
    readThenWrite: (fn) => fn(direct),
    stats: () => ({ ...stats, waiting: pool.waitingCount, ...(replica ? { replicaReads: { ...replica.counts } } : {}) }),
    async ping() {
      await direct.get('SELECT 1');
    },
    async backup() {
      throw new Error('a PostgreSQL database is backed up with its own tools: pg_dump, or a base backup');
    },
    async close() {
      if (open.closed) return;
      open.closed = true;
      await Promise.all([own.watch.close(), pool.end(), replica?.close()]);
    },
  };
}

/**
 * A statement outside a transaction commits with the role's synchronous_commit: refused at
 * start when it is off, since a 2xx here means flushed (ALTER ROLE … SET synchronous_commit = on).
 */
export async function durableCommits(db: Queryable): Promise<void> {
  const row = await db.get<{ s: string }>("SELECT current_setting('synchronous_commit') AS s");
  if (row?.s === 'off') {
    throw new Error(
      "PostgreSQL's synchronous_commit is off for this role: a write could be acknowledged and then lost. " +
        'Turn it on for the role Tally logs in as: ALTER ROLE <role> SET synchronous_commit = on',
    );
  }
}

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);
