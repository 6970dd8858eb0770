// One error shape for every failure, and a 5xx that shows nothing internal.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rawExchange } from './edge.js';
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
    for (const path of ['/v1/nothing', '/v2/partners', '/nothing', '/v1/partners/x/y']) {
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

describe("errors before the app: what Node's HTTP parser refuses", () => {
  const port = () => Number(new URL(c.url).port);
  /** The reply to raw bytes, which must be one whole HTTP/1.1 answer in the error shape, then closed. */
  async function refused(bytes: string, status: number, code: string) {
    const reply = await rawExchange(port(), [bytes], 5000);
    expect(reply.closedAfterMs, 'the server closes the connection (-1: it did not)').toBeGreaterThanOrEqual(0);
    expect(reply.status, reply.text.slice(0, 200)).toBe(status);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.headers.connection).toBe('close');
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body, 'latin1'));
    expect(reply.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    const body = JSON.parse(reply.body);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({ status: String(status), code });
    expect(body.errors[0].title.length).toBeGreaterThan(0);
    expect(body.errors[0].detail.length).toBeGreaterThan(0);
    // Nothing of what was sent comes back.
    expect(reply.body).not.toContain('secret-marker');
    return body.errors[0];
  }

  it('a header over 16 KiB is 431 headers_too_large', async () => {
    await refused(`GET /v1/partners HTTP/1.1\r\nHost: x\r\nX-Pad: secret-marker${'a'.repeat(17 * 1024)}\r\n\r\n`, 431, 'headers_too_large');
  });

  it('a query string with too many parameters is 431 headers_too_large', async () => {
    await refused(`GET /v1/partners?${'state_eq=secret-marker&'.repeat(1000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'headers_too_large');
  });

  it.each([
    ['a request line that is no HTTP', 'secret-marker\r\n\r\n'],
    ['a header without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nsecret-marker\r\n\r\n'],
    ['a space in a header name', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Name: secret-marker\r\n\r\n'],
    ['two Content-Length values', 'POST /v1/partners HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}'],
    [
      'a bad chunk size',
      'POST /v1/tracking/click HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nsecret-marker\r\n0\r\n\r\n',
    ],
  ])('%s is 400 bad_request', async (_name, bytes) => {
    await refused(bytes, 400, 'bad_request');
  });

  it('the server goes on answering afterwards', async () => {
    await refused('secret-marker\r\n\r\n', 400, 'bad_request');
    expect((await c.call('GET', '/healthz')).status).toBe(200);
  });
});
