// Query strings of the list routes (docs/api.md §9). Strict on purpose: an unknown or
// repeated parameter is refused, because a filter typo must never silently return
// everything.

import { fail } from '../errors.js';
import type { Param } from '../db/db.js';
import type { FieldFilter, FilterOp, PageRequest } from '../db/list.js';
import { parseInstant } from './datetime.js';

/** Turns one raw value into the value compared in the database, or explains why not. */
export interface FilterParser {
  /** For /openapi.json. */
  describe: string;
  /** `op` matters where the stored value is coarser than the one asked for (dates). */
  parse(raw: string, op: FilterOp): Param | undefined;
  /** What to say when `parse` refuses a value. */
  expected: string;
}

export type ListSpec = Readonly<Record<string, FilterParser>>;

export interface ListQuery {
  page: PageRequest;
  filters: FieldFilter[];
}

/** A route without a list's query. */
export const NO_LIST: ListQuery = { page: { page: 1, perPage: 0 }, filters: [] };

export const PER_PAGE_DEFAULT = 25;
export const PER_PAGE_MAX = 50;
/** Numbered pages reach this many rows deep; deeper pages are asked for by cursor. */
export const OFFSET_ROWS_MAX = 10_000;
export const PAGE_MAX = OFFSET_ROWS_MAX;
/** A record's id as a cursor: ids are UUIDs (Stripe's evt_ ids for its events), never this long. */
const CURSOR_MAX = 255;
const VALUE_MAX = 1024;

export const text: FilterParser = {
  describe: 'exact match',
  expected: 'a non-empty string',
  parse: (raw) => raw,
};

export function oneOf(values: readonly string[]): FilterParser {
  return {
    describe: `one of ${values.join(', ')}`,
    expected: `one of ${values.join(', ')}`,
    parse: (raw) => (values.includes(raw) ? raw : undefined),
  };
}

export function transformed(describe: string, fn: (raw: string) => string): FilterParser {
  return { describe, expected: 'a non-empty string', parse: fn };
}

export const dateTime: FilterParser = {
  describe:
    'date-time, strict comparison: "YYYY-MM-DD hh:mm:ss +hhmm", ISO 8601 (fractions compared exactly), or Unix seconds (9 or 10 digits)',
  expected: 'a date-time such as "2025-03-01 10:00:00 +0200", "2025-03-01T10:00:00.250Z" or 1740823200',
  // Records keep whole seconds. `created_at < 10:00:00.5` holds for a record of 10:00:00,
  // and `created_at > 10:00:00.5` does not: rounding the bound up for _lt and down for _gt
  // gives exactly that with integers, which every engine compares with its index.
  parse(raw, op) {
    const t = parseInstant(raw);
    if (t === undefined) return undefined;
    return op === 'lt' && t.fraction ? t.seconds + 1 : t.seconds;
  },
};

function integer(name: string, raw: string, max: number): number {
  const n = /^[0-9]{1,7}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= max)) {
    throw fail('invalid_parameter', `${name} must be a whole number from 1 to ${max}`, { parameter: name });
  }
  return n;
}

const NAME = /^(.+)_(eq|lt|gt)$/;

export function parseListQuery(querystring: string, spec: ListSpec): ListQuery {
  const seen = new Set<string>();
  const page: PageRequest = { page: 1, perPage: PER_PAGE_DEFAULT };
  const filters: FieldFilter[] = [];
  for (const [name, raw] of new URLSearchParams(querystring)) {
    if (seen.has(name)) throw fail('invalid_parameter', `${name} is given more than once`, { parameter: name });
    seen.add(name);
    if (name === 'page') {
      page.page = integer(name, raw, PAGE_MAX);
      continue;
    }
    if (name === 'per_page') {
      page.perPage = integer(name, raw, PER_PAGE_MAX);
      continue;
    }
    if (name === 'starting_after' || name === 'ending_before') {
      if (raw.length === 0 || raw.length > CURSOR_MAX || raw.includes('\0')) {
        throw fail('invalid_parameter', `${name} must be the id of a record of this list`, { parameter: name });
      }
      page[name === 'starting_after' ? 'after' : 'before'] = raw;
      continue;
    }
    const parser = Object.hasOwn(spec, name) ? spec[name] : undefined;
    const parts = NAME.exec(name);
    if (!parser || !parts) {
      const known = ['page', 'per_page', 'starting_after', 'ending_before', ...Object.keys(spec)].join(', ');
      throw fail('unknown_parameter', `unknown parameter ${name}; this route takes ${known}`, { parameter: name });
    }
    const op = parts[2] as FilterOp;
    // U+0000 matches nothing stored, and PostgreSQL refuses it in text outright.
    const value = raw.length > 0 && raw.length <= VALUE_MAX && !raw.includes('\0') ? parser.parse(raw, op) : undefined;
    if (value === undefined) {
      throw fail('invalid_parameter', `${name} must be ${parser.expected}`, { parameter: name });
    }
    filters.push({ field: parts[1] ?? '', op, value });
  }
  checkPaging(page, seen);
  return { page, filters };
}

/** One way of naming a page, and numbered pages no deeper than OFFSET_ROWS_MAX rows. */
function checkPaging(page: PageRequest, given: ReadonlySet<string>): void {
  const ways = ['page', 'starting_after', 'ending_before'].filter((n) => given.has(n));
  if (ways.length > 1) {
    throw fail('invalid_parameter', `name the page one way: ${ways.join(' and ')} cannot go together`, { parameter: ways[1] });
  }
  if (page.page * page.perPage > OFFSET_ROWS_MAX) {
    throw fail(
      'invalid_parameter',
      `page ${page.page} of ${page.perPage} reaches past row ${OFFSET_ROWS_MAX}, the deepest a numbered page goes; ` +
        'ask for deeper pages with starting_after=<the id of the last record of the page before>',
      { parameter: 'page' },
    );
  }
}
