// Bounties with two `tally serve` processes on one PostgreSQL database (docs/bounties.md):
// a partner's payments sent to both at once, past a performance bounty's target, award it
// once; the same approval of a submission sent to both at once makes one commission.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testDatabase, withDb, type TestDatabase } from '../collector/database.js';
import { serve, stopServers, tokensIn, type Served } from '../collector/processes.js';

let database: TestDatabase;
let a: Served;
let b: Served;
let secret: string;
let publishable: string;
let partner: { id: string; key: string };

// any: each check reads the JSON it expects.
async function send(to: Served, method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(to.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const rows = <T>(sql: string, params: (string | number)[] = []) => withDb(database.url, (db) => db.all<T>(sql, params));
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  database = await testDatabase('postgres');
  const env = { DATABASE_URL: database.url, RATE_LIMIT_IP: '0', RATE_LIMIT_TOKEN: '0' };
  [a, b] = await Promise.all([serve(env), serve(env)]);
  const printed = [tokensIn(a.output()), tokensIn(b.output())].filter((t) => t.secret);
  secret = printed[0]!.secret!;
  publishable = printed[0]!.publishable!;
  const off = { no_click: false, address_burst: false, browser_burst: false };
  expect((await send(a, 'PATCH', '/v1/program', secret, { review_signals: off })).status).toBe(200);
  const made = await send(a, 'POST', '/v1/partners', secret, { name: 'Racer', email: 'racer@p.test' });
  const ship = await send(b, 'POST', '/v1/partnerships', secret, { partner_id: made.body.data.id, state: 'accepted' });
  partner = { id: made.body.data.id, key: ship.body.data.attributes.key };
});

afterAll(async () => {
  await stopServers(a, b);
  await database?.drop();
});

const awardsOfBounties = () =>
  rows<{ n: string }>("SELECT COUNT(*) AS n FROM commissions WHERE reward_description LIKE 'Bounty: %'").then((r) => Number(r[0]!.n));

it("the partner's payments sent to both processes at once award a performance bounty once", async () => {
  const made = await send(a, 'POST', '/v1/bounties', secret, {
    name: 'Race',
    kind: 'performance',
    metric: 'sales',
    target: 4,
    starts_at: now() - 60,
    ends_at: now() + 86_400,
    amount: 1000,
    currency: 'USD',
  });
  expect(made.status).toBe(201);
  const referrals = [];
  for (let i = 0; i < 10; i++) {
    const conv = await send(a, 'POST', '/v1/tracking/conversion', publishable, {
      email: `race${i}@buyer.test`,
      gr_id: `race-${i}`,
      pk: partner.key,
    });
    expect(conv.status).toBe(201);
    referrals.push(conv.body.data.id as string);
  }
  const paid = await Promise.all(
    referrals.map((r, i) =>
      send(i % 2 ? a : b, 'POST', '/v1/payments', secret, { amount: 500, currency: 'USD', referral_id: r, idempotency_key: `race-${i}` }),
    ),
  );
  expect(paid.map((p) => p.status)).toEqual(referrals.map(() => 201));
  expect(await awardsOfBounties()).toBe(1);
  const [award] = await rows<{ progress: string }>('SELECT progress FROM bounty_awards');
  expect(Number(award!.progress)).toBeGreaterThanOrEqual(4);
});

it('the same approval sent to both processes at once makes one commission', async () => {
  const bounty = await send(b, 'POST', '/v1/bounties', secret, {
    name: 'Proof',
    kind: 'submission',
    starts_at: now() - 60,
    ends_at: now() + 86_400,
    amount: 700,
    currency: 'USD',
  });
  // Submitted as the portal would, written here: the portal's session is not what races.
  const [ship] = await rows<{ id: string }>('SELECT id FROM partnerships WHERE partner_id = ?', [partner.id]);
  const id = '01900000-0000-7000-8000-00000000b0b0';
  await withDb(database.url, (db) =>
    db.run(
      `INSERT INTO bounty_submissions (id, program_id, bounty_id, partner_id, partnership_id, urls, text, state, created_at, updated_at)
       SELECT ?, program_id, ?, ?, ?, '[]', 'proof', 'pending', ?, ? FROM bounties WHERE id = ?`,
      [id, bounty.body.data.id, partner.id, ship!.id, now(), now(), bounty.body.data.id],
    ),
  );
  const path = `/v1/bounties/${bounty.body.data.id}/submissions/${id}`;
  const answers = await Promise.all([a, b, a, b].map((to) => send(to, 'PATCH', path, secret, { state: 'approved' })));
  expect(answers.map((x) => x.status)).toEqual([200, 200, 200, 200]);
  expect(new Set(answers.map((x) => x.body.data.attributes.commission_id)).size).toBe(1);
  expect(await awardsOfBounties()).toBe(2);
});
