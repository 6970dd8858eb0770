// kill -9 of `tally serve` while webhook deliveries are pending and in flight: after a
// restart, every event committed before the kill reaches the receiver at least once.
// (A change that rolls back leaves no event: webhooks.test.ts.)

import { afterEach, beforeEach, expect, it } from 'vitest';
import { testDatabase, withDb, type TestDatabase } from './database.js';
import { serve, tokensIn, type Served } from './processes.js';
import { startReceiver, type Receiver } from './receiver.js';

let database: TestDatabase;
let receiver: Receiver;
let running: Served | undefined;
let env: Record<string, string>;
beforeEach(async () => {
  database = await testDatabase();
  receiver = await startReceiver();
  env = {
    DATABASE_URL: database.url,
    RATE_LIMIT_IP: '0',
    RATE_LIMIT_TOKEN: '0',
    WEBHOOK_ALLOW_HTTP: '1',
    WEBHOOK_ALLOW_PRIVATE: '1',
    // A claim lasts twice the timeout plus 10 s; the test ends the killed process's claims itself.
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_CONCURRENCY: '4',
  };
});
afterEach(async () => {
  if (running?.child.exitCode === null) {
    running.child.kill('SIGKILL');
    await running.exited;
  }
  await receiver.close();
  await database.drop();
});

const post = async (url: string, secret: string, path: string, body: unknown) => {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: { id: string } } };
};

it('after kill -9 and a restart, every event committed before the kill is delivered at least once', async () => {
  // Slow answers: deliveries are in flight when the process dies.
  receiver.answer.set('/hook', () => ({ status: 200, delayMs: 200 }));
  running = await serve(env);
  const { secret } = tokensIn(running.output());
  const endpoint = await post(running.url, secret!, '/v1/webhook_endpoints', { url: `${receiver.url}/hook` });
  expect(endpoint.status).toBe(201);
  const made: string[] = [];
  for (let i = 0; i < 30; i++) {
    const partner = await post(running.url, secret!, '/v1/partners', { name: `Crash ${i}`, email: `crash${i}@p.test` });
    expect(partner.status).toBe(201);
    expect((await post(running.url, secret!, '/v1/partnerships', { partner_id: partner.body.data.id })).status).toBe(201);
    made.push(partner.body.data.id);
  }
  await receiver.waitFor(3, '/hook');
  running.child.kill('SIGKILL');
  await running.exited;
  const before = receiver.received.length;
  expect(before).toBeLessThan(30); // some were still pending or in flight
  // The killed process's claims run out: what the restarted one would see 12 s later, without
  // the wait. They last no longer than the lease (twice the 1 s timeout plus 10 s).
  const now = Math.floor(Date.now() / 1000);
  const claimed = await withDb(database.url, async (db) => {
    const lease = await db.get<{ until: number | null }>(
      "SELECT MAX(next_attempt_at) AS until FROM webhook_deliveries WHERE state = 'pending'",
    );
    expect(Number(lease?.until)).toBeGreaterThan(now);
    expect(Number(lease?.until)).toBeLessThanOrEqual(now + 2 * 1 + 10 + 1);
    return db.run("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE state = 'pending' AND next_attempt_at > ?", [now - 1, now]);
  });
  expect(claimed).toBeGreaterThan(0);

  running = await serve(env);
  const events: string[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${running.url}/v1/events?per_page=50&page=${page}`, { headers: { authorization: `Bearer ${secret}` } });
    const body = (await res.json()) as { data: Array<{ id: string }>; meta: { pagination: { has_more: boolean } } };
    events.push(...body.data.map((e) => e.id));
    if (!body.meta.pagination.has_more) break;
  }
  expect(events).toHaveLength(30);
  const deadline = Date.now() + 40_000;
  const delivered = () => new Set(receiver.received.map((r) => r.headers['webhook-id']));
  while (events.some((id) => !delivered().has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  expect(events.filter((id) => !delivered().has(id))).toEqual([]);
  // Those in flight at the kill reached the receiver but were never acknowledged: once
  // their claims expire they are sent again, and every delivery ends succeeded.
  const inFlight = receiver.received.slice(0, before).map((r) => r.headers['webhook-id']);
  let pending = -1;
  while (pending !== 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const res = await fetch(`${running.url}/v1/webhook_endpoints/${endpoint.body.data.id}/deliveries?state_eq=pending`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    pending = ((await res.json()) as { data: unknown[] }).data.length;
  }
  expect(pending).toBe(0);
  const lastBeforeKill = inFlight[inFlight.length - 1];
  expect(receiver.received.filter((r) => r.headers['webhook-id'] === lastBeforeKill).length).toBeGreaterThanOrEqual(2);
}, 90_000);
