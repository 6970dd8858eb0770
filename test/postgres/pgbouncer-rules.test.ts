// What PgBouncer's transaction pooling asks of a client (docs/scaling.md), held to what the
// collector sends: every query pg sends in this process during a flow through the API and
// the background work is recorded, and none may be a named prepared statement, a SET that
// outlives its transaction, a session advisory lock, or a LISTEN on a pooled connection.
// Then the server is asked: no advisory lock is left held, and the pooled server
// connections carry no setting a transaction left behind.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_TABLES } from '../../packages/collector/src/platform/db/pg-settings.js';
import { admin, PG_POOLED_URL, PG_TEST_URL, schemaOf } from '../collector/database.js';
import { seedPartner, startCollector, type Collector } from '../collector/harness.js';
import { msUntil } from '../collector/served.js';

interface Sent {
  text: string;
  named: boolean;
  /** The connection's application_name: 'tally-settings' is the listening session, past the pooler. */
  app: string;
  port: number;
}

const sent: Sent[] = [];
const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
beforeAll(() => {
  (pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as string | { text?: string; name?: string };
    const config = this as unknown as { connectionParameters: { application_name?: string; port: number } };
    sent.push({
      text: typeof q === 'string' ? q : (q?.text ?? ''),
      named: typeof q === 'object' && q !== null && q.name !== undefined,
      app: config.connectionParameters.application_name ?? '',
      port: config.connectionParameters.port,
    });
    return original.apply(this, args);
  };
});
afterAll(() => {
  (pg.Client.prototype as { query: unknown }).query = original;
});

/** Statements of a simple query one by one (BEGIN's SET LOCALs ride with it). */
const statements = (text: string): string[] =>
  text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);

const pooledPort = Number(new URL(PG_POOLED_URL).port || 5432);
const directPort = Number(new URL(PG_TEST_URL).port || 5432);

let c: Collector;
beforeAll(async () => {
  c = await startCollector({ background: true, webhookPollMs: 50 });
});
afterAll(() => c.close());

/** The test's role's own server connections' settings and advisory locks, as the server sees them. */
async function serverSide(role: string) {
  return admin(async (a) => {
    const locks = await a.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity s ON s.pid = l.pid
        WHERE l.locktype = 'advisory' AND s.usename = $1`,
      [role],
    );
    return { advisoryLocks: locks.rows[0]!.n };
  });
}

/** A setting as a new pooled client sees it on each of the pool's server connections, several times over. */
async function pooledSettings(url: string, names: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const clients = Array.from({ length: 6 }, () => new pg.Client({ connectionString: url }));
  try {
    await Promise.all(clients.map((cl) => cl.connect()));
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        clients.map(async (cl) => {
          const row = (await cl.query(`SELECT ${names.map((n) => `current_setting('${n}') AS "${n}"`).join(', ')}`)).rows[0];
          seen.add(JSON.stringify(row));
        }),
      );
    }
  } finally {
    await Promise.all(clients.map((cl) => cl.end()));
  }
  return seen;
}

describe('behind PgBouncer in transaction pooling mode', () => {
  it('the suite reaches the server through the pooler, and the listening session past it', async () => {
    expect(pooledPort, 'test/postgres/setup.ts starts a PgBouncer for the run').not.toBe(directPort);
    await msUntil(async () => c.running.db.settings.version() !== undefined);
    const listens = sent.filter((s) => /^\s*LISTEN\b/i.test(s.text));
    expect(listens.length).toBeGreaterThan(0);
    for (const l of listens) expect({ app: l.app, port: l.port }).toEqual({ app: 'tally-settings', port: directPort });
  });

  it('a whole flow sends no named statement, no session SET and takes no session lock', async () => {
    const from = sent.length;
    const { key } = await seedPartner(c);
    await c.call('POST', '/v1/webhook_endpoints', { body: { url: 'https://hooks.example/tally', event_types: ['referral.created'] } });
    for (let i = 0; i < 5; i++) {
      const gr_id = `g-${i}`;
      await c.call('POST', '/v1/tracking/click', {
        token: c.publishable,
        headers: { origin: 'http://localhost:8787' },
        body: { pk: key, gr_id, url: 'http://localhost:8787/?via=x' },
      });
      const conv = await c.call('POST', '/v1/tracking/conversion', {
        token: c.publishable,
        headers: { origin: 'http://localhost:8787' },
        body: { pk: key, gr_id, email: `person${i}@customer.test` },
      });
      expect(conv.status).toBe(201);
    }
    await c.call('PATCH', `/v1/programs/${c.programId}`, { body: { name: 'Renamed' } });
    expect((await c.call('GET', '/v1/referrals')).body.data).toHaveLength(5);
    await c.call('GET', '/v1/stats?from=2025-01-01&to=2025-12-31');
    const flow = sent.slice(from).filter((s) => s.port === pooledPort);
    expect(flow.length).toBeGreaterThan(20);
    expect(flow.filter((s) => s.named).map((s) => s.text)).toEqual([]);
    const all = flow.flatMap((s) => statements(s.text));
    expect(all.filter((s) => /^SET\b/i.test(s) && !/^SET\s+LOCAL\b/i.test(s))).toEqual([]);
    expect(all.filter((s) => /pg_(try_)?advisory_lock(_shared)?\s*\(/i.test(s))).toEqual([]);
    expect(all.filter((s) => /^(LISTEN|UNLISTEN|PREPARE|DECLARE|RESET|DISCARD)\b/i.test(s) || /\bTEMP(ORARY)?\s+TABLE\b/i.test(s))).toEqual(
      [],
    );
    // What transactions take is an advisory lock of theirs (the click's visitor, migrations).
    expect(all.some((s) => /pg_advisory_xact_lock/i.test(s))).toBe(true);
  });

  it('the server holds no advisory lock afterwards, and no pooled connection keeps a setting', async () => {
    const role = schemaOf(c.databaseUrl)!;
    expect((await serverSide(role)).advisoryLocks).toBe(0);
    const names = ['lock_timeout', 'synchronous_commit', 'client_min_messages', 'search_path'];
    const seen = await pooledSettings(c.databaseUrl, names);
    expect([...seen].map((s) => JSON.parse(s))).toEqual([
      { lock_timeout: '0', synchronous_commit: 'on', client_min_messages: 'notice', search_path: role },
    ]);
  });

  it('the check sees a setting one client leaves on a pooled connection (so it can fail)', async () => {
    const leaky = new pg.Client({ connectionString: c.databaseUrl });
    await leaky.connect();
    try {
      await leaky.query("SET lock_timeout = '1234ms'");
      const seen = await pooledSettings(c.databaseUrl, ['lock_timeout']);
      expect([...seen].some((s) => s.includes('1234ms'))).toBe(true);
    } finally {
      await leaky.query('RESET lock_timeout');
      await leaky.end();
    }
  });

  it('the tables whose changes are told (and written in a transaction of their own) are those with the trigger', async () => {
    const role = schemaOf(c.databaseUrl)!;
    const rows = await admin((a) =>
      a.query<{ t: string }>(
        `SELECT DISTINCT c.relname AS t FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_proc p ON p.oid = g.tgfoid
          WHERE c.relnamespace = $1::regnamespace AND p.proname = 'settings_changed' ORDER BY 1`,
        [role],
      ),
    );
    expect(rows.rows.map((r) => r.t)).toEqual([...SETTINGS_TABLES].sort());
  });
});
