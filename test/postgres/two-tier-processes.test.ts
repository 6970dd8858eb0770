// Two-tier referrals behind a load balancer (docs/two-tier.md): a recruit's commissions made
// at the same moment in two processes pay their recruiter one share each, never past the cap,
// and the same rejection sent to both takes a paid share back once.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testDatabase, type TestDatabase } from '../collector/database.js';
import { serve, stopServers, tokensIn, type Served } from '../collector/processes.js';

let database: TestDatabase;
let a: Served;
let b: Served;
let token: string;

async function call(to: Served, method: string, url: string, body?: unknown) {
  const res = await fetch(to.url + url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  database = await testDatabase('postgres');
  const env = { DATABASE_URL: database.url, RATE_LIMIT_IP: '0', RATE_LIMIT_TOKEN: '0' };
  a = await serve(env);
  b = await serve(env);
  token = tokensIn(a.output()).secret!;
});

afterAll(async () => {
  await stopServers(a, b);
  await database?.drop();
});

/** The recruiter's second-tier commissions, as either process lists them. */
async function shares(partnerId: string): Promise<any[]> {
  const list = await call(b, 'GET', `/v1/commissions?partner_id_eq=${partnerId}&per_page=50`);
  return list.body.data.filter((c: any) => c.attributes.tier === 2);
}

it('commissions and a rejection at once in two processes: one share per source, within the cap, taken back once', async () => {
  expect((await call(a, 'PATCH', '/v1/program', { slug: 'racing', page_enabled: true, auto_accept: true })).status).toBe(200);
  expect((await call(b, 'PATCH', '/v1/program/two_tier', { enabled: true, share_bps: 5000, caps: { USD: 1000 } })).status).toBe(200);
  const partner = await call(a, 'POST', '/v1/partners', { name: 'Recruiter', email: 'recruiter@race.test' });
  const ship = await call(b, 'POST', '/v1/partnerships', { partner_id: partner.body.data.id, state: 'accepted' });
  const applied = await fetch(`${a.url}/v1/public/programs/racing/applications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Recruit',
      email: 'recruit@race.test',
      password: 'a long partner password',
      via: ship.body.data.attributes.key,
    }),
  });
  expect(applied.status).toBe(201);
  const recruitShip = (await call(b, 'GET', `/v1/partnerships/${((await applied.json()) as any).data.id}`)).body.data;
  const recruit = recruitShip.relationships.partner.data.id;
  const recruiter = partner.body.data.id;

  // Eight commissions of 600 at once, half to each process: 300 a share, 1000 the cap.
  const made = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      call(i % 2 ? a : b, 'POST', '/v1/commissions', { partner_id: recruit, amount: 600, currency: 'USD' }),
    ),
  );
  expect(made.map((m) => m.status)).toEqual(Array(8).fill(201));
  const first = await shares(recruiter);
  expect(first.reduce((n, s) => n + s.attributes.amount, 0)).toBe(1000);
  expect(new Set(first.map((s) => s.attributes.tier_of)).size).toBe(first.length);

  // One source paid out its share, then rejected in both processes at once: one clawback.
  const [paidShare] = first;
  expect((await call(a, 'PATCH', `/v1/commissions/${paidShare.id}`, { state: 'paid' })).status).toBe(200);
  const source = paidShare.attributes.tier_of;
  const rejected = await Promise.all(
    [a, b].map((s) => call(s, 'PATCH', `/v1/commissions/${source}`, { state: 'rejected', reject_reason: 'fraud' })),
  );
  expect(rejected.map((r) => r.status).sort()).toEqual([200, 409]);
  const clawbacks = (await shares(recruiter)).filter((s) => s.attributes.clawback_of === paidShare.id);
  expect(clawbacks.map((c) => c.attributes.amount)).toEqual([-paidShare.attributes.amount]);
});
