// Asking the test's database how it would run a statement, on either engine, for
// query-plans.test.ts: SQLite's EXPLAIN QUERY PLAN through the server's own handle,
// PostgreSQL's EXPLAIN (FORMAT JSON) on a connection of the test's own (openExplainer
// says how its planner is asked). Both answers become the same few facts: does a step
// read a whole table (or a whole index), and does it sort.

import pg from 'pg';
import type { Db, Engine, Param, Queryable } from '../../packages/collector/src/platform/db/db.js';
import { UNKNOWN_SETTINGS } from '../../packages/collector/src/platform/db/db.js';
import { numbered } from '../../packages/collector/src/platform/db/postgres.js';
import { directUrl } from './database.js';

/** One step of a plan: a line of SQLite's, or a node of PostgreSQL's. */
export interface PlanNode {
  /** As a failure shows it: SQLite's own words, or "Index Scan using x on t (cond)". */
  line: string;
  /** Reads a whole table, or walks a whole index with no condition on it. */
  fullScan: boolean;
  /** Sorts rows itself (a temporary B-tree, a Sort node) instead of reading them in order. */
  sort: boolean;
  /** The table it reads, when the engine says (PostgreSQL). */
  table?: string | undefined;
}

export interface ExplainOptions {
  /** On SQLite, the handle to ask through: a transaction's own, inside one. */
  via?: Queryable;
  /**
   * The statement must read its rows in its ORDER BY's order from an index (a list's
   * page). On PostgreSQL this prices sorts out too (see openExplainer).
   */
  ordered?: boolean;
}

export interface Explainer {
  readonly engine: Engine;
  explain(sql: string, params: readonly Param[], opts?: ExplainOptions): Promise<PlanNode[]>;
  close(): Promise<void>;
}

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PgNode[];
}

function pgNodes(node: PgNode, out: PlanNode[] = []): PlanNode[] {
  const type = node['Node Type'];
  const index = node['Index Name'];
  const table = node['Relation Name'];
  const cond = node['Index Cond'];
  out.push({
    line: `${type}${index ? ` using ${index}` : ''}${table ? ` on ${table}` : ''}${cond ? ` ${cond}` : ''}`,
    // An index walked from end to end, with no condition, reads every row as a scan does.
    fullScan: type === 'Seq Scan' || (/^(Index Scan|Index Only Scan|Bitmap Index Scan)$/.test(type) && !cond),
    sort: type === 'Sort' || type === 'Incremental Sort',
    table,
  });
  for (const child of node.Plans ?? []) pgNodes(child, out);
  return out;
}

function sqliteNodes(details: readonly string[]): PlanNode[] {
  // "SCAN t" of a subquery SQLite runs as a co-routine (or materializes) walks rows that
  // subquery found with its own index, not a table.
  const subqueries = new Set(details.flatMap((d) => /^(?:CO-ROUTINE|MATERIALIZE) (\S+)/.exec(d)?.[1] ?? []));
  return details.map((line) => {
    const scanned = /^SCAN (\S+)/.exec(line)?.[1];
    return {
      line,
      fullScan: scanned !== undefined && !subqueries.has(scanned) && !/^SCAN CONSTANT ROW/.test(line),
      sort: /TEMP B-TREE/.test(line),
    };
  });
}

/**
 * SQLite plans the same way on an empty file as on a large one (no ANALYZE is run), so
 * its plan is what a database with millions of rows gets.
 *
 * PostgreSQL weighs costs from the table's statistics: on a test's few rows a sequential
 * scan and a sort honestly are the cheapest plan, whatever the indexes, and seeding
 * "enough" rows would tie the answer to how many, to ANALYZE's sample and to the server's
 * cost settings. So the explaining connection sets enable_seqscan off (and, for a list's
 * page, enable_sort and enable_incremental_sort off too). That forbids nothing: it prices
 * those plans out, so PostgreSQL still picks one when no index can do the job. A Seq Scan
 * (or an index walked without a condition) or a Sort left in the plan then says what
 * SQLite's SCAN and TEMP B-TREE say: no index answers this query (in its order), however
 * large the table. That depends on the schema and the SQL, not on the rows, so the test
 * gives the same answer every run. Sorts stay allowed outside a list's page: pricing
 * them out there would only push the planner into walking a whole index for an ORDER BY
 * over a handful of rows. The settings are this connection's own; the server's pool
 * plans as it always does.
 */
export async function openExplainer(engine: Engine, db: Db, databaseUrl: string): Promise<Explainer> {
  if (engine === 'sqlite') {
    return {
      engine,
      async explain(sql, params, opts = {}) {
        const rows = await (opts.via ?? db).all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params);
        return sqliteNodes(rows.map((r) => r.detail));
      },
      close: async () => undefined,
    };
  }
  // Its SETs are a session's own: past the pooler, where they cannot reach the collector's connections.
  const client = new pg.Client({ connectionString: directUrl(databaseUrl) });
  await client.connect();
  await client.query('SET enable_seqscan = off');
  let sortsOff: boolean | undefined;
  // One statement at a time on the one connection: a handler may send several at once.
  let queue: Promise<unknown> = Promise.resolve();
  const explain = async (sql: string, params: readonly Param[], ordered: boolean): Promise<PlanNode[]> => {
    if (sortsOff !== ordered) {
      const value = ordered ? 'off' : 'on';
      await client.query(`SET enable_sort = ${value}`);
      await client.query(`SET enable_incremental_sort = ${value}`);
      sortsOff = ordered;
    }
    const result = await client.query<{ 'QUERY PLAN': Array<{ Plan: PgNode }> }>({
      text: `EXPLAIN (FORMAT JSON) ${numbered(sql)}`,
      values: params as Param[],
    });
    return pgNodes(result.rows[0]!['QUERY PLAN'][0]!.Plan);
  };
  return {
    engine,
    explain(sql, params, opts = {}) {
      const next = queue.then(() => explain(sql, params, opts.ordered ?? false));
      queue = next.catch(() => undefined);
      return next;
    },
    close: () => client.end(),
  };
}

/** A list's page: the one statement that ends in LIMIT ? OFFSET ? (platform/db/list.ts). */
export const isPage = (sql: string): boolean => /\bLIMIT \? OFFSET \?\s*$/i.test(sql);

export interface Planned {
  sql: string;
  params: readonly Param[];
  plan: PlanNode[];
}

/** Statements that read or change rows; not BEGIN, a PRAGMA, a SET. */
const PLANNABLE = /^\s*(SELECT|WITH|UPDATE|DELETE|INSERT)\b/i;

/**
 * The same database, each statement planned (and remembered with its plan) before it
 * runs as usual: a route's handler gets its real rows, and the test the plans.
 */
export function planning(db: Db, explainer: Explainer, sent: Planned[]): Db {
  const wrap = (q: Queryable): Queryable => {
    const plan = async (sql: string, params: readonly Param[]) => {
      if (!PLANNABLE.test(sql)) return;
      sent.push({ sql, params, plan: await explainer.explain(sql, params, { via: q, ordered: isPage(sql) }) });
    };
    return {
      engine: q.engine,
      // Nothing kept in memory: every read a handler makes is sent, so planned.
      settings: UNKNOWN_SETTINGS,
      all: async (sql, params = []) => (await plan(sql, params), q.all(sql, params)),
      get: async (sql, params = []) => (await plan(sql, params), q.get(sql, params)),
      run: async (sql, params = []) => (await plan(sql, params), q.run(sql, params)),
    };
  };
  return {
    ...wrap(db),
    engine: db.engine,
    transaction: (fn) => db.transaction((tx) => fn({ ...wrap(tx), lock: (key) => tx.lock(key) })),
    readThenWrite: (fn) => db.readThenWrite((q) => fn(wrap(q))),
    stats: () => db.stats(),
    ping: () => db.ping(),
    backup: (dest) => db.backup(dest),
    close: () => db.close(),
  };
}

export interface ForeignKey {
  table: string;
  /** The table it points at. */
  parent: string;
  columns: string[];
}

/**
 * Every foreign key of the schema, and the columns of every index in order, per table.
 * Partial indexes are left out: they cannot serve every lookup of a key.
 */
export async function keysAndIndexes(db: Db): Promise<{ keys: ForeignKey[]; indexes: Map<string, string[][]> }> {
  const keys: ForeignKey[] = [];
  const indexes = new Map<string, string[][]>();
  if (db.engine === 'sqlite') {
    const tables = await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
    for (const { name } of tables) {
      const rows = await db.all<{ id: number; seq: number; table: string; from: string }>(`PRAGMA foreign_key_list(${name})`);
      for (const id of new Set(rows.map((k) => k.id))) {
        const key = rows.filter((k) => k.id === id).sort((a, b) => a.seq - b.seq);
        keys.push({ table: name, parent: key[0]!.table, columns: key.map((k) => k.from) });
      }
      const list: string[][] = [];
      for (const index of await db.all<{ name: string; partial: number }>(`PRAGMA index_list(${name})`)) {
        if (index.partial) continue;
        const columns = await db.all<{ seqno: number; name: string }>(`PRAGMA index_info(${index.name})`);
        list.push(columns.sort((a, b) => a.seqno - b.seqno).map((col) => col.name));
      }
      indexes.set(name, list);
    }
    return { keys, indexes };
  }
  const columnsOf = (relation: string, numbers: string) =>
    `(SELECT array_agg(a.attname::text ORDER BY k.n) FROM unnest(${numbers}) WITH ORDINALITY AS k(attnum, n)
       JOIN pg_attribute a ON a.attrelid = ${relation} AND a.attnum = k.attnum)`;
  for (const row of await db.all<{ table: string; parent: string; columns: string[] }>(
    `SELECT t.relname::text AS table, p.relname::text AS parent, ${columnsOf('c.conrelid', 'c.conkey')} AS columns
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class p ON p.oid = c.confrelid
      WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`,
  )) {
    keys.push(row);
  }
  for (const row of await db.all<{ table: string; columns: string[] }>(
    `SELECT t.relname::text AS table, ${columnsOf('i.indrelid', 'i.indkey::int2[]')} AS columns
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
      WHERE t.relnamespace = current_schema()::regnamespace AND i.indpred IS NULL`,
  )) {
    indexes.set(row.table, [...(indexes.get(row.table) ?? []), row.columns ?? []]);
  }
  return { keys, indexes };
}

/** A statement on one line, for a failure message. */
export const oneLine = (sql: string): string => sql.replace(/\s+/g, ' ').trim();
