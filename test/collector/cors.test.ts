// CORS exists only on /v1/tracking/* (docs/api.md §4).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, PUBLIC_URL, seedPartner, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

const preflight = (path: string, origin: string) =>
  fetch(c.url + path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });

describe('preflight', () => {
  it.each(['/v1/tracking/conversion', '/v1/tracking/click'])('%s answers any origin with 204', async (path) => {
    const res = await preflight(path, 'https://anywhere.example');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://anywhere.example');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
    expect(res.headers.get('access-control-max-age')).toBe('7200');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });

  it('list routes answer no preflight: 405 in the error shape, no CORS headers', async () => {
    const res = await preflight('/v1/partners', PUBLIC_URL);
    expect(res.status).toBe(405);
    expect(((await res.json()) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe('method_not_allowed');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
  });
});

describe('POST from a browser', () => {
  it('an allowed origin gets Access-Control-Allow-Origin on success', async () => {
    const { key } = await seedPartner(c);
    const reply = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      headers: { origin: PUBLIC_URL },
      body: { email: 'a@b.test', gr_id: 'g', pk: key },
    });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('access-control-allow-origin')).toBe(PUBLIC_URL);
    expect(reply.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(reply.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('an allowed origin gets Access-Control-Allow-Origin on an error too, so the page can read it', async () => {
    for (const body of [
      { email: 'nope', gr_id: 'g' },
      { email: 'a@b.test', gr_id: 'g', pk: 'unknown' },
    ]) {
      const reply = await c.call('POST', '/v1/tracking/conversion', {
        token: c.publishable,
        headers: { origin: PUBLIC_URL },
        body,
      });
      expect(reply.status).toBe(422);
      expect(reply.headers.get('access-control-allow-origin')).toBe(PUBLIC_URL);
    }
    const malformed = await c.call('POST', '/v1/tracking/click', {
      token: c.publishable,
      headers: { origin: PUBLIC_URL, 'content-type': 'application/json' },
      raw: '{',
    });
    expectError(malformed, 400, 'malformed_json');
    expect(malformed.headers.get('access-control-allow-origin')).toBe(PUBLIC_URL);
  });

  it('an origin outside the list gets 403 origin_not_allowed (a secret token, secret_token_in_browser), and nothing is stored', async () => {
    const { key } = await seedPartner(c);
    for (const [token, code] of [
      [c.publishable, 'origin_not_allowed'],
      [c.secret, 'secret_token_in_browser'],
    ] as const) {
      for (const origin of ['https://evil.example', 'http://localhost:8788', 'null', 'http://LOCALHOST:8787.evil']) {
        const reply = await c.call('POST', '/v1/tracking/conversion', {
          token,
          headers: { origin },
          body: { email: 'a@b.test', gr_id: 'g', pk: key },
        });
        expectError(reply, 403, code);
        expect(reply.headers.get('access-control-allow-origin')).toBeNull();
      }
    }
    expect((await c.call('GET', '/v1/referrals')).body.data).toEqual([]);
  });

  it('a request with no Origin is a server-to-server call and is allowed', async () => {
    const { key } = await seedPartner(c);
    const reply = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'a@b.test', gr_id: 'g', pk: key },
    });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("program B's origins do not open program A", async () => {
    const b = await c.otherProgram(); // allowed origin: https://other.example
    const { key } = await seedPartner(c);
    const reply = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      headers: { origin: 'https://other.example' },
      body: { email: 'a@b.test', gr_id: 'g', pk: key },
    });
    const err = expectError(reply, 403, 'origin_not_allowed');
    expect(b.id).not.toBe(c.programId);
    // It says where to allow it: the dashboard's field, and the command.
    expect(err.detail).toBe(
      'origin https://other.example is not allowed for this program: add it under Settings → Program → Allowed origins in the ' +
        'dashboard, or with npx tally programs update <program id> --add-origin https://other.example',
    );
  });
});

describe('no CORS anywhere else', () => {
  // A browser can only call these with a secret token, which is refused there (auth.test.ts).
  it.each(['/v1/partners', '/v1/commissions', '/v1/partnerships', '/v1/referrals'])('%s', async (path) => {
    const reply = await c.call('GET', path, { headers: { origin: PUBLIC_URL } });
    expectError(reply, 403, 'secret_token_in_browser');
    for (const [name] of reply.headers) expect(name.startsWith('access-control-')).toBe(false);
  });
});
