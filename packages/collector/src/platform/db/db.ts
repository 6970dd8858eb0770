// The store's view of a database: a handful of Promise-returning calls with `?`
// placeholders. Repositories are written once against it; each engine is a driver.
// Promises keep the door open for an engine whose calls really are asynchronous.

export type Param = string | number | bigint | null;

/**
 * Tells when the settings every request reads (tokens, programs and their origins,
 * webhook endpoints, partnerships by slug) may have changed, by this process or any other: whatever was read
 * while `version()` gave one value may be kept in memory while it gives the same
 * (platform/db/remembered.ts). A change made here moves it before its transaction's promise
 * resolves; another process's within SETTINGS_LAG_MS. Undefined while it cannot be
 * known: keep nothing then. One clock per database, shared by its transactions.
 */
export interface SettingsClock {
  version(): number | undefined;
}

/** A clock that never tells: nothing is kept, every read is made. */
export const UNKNOWN_SETTINGS: SettingsClock = { version: () => undefined };

export interface Queryable {
  /** Which engine runs the SQL: a repository's SQL may differ by it, nothing above a repository branches on it. */
  readonly engine: Engine;
  readonly settings: SettingsClock;
  all<T>(sql: string, params?: readonly Param[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly Param[]): Promise<T | undefined>;
  /** Runs a write and resolves to the number of rows it changed. */
  run(sql: string, params?: readonly Param[]): Promise<number>;
}

/** What a transaction's function works with. */
export interface Tx extends Queryable {
  /**
   * Holds `key` until the transaction ends, against every process that shares the
   * database, for a read-then-write that no constraint can express. On SQLite one
   * writer at a time holds the whole database anyway; PostgreSQL takes an advisory lock.
   */
  lock(key: string): Promise<void>;
  /**
   * Runs `fn` once the transaction's function has done its work, still inside the
   * transaction (before COMMIT): what must see the whole change, not the part written so far.
   */
  atEnd?(fn: () => Promise<void>): void;
}

/** Runs `fn` with `tx`, then what it left for its end (Tx.atEnd), in order, still in the transaction. */
export async function withEnds<T>(tx: Tx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const ends: Array<() => Promise<void>> = [];
  const value = await fn({ ...tx, atEnd: (end) => void ends.push(end) });
  for (let end = ends.shift(); end; end = ends.shift()) await end();
  return value;
}

export type Engine = 'sqlite' | 'postgres';

/**
 * Work that may wait for the database at once (SQLite: transactions queued for the next
 * commit; PostgreSQL: callers waiting for a connection) before more is refused with 503.
 * Ten thousand requests' worth of memory is small; a queue that never ends is not.
 */
export const DEFAULT_MAX_QUEUED = 10_000;

/**
 * How late a settings change made by another process (a token revoked with the CLI) may
 * reach this one's memory: SQLite is asked this often; PostgreSQL tells at once (NOTIFY).
 */
export const SETTINGS_LAG_MS = 100;

export interface Db extends Queryable {
  /**
   * Runs `fn` in a write transaction and commits before resolving, so a resolved
   * promise means the change is durable. A throw rolls back everything `fn` did. The
   * engine may commit several callers' functions together (group commit); each is
   * isolated from the others' failures, and all see one another's writes in order.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Reads, then at most one write statement, as cheaply as the engine allows: SQLite in a
   * transaction, which group commit shares (a read outside one would first wait for the
   * disk); PostgreSQL statement by statement, each seeing the latest commits at READ
   * COMMITTED, sparing BEGIN and COMMIT's two round trips.
   */
  readThenWrite<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * Commits so far, and the transactions they carried: their ratio is the group size.
   * `waiting`: work held back right now (SQLite: transactions queued for the next
   * commit; PostgreSQL: callers waiting for a pooled connection).
   */
  /** replicaReads: reads a replica could answer, by who answered (PostgreSQL with DATABASE_REPLICA_URL). */
  stats(): { batches: number; transactions: number; waiting: number; replicaReads?: { replica: number; primary: number } };
  /** Liveness of the database itself, for /readyz. */
  ping(): Promise<void>;
  /**
   * A consistent copy of the whole database at `dest`, taken while others keep
   * writing (SQLite's online backup API). Resolves once the copy is complete.
   * PostgreSQL has its own tools for this (pg_dump) and refuses.
   */
  backup(dest: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A constraint refused a write: a row changed meanwhile by another request (a partner
 * deleted while a conversion credited it, say). Unresolved, it is a 409, not a 500.
 */
export class ConstraintViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A unique index refused a row; the domain decides what that means to the caller. */
export class UniqueViolation extends ConstraintViolation {}
