// Tokens and tenancy (docs/api.md §2, §3).

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../../packages/collector/src/app.js';
import { generateToken, hashToken, tokenKind } from '../../packages/collector/src/modules/tokens/service.js';
import { DEMO_TOKENS_KEPT, demoToken } from '../../packages/collector/src/flows/program.js';
import { contents, ENGINE } from './database.js';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

const concrete = (path: string) => path.replace(':id', '01900000-0000-7000-8000-000000000000');

describe('token format', () => {
  it('is the prefix, 32 base62 characters and a 6-character checksum', () => {
    for (const kind of ['secret', 'publishable'] as const) {
      const token = generateToken(kind);
      expect(token).toMatch(kind === 'secret' ? /^tly_sec_[0-9A-Za-z]{38}$/ : /^tly_pub_[0-9A-Za-z]{38}$/);
      expect(tokenKind(token)).toBe(kind);
    }
  });

  it('refuses a token whose checksum does not match, whatever character changed', () => {
    const token = generateToken('secret');
    for (let i = 8; i < token.length; i++) {
      const ch = token[i] === 'a' ? 'b' : 'a';
      expect(tokenKind(token.slice(0, i) + ch + token.slice(i + 1))).toBeUndefined();
    }
    expect(tokenKind(token.replace('tly_sec_', 'tly_pub_'))).toBeUndefined();
  });
});

describe('401 unauthorized', () => {
  const shapes: Array<[string, Record<string, string>]> = [
    ['no Authorization header', {}],
    ['an empty header', { authorization: '' }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['Bearer with nothing', { authorization: 'Bearer ' }],
    ['a malformed token', { authorization: 'Bearer tly_sec_short' }],
  ];
  it.each(shapes)('%s', async (_name, headers) => {
    const reply = await c.call('GET', '/v1/partners', { token: null, headers });
    expectError(reply, 401, 'unauthorized');
    expect(reply.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('a well-formed token with a valid checksum that was never issued', async () => {
    const err = expectError(await c.call('GET', '/v1/partners', { token: generateToken('secret') }), 401, 'unauthorized');
    // It says where a working token comes from.
    expect(err.detail).toBe(
      'this token is unknown or revoked: use the secret token the first start printed, or make one under ' +
        'Settings → API tokens in the dashboard (npx tally tokens create --program ID --kind secret)',
    );
    const none = expectError(await c.call('GET', '/v1/partners', { token: null }), 401, 'unauthorized');
    expect(none.detail).toBe('a token is required: send Authorization: Bearer <secret token>, or sign in to the dashboard');
  });

  it('a token with a broken checksum', async () => {
    const broken = c.secret.slice(0, -1) + (c.secret.endsWith('A') ? 'B' : 'A');
    expectError(await c.call('GET', '/v1/partners', { token: broken }), 401, 'unauthorized');
  });

  it('a token in the query string is never read', async () => {
    const reply = await c.call('GET', `/v1/partners?access_token=${c.secret}`, { token: null });
    expectError(reply, 401, 'unauthorized');
  });

  it('accepts the scheme in any case', async () => {
    const reply = await c.call('GET', '/v1/partners', { token: null, headers: { authorization: `bearer ${c.secret}` } });
    expect(reply.status).toBe(200);
  });
});

describe('publishable tokens', () => {
  it('are refused with 403 forbidden on every route but tracking', async () => {
    const routes = ROUTES.filter((r) => r.access === 'secret');
    expect(routes.length).toBeGreaterThanOrEqual(13);
    for (const r of routes) {
      const reply = await c.call(r.method.toUpperCase(), concrete(r.path), {
        token: c.publishable,
        ...(r.body ? { body: {} } : {}),
      });
      expectError(reply, 403, 'forbidden');
    }
  });

  it('may post conversions and clicks, as may secret tokens', async () => {
    const { key } = await seedPartner(c);
    for (const token of [c.publishable, c.secret]) {
      const email = `${token.slice(4, 7)}@buyer.test`;
      const conv = await c.call('POST', '/v1/tracking/conversion', { token, body: { email, gr_id: 'g', pk: key } });
      expect(conv.status).toBe(201);
      const click = await c.call('POST', '/v1/tracking/click', { token, body: { gr_id: 'g', pk: key } });
      expect(click.status).toBe(202);
    }
  });
});

describe('secret tokens in a browser', () => {
  it('are refused with 403 secret_token_in_browser on every route when the request has an Origin, whatever the origin', async () => {
    const { key } = await seedPartner(c);
    expect(ROUTES.length).toBeGreaterThanOrEqual(15);
    for (const origin of ['http://localhost:8787', 'https://evil.example', 'null']) {
      // Every route a token opens (sign-in and the session's own routes take none).
      for (const r of ROUTES.filter((route) => route.access === 'secret' || route.access === 'publishable')) {
        const reply = await c.call(r.method.toUpperCase(), concrete(r.path), {
          headers: { origin },
          ...(r.body ? { body: { email: 'browser@buyer.test', gr_id: 'g', pk: key, name: 'X' } } : {}),
        });
        const err = expectError(reply, 403, 'secret_token_in_browser');
        expect(err.detail).toMatch(/server/);
        expect(reply.headers.get('access-control-allow-origin')).toBeNull();
      }
    }
    // Nothing was done: the allowed origin's conversion was not stored.
    expect((await c.call('GET', '/v1/referrals')).body.data).toEqual([]);
  });

  it('the same secret token without an Origin, and a publishable one with it, are served', async () => {
    const { key } = await seedPartner(c);
    expect((await c.call('GET', '/v1/partners')).status).toBe(200);
    const conv = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      headers: { origin: 'http://localhost:8787' },
      body: { email: 'page@buyer.test', gr_id: 'g', pk: key },
    });
    expect(conv.status).toBe(201);
  });
});

describe('tokens at rest', () => {
  it('the database holds only hashes, never a token', async () => {
    const extra = await c.otherProgram();
    await c.call('GET', '/v1/partners'); // touch the database through the server too
    // SQLite: every byte of its files, free pages and WAL included; PostgreSQL: every row.
    const files = readdirSync(c.dir).map((f) => join(c.dir, f));
    expect(files.some((f) => f.endsWith('.db'))).toBe(ENGINE === 'sqlite');
    const bytes =
      ENGINE === 'sqlite'
        ? Buffer.concat(files.map((f) => readFileSync(f)))
        : Buffer.from([...(await contents(c.databaseUrl)).values()].join('\n'));
    const tokens = [c.secret, c.publishable, extra.secret, extra.publishable];
    for (const token of tokens) {
      expect(bytes.includes(token)).toBe(false);
      expect(bytes.includes(token.slice(8, 40))).toBe(false); // not even its random part
      expect(bytes.includes(hashToken(token))).toBe(true); // what is stored instead
    }
  });
});

describe('demo tokens', () => {
  it('each start issues one; the newest DEMO_TOKENS_KEPT stay valid, so processes sharing a database keep theirs', async () => {
    const issued: string[] = [];
    for (let i = 0; i < DEMO_TOKENS_KEPT + 2; i++) issued.push((await demoToken(c.running.db, c.clock.now + i))!.token);
    const status = async (token: string) => (await c.call('GET', '/v1/partners', { token })).status;
    // A publishable token is refused on a secret route (403) only once it is known; an unknown one is 401.
    expect(await Promise.all(issued.map(status))).toEqual([401, 401, ...Array(DEMO_TOKENS_KEPT).fill(403)]);
  });
});

describe('tenancy', () => {
  it("program B can neither read nor change program A's records: 404, and its lists are empty", async () => {
    const b = await c.otherProgram();
    const a = await seedPartner(c);
    const conv = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'x@y.test', gr_id: 'g', pk: a.key },
    });
    const referralId = conv.body.data.id;
    const asB = (method: string, path: string, body?: unknown) => c.call(method, path, { token: b.secret, ...(body ? { body } : {}) });

    expectError(await asB('GET', `/v1/partners/${a.partnerId}`), 404, 'not_found');
    expectError(await asB('GET', `/v1/partnerships/${a.partnershipId}`), 404, 'not_found');
    expectError(await asB('GET', `/v1/referrals/${referralId}`), 404, 'not_found');
    expectError(await asB('PATCH', `/v1/partners/${a.partnerId}`, { name: 'Hijacked' }), 404, 'not_found');
    expectError(await asB('DELETE', `/v1/partners/${a.partnerId}`), 404, 'not_found');
    expectError(await asB('PATCH', `/v1/partnerships/${a.partnershipId}`, { state: 'declined' }), 404, 'not_found');
    expectError(await asB('POST', '/v1/partnerships', { partner_id: a.partnerId }), 422, 'unknown_partner');
    for (const route of ['partners', 'partnerships', 'referrals', 'commissions']) {
      expect((await asB('GET', `/v1/${route}`)).body.data).toEqual([]);
    }
    expect((await asB('GET', `/v1/referrals?partner_id_eq=${a.partnerId}`)).body.data).toEqual([]);

    // B's snippet cannot credit A's partner, nor read A's clicks.
    expectError(
      await c.call('POST', '/v1/tracking/conversion', { token: b.publishable, body: { email: 'z@y.test', gr_id: 'g', pk: a.key } }),
      422,
      'unattributed',
    );

    // A's records are untouched.
    const partner = await c.call('GET', `/v1/partners/${a.partnerId}`);
    expect(partner.body.data.attributes.name).not.toBe('Hijacked');
    expect((await c.call('GET', `/v1/partnerships/${a.partnershipId}`)).body.data.attributes.state).toBe('accepted');
  });

  it('the same email and the same key may exist in two programs independently', async () => {
    const b = await c.otherProgram();
    const a = await seedPartner(c, { name: 'Same Name', email: 'same@partner.test' });
    const inB = await seedPartner(c, { name: 'Same Name', email: 'same@partner.test', token: b.secret });
    expect(inB.key).toBe(a.key);
    const body = { email: 'buyer@x.test', gr_id: 'g', pk: a.key };
    expect((await c.call('POST', '/v1/tracking/conversion', { token: c.publishable, body })).status).toBe(201);
    expect((await c.call('POST', '/v1/tracking/conversion', { token: b.publishable, body })).status).toBe(201);
  });
});
