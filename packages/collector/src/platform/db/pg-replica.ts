// Reads from a streaming replica that still see the caller's own writes (docs/scaling.md).
// The rule: a read-only request (a list, the statistics) of a caller goes to the replica
// unless that caller wrote since the replica last showed it had replayed past the write.
// After a caller's write, the primary's WAL position is asked at the caller's next such
// read (at most once per write), and the replica serves it once its replay position has
// reached that; meanwhile the primary does. A replica more than about a second behind the
// primary, or one that fails, sends every read to the primary for a while: never an error.

import pg from 'pg';
import { currentCaller } from './caller.js';

/** Callers whose last write is remembered at most (past it, see `wrote`). */
const MAX_CALLERS = 10_000;
/** How often the replica's lag is measured, and how long a failed replica is left alone. */
const LAG_CHECK_MS = 1000;
const DOWN_MS = 2000;

/** A WAL position beyond any a server will reach. */
const PAST_ANY = 2n ** 64n;

/** A WAL position ('16/B374D848') as a number that orders. */
export function lsn(text: string | null | undefined): bigint | undefined {
  if (!text) return undefined;
  const [hi, lo] = text.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

export interface ReplicaRouter {
  /** The current caller's write has committed (on the primary). */
  wrote(): void;
  /** The pool the current statement may read from, or undefined: the primary. */
  choose(): Promise<pg.Pool | undefined>;
  /** The replica failed a read: the primary for a while. */
  failed(): void;
  counts: { replica: number; primary: number };
  close(): Promise<void>;
}

export function replicaRouter(url: string, primaryPosition: () => Promise<string | null>, poolSize: number): ReplicaRouter {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 1000, application_name: 'tally-replica' });
  pool.on('error', () => undefined); // an idle connection broke: the next read opens another, or falls back
  /** A caller's write not yet seen replayed: the primary's position after it, once asked. */
  const marks = new Map<string, { at?: bigint }>();
  const counts = { replica: 0, primary: 0 };
  let downUntil = 0;
  let lag: { checkedAt: number; ok: boolean; primaryBefore: bigint; pending?: Promise<boolean> } = {
    checkedAt: 0,
    ok: true,
    primaryBefore: 0n,
  };

  const replayed = async (): Promise<bigint> => {
    const { rows } = await pool.query<{ l: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS l');
    // Null: no longer a standby (promoted): whatever it has is all there is to read.
    return lsn(rows[0]?.l) ?? PAST_ANY;
  };

  /** Whether the replica has replayed what the primary had written a check ago: behind by a second at most. */
  const fresh = (): Promise<boolean> => {
    if (Date.now() - lag.checkedAt < LAG_CHECK_MS) return Promise.resolve(lag.ok);
    lag.pending ??= (async () => {
      const [primary, replica] = await Promise.all([primaryPosition().then(lsn), replayed()]);
      lag = { checkedAt: Date.now(), ok: replica !== undefined && replica >= lag.primaryBefore, primaryBefore: primary ?? 0n };
      return lag.ok;
    })().finally(() => {
      lag.pending = undefined;
    });
    return lag.pending;
  };

  const failed = (): void => {
    downUntil = Date.now() + DOWN_MS;
    lag.checkedAt = 0;
  };

  const primary = () => {
    counts.primary++;
    return undefined;
  };

  return {
    counts,
    wrote() {
      const scope = currentCaller();
      if (!scope) return;
      marks.delete(scope.caller); // to the end: the oldest first out
      marks.set(scope.caller, {});
      // Forgetting a caller would let its next read miss its write: the replica is then
      // trusted by nobody until it has replayed everything written so far.
      if (marks.size > MAX_CALLERS) {
        marks.clear();
        lag = { checkedAt: 0, ok: false, primaryBefore: PAST_ANY };
      }
    },
    async choose() {
      const scope = currentCaller();
      if (!scope?.replica) return undefined;
      if (Date.now() < downUntil) return primary();
      try {
        if (!(await fresh())) return primary();
        const mark = marks.get(scope.caller);
        if (mark) {
          mark.at ??= lsn(await primaryPosition()) ?? 0n;
          if ((await replayed()) < mark.at) return primary();
          marks.delete(scope.caller);
        }
        counts.replica++;
        return pool;
      } catch {
        failed();
        return primary();
      }
    },
    failed,
    close: () => pool.end(),
  };
}
