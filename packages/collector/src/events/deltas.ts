// What a change counts, written in its own transaction beside it (docs/statistics.md):
// a delta row per change to a total, an insert, never an update of a shared counter row,
// so writers never queue behind one another. modules/stats folds them into per-15-minute
// buckets and reads them; every module that changes a total writes its delta here, as it
// writes its event (emit.ts). Every UTC offset in use is a multiple of 15 minutes, so a
// day, week or month in any zone is an exact union of buckets.

import type { Param, Queryable } from '../platform/db/db.js';
import { insertRow, type Insert } from '../platform/db/rows.js';

export const BUCKET_SECONDS = 900;

/** The measures kept; money ones are per currency, counts are under currency ''. */
export const MEASURES = ['clicks', 'referrals', 'customers', 'payments', 'revenue', 'commissions', 'owed'] as const;

/**
 * `owed` is not a measure of a period but of now: what is pending and in no open payout
 * batch. It is kept in one bucket of its own, NOW, which no range reaches.
 */
export const NOW = -1;
export type Measure = (typeof MEASURES)[number];

export interface Delta extends Partial<Record<Measure, number>> {
  program_id: string;
  partner_id: string;
  /** Unix seconds, floored to its bucket here; NOW for `owed`. */
  at: number;
  currency?: string;
}

export const bucketOf = (t: number): number => (t === NOW ? NOW : Math.floor(t / BUCKET_SECONDS) * BUCKET_SECONDS);
export const COLUMNS = `program_id, partner_id, bucket, currency, ${MEASURES.join(', ')}`;
/** `(created_at / 900) * 900` is integer arithmetic on both engines' BIGINTs. */
export const BUCKET = (column: string) => `(${column} / ${BUCKET_SECONDS}) * ${BUCKET_SECONDS}`;

export async function addDelta(db: Queryable, d: Delta): Promise<void> {
  const { table, row } = deltaInsert(d);
  await insertRow(db, table, row);
}

/** The delta as a row to write beside a change (rows.ts, insertFirstWith). */
export function deltaInsert(d: Delta): Insert {
  const measures = Object.fromEntries(MEASURES.map((m) => [m, d[m] ?? 0]));
  return {
    table: 'stat_deltas',
    row: { program_id: d.program_id, partner_id: d.partner_id, bucket: bucketOf(d.at), currency: d.currency ?? '', ...measures },
  };
}

/** Takes back the clicks `where` selects, before they are deleted (a partner removed, a person erased). */
/** Takes back what a deleted partner's purged clicks counted (modules/clicks/repo.ts keeps them per bucket), and forgets them. */
export async function uncountPurgedClicks(db: Queryable, programId: string, partnerId: string): Promise<void> {
  await db.run(
    `INSERT INTO stat_deltas (${COLUMNS})
     SELECT program_id, partner_id, bucket, '', -clicks, 0, 0, 0, 0, 0, 0 FROM clicks_purged WHERE program_id = ? AND partner_id = ?`,
    [programId, partnerId],
  );
  await db.run('DELETE FROM clicks_purged WHERE program_id = ? AND partner_id = ?', [programId, partnerId]);
}

export async function uncountClicks(db: Queryable, where: string, params: readonly Param[]): Promise<void> {
  await db.run(
    `INSERT INTO stat_deltas (${COLUMNS})
     SELECT c.program_id, ps.partner_id, ${BUCKET('c.created_at')}, '', -COUNT(*), 0, 0, 0, 0, 0, 0
       FROM clicks c JOIN partnerships ps ON ps.id = c.partnership_id
      WHERE ${where}
      GROUP BY c.program_id, ps.partner_id, ${BUCKET('c.created_at')}`,
    params,
  );
}
