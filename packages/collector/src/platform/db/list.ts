// The one list query every list route uses: a program's rows, filtered by whitelisted
// columns, newest first (created_at, then id, both descending), one page plus one row
// to learn whether more follow. Every query walks an index in that order and stops
// after the page (test/collector/query-plans.test.ts holds each plan to it), so page 1
// costs the same on a thousand rows as on millions. A numbered page is LIMIT … OFFSET:
// the index entries before it are stepped over one by one, so page N costs in proportion
// to N × per_page, and numbered pages end 10,000 rows deep (platform/http/list-query.ts). A page
// named by a cursor (the record it starts after, or ends before) starts its walk at that
// record's place, (created_at, id), so the thousandth page costs what the first does.

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
  /** A record's id: the page of records after it, in the list's order (Stripe's starting_after). */
  after?: string | undefined;
  /** A record's id: the page of records before it (ending_before). */
  before?: string | undefined;
}

export interface Page<T> {
  rows: T[];
  /** More records follow in the direction walked: after the page, or before it for `before`. */
  hasMore: boolean;
  /** The cursor names no record of the program in this table. */
  unknownCursor?: boolean;
}

const SQL_OP: Record<FilterOp, string> = { eq: '=', lt: '<', gt: '>' };

export interface ListOptions {
  /**
   * Columns never earlier than created_at (the store keeps state_set_at so). `col < T`
   * then implies `created_at < T`, and saying so lets the walk down the created_at index
   * start at T instead of at the newest row. No index of its own: one on the column
   * would need a sort to give the newest first.
   */
  notBeforeCreation?: readonly string[];
  /**
   * The table is partitioned by RANGE of created_at (clicks on PostgreSQL): a cursor's
   * bound is said again as a plain `created_at <=` (or `>=`) beside the row value, which
   * says no more but lets the planner leave out the partitions wholly on the other side
   * of the cursor (it prunes on plain comparisons of the key, not on row values).
   */
  rangePartitioned?: boolean;
  /** The column the list is ordered by, newest first, in created_at's place (a thread's last message); its index leads with program_id too. */
  orderBy?: string;
}

export async function listPage<T>(
  db: Queryable,
  table: string,
  columns: Readonly<Record<string, string>>,
  programId: string,
  filters: readonly FieldFilter[],
  page: PageRequest,
  options: ListOptions = {},
): Promise<Page<T>> {
  const where = ['program_id = ?'];
  const params: Param[] = [programId];
  for (const f of filters) {
    const column = columns[f.field];
    // A programming error, not a client's: routes only pass names they declared.
    if (!column) throw new Error(`${table} cannot be filtered by ${f.field}`);
    where.push(`${column} ${SQL_OP[f.op]} ?`);
    params.push(f.value);
    if (f.op === 'lt' && options.notBeforeCreation?.includes(column)) {
      where.push('created_at < ?');
      params.push(f.value);
    }
  }
  const cursor = page.after ?? page.before;
  const key = options.orderBy ?? 'created_at';
  let order = `${key} DESC, id DESC`;
  let offset = (page.page - 1) * page.perPage;
  if (cursor !== undefined) {
    const at = await db.get<{ at: number; id: string }>(`SELECT ${key} AS at, id FROM ${table} WHERE program_id = ? AND id = ?`, [
      programId,
      cursor,
    ]);
    if (!at) return { rows: [], hasMore: false, unknownCursor: true };
    // A row value compares (created_at, id), or the ordering column and id, as the index orders them, so the walk starts there.
    where.push(`(${key}, id) ${page.after !== undefined ? '<' : '>'} (?, ?)`);
    params.push(at.at, at.id);
    if (options.rangePartitioned) {
      where.push(`created_at ${page.after !== undefined ? '<=' : '>='} ?`);
      params.push(at.at);
    }
    if (page.before !== undefined) order = `${key}, id`;
    offset = 0;
  }
  params.push(page.perPage + 1, offset);
  const rows = await db.all<T>(`SELECT * FROM ${table} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ? OFFSET ?`, params);
  const hasMore = rows.length > page.perPage;
  if (hasMore) rows.pop();
  // Walked backwards from the cursor: give the page newest first, as every page.
  if (page.before !== undefined) rows.reverse();
  return { rows, hasMore };
}

/** The list function of one table, filterable by the fields in `columns`. */
export function lister<T>(table: string, columns: Readonly<Record<string, string>>, options: ListOptions = {}) {
  return (db: Queryable, programId: string, filters: readonly FieldFilter[], page: PageRequest): Promise<Page<T>> =>
    listPage<T>(db, table, columns, programId, filters, page, options);
}

/**
 * The SQL for "the state changed at `now`" that keeps state_set_at >= created_at even
 * when the clock has stepped back, which the notBeforeCreation option relies on. Binds
 * `now` twice; a CASE, because SQLite's two-argument MAX is PostgreSQL's GREATEST. The
 * domain mirrors it (Math.max) only to answer with the row as stored.
 */
export const STATE_SET_AT = 'state_set_at = CASE WHEN ? > created_at THEN ? ELSE created_at END';
