// Outgoing webhooks (docs/webhooks.md) to a real receiving server: every event type
// arrives, signed by the Standard Webhooks scheme; retries with backoff, Retry-After,
// 410 Gone, timeouts, five days of failures; rotation; the outbox's atomicity; and
// URLs that reach this machine or its networks refused when saved and when sent.

import type { LookupAddress } from 'node:dns';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedPartner, startCollector, type Collector } from './harness.js';
import { tally } from './processes.js';
import { signedBy, startReceiver, type Receiver } from './receiver.js';

const LOCAL = { allowHttp: true, allowPrivate: true, timeoutMs: 1000 };
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

let c: Collector;
afterEach(async () => {
  await c?.close();
});

/**
 * A collector whose clock starts at real time, so signatures verify as a receiver would,
 * with its delivery loop on: this file is about that loop (retries, leases, Retry-After).
 */
async function collector(outbound: object = LOCAL, webhookJitter?: () => number): Promise<Collector> {
  const made = await startCollector({ outbound, webhookPollMs: 50, background: true, webhookJitter });
  made.clock.now = Math.floor(Date.now() / 1000);
  // Deliveries, not review, are the point here: conversions without landings would be held and tell review.held besides.
  await made.call('PATCH', '/v1/program', { body: { review_signals: { no_click: false } } });
  return made;
}

it('with background work off (as every other test file runs), nothing is sent until the test asks: work.deliver() sends what is due', async () => {
  c = await startCollector({ outbound: LOCAL });
  c.clock.now = Math.floor(Date.now() / 1000);
  await endpoint('/on-demand');
  await seedPartner(c);
  // No timer exists to send it: the delivery is pending and the receiver has nothing.
  const pending = await c.running.db.all<{ state: string; attempts: number }>('SELECT state, attempts FROM webhook_deliveries');
  expect(pending).toEqual([{ state: 'pending', attempts: 0 }]);
  await c.running.work.deliver();
  expect(receiver.received.filter((r) => r.path === '/on-demand').map((r) => r.json.type)).toEqual(['partnership.created']);
  expect(await c.running.db.all('SELECT state FROM webhook_deliveries')).toEqual([{ state: 'succeeded' }]);
});

async function endpoint(path: string, types?: string[]): Promise<{ id: string; secret: string }> {
  const made = await c.call('POST', '/v1/webhook_endpoints', {
    body: { url: receiver.url + path, ...(types ? { event_types: types } : {}) },
  });
  expect(made.status).toBe(201);
  expect(made.body.data.attributes.secret).toMatch(/^whsec_/);
  return { id: made.body.data.id, secret: made.body.data.attributes.secret };
}

const delivery = async (endpointId: string) => (await c.call('GET', `/v1/webhook_endpoints/${endpointId}/deliveries`)).body.data[0];
const attemptsOf = async (id: string) => (await c.call('GET', `/v1/webhook_deliveries/${id}`)).body.data.attributes;

/**
 * Waits until each of the endpoint's `n` deliveries has recorded its one successful
 * attempt: none is pending, so nothing more can be sent to it.
 */
async function settled(endpointId: string, n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const all = (await c.call('GET', `/v1/webhook_endpoints/${endpointId}/deliveries`)).body.data;
    if (all.length === n && all.every((d: any) => d.attributes.state !== 'pending')) {
      expect(all.map((d: any) => [d.attributes.state, d.attributes.attempts])).toEqual(Array(n).fill(['succeeded', 1]));
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the ${n} deliveries of ${endpointId} did not all end`);
}

/** Waits until the endpoint's newest delivery has made `n` attempts. */
async function attempted(endpointId: string, n: number): Promise<Record<string, any>> {
  for (let i = 0; i < 200; i++) {
    const d = await delivery(endpointId);
    if (d && d.attributes.attempts >= n && (d.attributes.state !== 'pending' || d.attributes.next_attempt_at > c.clock.now)) {
      // recorded, not merely claimed: a claim moves next_attempt_at past the lease
      const full = await attemptsOf(d.id);
      if (full.attempt_log.length >= n) return { id: d.id, ...full };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${n} attempts recorded: ${JSON.stringify(await delivery(endpointId))} at ${c.clock.now}`);
}

describe('events to a real receiver', () => {
  it('sends every event type once, signed, with the record as the API shows it; /v1/events lists the same', async () => {
    c = await collector();
    const { id: allId, secret } = await endpoint('/all');
    const p = await seedPartner(c, { paypal_email: 'payee@partners.test' });
    const conv = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'ann@buyers.test', gr_id: 'g1', pk: p.key },
    });
    expect(conv.status).toBe(201);
    const pay = await c.call('POST', '/v1/payments', {
      body: { amount: 10_000, currency: 'USD', idempotency_key: 'p1', referral_email: 'ann@buyers.test' },
    });
    expect(pay.status).toBe(201);
    expect((await c.call('PATCH', `/v1/referrals/${conv.body.data.id}`, { body: { state: 'churned' } })).status).toBe(200);
    const batches = await c.call('POST', '/v1/payout_batches', { body: {} });
    expect(batches.status).toBe(201);
    expect((await c.call('POST', `/v1/payout_batches/${batches.body.data[0].id}/paid`)).status).toBe(200);

    const listed = (await c.call('GET', '/v1/events?per_page=50')).body.data as Array<{
      id: string;
      attributes: { type: string; data: unknown };
    }>;
    const types = listed.map((e) => e.attributes.type).sort();
    expect(types).toEqual(
      [
        'commission.created',
        'commission.updated',
        'partnership.created',
        'payment.created',
        'payout.created',
        'payout.paid',
        'referral.converted',
        'referral.created',
        'referral.updated',
        'referral.updated',
      ].sort(),
    );
    const got = await receiver.waitFor(listed.length, '/all');
    await settled(allId, listed.length);
    const all = receiver.received.filter((r) => r.path === '/all');
    expect(all.map((r) => r.headers['webhook-id']).sort()).toEqual(listed.map((e) => e.id).sort());
    for (const r of got) {
      expect(signedBy(secret, r)).toBe(true);
      expect(r.json.id).toBe(r.headers['webhook-id']);
      const event = listed.find((e) => e.id === r.json.id)!;
      expect(r.json.type).toBe(event.attributes.type);
      expect(r.json.data).toEqual(event.attributes.data);
    }
    // The record as the API shows it: the referral's event is GET /v1/referrals/:id at that moment.
    const created = got.find((r) => r.json.type === 'referral.created')!;
    expect(created.json.data).toEqual({ ...conv.body.data, attributes: { ...conv.body.data.attributes } });
    const paid = got.find((r) => r.json.type === 'payout.paid')!;
    expect(paid.json.data.attributes.state).toBe('paid');
    // Filters, as every list.
    const only = (await c.call('GET', '/v1/events?type_eq=referral.updated')).body.data;
    expect(only.map((e: any) => e.attributes.data.attributes.state).sort()).toEqual(['churned', 'paid']);
  });

  it('sends only the types an endpoint asked for, and nothing to a disabled one', async () => {
    c = await collector();
    const some = await endpoint('/some', ['partnership.created']);
    const off = await c.call('POST', '/v1/webhook_endpoints', { body: { url: `${receiver.url}/off`, enabled: false } });
    await seedPartner(c);
    await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'bo@buyers.test', gr_id: 'g2', pk: (await seedPartner(c)).key },
    });
    await receiver.waitFor(2, '/some');
    await settled(some.id, 2);
    expect(receiver.received.filter((r) => r.path === '/some').map((r) => r.json.type)).toEqual([
      'partnership.created',
      'partnership.created',
    ]);
    expect(receiver.received.filter((r) => r.path === '/off')).toEqual([]);
    expect((await c.call('GET', `/v1/webhook_endpoints/${off.body.data.id}/deliveries`)).body.data).toEqual([]);
  });

  it('a change that rolls back leaves no event and no delivery', async () => {
    c = await collector();
    const { id } = await endpoint('/rollback');
    const p = await seedPartner(c, { paypal_email: 'payee@partners.test' });
    await c.call('POST', '/v1/commissions', { body: { partner_id: p.partnerId, amount: 500, currency: 'USD' } });
    const before = (await c.call('GET', '/v1/events')).body.data.length;
    // The export writes its batch and its payout.created event, then its file cannot be
    // written: its folder would be under a file (a missing folder is made).
    writeFileSync(join(c.dir, 'a-file'), '');
    const failed = await tally(['payouts', 'export', '--csv', join(c.dir, 'a-file', 'payouts.csv')], {
      DATABASE_URL: c.databaseUrl,
    });
    expect(failed.code).not.toBe(0);
    expect((await c.call('GET', '/v1/events')).body.data.length).toBe(before);
    expect((await c.call('GET', '/v1/events?type_eq=payout.created')).body.data).toEqual([]);
    const deliveries = (await c.call('GET', `/v1/webhook_endpoints/${id}/deliveries?per_page=50`)).body.data;
    expect(deliveries.map((d: any) => d.attributes.event_type)).not.toContain('payout.created');
  });
});

describe('retries', () => {
  it('a receiver that fails twice then succeeds: backoff of about 5 s then 5 min, three attempts recorded', async () => {
    c = await collector();
    receiver.answer.set('/flaky', (_r, n) => ({ status: n <= 2 ? 500 : 204 }));
    const { id } = await endpoint('/flaky', ['partnership.created']);
    await seedPartner(c);
    const first = await attempted(id, 1);
    expect(first.state).toBe('pending');
    expect(first.next_attempt_at - c.clock.now).toBeGreaterThanOrEqual(4);
    expect(first.next_attempt_at - c.clock.now).toBeLessThanOrEqual(6);
    expect((await c.call('GET', `/v1/webhook_endpoints/${id}`)).body.data.attributes.failing_since).toBe(c.clock.now);
    c.clock.now += 7;
    const second = await attempted(id, 2);
    expect(second.next_attempt_at - c.clock.now).toBeGreaterThanOrEqual(240);
    expect(second.next_attempt_at - c.clock.now).toBeLessThanOrEqual(360);
    c.clock.now += 361;
    const third = await attempted(id, 3);
    expect(third.state).toBe('succeeded');
    expect(third.attempt_log.map((a: any) => a.status)).toEqual([500, 500, 204]);
    expect(third.attempt_log[0].response).toBe('ok');
    expect((await c.call('GET', `/v1/webhook_endpoints/${id}`)).body.data.attributes.failing_since).toBeUndefined();
    // The same message each time: one webhook-id for the three.
    expect(new Set(receiver.received.filter((r) => r.path === '/flaky').map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('honours Retry-After', async () => {
    c = await collector();
    receiver.answer.set('/busy', () => ({ status: 503, headers: { 'retry-after': '3600' } }));
    const { id } = await endpoint('/busy', ['partnership.created']);
    await seedPartner(c);
    const d = await attempted(id, 1);
    expect(d.next_attempt_at - c.clock.now).toBeGreaterThanOrEqual(3600);
    expect(d.last_status).toBe(503);
  });

  it('never tries again sooner than Retry-After asked, measured by the receiver in real time', async () => {
    // The first retry pinned at 1 s (5 s × 0.2), so that a Retry-After of 2 s decides.
    c = await collector(LOCAL, () => 0.2);
    // The server's clock is the real one here: whole seconds, as in production.
    Object.defineProperty(c.clock, 'now', { get: () => Math.floor(Date.now() / 1000), set: () => {}, configurable: true });
    const answered: number[] = [];
    receiver.answer.set('/later', (_r, n) => {
      answered.push(Date.now());
      return n === 1 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 204 };
    });
    const { id } = await endpoint('/later', ['partnership.created']);
    // The first answer late in its second, where a wait counted from the whole second fell most short.
    while (Date.now() % 1000 < 400 || Date.now() % 1000 > 500) await new Promise((r) => setTimeout(r, 5));
    await seedPartner(c);
    await receiver.waitFor(2, '/later', 20_000);
    expect(answered[1]! - answered[0]!).toBeGreaterThanOrEqual(2000);
    expect((await attempted(id, 2)).attempt_log.map((a: any) => a.status)).toEqual([429, 204]);
  });

  it('a 410 Gone disables the endpoint, says why, and ends its deliveries', async () => {
    c = await collector();
    receiver.answer.set('/gone', () => ({ status: 410 }));
    const { id } = await endpoint('/gone', ['partnership.created']);
    await seedPartner(c);
    const d = await attempted(id, 1);
    expect(d.state).toBe('failed');
    const ep = (await c.call('GET', `/v1/webhook_endpoints/${id}`)).body.data.attributes;
    expect(ep.enabled).toBe(false);
    expect(ep.disabled_reason).toMatch(/410/);
    await seedPartner(c);
    expect((await c.call('GET', `/v1/webhook_endpoints/${id}/deliveries`)).body.data).toHaveLength(1);
  });

  it('an endpoint that does not answer in time is retried; the attempt says so', async () => {
    c = await collector();
    receiver.answer.set('/slow', () => ({ status: 200, hang: true }));
    const { id } = await endpoint('/slow', ['partnership.created']);
    await seedPartner(c);
    const d = await attempted(id, 1);
    expect(d.state).toBe('pending');
    expect(d.attempt_log[0].status).toBeNull();
    expect(d.attempt_log[0].error).toMatch(/no answer within 1000 ms/);
    expect(d.attempt_log[0].duration_ms).toBeGreaterThanOrEqual(900);
  });

  it('an endpoint failing for 5 days is disabled', async () => {
    c = await collector();
    receiver.answer.set('/down', () => ({ status: 500 }));
    const { id } = await endpoint('/down');
    const start = c.clock.now;
    for (let day = 0; day < 5; day++) {
      c.clock.now = start + day * 86_400;
      expect((await c.call('POST', `/v1/webhook_endpoints/${id}/test`)).status).toBe(201);
      await attempted(id, 1);
      const ep = (await c.call('GET', `/v1/webhook_endpoints/${id}`)).body.data.attributes;
      expect(ep.failing_since).toBe(start);
      expect(ep.enabled).toBe(true);
    }
    // Day five: the first failure then disables it, and ends what was still pending.
    c.clock.now = start + 5 * 86_400;
    await c.call('POST', `/v1/webhook_endpoints/${id}/test`);
    let ep: Record<string, any> = {};
    for (let i = 0; i < 100 && ep.enabled !== false; i++) {
      await new Promise((r) => setTimeout(r, 50));
      ep = (await c.call('GET', `/v1/webhook_endpoints/${id}`)).body.data.attributes;
    }
    expect(ep.enabled).toBe(false);
    const pending = await c.call('GET', `/v1/webhook_endpoints/${id}/deliveries?state_eq=pending`);
    expect(pending.body.data).toEqual([]);
    expect(ep.disabled_reason).toMatch(/5 days/);
  });

  it('reads only the first bytes of an answer, and keeps 512 of them', async () => {
    c = await collector();
    receiver.answer.set('/chatty', () => ({ status: 500, body: 'x'.repeat(4 * 1024 * 1024) }));
    const { id } = await endpoint('/chatty', ['partnership.created']);
    await seedPartner(c);
    const d = await attempted(id, 1);
    expect(d.attempt_log[0].status).toBe(500);
    expect(d.attempt_log[0].response).toBe('x'.repeat(512));
  });

  it('an answer with NUL bytes is recorded without them (PostgreSQL refuses U+0000 in text)', async () => {
    c = await collector();
    receiver.answer.set('/nul', () => ({ status: 500, body: 'bad\u0000answer' }));
    const { id } = await endpoint('/nul', ['partnership.created']);
    await seedPartner(c);
    const d = await attempted(id, 1);
    expect(d.attempt_log[0].response).toBe('badanswer');
    expect(d.attempts).toBe(1);
  });

  it('a DNS that never answers: the attempt ends within the timeout, is recorded once, and is not sent again meanwhile', async () => {
    c = await collector({ ...LOCAL, timeoutMs: 500, resolve: () => new Promise(() => {}) });
    const made = await c.call('POST', '/v1/webhook_endpoints', {
      body: { url: 'http://stalls.example/hook', event_types: ['partnership.created'] },
    });
    expect(made.status).toBe(201); // not resolving yet is accepted (after the timeout)
    await seedPartner(c);
    const d = await attempted(made.body.data.id, 1);
    expect(d.attempt_log[0].error).toMatch(/stalls.example does not resolve \(ETIMEOUT\)/);
    expect(d.attempt_log[0].duration_ms).toBeLessThan(1500);
    // Its retry is minutes away on the test's clock: sending everything due sends nothing.
    await c.running.work.deliver();
    const later = await attemptsOf(d.id);
    expect(later.attempts).toBe(1);
    expect(later.attempt_log).toHaveLength(1);
  });

  it('disabled while an attempt is in flight: the attempt is still recorded, and nothing is retried', async () => {
    c = await collector();
    receiver.answer.set('/inflight', () => ({ status: 200, delayMs: 600 }));
    const { id } = await endpoint('/inflight', ['partnership.created']);
    await seedPartner(c);
    await receiver.waitFor(1, '/inflight');
    expect((await c.call('PATCH', `/v1/webhook_endpoints/${id}`, { body: { enabled: false } })).status).toBe(200);
    let d = await delivery(id);
    for (let i = 0; i < 40 && d.attributes.attempts === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      d = await delivery(id);
    }
    expect(d.attributes.state).toBe('succeeded');
    expect((await attemptsOf(d.id)).attempt_log.map((a: any) => a.status)).toEqual([200]);
    const resend = await c.call('POST', `/v1/webhook_deliveries/${d.id}/resend`);
    expect(resend.status).toBe(409);
    expect(resend.body.errors[0].detail).toMatch(/enable it first/);
  });

  it('a refund of a paid commission: the clawback is created and the original is updated', async () => {
    c = await collector();
    await endpoint('/claw', ['commission.created', 'commission.updated']);
    const p = await seedPartner(c);
    await c.call('POST', '/v1/tracking/conversion', { token: c.publishable, body: { email: 'cat@buyers.test', gr_id: 'g9', pk: p.key } });
    const pay = await c.call('POST', '/v1/payments', {
      body: { amount: 10_000, currency: 'USD', idempotency_key: 'claw', referral_email: 'cat@buyers.test' },
    });
    const commissionId = pay.body.included[0].id;
    expect((await c.call('PATCH', `/v1/commissions/${commissionId}`, { body: { state: 'paid' } })).status).toBe(200);
    expect((await c.call('POST', '/v1/refunds', { body: { payment_id: 'claw' } })).status).toBeLessThan(300);
    const got = await receiver.waitFor(4, '/claw');
    const seen = got.map((r) => [
      r.json.type,
      r.json.data.id === commissionId ? 'original' : r.json.data.attributes.clawback_of === commissionId ? 'clawback' : 'other',
    ]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['commission.created', 'original'],
        ['commission.created', 'clawback'],
      ]),
    );
    // Paid, then clawed back.
    expect(got.filter((r) => r.json.type === 'commission.updated' && r.json.data.id === commissionId)).toHaveLength(2);
  });

  it('a redirect is not followed', async () => {
    c = await collector();
    receiver.answer.set('/moved', () => ({ status: 302, headers: { location: `${receiver.url}/target` } }));
    const { id } = await endpoint('/moved', ['partnership.created']);
    await seedPartner(c);
    const d = await attempted(id, 1);
    expect(d.last_status).toBe(302);
    // The importers' rule too (platform/outbound.ts, redirectNotFollowed): the attempt says where it pointed.
    expect(d.last_error).toBe(`a redirect (302) to ${receiver.url}/target, which is not followed`);
    expect(d.state).toBe('pending');
    expect(receiver.received.filter((r) => r.path === '/target')).toEqual([]);
  });
});

describe('endpoints', () => {
  it('rotating the secret: both sign for 24 hours, then only the new one', async () => {
    c = await collector();
    const { id, secret: old } = await endpoint('/rotate', ['partnership.created']);
    const rotated = await c.call('POST', `/v1/webhook_endpoints/${id}/rotate_secret`);
    const fresh = rotated.body.data.attributes.secret as string;
    expect(fresh).not.toBe(old);
    expect(rotated.body.data.attributes.previous_secret_until).toBe(c.clock.now + 86_400);
    expect((await c.call('GET', `/v1/webhook_endpoints/${id}`)).body.data.attributes.secret).toBeUndefined();
    await seedPartner(c);
    const [during] = await receiver.waitFor(1, '/rotate');
    expect(signedBy(old, during!)).toBe(true);
    expect(signedBy(fresh, during!)).toBe(true);
    c.clock.now += 86_401;
    await seedPartner(c);
    const after = (await receiver.waitFor(2, '/rotate'))[1]!;
    expect(signedBy(fresh, after)).toBe(true);
    expect(signedBy(old, after)).toBe(false);
  });

  it('resend makes a new delivery of the same event', async () => {
    c = await collector();
    const { id } = await endpoint('/again', ['partnership.created']);
    await seedPartner(c);
    const first = await attempted(id, 1);
    const again = await c.call('POST', `/v1/webhook_deliveries/${first.id}/resend`);
    expect(again.status).toBe(201);
    const both = await receiver.waitFor(2, '/again');
    expect(both[1]!.headers['webhook-id']).toBe(both[0]!.headers['webhook-id']);
  });

  it("another program's endpoint, delivery or event is 404", async () => {
    c = await collector();
    const { id } = await endpoint('/mine', ['partnership.created']);
    await seedPartner(c);
    const d = await attempted(id, 1);
    const [event] = (await c.call('GET', '/v1/events')).body.data;
    const other = await c.otherProgram();
    for (const path of [
      `/v1/webhook_endpoints/${id}`,
      `/v1/webhook_endpoints/${id}/deliveries`,
      `/v1/webhook_deliveries/${d.id}`,
      `/v1/events/${event.id}`,
    ]) {
      expect((await c.call('GET', path, { token: other.secret })).status).toBe(404);
    }
    expect((await c.call('POST', `/v1/webhook_deliveries/${d.id}/resend`, { token: other.secret })).status).toBe(404);
    expect((await c.call('GET', '/v1/events', { token: other.secret })).body.data).toEqual([]);
  });

  it('events older than 30 days are not listed', async () => {
    c = await collector();
    await seedPartner(c);
    const [event] = (await c.call('GET', '/v1/events')).body.data;
    c.clock.now += 30 * 86_400 + 1;
    expect((await c.call('GET', '/v1/events')).body.data).toEqual([]);
    expect((await c.call('GET', `/v1/events/${event.id}`)).status).toBe(404);
  });
});

describe('addresses a webhook may not reach', () => {
  const answers = new Map<string, string[]>();
  const resolve = async (host: string): Promise<LookupAddress[]> => {
    const list = answers.get(host);
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    const address = list.length > 1 ? list.shift()! : list[0]!;
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };

  it('refuses loopback, private, link-local and metadata addresses, by literal or by name, and plain http', async () => {
    c = await collector({ allowHttp: false, allowPrivate: false, timeoutMs: 1000, resolve });
    answers.set('inside.example', ['10.0.0.1']);
    answers.set('local.example', ['::1']);
    answers.set('mapped.example', ['::ffff:127.0.0.1']);
    answers.set('compat.example', ['::7f00:1']);
    answers.set('hexmapped.example', ['::ffff:a00:1']);
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/hook',
      'https://inside.example/hook',
      'https://local.example/hook',
      'https://mapped.example/hook',
      'https://compat.example/hook',
      'https://hexmapped.example/hook',
      'https://[::127.0.0.1]/hook',
      'https://2130706433/hook',
      'https://0x7f.1/hook',
      'https://[fd00:ec2::254]/hook',
      'http://public.example/hook',
      'https://user:pass@public.example/hook',
      'not a url',
    ]) {
      const made = await c.call('POST', '/v1/webhook_endpoints', { body: { url } });
      expect(made.status, url).toBe(422);
      expect(made.body.errors[0].source.pointer).toBe('/url');
    }
    answers.set('public.example', ['93.184.216.34']);
    expect((await c.call('POST', '/v1/webhook_endpoints', { body: { url: 'https://public.example/hook' } })).status).toBe(201);
    // Not resolving yet: accepted, and checked when sent.
    expect((await c.call('POST', '/v1/webhook_endpoints', { body: { url: 'https://later.example/hook' } })).status).toBe(201);
  });

  it('refuses IPv6 that is site-local, documentation, benchmarking, Teredo, ORCHID or SRv6, or carries IPv4; takes global unicast', async () => {
    c = await collector({ allowHttp: false, allowPrivate: false, timeoutMs: 1000, resolve });
    const refused = [
      'fec0::1', // site-local, deprecated (RFC 3879), still routed inside some networks
      'feff:ffff::1',
      '3fff::1', // documentation (RFC 9637), beside 2001:db8::/32
      '2001:db8::1',
      '2001:2::1', // benchmarking
      '2001::1', // Teredo: IPv4 in a UDP tunnel
      '2001:10::1', // ORCHID, ORCHIDv2: identifiers, never hosts
      '2001:2f::1',
      '5f00::1', // SRv6 segment identifiers
      '100::1', // discard-only
      '64:ff9b::a00:1', // NAT64 of 10.0.0.1
      '2002:a00:1::1', // 6to4 of 10.0.0.1
      '::ffff:a9fe:a9fe', // IPv4-mapped 169.254.169.254
    ];
    const taken: string[] = [];
    for (const [i, address] of refused.entries()) {
      answers.set(`v6-${i}.example`, [address]);
      for (const url of [`https://[${address}]/hook`, `https://v6-${i}.example/hook`]) {
        const made = await c.call('POST', '/v1/webhook_endpoints', { body: { url } });
        if (made.status !== 422 || made.body.errors[0].source.pointer !== '/url') taken.push(`${url} (${address})`);
      }
    }
    expect(taken).toEqual([]);
    for (const address of ['2a00:1450:4001:81a::200e', '2001:4860:4860::8888', '2606:4700::1111', '2001:200::1']) {
      expect((await c.call('POST', '/v1/webhook_endpoints', { body: { url: `https://[${address}]/hook` } })).status, address).toBe(201);
    }
  });

  it('checks the address again when sending: a DNS answer that changes to 127.0.0.1 is refused', async () => {
    c = await collector({ allowHttp: true, allowPrivate: false, timeoutMs: 1000, resolve });
    const port = new URL(receiver.url).port;
    answers.set('rebind.example', ['93.184.216.34', '127.0.0.1']);
    const made = await c.call('POST', '/v1/webhook_endpoints', {
      body: { url: `http://rebind.example:${port}/rebind`, event_types: ['partnership.created'] },
    });
    expect(made.status).toBe(201);
    await seedPartner(c);
    const d = await attempted(made.body.data.id, 1);
    expect(d.attempt_log[0].error).toMatch(/resolves to 127\.0\.0\.1/);
    expect(d.state).toBe('pending');
    expect(receiver.received.filter((r) => r.path === '/rebind')).toEqual([]);
  });
});
