// Every filter combination each list route allows must be answered from an index: no
// full scan of a table and no temporary B-tree to sort, whatever the table's size.
// SQLite plans the same way on an empty file as on a large one (no ANALYZE is run), so
// asking for the plans here says what a database with millions of rows will do.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseListQuery } from '../../packages/collector/src/http/list-query.js';
import { ROUTES } from '../../packages/collector/src/app.js';
import type { Param, Queryable } from '../../packages/collector/src/store/db.js';
import type { FieldFilter, Page, PageRequest } from '../../packages/collector/src/store/list.js';
import * as commissions from '../../packages/collector/src/store/commissions.js';
import * as partners from '../../packages/collector/src/store/partners.js';
import * as partnerships from '../../packages/collector/src/store/partnerships.js';
import * as referrals from '../../packages/collector/src/store/referrals.js';
import { startCollector, type Collector } from './harness.js';

type Lister = (db: Queryable, programId: string, filters: readonly FieldFilter[], page: PageRequest) => Promise<Page<unknown>>;

const LISTERS: Record<string, Lister> = {
  '/v1/commissions': commissions.list,
  '/v1/partners': partners.list,
  '/v1/partnerships': partnerships.list,
  '/v1/referrals': referrals.list,
};

/** A valid value for each kind of filter. */
function sampleValue(name: string, describe: string): string {
  const choices = /^one of ([^,]+)/.exec(describe);
  if (choices?.[1]) return choices[1];
  if (name.includes('email')) return 'someone@example.test';
  if (name.includes('_at_')) return '2025-03-01T10:00:00Z';
  return 'x';
}

/** Every subset of the route's filters, the empty one included. */
function combinations(names: readonly string[]): string[][] {
  return Array.from({ length: 2 ** names.length }, (_, mask) => names.filter((_, i) => mask & (1 << i)));
}

interface PlanRow {
  detail: string;
}

let c: Collector;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(() => c.close());

/** The same repository call, with each query planned instead of run. */
function planner(plans: string[][]): Queryable {
  const explain = async <T>(sql: string, params: readonly Param[] = []) => {
    const rows = await c.running.db.all<PlanRow>(`EXPLAIN QUERY PLAN ${sql}`, params);
    plans.push(rows.map((r) => r.detail));
    return [] as T[];
  };
  return { all: explain, get: async () => undefined, run: async () => 0 };
}

const listRoutes = ROUTES.filter((r) => r.method === 'get' && r.list);

describe('list queries use an index for every filter combination', () => {
  it('covers every list route', () => {
    expect(listRoutes.map((r) => r.path).sort()).toEqual(Object.keys(LISTERS).sort());
  });

  for (const r of listRoutes) {
    const names = Object.keys(r.list ?? {});
    it(`${r.path}: ${2 ** names.length} combinations, pages 1 and 1,000`, async () => {
      const lister = LISTERS[r.path];
      if (!lister) throw new Error(`no repository for ${r.path}`);
      const bad: string[] = [];
      for (const combo of combinations(names)) {
        for (const page of ['1', '1000']) {
          const query = new URLSearchParams([...combo.map((n) => [n, sampleValue(n, r.list?.[n]?.describe ?? '')]), ['page', page], ['per_page', '50']]);
          const { filters, page: pageRequest } = parseListQuery(query.toString(), r.list ?? {});
          const plans: string[][] = [];
          await lister(planner(plans), c.programId, filters, pageRequest);
          expect(plans.length).toBe(1);
          const detail = plans.flat();
          if (detail.some((d) => /^SCAN /.test(d) || /TEMP B-TREE/.test(d))) {
            bad.push(`${r.path}?${query}: ${detail.join(' | ')}`);
          }
        }
      }
      expect(bad).toEqual([]);
    });
  }
});
