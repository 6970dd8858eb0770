// A list's every record as CSV (`GET /v1/<plural>/export`), streamed: the list's own
// query walked by cursor, a page at a time, each page written only when the client has
// taken the one before (a pull stream, so a slow client holds one page, not the list).
// Memory stays that of one page whatever the list's length (docs/performance.md, issue 47).

import { Readable } from 'node:stream';
import { csvCell } from '../platform/csv.js';
import { fail } from '../platform/errors.js';
import type { Queryable } from '../platform/db/db.js';
import type { FieldFilter, Page, PageRequest } from '../platform/db/list.js';
import { type ListSpec, PER_PAGE_DEFAULT } from '../platform/http/list-query.js';
import type { Resource } from '../platform/resource.js';
import { route } from './route.js';

/** Rows read per statement: large enough that the statements cost little beside the rows, small enough to hold. */
export const EXPORT_PAGE = 1000;

export interface ExportSpec<T> {
  plural: string;
  list(db: Queryable, programId: string, filters: readonly FieldFilter[], page: PageRequest): Promise<Page<T>>;
  render(row: T): Resource;
  filters: ListSpec;
  /** The attributes written, in this order, after the id: the CSV's header. */
  columns: readonly string[];
}

const cellOf = (value: unknown): string => (value === undefined || value === null ? '' : csvCell(String(value)));

/** The pages of `filters` one after another, newest first, each starting after the last record of the one before. */
async function* csvLines<T>(spec: ExportSpec<T>, db: Queryable, programId: string, filters: readonly FieldFilter[]) {
  yield `${['id', ...spec.columns].map(csvCell).join(',')}\r\n`;
  let after: string | undefined;
  for (;;) {
    const page = await spec.list(db, programId, filters, { page: 1, perPage: EXPORT_PAGE, after });
    const lines = page.rows.map((row) => {
      const r = spec.render(row);
      return `${[csvCell(r.id), ...spec.columns.map((c) => cellOf(r.attributes[c]))].join(',')}\r\n`;
    });
    if (lines.length > 0) yield lines.join('');
    const last = page.rows.at(-1);
    if (!page.hasMore || last === undefined) return;
    after = spec.render(last).id;
  }
}

export function exportRoute<T>(spec: ExportSpec<T>) {
  return route({
    method: 'get',
    path: `/v1/${spec.plural}/export`,
    summary: `Every ${spec.plural.replace(/s$/, '')} the filters select, newest first, as CSV (streamed; no pages)`,
    access: 'secret',
    list: spec.filters,
    status: 200,
    produces: 'text/csv',
    async handle({ db, program, list, now }) {
      const { page } = list;
      // per_page at its default cannot be told from none, and asks for nothing else.
      const paged = page.after !== undefined || page.before !== undefined || page.page !== 1 || page.perPage !== PER_PAGE_DEFAULT;
      if (paged) throw fail('invalid_parameter', 'an export has every record the filters select: leave out page and the cursors');
      return {
        status: 200,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="tally-${spec.plural}-${new Date(now * 1000).toISOString().slice(0, 10)}.csv"`,
        },
        body: Readable.from(csvLines(spec, db, program.id, list.filters), { objectMode: false }),
      };
    },
  });
}
