// Two `tally serve` processes on one PostgreSQL database, started together, each sent
// the same conversions, payments, clicks, partnerships, state changes and refunds at the
// same moment. The database alone keeps them exact: one referral per person, one payment
// and one commission per key, one click per visit, one partnership per partner, one
// winner per state change, and every 2xx in the database.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseCsv } from '../../packages/collector/src/platform/csv.js';
import { markPaid } from '../../packages/collector/src/flows/payout-run.js';
import { openDatabase } from '../../packages/collector/src/platform/db/open.js';
import { testDatabase, withDb, type TestDatabase } from '../collector/database.js';
import { serve, stopServers, tally, tokensIn, type Served } from '../collector/processes.js';

const PEOPLE = 120;

let database: TestDatabase;
let a: Served;
let b: Served;
let secret: string;
let publishable: string;
let key: string;

interface Answer {
  status: number;
  // any: each check reads the JSON it expects.
  body: any;
}

async function send(to: Served, method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  const res = await fetch(to.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The same request to both processes at the same moment. */
const both = (method: string, path: string, token: string, body?: unknown) =>
  Promise.all([send(a, method, path, token, body), send(b, method, path, token, body)]);

const rows = <T>(sql: string, params: (string | number)[] = []) => withDb(database.url, (db) => db.all<T>(sql, params));

beforeAll(async () => {
  database = await testDatabase('postgres');
  const env = { DATABASE_URL: database.url, RATE_LIMIT_IP: '0', RATE_LIMIT_TOKEN: '0' };
  // Started together on an empty database: one migrates, one makes the first program.
  [a, b] = await Promise.all([serve(env), serve(env)]);
  const printed = [tokensIn(a.output()), tokensIn(b.output())].filter((t) => t.secret);
  expect(printed).toHaveLength(1);
  secret = printed[0]!.secret!;
  publishable = printed[0]!.publishable!;
  // Two processes, not review, are the point here: its visitor signals would hold these conversions from one address without landings.
  const off = { no_click: false, address_burst: false, browser_burst: false };
  expect((await send(a, 'PATCH', '/v1/program', secret, { review_signals: off })).status).toBe(200);
  const partner = await send(a, 'POST', '/v1/partners', secret, {
    name: 'Shared',
    email: 'shared@p.test',
    paypal_email: 'pay@shared.test',
  });
  const partnership = await send(b, 'POST', '/v1/partnerships', secret, { partner_id: partner.body.data.id, state: 'accepted' });
  expect(partnership.status).toBe(201);
  key = partnership.body.data.attributes.key;
});

afterAll(async () => {
  await stopServers(a, b);
  await database?.drop();
});

it('both processes started: the schema was migrated once and holds one program', async () => {
  const versions = await rows<{ version: number }>('SELECT version FROM schema_migrations');
  expect(new Set(versions.map((v) => v.version)).size).toBe(versions.length);
  expect(await rows('SELECT id FROM programs')).toHaveLength(1);
  // Each process keeps its own demo token: a later start must not revoke an earlier one's.
  expect(await rows("SELECT id FROM tokens WHERE label = 'demo' AND revoked_at IS NULL")).toHaveLength(2);
});

it('the same conversions sent to both at once: one referral per person, both answers name it', async () => {
  const emails = Array.from({ length: PEOPLE }, (_, i) => `person${i}@both.test`);
  const answers = await Promise.all(
    emails.map((email) => both('POST', '/v1/tracking/conversion', publishable, { email, gr_id: `g-${email}`, pk: key })),
  );
  for (const [x, y] of answers) {
    expect([x.status, y.status].sort()).toEqual([200, 201]); // one made it, the other found it
    expect(x.body.data.id).toBe(y.body.data.id);
  }
  const stored = await rows<{ id: string; email: string }>('SELECT id, email FROM referrals');
  expect(stored).toHaveLength(PEOPLE);
  expect(new Set(stored.map((r) => r.email))).toEqual(new Set(emails));
  expect(new Set(stored.map((r) => r.id))).toEqual(new Set(answers.map(([x]) => x.body.data.id)));
});

it('the same payments sent to both at once: one payment and one commission per key', async () => {
  const referrals = await rows<{ id: string }>('SELECT id FROM referrals ORDER BY id');
  const answers = await Promise.all(
    referrals.map((r, i) =>
      both('POST', '/v1/payments', secret, { amount: 1000 + i, currency: 'USD', referral_id: r.id, idempotency_key: `key-${i}` }),
    ),
  );
  for (const [x, y] of answers) {
    expect([x.status, y.status].sort()).toEqual([200, 201]);
    expect(x.body.data.id).toBe(y.body.data.id);
  }
  const payments = await rows<{ id: string; idempotency_key: string; commission_id: string }>(
    'SELECT id, idempotency_key, commission_id FROM payments',
  );
  expect(payments).toHaveLength(referrals.length);
  expect(new Set(payments.map((p) => p.idempotency_key)).size).toBe(referrals.length);
  expect(new Set(payments.map((p) => p.id))).toEqual(new Set(answers.map(([x]) => x.body.data.id)));
  const commissions = await rows<{ id: string }>('SELECT id FROM commissions');
  expect(new Set(commissions.map((c) => c.id))).toEqual(new Set(payments.map((p) => p.commission_id)));
  // The first payment moved each referral converted → paid, once.
  expect(await rows("SELECT id FROM referrals WHERE state <> 'paid'")).toEqual([]);
});

it('the same state change sent to both at once: exactly one wins, the other is refused', async () => {
  const commissions = await rows<{ id: string }>('SELECT id FROM commissions ORDER BY id LIMIT 40');
  const answers = await Promise.all(commissions.map((c) => both('PATCH', `/v1/commissions/${c.id}`, secret, { state: 'paid' })));
  for (const [x, y] of answers) expect([x.status, y.status].sort()).toEqual([200, 409]);
  const paid = await rows("SELECT id FROM commissions WHERE state = 'paid'");
  expect(paid).toHaveLength(commissions.length);
});

it('the same click sent to both at once is stored once', async () => {
  const visitors = Array.from({ length: 40 }, (_, i) => `visitor-${i}`);
  const answers = await Promise.all(visitors.map((gr_id) => both('POST', '/v1/tracking/click', publishable, { gr_id, pk: key })));
  for (const pair of answers) expect(pair.map((r) => r.status)).toEqual([202, 202]);
  const clicks = await rows<{ gr_id: string }>("SELECT gr_id FROM clicks WHERE gr_id LIKE 'visitor-%'");
  expect(clicks.map((c) => c.gr_id).sort()).toEqual([...visitors].sort());
});

it('partnerships: one made per partner, and of the same move sent to both at once one wins, the other is refused', async () => {
  const made = await Promise.all(
    Array.from({ length: 20 }, (_, i) => send(a, 'POST', '/v1/partners', secret, { name: `Race ${i}`, email: `race${i}@p.test` })),
  );
  const creates = await Promise.all(made.map((p) => both('POST', '/v1/partnerships', secret, { partner_id: p.body.data.id })));
  for (const [x, y] of creates) expect([x.status, y.status].sort()).toEqual([201, 409]);
  const ids = creates.map(([x, y]) => (x.status === 201 ? x : y).body.data.id as string);
  expect(
    await rows(
      `SELECT id FROM partnerships WHERE partner_id IN (${made.map(() => '?').join(', ')})`,
      made.map((p) => p.body.data.id),
    ),
  ).toHaveLength(20);

  // pending → accepted, sent to both at the same moment: a read-then-write would let both
  // succeed; the conditional update lets one.
  const moves = await Promise.all(ids.map((id) => both('PATCH', `/v1/partnerships/${id}`, secret, { state: 'accepted' })));
  for (const [x, y] of moves) expect([x.status, y.status].sort()).toEqual([200, 409]);
  const states = await rows<{ state: string }>(`SELECT state FROM partnerships WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
  expect(states.map((s) => s.state)).toEqual(ids.map(() => 'accepted'));
});

it('the same refund sent to both at once: both answer the refunded commission', async () => {
  // Commissions still pending: the state-change test paid the first 40 by id.
  const pending = await rows<{ idempotency_key: string; commission_id: string }>(
    `SELECT p.idempotency_key, p.commission_id FROM payments p JOIN commissions c ON c.id = p.commission_id
      WHERE c.state = 'pending' ORDER BY p.idempotency_key LIMIT 20`,
  );
  expect(pending).toHaveLength(20);
  const answers = await Promise.all(pending.map((p) => both('POST', '/v1/refunds', secret, { payment_id: p.idempotency_key })));
  for (const [i, [x, y]] of answers.entries()) {
    expect([x.status, y.status]).toEqual([200, 200]);
    expect([x.body.data.id, y.body.data.id]).toEqual([pending[i]!.commission_id, pending[i]!.commission_id]);
    expect(x.body.data.attributes).toMatchObject({ state: 'rejected', reject_reason: 'refunded' });
  }
});

it('the same payout file marked paid from two connections at once: one marks it, the other refuses', async () => {
  const file = join(database.dir, 'payouts.csv');
  const exported = await tally(['payouts', 'export', '--currency', 'USD', '--csv', file], { DATABASE_URL: database.url });
  expect(exported.code).toBe(0);
  const owed = await rows("SELECT id FROM commissions WHERE state = 'pending'");
  expect(owed.length).toBeGreaterThan(0);
  // Two handles, two pools: as two `tally payouts mark-paid` would, but started in the
  // same instant, so that both pass the checks before either writes.
  const csv = parseCsv(readFileSync(file, 'utf8'));
  const dbs = [openDatabase(database.url), openDatabase(database.url)];
  try {
    const runs = await Promise.allSettled(dbs.map((db) => markPaid(db, csv, 1_800_000_000)));
    expect(runs.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(runs.find((r) => r.status === 'fulfilled')).toMatchObject({ value: owed.length });
    const refused = runs.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ kind: 'conflict' });
  } finally {
    await Promise.all(dbs.map((db) => db.close()));
  }
  expect(await rows("SELECT id FROM commissions WHERE state = 'pending'")).toEqual([]);
  expect(await rows('SELECT id FROM payout_batches WHERE paid_at IS NULL')).toEqual([]);
});
