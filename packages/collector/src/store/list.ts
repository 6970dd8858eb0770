// The one list query every list route uses: a program's rows, filtered by whitelisted
// columns, newest first (created_at, then id, both descending), one page plus one row
// to learn whether more follow.

import type { Param, Queryable } from './db.js';

export type FilterOp = 'eq' | 'lt' | 'gt';

/** A filter by API field name; the repository maps the name to its column. */
export interface FieldFilter {
  field: string;
  op: FilterOp;
  value: Param;
}

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface Page<T> {
  rows: T[];
  hasMore: boolean;
}

const SQL_OP: Record<FilterOp, string> = { eq: '=', lt: '<', gt: '>' };

export async function listPage<T>(
  db: Queryable,
  table: string,
  columns: Readonly<Record<string, string>>,
  programId: string,
  filters: readonly FieldFilter[],
  page: PageRequest,
): Promise<Page<T>> {
  const where = ['program_id = ?'];
  const params: Param[] = [programId];
  for (const f of filters) {
    const column = columns[f.field];
    // A programming error, not a client's: routes only pass names they declared.
    if (!column) throw new Error(`${table} cannot be filtered by ${f.field}`);
    where.push(`${column} ${SQL_OP[f.op]} ?`);
    params.push(f.value);
  }
  params.push(page.perPage + 1, (page.page - 1) * page.perPage);
  const rows = await db.all<T>(
    `SELECT * FROM ${table} WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    params,
  );
  const hasMore = rows.length > page.perPage;
  if (hasMore) rows.pop();
  return { rows, hasMore };
}

/** The list function of one table, filterable by the fields in `columns`. */
export function lister<T>(table: string, columns: Readonly<Record<string, string>>) {
  return (db: Queryable, programId: string, filters: readonly FieldFilter[], page: PageRequest): Promise<Page<T>> =>
    listPage<T>(db, table, columns, programId, filters, page);
}
