// Group commit for the SQLite driver. An fsync costs more than everything else a write
// does, so writes that arrive together share one. transaction() queues its function;
// on the next turn of the event loop every queued function runs in one BEGIN IMMEDIATE
// … COMMIT, and each caller is answered only after that COMMIT is on disk (wal-sync.ts).
// A function that throws fails alone: one that wrote nothing has nothing to undo (a
// failed statement undoes itself); one that throws after writing ("halfway") rolls the
// batch back, and the others run again in the next batch, each in its own savepoint
// there. No savepoint otherwise: a conversion's SAVEPOINT and RELEASE were two of its
// nine statements (docs/hot-path.md, issue 47). Functions may run twice, as PostgreSQL's
// retries already require. A batch that cannot commit fails every request in it with
// 503, and no other.
//
// While another process holds SQLite's write lock the batch waits for it on timers
// (busy.ts), holding nothing; writes queued meanwhile join the batch that gets the lock,
// and each is refused with 503 once it has waited the whole limit. The queue is
// bounded: past maxQueued a new transaction is refused at once with 503, so a held lock
// or a flood cannot grow it (and the requests it holds) without end.

import { type Tx, withEnds } from './db.js';
import { backoff, isBusy, sleep } from './busy.js';
import type { Mutex } from './mutex.js';
import { unavailable } from './unavailable.js';
import type { WalSync } from './wal-sync.js';

/** The connection, as far as the scheduler drives it. */
export interface Session {
  /** Runs a statement of transaction control: BEGIN IMMEDIATE, SAVEPOINT, COMMIT… */
  control(sql: string): void;
  /** Told after each COMMIT, before anyone in the batch is answered. */
  committed(): void;
  /** Whether a transaction is open: SQLite ends one on its own after some errors. */
  inTransaction(): boolean;
  /** Statements `tx` has run that changed a row: a function that ran none has nothing to undo. */
  writes(): number;
  /** What the queued functions run their statements on. */
  tx: Tx;
  /** The driver's lock, held from BEGIN to COMMIT. */
  mutex: Mutex;
  wal: WalSync;
  /** SQLite's errors as the store's: 503, UniqueViolation… */
  translate(err: unknown): unknown;
}

export interface GroupCommitOptions {
  /** How long a queued write may wait for another process's lock before 503. */
  limitMs: number;
  /** Transactions that may wait for the next commit; beyond it, 503 at once. */
  maxQueued: number;
}

export interface GroupCommit {
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  stats(): { batches: number; transactions: number; waiting: number };
}

interface Queued {
  fn: (tx: Tx) => Promise<unknown>;
  /** Date.now() past which it has waited the whole limit for another process's lock. */
  deadline: number;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  /** Run again after a batch-mate failed halfway: in a savepoint this time, so it cannot cost its batch a second run. */
  careful?: boolean;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/** A function threw after writing: its writes are in the batch, which must be rolled back. */
class Halfway {
  constructor(
    readonly index: number,
    readonly err: unknown,
  ) {}
}

/** SQLite rolled the whole transaction back on its own (a full disk, an I/O error). */
const lostTransaction = () => Object.assign(new Error('the transaction was rolled back'), { code: 'SQLITE_IOERR' });

const refuse = (items: Queued[], err: unknown): void => {
  for (const item of items) item.reject(err);
};

export function groupCommit(session: Session, opts: GroupCommitOptions): GroupCommit {
  const { control, committed: afterCommit, inTransaction, tx, mutex, wal, translate } = session;
  let queue: Queued[] = [];
  let scheduled = false;
  const stats = { batches: 0, transactions: 0 };

  /** Runs one function; a failure before any write of its own is kept for it alone, one after throws Halfway. */
  const runOne = async (item: Queued, index: number): Promise<Outcome> => {
    if (item.careful) return runSaved(item);
    const before = session.writes();
    try {
      return { ok: true, value: await withEnds(tx, item.fn) };
    } catch (err) {
      if (session.writes() === before) return { ok: false, err };
      throw new Halfway(index, err);
    }
  };

  /** Runs one function in its savepoint; its own failure is rolled back and kept for it alone. */
  const runSaved = async (item: Queued): Promise<Outcome> => {
    control('SAVEPOINT one');
    try {
      const value = await withEnds(tx, item.fn);
      control('RELEASE one');
      return { ok: true, value };
    } catch (err) {
      // Some errors (a full disk, I/O) end the whole transaction; then no savepoint is left.
      if (inTransaction()) {
        control('ROLLBACK TO one');
        control('RELEASE one');
      }
      return { ok: false, err };
    }
  };

  /**
   * Takes the driver's lock and SQLite's write lock (BEGIN IMMEDIATE), and resolves
   * holding both, or to false when no queued write is left to commit. While another
   * process holds SQLite's lock, ours is released between tries, and writes that have
   * waited the whole limit are refused with 503, the oldest first.
   */
  const begin = async (): Promise<boolean> => {
    for (const delay of backoff()) {
      await mutex.acquire();
      try {
        control('BEGIN IMMEDIATE');
        return true;
      } catch (err) {
        mutex.release();
        if (!isBusy(err)) {
          // Not a wait that may end (a closed handle, an I/O error): every queued write fails.
          refuse(queue.splice(0), translate(err));
          return false;
        }
      }
      const now = Date.now();
      const waited = queue.findIndex((item) => item.deadline > now);
      refuse(queue.splice(0, waited < 0 ? queue.length : waited), unavailable());
      const oldest = queue[0];
      if (!oldest) return false;
      await sleep(Math.min(delay, oldest.deadline - now));
    }
    return false; // backoff() never ends
  };

  /** The open transaction for the whole batch; resolves to its commit's number, to why it was lost, or to the function that failed halfway. */
  const commitBatch = async (batch: Queued[], outcomes: Outcome[]): Promise<{ seq: number } | { lost: unknown } | Halfway> => {
    try {
      for (const [i, item] of batch.entries()) {
        outcomes.push(await runOne(item, i));
        if (!inTransaction()) throw lostTransaction();
      }
      control('COMMIT');
      afterCommit();
      stats.batches++;
      stats.transactions += outcomes.filter((o) => o.ok).length;
      return { seq: wal.committed() };
    } catch (err) {
      const open = inTransaction();
      if (open) control('ROLLBACK');
      // Its own failure when the transaction survived it; one that ended it (I/O, a full disk) loses the batch.
      if (err instanceof Halfway && open) return err;
      return { lost: translate(err instanceof Halfway ? err.err : err) };
    }
  };

  /** After this turn's I/O callbacks: every request read in this turn joins the batch. */
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void flush());
  };

  const flush = async (): Promise<void> => {
    // Until the queue is taken this is the only flush: writes queued meanwhile join it.
    const began = await begin();
    scheduled = false;
    if (!began) {
      // A write may have been queued between begin's answer and this line, when a flush
      // still seemed to be coming: it must not wait for the next write to be flushed.
      if (queue.length > 0) schedule();
      return;
    }
    const batch = queue;
    queue = [];
    const outcomes: Outcome[] = [];
    let committed: { seq: number } | { lost: unknown } | Halfway;
    try {
      committed = await commitBatch(batch, outcomes);
    } finally {
      mutex.release(); // the next batch may start while this one's fsync runs
    }
    if (committed instanceof Halfway) {
      // Rolled back: the one that failed is answered, the others go first in the next batch.
      const { index, err } = committed;
      batch[index]?.reject(err);
      queue = [...batch.filter((_, i) => i !== index).map((item) => ({ ...item, careful: true })), ...queue];
      schedule();
      return;
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
      if (outcome && !outcome.ok)
        item.reject(outcome.err); // its own failure, rolled back alone
      else if (lost !== undefined || !outcome) item.reject(lost);
      else item.resolve(outcome.value);
    });
  };

  return {
    transaction: <T>(fn: (tx: Tx) => Promise<T>): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        if (queue.length >= opts.maxQueued) return reject(unavailable());
        queue.push({ fn, deadline: Date.now() + opts.limitMs, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      }),
    stats: () => ({ ...stats, waiting: queue.length }),
  };
}
