// Writes built from a typed row: the column list is the row's own keys, which come
// from our code, never from a request. One helper keeps the repositories free of
// long, hand-aligned column and parameter lists.

import type { Param, Queryable } from './db.js';

export function insertRow(db: Queryable, table: string, row: object, suffix = ''): Promise<number> {
  const columns = Object.keys(row);
  const marks = columns.map(() => '?').join(', ');
  return db.run(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${marks}) ${suffix}`,
    Object.values(row) as Param[],
  );
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
