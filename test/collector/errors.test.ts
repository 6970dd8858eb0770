// One error shape for every failure, and a 5xx that shows nothing internal.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

describe('routing errors', () => {
  it('an unknown route gets 404 not_found', async () => {
    for (const path of ['/v1/nothing', '/v2/partners', '/', '/v1/partners/x/y']) {
      expectError(await c.call('GET', path), 404, 'not_found');
    }
  });

  it('an unknown record gets 404 not_found', async () => {
    for (const route of ['partners', 'partnerships', 'commissions', 'referrals']) {
      expectError(await c.call('GET', `/v1/${route}/01900000-0000-7000-8000-000000000000`), 404, 'not_found');
      expectError(await c.call('GET', `/v1/${route}/not-a-uuid`), 404, 'not_found');
    }
  });

  it('a known path with another method gets 405 method_not_allowed and an Allow header', async () => {
    const cases: Array<[string, string, string[]]> = [
      ['PUT', '/v1/partners', ['GET', 'POST']],
      ['DELETE', '/v1/commissions', ['GET']],
      ['GET', '/v1/tracking/conversion', ['POST', 'OPTIONS']],
      ['DELETE', '/v1/partnerships/01900000-0000-7000-8000-000000000000', ['GET', 'PATCH']],
    ];
    for (const [method, path, allowed] of cases) {
      const reply = await c.call(method, path);
      expectError(reply, 405, 'method_not_allowed');
      const allow = String(reply.headers.get('allow')).split(/, */);
      for (const m of allowed) expect(allow).toContain(m);
      expect(allow).not.toContain(method);
    }
  });

  it('an unusual method is 405, never a 5xx', async () => {
    const res = await fetch(`${c.url}/v1/partners`, { method: 'PROPFIND', headers: { authorization: `Bearer ${c.secret}` } });
    expect(res.status).toBe(405);
  });
});

describe('request ids', () => {
  it('every response carries X-Request-Id, and a sane incoming one is echoed', async () => {
    const fresh = await c.call('GET', '/v1/partners');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await c.call('GET', '/v1/nothing', { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    const tooLong = await c.call('GET', '/v1/partners', { headers: { 'x-request-id': 'x'.repeat(129) } });
    expect(tooLong.headers.get('x-request-id')).not.toBe('x'.repeat(129));
    const spaced = await c.call('GET', '/v1/partners', { headers: { 'x-request-id': 'a b' } });
    expect(spaced.headers.get('x-request-id')).not.toBe('a b');
  });
});

describe('5xx', () => {
  it('an unexpected failure is a 500 with the request id and nothing internal', async () => {
    // Closing the database under the running app makes every query throw an internal error.
    await c.running.db.close();
    const reply = await c.call('GET', '/v1/partners', { headers: { 'x-request-id': 'req-500' } });
    const err = expectError(reply, 500, 'internal_error');
    expect(err.meta).toEqual({ request_id: 'req-500' });
    expect(reply.headers.get('x-request-id')).toBe('req-500');
    const text = JSON.stringify(reply.body);
    for (const leak of ['database', 'sqlite', 'Error', 'at ', '.ts', 'stack']) expect(text).not.toContain(leak);
  });
});
