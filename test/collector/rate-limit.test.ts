// Rate limits: per secret token on every route, per publishable token and client address,
// per client address on /v1/tracking/*, and failed authentications per address, with 429
// rate_limited, Retry-After and RateLimit-* headers; X-Forwarded-For only with TRUST_PROXY.
// IPv6 clients count per /64; counters hold a bounded number of keys.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../packages/collector/src/platform/config.js';
import { generateToken } from '../../packages/collector/src/modules/tokens/service.js';
import type { RateLimits } from '../../packages/collector/src/platform/http/rate-limit.js';
import { expectError, startCollector, T0, type Collector } from './harness.js';

let c: Collector | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

async function start(limits: Partial<RateLimits>) {
  c = await startCollector({ limits: { perToken: 0, perIp: 0, authFailures: 0, trustProxy: 0, ...limits } });
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
    expect((await col.call('POST', '/v1/tracking/click', { token: 'tly_pub_bad', body: {} })).status).toBe(401);
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

const from = (address: string) => ({ 'x-forwarded-for': address });

describe('publishable tokens: per client address, never per token alone', () => {
  it("ten addresses at the token's limit leave every other visitor of the program untouched", async () => {
    const col = await start({ perToken: 5, trustProxy: 1 });
    for (let a = 0; a < 10; a++) {
      for (let i = 0; i < 5; i++) expect((await click(col, from(`203.0.113.${a}`))).status).toBe(OK);
    }
    expectError(await click(col, from('203.0.113.0')), 429, 'rate_limited');
    expectError(await click(col, from('203.0.113.9')), 429, 'rate_limited');
    // A visitor the flood never touched.
    expect((await click(col, from('198.51.100.1'))).status).toBe(OK);
  });

  it('secret tokens keep their limit per token, from whatever address', async () => {
    const col = await start({ perToken: 3, trustProxy: 1 });
    for (let a = 0; a < 3; a++) expect((await col.call('GET', '/v1/partners', { headers: from(`203.0.113.${a}`) })).status).toBe(200);
    expectError(await col.call('GET', '/v1/partners', { headers: from('198.51.100.1') }), 429, 'rate_limited');
  });

  it('an IPv6 client counts as its /64, and an IPv4-mapped address as the IPv4 one', async () => {
    const col = await start({ perIp: 2, trustProxy: 1 });
    expect((await click(col, from('2001:db8:1:2::a'))).status).toBe(OK);
    expect((await click(col, from('2001:DB8:1:2:ffff:ffff:ffff:b'))).status).toBe(OK);
    expectError(await click(col, from('2001:db8:1:2::c')), 429, 'rate_limited');
    expect((await click(col, from('2001:db8:1:3::a'))).status).toBe(OK);
    expect((await click(col, from('::ffff:203.0.113.9'))).status).toBe(OK);
    expect((await click(col, from('203.0.113.9'))).status).toBe(OK);
    expectError(await click(col, from('::ffff:cb00:7109')), 429, 'rate_limited'); // 203.0.113.9 in hex
  });
});

describe('failed authentications per client address', () => {
  it('once over, every /v1 route refuses that address with 429 before looking the token up; other addresses are untouched', async () => {
    const col = await start({ authFailures: 3, trustProxy: 1 });
    const db = col.running.db;
    const lookups = vi.spyOn(db, 'get');
    const tokenLookups = () => lookups.mock.calls.filter(([sql]) => /FROM tokens/.test(sql)).length;
    const unknown = generateToken('secret'); // a valid checksum, so only the database can refuse it
    for (let i = 0; i < 3; i++) {
      expectError(await col.call('GET', '/v1/partners', { token: unknown, headers: from('203.0.113.7') }), 401, 'unauthorized');
    }
    expect(tokenLookups()).toBe(3);
    for (const [method, path] of [
      ['GET', '/v1/partners'],
      ['GET', '/v1/commissions'],
      ['POST', '/v1/tracking/click'],
    ] as const) {
      const refused = await col.call(method, path, {
        token: unknown,
        headers: from('203.0.113.7'),
        ...(method === 'POST' ? { body: {} } : {}),
      });
      expectError(refused, 429, 'rate_limited');
      expect(refused.headers.get('retry-after')).toBe('50');
    }
    // The known token is refused from that address too: it cannot be told apart without a lookup.
    expectError(await col.call('GET', '/v1/partners', { headers: from('203.0.113.7') }), 429, 'rate_limited');
    expect(tokenLookups()).toBe(3);
    // Another address: its own count.
    expect((await col.call('GET', '/v1/partners', { headers: from('198.51.100.1') })).status).toBe(200);
    expectError(await col.call('GET', '/v1/partners', { token: unknown, headers: from('198.51.100.1') }), 401, 'unauthorized');
    // Requests with no token, or a malformed one, cost no lookup and count for nothing: a
    // client behind the same address (a NAT) is not locked out by someone else's mistakes.
    for (let i = 0; i < 5; i++) {
      expectError(await col.call('GET', '/v1/partners', { token: null, headers: from('198.51.100.1') }), 401, 'unauthorized');
      expectError(await col.call('GET', '/v1/partners', { token: 'tly_sec_typo', headers: from('198.51.100.1') }), 401, 'unauthorized');
    }
    expect((await col.call('GET', '/v1/partners', { headers: from('198.51.100.1') })).status).toBe(200);
    // Next minute, the address may try again.
    col.clock.now += 50;
    expectError(await col.call('GET', '/v1/partners', { token: unknown, headers: from('203.0.113.7') }), 401, 'unauthorized');
  });
});

describe('failed authentications with embed tokens', () => {
  it('wrong embed tokens, traded or on the page, count as wrong tokens and passwords do: then 429 before any lookup', async () => {
    const col = await start({ authFailures: 3, trustProxy: 1 });
    const lookups = vi.spyOn(col.running.db, 'get');
    const embedLookups = () => lookups.mock.calls.filter(([sql]) => /FROM embed_tokens/.test(sql)).length;
    const trade = (address: string) =>
      col.call('POST', '/v1/embed/sessions', { token: null, body: { token: `emb_guess${address}` }, headers: from(address) });
    const page = (address: string) => fetch(`${col.url}/embed/?token=emb_guess`, { headers: from(address) });
    const signIn = (address: string) =>
      col.call('POST', '/v1/auth/sign_in', {
        token: null,
        body: { email: 'owner@example.com', password: 'not the password' },
        headers: from(address),
      });
    // One address guesses embed tokens to trade, one guesses them on the page, one guesses passwords.
    for (let i = 0; i < 3; i++) {
      expectError(await trade('203.0.113.1'), 401, 'unauthorized');
      expect((await page('203.0.113.2')).headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect((await signIn('203.0.113.3')).status).toBe(401);
    }
    const looked = embedLookups();
    for (const address of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      for (const refused of [
        await trade(address),
        await signIn(address),
        await col.call('GET', '/v1/partners', { headers: from(address) }),
      ]) {
        expectError(refused, 429, 'rate_limited');
        expect(refused.headers.get('retry-after')).toBe('50');
      }
      const framed = await page(address);
      expect(framed.status).toBe(429);
      expect((await framed.json()).errors[0].code).toBe('rate_limited');
    }
    expect(embedLookups()).toBe(looked);
    // Another address is untouched.
    expectError(await trade('198.51.100.1'), 401, 'unauthorized');
  });
});

describe('failed authentications when the table is full', () => {
  it('a flood of failures from new addresses never refuses a client that has not failed', async () => {
    const col = await start({ authFailures: 2, trustProxy: 1, maxKeys: 3 });
    const unknown = generateToken('secret');
    for (let a = 1; a <= 10; a++) {
      expectError(await col.call('GET', '/v1/partners', { token: unknown, headers: from(`192.0.2.${a}`) }), 401, 'unauthorized');
    }
    // The table is full and the overflow count far over the limit: an address that never
    // failed still gets in with its valid token.
    expect((await col.call('GET', '/v1/partners', { headers: from('198.51.100.77') })).status).toBe(200);
  });
});

describe('memory under a flood of addresses', () => {
  it('each counter holds a bounded number of keys a minute; addresses beyond share one overflow count', async () => {
    const col = await start({ perIp: 2, trustProxy: 1, maxKeys: 5 });
    for (let a = 1; a <= 5; a++) expect((await click(col, from(`10.0.0.${a}`))).status).toBe(OK);
    // The table is full: the next addresses share one count.
    expect((await click(col, from('10.0.0.6'))).status).toBe(OK);
    expect((await click(col, from('10.0.0.7'))).status).toBe(OK);
    expectError(await click(col, from('10.0.0.8')), 429, 'rate_limited');
    // Addresses already counted keep their own count.
    expect((await click(col, from('10.0.0.1'))).status).toBe(OK);
    expectError(await click(col, from('10.0.0.1')), 429, 'rate_limited');
    // A new minute empties the table.
    col.clock.now += 50;
    expect((await click(col, from('10.0.0.8'))).status).toBe(OK);
  });
});

describe('configuration', () => {
  it('defaults to 6000 a minute per token, 600 per IP, 10 applications an hour, and no trusted proxy; each is set by environment', () => {
    expect(loadConfig({}).limits).toEqual({ perToken: 6000, perIp: 600, authFailures: 60, applicationsPerHour: 10, trustProxy: 0 });
    expect(
      loadConfig({
        RATE_LIMIT_TOKEN: '0',
        RATE_LIMIT_IP: '30',
        RATE_LIMIT_AUTH_FAILURES: '5',
        RATE_LIMIT_APPLICATIONS: '2',
        TRUST_PROXY: '1',
      }).limits,
    ).toEqual({
      perToken: 0,
      perIp: 30,
      authFailures: 5,
      applicationsPerHour: 2,
      trustProxy: 1,
    });
    expect(() => loadConfig({ RATE_LIMIT_AUTH_FAILURES: 'x' })).toThrow(/RATE_LIMIT_AUTH_FAILURES/);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ RATE_LIMIT_IP: '-1' })).toThrow(/RATE_LIMIT_IP/);
  });
});
