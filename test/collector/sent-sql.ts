// What SQL one HTTP request makes a collector send to its database, counted at the drivers:
// every statement better-sqlite3 runs (transaction control included) and every query pg
// sends. Each request the server takes runs in an AsyncLocalStorage context of its own, so
// only the statements made on its behalf are counted, never a background loop's.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import pg from 'pg';

/** One request as the database saw it. */
export interface RequestSql {
  method: string;
  url: string;
  /** Every statement, in order, as its SQL text. */
  statements: string[];
  /** pg queries sent: one round trip each (pg sends a client's next query only after the last answer). */
  roundTrips: number;
}

const current = new AsyncLocalStorage<RequestSql>();

/** Statements in one pg query: the extended protocol (a name or values) carries exactly one. */
function statementsOf(query: unknown): string[] {
  const config = typeof query === 'string' ? { text: query } : (query as { text?: string; name?: string; values?: unknown[] } | null);
  const text = config?.text ?? '';
  if (config?.name !== undefined || config?.values !== undefined) return [text];
  return text
    .replace(/'(?:[^']|'')*'/g, "''")
    .split(';')
    .filter((s) => s.trim() !== '')
    .map((s) => s.trim());
}

let installed = false;

/** Wraps the drivers' own calls once per process; outside a counted request they only pass through. */
function install(): void {
  if (installed) return;
  installed = true;
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const original = statement[name]!;
    statement[name] = function (this: { source: string }, ...args: unknown[]) {
      current.getStore()?.statements.push(this.source);
      return original.apply(this, args);
    };
  }
  const exec = Database.prototype.exec;
  Database.prototype.exec = function (this: Database.Database, sql: string) {
    current.getStore()?.statements.push(...statementsOf(sql));
    return exec.call(this, sql);
  };
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const counted = current.getStore();
    if (counted) {
      counted.roundTrips++;
      counted.statements.push(...statementsOf(args[0]));
    }
    return query.apply(this, args);
  };
}

export interface SqlWatch {
  /** What the requests `fn` makes cost, one entry per request the server took meanwhile. */
  during(fn: () => Promise<unknown>): Promise<RequestSql[]>;
}

/** Counts, from now on, the SQL of every request `server` takes. */
export function watchSql(server: Server): SqlWatch {
  install();
  const seen: RequestSql[] = [];
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const record: RequestSql = { method: req.method ?? '', url: req.url ?? '', statements: [], roundTrips: 0 };
    seen.push(record);
    current.run(record, () => listeners.forEach((listener) => listener.call(server, req, res)));
  });
  return {
    async during(fn) {
      const from = seen.length;
      await fn();
      // The answer is read; let anything the request still does after sending it show up.
      await new Promise((resolve) => setImmediate(resolve));
      return seen.slice(from);
    },
  };
}

/** A statement as its kind and table: `SELECT FROM clicks`, `INSERT INTO clicks`, `BEGIN`, `WITH INSERT INTO referrals +2`. */
export function kind(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').trim();
  if (/^WITH /i.test(s)) {
    const writes = [...s.matchAll(/\bINSERT INTO (\w+)/gi)].map((m) => m[1]);
    if (writes.length > 0) return `WITH INSERT INTO ${writes[0]}${writes.length > 1 ? ` +${writes.length - 1}` : ''}`;
  }
  if (/pg_advisory_xact_lock/i.test(s)) return 'lock';
  const select = /^SELECT .*? FROM (\w+)/i.exec(s);
  if (select) return `SELECT FROM ${select[1]}`;
  return /^(INSERT INTO \w+|UPDATE \w+|DELETE FROM \w+)/i.exec(s)?.[1] ?? s.split(' ').slice(0, 2).join(' ');
}
