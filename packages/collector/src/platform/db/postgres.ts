// The PostgreSQL driver: a connection pool (pg) behind the same Db interface as SQLite,
// so repositories, domain and routes run unchanged on both. Several collector
// processes may share one database; what must hold across them is held by the
// database itself: unique constraints, conditional updates, and advisory locks (Tx.lock).
//
// A 2xx still means committed: a transaction's promise resolves after COMMIT returns,
// and with synchronous_commit on (set on every connection) a commit is flushed first.
// Commits that arrive together share a WAL flush in PostgreSQL itself, so there is no
// batching here.

import pg from 'pg';
import { ConstraintViolation, DEFAULT_MAX_QUEUED, UniqueViolation, type Db, type Param, type Queryable, type Tx } from './db.js';
import { unavailable } from './unavailable.js';
import { SETTINGS_NOTICE, settingsWatch } from './pg-settings.js';

export interface PostgresOptions {
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
 * Settings for every connection, after any options the URL already carries (a
 * search_path). synchronous_commit: the server's default may have been relaxed, and a
 * 2xx here means flushed, whatever it is. lock_timeout: a request waits for a row
 * another transaction holds only so long, then gets 503, never hangs.
 */
function withSettings(url: string, lockTimeoutMs: number): string {
  const u = new URL(url);
  // client_min_messages: the settings triggers' NOTICE must reach us (pg-settings.ts).
  const ours = `-c synchronous_commit=on -c lock_timeout=${lockTimeoutMs} -c client_min_messages=notice`;
  u.searchParams.set('options', [u.searchParams.get('options'), ours].filter(Boolean).join(' '));
  return u.toString();
}

export function openPostgres(url: string, opts: PostgresOptions = {}): Db {
  const connectionString = withSettings(url, opts.lockTimeoutMs ?? 5000);
  const pool = new pg.Pool({
    connectionString,
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    application_name: 'tally',
    types,
  });
  // An idle connection that breaks is dropped by the pool; the next query reconnects.
  // Whoever opened the database hears of it (the server logs it), or nobody does.
  pool.on('error', (err) => opts.onIdleError?.(err));

  // Connections whose statements changed settings, not yet committed (pg-settings.ts).
  const backends = new Set<number>();
  const watch = settingsWatch(connectionString, (pid) => backends.has(pid));
  const touched = new WeakSet<pg.PoolClient>();
  pool.on('remove', (client) => backends.delete((client as unknown as { processID: number }).processID));
  pool.on('connect', (client) => {
    backends.add((client as unknown as { processID: number }).processID);
    client.on('notice', (notice) => {
      if (notice.message === SETTINGS_NOTICE) touched.add(client as pg.PoolClient);
    });
  });
  /** Once what `client` did is committed: if it changed settings, this process knows now. */
  const settled = (client: pg.PoolClient): void => {
    if (touched.delete(client)) watch.changed();
  };

  // Every query outside a transaction, and every transaction, first waits in the pool's
  // queue for a connection. Past the bound, 503 at once instead of a queue (holding each
  // request's memory) that grows while the database is slow or a flood goes on.
  const maxQueued = opts.maxQueued ?? DEFAULT_MAX_QUEUED;
  const admit = (): void => {
    if (pool.waitingCount >= maxQueued) throw unavailable();
  };

  // Named statements are parsed and planned once per connection; translated once per process.
  const prepared = new Map<string, { name: string; text: string }>();
  const statement = (sql: string, params: readonly Param[]) => {
    let known = prepared.get(sql);
    if (!known) {
      known = { name: `t${prepared.size}`, text: numbered(sql) };
      prepared.set(sql, known);
    }
    return { ...known, values: params as Param[] };
  };

  let closed = false;
  /** Statements on `client`, a transaction's, or (none) each on a pooled connection of its own. */
  const on = (client?: pg.PoolClient): Queryable => {
    const query = async (sql: string, params: readonly Param[] = []) => {
      // Ours to avoid, as with a closed SQLite handle: an internal error, not "try again".
      if (closed) throw new Error('the database is closed');
      const own = client ?? (await connect());
      try {
        const result = await own.query(statement(sql, params));
        if (!client) settled(own); // a statement outside a transaction commits on its own
        return result;
      } catch (err) {
        throw translate(err);
      } finally {
        if (!client) {
          touched.delete(own);
          own.release();
        }
      }
    };
    return {
      engine: 'postgres',
      settings: watch,
      all: async <T>(sql: string, params?: readonly Param[]) => (await query(sql, params)).rows as T[],
      get: async <T>(sql: string, params?: readonly Param[]) => (await query(sql, params)).rows[0] as T | undefined,
      run: async (sql, params) => (await query(sql, params)).rowCount ?? 0,
    };
  };

  const connect = async (): Promise<pg.PoolClient> => {
    if (closed) throw new Error('the database is closed');
    admit();
    try {
      return await pool.connect();
    } catch (err) {
      throw unavailable(err);
    }
  };

  const stats = { batches: 0, transactions: 0 };

  /** One attempt: BEGIN, the function, COMMIT; anything else rolls back. */
  const attempt = async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
    const client = await connect();
    const q = on(client);
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
      await q.run('BEGIN');
      const value = await fn(tx);
      await q.run('COMMIT');
      settled(client);
      return value;
    } catch (err) {
      touched.delete(client);
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw err;
    } finally {
      client.release(broken); // a connection that cannot roll back is closed, not reused
    }
  };

  const direct = on();
  return {
    ...direct,
    async transaction(fn) {
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
    },
    readThenWrite: (fn) => fn(direct),
    stats: () => ({ ...stats, waiting: pool.waitingCount }),
    async ping() {
      await direct.get('SELECT 1');
    },
    async backup() {
      throw new Error('a PostgreSQL database is backed up with its own tools: pg_dump, or a base backup');
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([watch.close(), pool.end()]);
    },
  };
}

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);
