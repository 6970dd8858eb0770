// Rate limits: per token on every route, per client IP on /v1/tracking/*, with 429
// rate_limited, Retry-After and RateLimit-* headers; X-Forwarded-For only with TRUST_PROXY.

import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../packages/collector/src/config.js';
import type { RateLimits } from '../../packages/collector/src/http/rate-limit.js';
import { expectError, startCollector, T0, type Collector } from './harness.js';

let c: Collector | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

async function start(limits: Partial<RateLimits>) {
  c = await startCollector({ limits: { perToken: 0, perIp: 0, trustProxy: 0, ...limits } });
  c.clock.now = T0 + 10; // 50 s left in the minute
  return c;
}

/** A click for an unknown slug: 422 when let through, 429 when limited. */
const click = (col: Collector, headers: Record<string, string> = {}) =>
  col.call('POST', '/v1/tracking/click', { token: col.publishable, body: { gr_id: 'g', pk: 'nobody' }, headers });
const OK = 422;

describe('per token', () => {
  it('answers 429 rate_limited with Retry-After and RateLimit-* once a token is over its limit, and again next minute', async () => {
    const col = await start({ perToken: 3 });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const ok = await col.call('GET', '/v1/partners');
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit-limit')).toBe('3');
      remaining.push(ok.headers.get('ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await col.call('GET', '/v1/partners');
    const err = expectError(refused, 429, 'rate_limited');
    expect(err.detail).toMatch(/3 requests a minute/);
    expect(refused.headers.get('retry-after')).toBe('50');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-reset')).toBe('50');
    // Another token of the same program has its own count.
    expect((await col.call('POST', '/v1/tracking/click', { token: col.publishable, body: { gr_id: 'g', pk: 'x' } })).status).not.toBe(429);
    col.clock.now += 50;
    expect((await col.call('GET', '/v1/partners')).status).toBe(200);
  });
});

describe('per client IP on /v1/tracking/*', () => {
  it('limits the tracking routes by IP, not the others, and counts a bad token too', async () => {
    const col = await start({ perIp: 2 });
    expect((await click(col)).status).toBe(OK);
    expect(
      (await col.call('POST', '/v1/tracking/click', { token: 'tly_pub_bad', body: {} })).status,
    ).toBe(401);
    expectError(await click(col), 429, 'rate_limited');
    expect((await col.call('GET', '/v1/partners')).status).toBe(200);
  });

  it('without TRUST_PROXY a forged X-Forwarded-For cannot get around the limit', async () => {
    const col = await start({ perIp: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await click(col, { 'x-forwarded-for': `10.0.0.${i}` })).status);
    expect(statuses).toEqual([OK, OK, 429, 429]);
  });

  it('with TRUST_PROXY=1 the address the proxy appended counts, not what the client put before it', async () => {
    const col = await start({ perIp: 2, trustProxy: 1 });
    // The same client forges a new leftmost entry each time; the proxy appends its real address.
    const forged = [];
    for (let i = 0; i < 3; i++) forged.push((await click(col, { 'x-forwarded-for': `10.0.0.${i}, 203.0.113.7` })).status);
    expect(forged).toEqual([OK, OK, 429]);
    // Another client behind the same proxy has its own count.
    expect((await click(col, { 'x-forwarded-for': '198.51.100.9' })).status).toBe(OK);
  });

  it('with TRUST_PROXY=2 the second entry from the right is the client', async () => {
    const col = await start({ perIp: 1, trustProxy: 2 });
    expect((await click(col, { 'x-forwarded-for': 'forged, 203.0.113.7, 10.1.1.1' })).status).toBe(OK);
    expect((await click(col, { 'x-forwarded-for': 'other, 203.0.113.7, 10.1.1.2' })).status).toBe(429);
    expect((await click(col, { 'x-forwarded-for': '203.0.113.8, 10.1.1.1' })).status).toBe(OK);
  });
});

describe('configuration', () => {
  it('defaults to 6000 a minute per token, 600 per IP, and no trusted proxy; each is set by environment', () => {
    expect(loadConfig({}).limits).toEqual({ perToken: 6000, perIp: 600, trustProxy: 0 });
    expect(loadConfig({ RATE_LIMIT_TOKEN: '0', RATE_LIMIT_IP: '30', TRUST_PROXY: '1' }).limits).toEqual({
      perToken: 0,
      perIp: 30,
      trustProxy: 1,
    });
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ RATE_LIMIT_IP: '-1' })).toThrow(/RATE_LIMIT_IP/);
  });
});
