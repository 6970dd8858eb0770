// What Settings → Integrations tells an owner testing a billing platform, on both engines:
// that a local PUBLIC_URL is one no platform can post to (and how to test anyway), how to
// send a test event, and when the last event arrived and whether it verified, a refused
// delivery included; one program's deliveries never show in another's.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLocalUrl } from '../../packages/collector/src/flows/billing-connect.js';
import { startCollector, type Collector } from './harness.js';
import { checkoutSession, newSecret, postEvent, stripeEvent, stripeId } from './stripe-fixtures.js';

type Json = Record<string, any>;

let c: Collector;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(() => c.close());

const connection = async (token: string, platform: string): Promise<Json> => {
  const got = await c.call('GET', `/v1/integrations/${platform}`, { token });
  expect(got.status).toBe(200);
  return got.body.data.attributes;
};

describe('a local PUBLIC_URL', () => {
  it('is localhost, *.localhost, 127.0.0.0/8 or ::1, however written; any other host is not', () => {
    for (const url of [
      'http://localhost:8787/v1/x',
      'http://LOCALHOST./v1/x',
      'https://tally.localhost/v1/x',
      'http://127.0.0.1:8787/v1/x',
      'http://127.3.2.1/v1/x',
      'http://127.1/v1/x',
      'http://[::1]:8787/v1/x',
      'http://[0:0:0:0:0:0:0:1]/v1/x',
    ]) {
      expect(isLocalUrl(url), url).toBe(true);
    }
    for (const url of [
      'https://tally.example.com/v1/x',
      'http://128.0.0.1/v1/x',
      'http://localhost.example.com/v1/x',
      'http://[::2]/v1/x',
    ]) {
      expect(isLocalUrl(url), url).toBe(false);
    }
  });

  it('is said on each platform, with how its events reach this machine and how to send a test one', async () => {
    const p = await c.otherProgram();
    const stripe = await connection(p.secret, 'stripe');
    expect(stripe.endpoint_url).toMatch(/^http:\/\/localhost:8787\//);
    expect(stripe.endpoint_local).toBe(true);
    expect(stripe.local_test).toContain(`stripe listen --forward-to ${stripe.endpoint_url} --events ${stripe.events.join(',')}`);
    expect(stripe.test_event).toContain('stripe trigger checkout.session.completed');
    const paddle = await connection(p.secret, 'paddle');
    expect(paddle.local_test).toMatch(/^Paddle cannot reach this address: open a tunnel/);
    expect(paddle.test_event).toContain('Simulations');
    const ls = await connection(p.secret, 'lemonsqueezy');
    expect(ls.local_test).toContain(new URL(ls.endpoint_url).pathname);
    expect(ls.test_event).toContain('test mode');
    const cb = await connection(p.secret, 'chargebee');
    expect(cb.local_test).toMatch(/^Chargebee cannot reach this address: open a tunnel/);
    expect(cb.test_event).toContain('Test Webhook');
    const shopify = await connection(p.secret, 'shopify');
    expect(shopify.local_test).toMatch(/^Shopify cannot reach this address: open a tunnel/);
    expect(shopify.test_event).toContain('Send test');
  });
});

describe("the last event's arrival", () => {
  it('is none at first, then a refused delivery with its reason, then a verified event with its type; never another program’s', async () => {
    const p = await c.otherProgram();
    const other = await c.otherProgram();
    const secret = newSecret();
    const added = await c.call('POST', '/v1/integrations/stripe/secrets', { token: p.secret, body: { secret } });
    expect(added.status).toBe(201);
    const url = c.url + new URL(added.body.meta.endpoint_url).pathname;
    expect((await connection(p.secret, 'stripe')).last_event).toBeNull();

    const event = stripeEvent('checkout.session.completed', checkoutSession({ customer: stripeId('cus') }), { created: c.clock.now });
    const wrong = await postEvent(url, event, newSecret(), { timestamp: c.clock.now });
    expect(wrong.status).toBe(400);
    expect((await connection(p.secret, 'stripe')).last_event).toEqual({
      received_at: c.clock.now,
      verified: false,
      type: null,
      reason: wrong.body.errors[0].detail,
    });
    expect(wrong.body.errors[0].detail).toMatch(/Stripe-Signature header matches no/);

    const right = await postEvent(url, { ...event, created: c.clock.now }, secret, { timestamp: c.clock.now });
    expect(right.status).toBe(200);
    expect((await connection(p.secret, 'stripe')).last_event).toEqual({
      received_at: c.clock.now,
      verified: true,
      type: 'checkout.session.completed',
      reason: null,
    });
    // The other platforms' and the other program's cards saw nothing.
    expect((await connection(p.secret, 'paddle')).last_event).toBeNull();
    expect((await connection(other.secret, 'stripe')).last_event).toBeNull();

    // A refusal after the verified event is the newer news.
    c.clock.now += 60;
    expect((await postEvent(url, event, secret, { timestamp: c.clock.now, header: null })).status).toBe(400);
    const last = (await connection(p.secret, 'stripe')).last_event;
    expect(last).toMatchObject({ received_at: c.clock.now, verified: false, type: null });
    expect(last.reason).toMatch(/no Stripe-Signature header/);
  });
});
