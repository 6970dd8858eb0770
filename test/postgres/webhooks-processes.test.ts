// Two collector processes on one PostgreSQL database deliver webhooks together: 1,000
// events, each delivered, none by both processes at once (claims skip rows another
// process holds, and a claim's lease keeps a sent delivery from being taken again).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { emit } from '../../packages/collector/src/events/emit.js';
import { referralData } from '../collector/event-data.js';
import { registerSubscribers } from '../../packages/collector/src/subscribers.js';
import { testDatabase, withDb, type TestDatabase } from '../collector/database.js';
import { serve, stopServers, tokensIn, type Served } from '../collector/processes.js';
import { startReceiver, type Receiver } from '../collector/receiver.js';

const EVENTS = 1000;
let database: TestDatabase;
let receiver: Receiver;
let a: Served;
let b: Served;

beforeAll(async () => {
  // This process writes the events itself, without an app: it registers what writes their deliveries, as createApp does.
  registerSubscribers();
  database = await testDatabase('postgres');
  receiver = await startReceiver();
  const env = {
    DATABASE_URL: database.url,
    RATE_LIMIT_IP: '0',
    RATE_LIMIT_TOKEN: '0',
    WEBHOOK_ALLOW_HTTP: '1',
    WEBHOOK_ALLOW_PRIVATE: '1',
  };
  a = await serve(env);
  b = await serve(env);
});

afterAll(async () => {
  await stopServers(a, b);
  await receiver?.close();
  await database?.drop();
});

it('1,000 events: each delivered once, never by both processes at once', async () => {
  const inFlight = new Set<string>();
  const overlaps: string[] = [];
  receiver.answer.set('/both', (r) => {
    const id = r.headers['webhook-id']!;
    if (inFlight.has(id)) overlaps.push(id);
    inFlight.add(id);
    setTimeout(() => inFlight.delete(id), 5);
    return { status: 200, delayMs: 5 };
  });
  const { secret } = tokensIn(a.output());
  const made = await fetch(`${a.url}/v1/webhook_endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver.url}/both` }),
  });
  expect(made.status).toBe(201);
  const program = await withDb(database.url, (db) => db.get<{ id: string }>('SELECT id FROM programs'));
  const now = Math.floor(Date.now() / 1000);
  // One transaction: both processes find the thousand due at once.
  const ids = await withDb(database.url, (db) =>
    db.transaction(async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < EVENTS; i++) {
        const data = referralData(`r${i}`);
        out.push((await emit(tx, program!.id, 'referral.created', data, now)).id);
      }
      return out;
    }),
  );
  const started = Date.now();
  await receiver.waitFor(EVENTS, '/both', 60_000);
  const seconds = (Date.now() - started) / 1000;
  console.log(`webhooks: ${EVENTS} delivered by two processes in ${seconds.toFixed(2)} s (${Math.round(EVENTS / seconds)}/s)`);
  // Every delivery recorded as succeeded: none is left to send again, so what arrived is all that will.
  const succeeded = async () =>
    (await withDb(database.url, (db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state = 'succeeded'")))
      ?.n;
  for (let i = 0; i < 200 && Number(await succeeded()) < EVENTS; i++) await new Promise((r) => setTimeout(r, 50));
  const got = receiver.received.filter((r) => r.path === '/both').map((r) => r.headers['webhook-id']!);
  expect(new Set(got)).toEqual(new Set(ids));
  expect(got).toHaveLength(EVENTS);
  expect(overlaps).toEqual([]);
  const states = await withDb(database.url, (db) =>
    db.all<{ state: string; n: number }>('SELECT state, COUNT(*) AS n FROM webhook_deliveries GROUP BY state'),
  );
  expect(states).toEqual([{ state: 'succeeded', n: EVENTS }]);
}, 120_000);
