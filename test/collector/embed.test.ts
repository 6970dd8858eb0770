// The embedded partner portal (docs/embed.md): an embed token minted only with a secret
// token, the company's user made a partner once and found again by their user id, the token
// used once and only for ten minutes, the session reading the embed's routes and no other,
// and the page's frame-ancestors naming the program's allowed origins, or none.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../packages/collector/src/app.js';
import { withDb } from './database.js';
import { expectError, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(() => c.close());

type Program = { id: string; secret: string; publishable: string };
let users = 0;

async function program(origins = ['https://app.company.test']): Promise<Program> {
  const p = await c.otherProgram();
  expect((await c.call('PATCH', '/v1/program', { token: p.secret, body: { allowed_origins: origins } })).status).toBe(200);
  return p;
}

async function mint(p: Program, body: Record<string, unknown> = {}) {
  const n = ++users;
  const reply = await c.call('POST', '/v1/embed_tokens', {
    token: p.secret,
    body: { user_id: `user-${n}`, name: `User ${n}`, email: `user${n}@company.test`, ...body },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.data;
}

async function session(p: Program, body: Record<string, unknown> = {}) {
  const minted = await mint(p, body);
  const opened = await c.call('POST', '/v1/embed/sessions', { token: null, body: { token: minted.attributes.token } });
  expect(opened.status).toBe(201);
  const bearer: string = opened.body.data.attributes.token;
  return { minted, bearer, as: (method: string, path: string, body?: unknown) => c.call(method, path, { token: bearer, body }) };
}

describe('embed tokens', () => {
  it('are minted with a secret token only, and name the page to frame', async () => {
    const p = await program();
    const body = { user_id: 'u-1', name: 'Ann', email: 'ann@company.test' };
    expectError(await c.call('POST', '/v1/embed_tokens', { token: p.publishable, body }), 403, 'forbidden');
    expectError(await c.call('POST', '/v1/embed_tokens', { token: null, body }), 401, 'unauthorized');
    const fromPage = await c.call('POST', '/v1/embed_tokens', { token: p.secret, body, headers: { origin: 'https://app.company.test' } });
    expectError(fromPage, 403, 'secret_token_in_browser');
    const made = await mint(p);
    expect(made.attributes.url).toBe(`http://localhost:8787/embed/?token=${made.attributes.token}`);
    expect(made.attributes.expires_at).toBe(c.clock.now + 600);
  });

  it('make the user a partner with an accepted partnership once, found again by their user id', async () => {
    const p = await program();
    const group = await c.call('POST', '/v1/groups', { token: p.secret, body: { name: 'Customers' } });
    const first = await mint(p, { user_id: 'same-user', email: 'same@company.test', group_id: group.body.data.id });
    const again = await mint(p, { user_id: 'same-user', email: 'changed@company.test', name: 'Renamed' });
    expect(again.relationships.partner.data.id).toBe(first.relationships.partner.data.id);
    expect(again.relationships.partnership.data.id).toBe(first.relationships.partnership.data.id);
    expect((await c.call('GET', '/v1/partners', { token: p.secret })).body.data).toHaveLength(1);
    const partnership = await c.call('GET', `/v1/partnerships/${first.relationships.partnership.data.id}`, { token: p.secret });
    expect(partnership.body.data.attributes.state).toBe('accepted');
    const { as } = await session(p, { user_id: 'same-user' });
    expect((await as('GET', '/v1/embed/partnership')).body.data.attributes.group.name).toBe('Customers');
    // The same user id in another program is another partner, of that program.
    const other = await mint(await program(), { user_id: 'same-user' });
    expect(other.relationships.partner.data.id).not.toBe(first.relationships.partner.data.id);
    // A group of another program is not one of this program's.
    const foreign = await c.call('POST', '/v1/embed_tokens', {
      token: (await program()).secret,
      body: { user_id: 'x', name: 'X', email: 'x@company.test', group_id: group.body.data.id },
    });
    expectError(foreign, 422, 'invalid_field');
  });

  it("claim the program's partner with the user's address, but not one another user id claimed", async () => {
    const p = await program();
    const owned = await c.call('POST', '/v1/partners', { token: p.secret, body: { name: 'Bo', email: 'bo@company.test' } });
    const made = await mint(p, { user_id: 'bo', email: 'bo@Company.TEST' });
    expect(made.relationships.partner.data.id).toBe(owned.body.data.id);
    const twice = await c.call('POST', '/v1/embed_tokens', {
      token: p.secret,
      body: { user_id: 'bo-2', name: 'Bo', email: 'bo@company.test' },
    });
    expectError(twice, 409, 'conflict');
  });

  it('are used once, within ten minutes', async () => {
    const p = await program();
    const { attributes } = await mint(p);
    const trade = () => c.call('POST', '/v1/embed/sessions', { token: null, body: { token: attributes.token } });
    expect((await trade()).status).toBe(201);
    expectError(await trade(), 401, 'unauthorized');
    const late = await mint(p);
    c.clock.now += 601;
    expectError(await c.call('POST', '/v1/embed/sessions', { token: null, body: { token: late.attributes.token } }), 401, 'unauthorized');
    expectError(await c.call('POST', '/v1/embed/sessions', { token: null, body: { token: 'emb_unknown' } }), 401, 'unauthorized');
  });
});

describe('the embed session', () => {
  it("reads the partner's link, codes, figures and payout settings, and changes only the latter", async () => {
    const p = await program();
    const { minted, as, bearer } = await session(p, { name: 'Cleo Example' });
    const partnershipId = minted.relationships.partnership.data.id;
    await c.call('POST', '/v1/discount_codes', { token: p.secret, body: { partnership_id: partnershipId, code: 'CLEO10' } });
    const { minted: otherUser } = await session(p);
    await c.call('POST', '/v1/discount_codes', {
      token: p.secret,
      body: { partnership_id: otherUser.relationships.partnership.data.id, code: 'OTHER10' },
    });

    const mine = (await as('GET', '/v1/embed/partnership')).body.data;
    expect(mine.id).toBe(partnershipId);
    expect(mine.attributes.referral_link).toBe('https://other.example/?red=cleo-example');
    expect((await as('GET', '/v1/embed/codes')).body.data.map((x: any) => x.attributes.code)).toEqual(['CLEO10']);
    const stats = await as('GET', '/v1/embed/stats?from=2025-02-01&to=2025-03-01&tz=UTC');
    expect(stats.body.data.attributes.totals.clicks).toBe(0);
    expect((await as('GET', '/v1/embed/account')).body.data.attributes).toEqual({
      name: 'Cleo Example',
      email: expect.stringMatching(/@company\.test$/),
      paypal_email: null,
      locale: null,
    });
    // Another address than the partner's own pays only once the link e-mailed to it is used:
    // typed here, it is the chosen method, unconfirmed, and the record is left as it was.
    const changed = await as('PATCH', '/v1/embed/account', { paypal_email: 'cleo@pay.test', locale: 'de' });
    expect(changed.body.data.attributes).toMatchObject({ paypal_email: null, locale: 'de' });
    const partnerId = minted.relationships.partner.data.id;
    const method = await c.call('GET', `/v1/partners/${partnerId}/payout_method`, { token: p.secret });
    expect(method.body.data.attributes).toMatchObject({ method: 'paypal', ready: false, reason: 'unconfirmed' });
    const own = (await as('GET', '/v1/embed/account')).body.data.attributes.email;
    const ownSet = await as('PATCH', '/v1/embed/account', { paypal_email: own });
    expect(ownSet.body.data.attributes).toMatchObject({ paypal_email: own, locale: 'de' });
    expectError(await as('PATCH', '/v1/embed/account', { locale: 'it' }), 422, 'invalid_field');
    expectError(await as('PATCH', '/v1/embed/account', { name: 'Someone else' }), 422, 'unknown_field');
    const partner = await c.call('GET', `/v1/partners/${minted.relationships.partner.data.id}`, { token: p.secret });
    expect(partner.body.data.attributes).toMatchObject({ paypal_email: own, locale: 'de' });

    // Every other route: 401 (a partner's optional session reads as signed out), never a record.
    for (const r of ROUTES.filter((x) => x.access !== 'embed' && x.access !== 'public')) {
      const path = r.path.replace(/:\w+/g, partnershipId).replace('{*rest}', '');
      const reply = await c.call(r.method.toUpperCase(), path, { token: bearer, body: r.body ? {} : undefined });
      if (r.optionalSession) expect(reply.body.data, `${r.method} ${r.path}`).toBeNull();
      else expect([401, 404], `${r.method} ${r.path}: ${reply.status}`).toContain(reply.status);
    }
  });

  it('ends after four hours, and a secret token or a partner cookie opens none of its routes', async () => {
    const p = await program();
    const { as } = await session(p);
    expectError(await c.call('GET', '/v1/embed/partnership', { token: p.secret }), 401, 'unauthorized');
    expectError(await c.call('GET', '/v1/embed/account', { token: null }), 401, 'unauthorized');
    expect((await as('GET', '/v1/embed/partnership')).status).toBe(200);
    c.clock.now += 4 * 3600;
    expectError(await as('GET', '/v1/embed/partnership'), 401, 'unauthorized');
  });
});

describe('the embedded page', () => {
  it("may be framed by the program's allowed origins only, while its token lasts", async () => {
    const p = await program(['https://app.company.test', 'https://admin.company.test']);
    const { attributes } = await mint(p);
    const page = (token: string) => fetch(`${c.url}/embed/?token=${encodeURIComponent(token)}`);
    const ok = await page(attributes.token);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toContain('frame-ancestors https://admin.company.test https://app.company.test');
    expect(ok.headers.get('x-frame-options')).toBeNull();
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const unknown = await page('emb_nothing');
    expect(unknown.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    c.clock.now += 601;
    expect((await page(attributes.token)).headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // The other apps keep refusing every frame.
    expect((await fetch(`${c.url}/portal/`)).headers.get('x-frame-options')).toBe('DENY');
  });

  it('takes allowed origins as exact scheme://host[:port] only: no wildcard or CSP punctuation reaches frame-ancestors', async () => {
    const p = await program(['https://app.company.test']);
    const bad = [
      'https://*',
      'https://*.company.test',
      'https://a.example;script-src',
      "https://a.example;script-src 'unsafe-inline'",
      'https://a.example,https://b.example',
      "https://a'b.example",
      'https://user@a.example',
      'https://a.example.',
      'https://a.example/path',
      'ftp://a.example',
      'a.example',
    ];
    for (const origin of bad) {
      const err = expectError(
        await c.call('PATCH', '/v1/program', { token: p.secret, body: { allowed_origins: [origin] } }),
        422,
        'invalid_field',
      );
      expect(err.source, origin).toEqual({ pointer: '/allowed_origins' });
      expect(err.detail, origin).toContain('scheme://host[:port]');
    }
    const kept = await c.call('GET', '/v1/program', { token: p.secret });
    expect(kept.body.data.attributes.allowed_origins).toEqual(['https://app.company.test']);
    // A port, and a name in any case, are fine.
    const good = await c.call('PATCH', '/v1/program', {
      token: p.secret,
      body: { allowed_origins: ['http://localhost:8080', 'https://Shop.Company.test:8443', 'http://[::1]:8080'] },
    });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    const policy = async () => {
      const { attributes } = await mint(p);
      return (await fetch(`${c.url}/embed/?token=${encodeURIComponent(attributes.token)}`)).headers.get('content-security-policy');
    };
    expect(await policy()).toMatch(/frame-ancestors http:\/\/\[::1\]:8080 http:\/\/localhost:8080 https:\/\/shop\.company\.test:8443(;|$)/);
    // A row kept from before origins were checked is left out of the policy.
    await withDb(c.databaseUrl, (db) =>
      db.transaction((tx) => tx.run('INSERT INTO program_origins (program_id, origin) VALUES (?, ?)', [p.id, 'https://*'])),
    );
    expect(await policy()).toMatch(/frame-ancestors http:\/\/\[::1\]:8080 http:\/\/localhost:8080 https:\/\/shop\.company\.test:8443(;|$)/);
  });
});
