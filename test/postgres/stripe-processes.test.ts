// Stripe sends an event again when an answer is slow or lost, and behind a load balancer
// the copies can reach two processes at the same moment. Each event is processed once:
// the first process to claim it does the work, the other waits for that commit and
// answers with what it did.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testDatabase, withDb, type TestDatabase } from '../collector/database.js';
import { serve, stopServers, tokensIn, type Served } from '../collector/processes.js';
import { checkoutSession, charge, invoice, newSecret, postEvent, stripeEvent, stripeId } from '../collector/stripe-fixtures.js';

let database: TestDatabase;
let a: Served;
let b: Served;
let token: string;
let publishable: string;
let signing: string;
let path: string;

async function call(to: Served, method: string, url: string, body?: unknown, auth = token) {
  const res = await fetch(to.url + url, {
    method,
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const count = (sql: string) => withDb(database.url, async (db) => Number((await db.get<{ n: number }>(sql))?.n));

beforeAll(async () => {
  database = await testDatabase('postgres');
  const env = { DATABASE_URL: database.url, RATE_LIMIT_IP: '0', RATE_LIMIT_TOKEN: '0' };
  a = await serve(env);
  b = await serve(env);
  ({ secret: token, publishable } = tokensIn(a.output()) as { secret: string; publishable: string });
  signing = newSecret();
  const added = await call(a, 'POST', '/v1/integrations/stripe/secrets', { secret: signing });
  expect(added.status).toBe(201);
  path = new URL(added.body.meta.endpoint_url).pathname;
});

afterAll(async () => {
  await stopServers(a, b);
  await database?.drop();
});

/** The same signed event to both processes at once. */
function toBoth(event: Record<string, unknown>) {
  const now = Math.floor(Date.now() / 1000);
  return Promise.all([a, b].map((s) => postEvent(s.url + path, event, signing, { timestamp: now })));
}

it('the same events to two processes at once: each processed once, both answers name what was done', async () => {
  const PEOPLE = 20;
  const partner = await call(a, 'POST', '/v1/partners', { name: 'Twice', email: 'twice@p.test' });
  const partnership = await call(b, 'POST', '/v1/partnerships', { partner_id: partner.body.data.id, state: 'accepted' });
  const key = partnership.body.data.attributes.key as string;
  const now = Math.floor(Date.now() / 1000);
  const sessions = [];
  for (let i = 0; i < PEOPLE; i++) {
    const grId = `gr-twice-${i}`;
    expect((await call(a, 'POST', '/v1/tracking/click', { gr_id: grId, pk: key }, publishable)).status).toBe(202);
    sessions.push(
      checkoutSession({ mode: 'subscription', amount: 1_000, clientReferenceId: grId, email: `p${i}@shop.test`, invoice: stripeId('in') }),
    );
  }
  // Each Checkout makes a referral from its click; each invoice pays; each refund takes half.
  const answers = await Promise.all(sessions.map((s) => toBoth(stripeEvent('checkout.session.completed', s, { created: now }))));
  for (const pair of answers) {
    expect(pair.map((x) => x.status)).toEqual([200, 200]);
    expect(pair.map((x) => x.body.meta.duplicate).sort()).toEqual([false, true]);
    expect(pair[0]!.body.data.attributes.outcome).toBe(pair[1]!.body.data.attributes.outcome);
  }
  const intents = sessions.map(() => stripeId('pi'));
  await Promise.all(
    sessions.map((s, i) =>
      toBoth(
        stripeEvent(
          'invoice.paid',
          invoice({ id: s.invoice as string, customer: s.customer as string, amountPaid: 5_000, paymentIntent: intents[i] }),
          { created: now },
        ),
      ),
    ),
  );
  await Promise.all(
    intents.map((pi) =>
      toBoth(stripeEvent('charge.refunded', charge({ amount: 5_000, amountRefunded: 2_500, paymentIntent: pi }), { created: now })),
    ),
  );
  expect(await count('SELECT COUNT(*) AS n FROM referrals')).toBe(PEOPLE);
  expect(await count('SELECT COUNT(*) AS n FROM payments')).toBe(PEOPLE);
  expect(await count('SELECT COUNT(*) AS n FROM commissions WHERE amount = 500')).toBe(PEOPLE);
  expect(await count('SELECT COUNT(*) AS n FROM commissions')).toBe(PEOPLE);
  expect(await count("SELECT COUNT(*) AS n FROM billing_events WHERE outcome <> 'failed' AND attempts = 1")).toBe(3 * PEOPLE);
});
