// The JSON envelopes of docs/api.md §8 and §9: one record, and a page of records.

import { fail } from '../errors.js';
import type { Page, PageRequest } from '../db/list.js';
import type { Resource } from '../resource.js';

/** A page of a list; `page` is null for a page named by a cursor. An unknown cursor is the caller's mistake. */
export function listEnvelope<T>(page: Page<T>, request: PageRequest, render: (row: T) => Resource) {
  if (page.unknownCursor) {
    const parameter = request.after !== undefined ? 'starting_after' : 'ending_before';
    throw fail('invalid_parameter', `${parameter}: no record ${request.after ?? request.before ?? ''} in this list`, { parameter });
  }
  const cursor = request.after !== undefined || request.before !== undefined;
  return {
    data: page.rows.map(render),
    meta: { pagination: { page: cursor ? null : request.page, per_page: request.perPage, has_more: page.hasMore } },
  };
}
