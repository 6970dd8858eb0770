// Writes built from a typed row: the column list is the row's own keys, which come
// from our code, never from a request. One helper keeps the repositories free of
// long, hand-aligned column and parameter lists.

import type { Db, Param, Queryable } from './db.js';

export function insertRow(db: Queryable, table: string, row: object, suffix = ''): Promise<number> {
  const columns = Object.keys(row);
  const marks = columns.map(() => '?').join(', ');
  return db.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${marks}) ${suffix}`, Object.values(row) as Param[]);
}

/** Rows at most per statement: within both engines' limits on parameters (SQLite 32,766, PostgreSQL 65,535). */
const ROWS_PER_INSERT = 500;

/**
 * Writes rows of one shape (the first one's keys) in multi-row statements: a payout run's
 * thousands of rows in a few statements, not one round trip each (issue 47).
 */
export async function insertRows(db: Queryable, table: string, rows: readonly object[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const marks = `(${columns.map(() => '?').join(', ')})`;
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const part = rows.slice(i, i + ROWS_PER_INSERT);
    const params: Param[] = [];
    for (const row of part) for (const c of columns) params.push((row as Record<string, Param>)[c]!);
    await db.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${part.map(() => marks).join(', ')}`, params);
  }
}

/** Updates `fields` of the program's row `id` in `table`, only where the row still has `expect`. */
export function updateRow(
  db: Queryable,
  table: string,
  programId: string,
  id: string,
  fields: Record<string, Param>,
  expect: Record<string, Param> = {},
): Promise<number> {
  const set = Object.keys(fields).map((c) => `${c} = ?`);
  const where = ['id = ?', 'program_id = ?', ...Object.keys(expect).map((c) => `${c} = ?`)];
  return db.run(`UPDATE ${table} SET ${set.join(', ')} WHERE ${where.join(' AND ')}`, [
    ...Object.values(fields),
    id,
    programId,
    ...Object.values(expect),
  ]);
}

/** A row for `table`, to be written beside another (insertFirstWith). */
export interface Insert {
  table: string;
  row: object;
  /** `(columns)`: a row already there with that key is kept, and this one is not written. */
  conflict?: string;
}

const onConflict = (f: Insert): string => (f.conflict ? ` ON CONFLICT ${f.conflict} DO NOTHING` : '');

/** Writes `f` on its own (kept out when its `conflict` key is there already). */
export const insertOne = (db: Queryable, f: Insert): Promise<number> => insertRow(db, f.table, f.row, onConflict(f));

/**
 * Inserts `first` unless a row with its `conflict` key is there already, and only then
 * the rows that follow from it; all or nothing. Resolves to whether `first` was inserted.
 * PostgreSQL: one statement, each follower a data-modifying WITH that selects from the
 * first's RETURNING, atomic without a transaction of its own: one round trip instead of
 * BEGIN, an insert each and COMMIT. SQLite: the inserts in turn, in the caller's
 * transaction or in one of their own (which group commit shares anyway).
 */
export async function insertFirstWith(db: Queryable | Db, first: Insert, conflict: string, followers: readonly Insert[]): Promise<boolean> {
  if (db.engine === 'postgres') {
    const params: Param[] = [];
    const columns = ({ row }: Insert) => Object.keys(row).join(', ');
    const marks = ({ row }: Insert) =>
      Object.values(row)
        .map((value: Param) => {
          params.push(value);
          return '?';
        })
        .join(', ');
    const steps = [
      `first AS (INSERT INTO ${first.table} (${columns(first)}) VALUES (${marks(first)}) ON CONFLICT ${conflict} DO NOTHING RETURNING 1)`,
      ...followers.map((f, i) => `f${i} AS (INSERT INTO ${f.table} (${columns(f)}) SELECT ${marks(f)} FROM first${onConflict(f)})`),
    ];
    const inserted = await db.get<{ n: number }>(`WITH ${steps.join(', ')} SELECT COUNT(*) AS n FROM first`, params);
    return inserted?.n === 1;
  }
  const inOrder = async (tx: Queryable): Promise<boolean> => {
    if ((await insertRow(tx, first.table, first.row, `ON CONFLICT ${conflict} DO NOTHING`)) !== 1) return false;
    for (const f of followers) await insertOne(tx, f);
    return true;
  };
  return 'transaction' in db ? db.transaction(inOrder) : inOrder(db);
}
