// Reads from a streaming replica (DATABASE_REPLICA_URL; platform/db/pg-replica.ts), against
// a real hot standby made with pg_basebackup -R (cluster.ts). A caller's list after its own
// write shows the write even while the replica has stopped replaying; a caller with no write
// pending reads from the replica; a replica that lags past the bound or is down sends reads
// to the primary, never an error.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../../packages/collector/src/flows/program.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { startServer, type RunningServer } from '../../packages/collector/src/server.js';
import { msUntil } from '../collector/served.js';
import { type Cluster, startCluster } from './cluster.js';

let cluster: Cluster;
let server: RunningServer;
let owner: { secret: string };
let other: { secret: string };

beforeAll(async () => {
  cluster = await startCluster();
  server = await startServer(
    {
      port: 0,
      host: '127.0.0.1',
      databaseUrl: cluster.primary.url(),
      databaseReplicaUrl: cluster.replica.url(),
      logLevel: 'silent',
      publicUrl: 'http://localhost:8787',
      mailFrom: 'Tally <tally@test.example>',
    },
    createLogger('silent'),
    { background: false },
  );
  owner = { secret: server.firstProgram!.tokens.secret };
  const made = await createProgram(server.db, { name: 'Other', siteUrl: 'https://other.example/' }, Math.floor(Date.now() / 1000));
  other = { secret: made.tokens.secret };
  await cluster.caughtUp();
}, 60_000);
afterAll(async () => {
  await server?.close();
  await cluster?.close();
});

const call = async (method: string, path: string, token: string, body?: unknown) => {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as { data: Array<{ attributes: { name: string } }> } };
};
const reads = () => ({ ...server.db.stats().replicaReads! });
const names = async (token: string) => (await call('GET', '/v1/partners', token)).body.data.map((p) => p.attributes.name);

describe('reads from a streaming replica', () => {
  it('a caller with no write pending is answered by the replica', async () => {
    const before = reads();
    expect(await names(other.secret)).toEqual([]);
    expect(reads().replica).toBe(before.replica + 1);
  });

  it("a caller's list after its own write shows it, from the primary while the replica has not replayed it", async () => {
    await cluster.pauseReplay();
    try {
      expect((await call('POST', '/v1/partners', owner.secret, { name: 'Ada', email: 'ada@partners.test' })).status).toBe(201);
      const before = reads();
      expect(await names(owner.secret)).toEqual(['Ada']);
      expect(reads().primary).toBe(before.primary + 1);
      // The replica indeed had not: asked directly, it has no Ada.
      const onReplica = await cluster.query<{ n: number }>(cluster.replica, "SELECT count(*)::int AS n FROM partners WHERE name = 'Ada'");
      expect(onReplica[0]!.n).toBe(0);
    } finally {
      await cluster.resumeReplay();
    }
    await cluster.caughtUp();
    // Replayed: the same caller is answered by the replica again, and sees its write there.
    const before = reads();
    expect(await names(owner.secret)).toEqual(['Ada']);
    expect(reads().replica).toBe(before.replica + 1);
  });

  it('a replica that lags past the bound sends every caller to the primary', async () => {
    await cluster.pauseReplay();
    try {
      await call('POST', '/v1/partners', owner.secret, { name: 'Grace', email: 'grace@partners.test' });
      // The lag is measured once a second: another caller, who wrote nothing, is soon sent to the primary too.
      await msUntil(async () => {
        const before = reads();
        await names(other.secret);
        return reads().primary > before.primary;
      });
      expect(await names(owner.secret)).toEqual(['Grace', 'Ada']);
    } finally {
      await cluster.resumeReplay();
    }
    await cluster.caughtUp();
  });

  it('a replica that is down answers nothing, and every read is the primary’s, without an error', async () => {
    await cluster.stopReplica();
    try {
      const before = reads();
      for (let i = 0; i < 3; i++) {
        const list = await call('GET', '/v1/partners', owner.secret);
        expect(list.status).toBe(200);
        expect(list.body.data.map((p) => p.attributes.name)).toEqual(['Grace', 'Ada']);
      }
      expect((await call('GET', '/v1/stats?from=2026-11-01&to=2026-11-30', owner.secret)).status).toBe(200);
      expect(reads().replica).toBe(before.replica);
    } finally {
      await cluster.startReplica();
    }
  });
});
