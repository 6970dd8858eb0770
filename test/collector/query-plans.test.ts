// Every filter combination each list route allows must be answered from an index: no
// full scan of a table and no temporary B-tree to sort, whatever the table's size.
// SQLite plans the same way on an empty file as on a large one (no ANALYZE is run), so
// asking for the plans here says what a database with millions of rows will do.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseListQuery } from '../../packages/collector/src/http/list-query.js';
import { ROUTES } from '../../packages/collector/src/app.js';
import { deletePartner } from '../../packages/collector/src/domain/partners.js';
import { eraseReferral, forgetEmail } from '../../packages/collector/src/domain/referrals.js';
import type { Db, Param, Queryable } from '../../packages/collector/src/store/db.js';
import type { FieldFilter, Page, PageRequest } from '../../packages/collector/src/store/list.js';
import * as clicks from '../../packages/collector/src/store/clicks.js';
import * as commissions from '../../packages/collector/src/store/commissions.js';
import * as partners from '../../packages/collector/src/store/partners.js';
import * as partnerships from '../../packages/collector/src/store/partnerships.js';
import * as payments from '../../packages/collector/src/store/payments.js';
import * as referrals from '../../packages/collector/src/store/referrals.js';
import * as stripe from '../../packages/collector/src/store/stripe.js';
import { seedPartner, startCollector, T0, type Collector } from './harness.js';

type Lister = (db: Queryable, programId: string, filters: readonly FieldFilter[], page: PageRequest) => Promise<Page<unknown>>;

const LISTERS: Record<string, Lister> = {
  '/v1/commissions': commissions.list,
  '/v1/partners': partners.list,
  '/v1/partnerships': partnerships.list,
  '/v1/referrals': referrals.list,
  '/v1/payments': payments.list,
  '/v1/clicks': clicks.list,
  '/v1/integrations/stripe/events': stripe.listEvents,
  // The portal's lists are the program's, narrowed to the partnership's partner.
  '/v1/portal/partnerships/:id/referrals': (db, programId, filters, page) => referrals.list(db, programId, [...filters, { field: 'partner_id', op: 'eq', value: 'p' }], page),
  '/v1/portal/partnerships/:id/commissions': (db, programId, filters, page) => commissions.list(db, programId, [...filters, { field: 'partner_id', op: 'eq', value: 'p' }], page),
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

// Deleting a partner and erasing a person run inside the write transaction, which every
// other write waits for: a full scan there stalls the whole service. Each statement those
// paths send is planned here, and so is what SQLite does for them unseen: the foreign-key
// check of each deleted row reads every child table by its referencing columns, which
// EXPLAIN QUERY PLAN does not show, so each such key must lead an index.
describe('deletes and erasures use an index for every statement and foreign-key check', () => {
  interface Sent {
    sql: string;
    params: readonly Param[];
  }

  /** The same database, remembering every statement sent through it. */
  function recording(db: Db, sent: Sent[]): Db {
    const wrap = (q: Queryable): Queryable => ({
      all: (sql, params = []) => (sent.push({ sql, params }), q.all(sql, params)),
      get: (sql, params = []) => (sent.push({ sql, params }), q.get(sql, params)),
      run: (sql, params = []) => (sent.push({ sql, params }), q.run(sql, params)),
    });
    return {
      ...wrap(db),
      engine: db.engine,
      transaction: (fn) => db.transaction((tx) => fn({ ...wrap(tx), lock: (key) => tx.lock(key) })),
      stats: () => db.stats(),
      ping: () => db.ping(),
      backup: (dest) => db.backup(dest),
      close: () => db.close(),
    };
  }

  /** Every statement that reads rows, with its plan lines that scan a whole table. */
  async function scans(sent: Sent[]): Promise<string[]> {
    const bad: string[] = [];
    for (const { sql, params } of sent) {
      if (!/^\s*(SELECT|UPDATE|DELETE)/i.test(sql)) continue;
      const plan = await c.running.db.all<PlanRow>(`EXPLAIN QUERY PLAN ${sql}`, params);
      // The programs table holds one row per tenant (a handful): walking it to look a
      // person up in each program's unique index is the intended plan, not a table scan.
      const full = plan.map((r) => r.detail).filter((d) => /^SCAN (?!CONSTANT ROW|p$|p USING|programs)/.test(d));
      if (full.length > 0) bad.push(`${sql.replace(/\s+/g, ' ').trim()}: ${full.join(' | ')}`);
    }
    return bad;
  }

  /** Foreign keys that point at a table the statements delete from, and lead no index. */
  async function unindexedKeys(sent: Sent[]): Promise<string[]> {
    const db = c.running.db;
    const deleted = new Set(sent.flatMap(({ sql }) => /^\s*DELETE FROM (\w+)/i.exec(sql)?.[1] ?? []));
    const tables = await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
    const bad: string[] = [];
    for (const { name } of tables) {
      const keys = await db.all<{ id: number; seq: number; table: string; from: string }>(`PRAGMA foreign_key_list(${name})`);
      const indexes = await db.all<{ name: string }>(`PRAGMA index_list(${name})`);
      const leading: string[][] = [];
      for (const index of indexes) {
        const columns = await db.all<{ seqno: number; name: string }>(`PRAGMA index_info(${index.name})`);
        leading.push(columns.sort((a, b) => a.seqno - b.seqno).map((col) => col.name));
      }
      for (const id of new Set(keys.map((k) => k.id))) {
        const key = keys.filter((k) => k.id === id).sort((a, b) => a.seq - b.seq);
        if (!deleted.has(key[0]!.table)) continue;
        const columns = key.map((k) => k.from);
        if (!leading.some((cols) => columns.every((col, i) => cols[i] === col))) {
          bad.push(`${name}(${columns.join(', ')}) → ${key[0]!.table}`);
        }
      }
    }
    return bad;
  }

  async function paths(run: (db: Db) => Promise<unknown>): Promise<{ deleted: string[]; scans: string[]; keys: string[] }> {
    const sent: Sent[] = [];
    await run(recording(c.running.db, sent));
    const deleted = [...new Set(sent.flatMap(({ sql }) => /^\s*DELETE FROM (\w+)/i.exec(sql)?.[1] ?? []))].sort();
    return { deleted, scans: await scans(sent), keys: await unindexedKeys(sent) };
  }

  it('deleting a partner', async () => {
    const partner = await seedPartner(c);
    const result = await paths((db) => deletePartner(db, c.programId, partner.partnerId));
    expect(result.deleted).toEqual(['clicks', 'partners', 'partnerships', 'slugs']);
    expect(result.keys).toEqual([]);
    expect(result.scans).toEqual([]);
  });

  async function referral(email: string): Promise<string> {
    const partner = await seedPartner(c);
    const conv = await c.call('POST', '/v1/tracking/conversion', { token: c.publishable, body: { email, gr_id: `g-${email}`, pk: partner.key } });
    expect(conv.status).toBe(201);
    return conv.body.data.id as string;
  }

  it('erasing a referral', async () => {
    const id = await referral('erase@plans.test');
    const result = await paths((db) => eraseReferral(db, c.programId, id, T0));
    expect(result.deleted).toEqual(['clicks', 'referrals', 'stripe_links']);
    expect(result.keys).toEqual([]);
    expect(result.scans).toEqual([]);
  });

  it('forgetting a person in one program', async () => {
    await referral('forget-one@plans.test');
    const result = await paths((db) => forgetEmail(db, 'forget-one@plans.test', T0, c.programId));
    expect(result.deleted).toEqual(['clicks', 'referrals', 'stripe_links']);
    expect(result.keys).toEqual([]);
    expect(result.scans).toEqual([]);
  });

  it('forgetting a person in every program', async () => {
    await referral('forget-all@plans.test');
    const result = await paths((db) => forgetEmail(db, 'forget-all@plans.test', T0));
    expect(result.deleted).toEqual(['clicks', 'referrals', 'stripe_links']);
    expect(result.keys).toEqual([]);
    expect(result.scans).toEqual([]);
  });
});
