// The click's answer names the domain the snippet's cookie belongs on, so the snippet
// writes no cookie the browser must refuse (Firefox logs each refusal as an error).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registrableDomain } from '../../packages/collector/src/modules/clicks/registrable-domain.js';
import { PUBLIC_URL, seedPartner, startCollector, type Collector } from './harness.js';

describe('registrableDomain', () => {
  it.each([
    ['https://www.shop.test/?red=alice', 'shop.test'],
    ['https://app.shop.test:8443/signup', 'shop.test'],
    ['https://shop.test/', 'shop.test'],
    ['https://www.shop.example.co.uk/', 'example.co.uk'],
    ['https://a.b.c.example.com/', 'example.com'],
    // Browsers refuse the private part of the list too: github.io is a suffix to them.
    ['https://shop.github.io/', 'shop.github.io'],
    ['https://WWW.Shop.TEST/', 'shop.test'],
  ])('%s → %s', (url, domain) => {
    expect(registrableDomain(url)).toBe(domain);
  });

  it.each([
    // Host-only there: an address has no parent domain, a single label has no suffix.
    'http://127.0.0.1:8787/demo/',
    'http://[::1]:8787/',
    'http://localhost:3000/',
    'http://intranet/',
    // A host that is itself a public suffix has no registrable domain.
    'https://co.uk/',
    'https://github.io/',
    // Not a URL, or none at all.
    'not a url',
    '',
    undefined,
  ])('%s → null (a host-only cookie)', (url) => {
    expect(registrableDomain(url)).toBeNull();
  });
});

describe('POST /v1/tracking/click answers with the cookie domain', () => {
  let c: Collector;
  beforeEach(async () => {
    c = await startCollector();
  });
  afterEach(async () => {
    await c.close();
  });

  const click = (body: unknown) => c.call('POST', '/v1/tracking/click', { token: c.publishable, headers: { origin: PUBLIC_URL }, body });

  it("202 with {data: {cookie_domain}} for the landing page's host, readable by the allowed origin", async () => {
    const { key } = await seedPartner(c);
    const reply = await click({ gr_id: 'v1', pk: key, url: 'https://www.shop.example.co.uk/?red=x' });
    expect(reply.status).toBe(202);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body).toEqual({ data: { cookie_domain: 'example.co.uk', discount: null } });
    expect(reply.headers.get('access-control-allow-origin')).toBe(PUBLIC_URL);
  });

  it('null for an IP address or localhost, and for a click without its page', async () => {
    const { key } = await seedPartner(c);
    for (const url of ['http://127.0.0.1:8787/demo/?red=x', 'http://localhost:8787/?red=x', undefined]) {
      const reply = await click({ gr_id: 'v1', pk: key, url });
      expect(reply.status).toBe(202);
      expect(reply.body).toEqual({ data: { cookie_domain: null, discount: null } });
    }
  });

  it('a repeat within 30 minutes answers the same', async () => {
    const { key } = await seedPartner(c);
    const body = { gr_id: 'v1', pk: key, url: 'https://www.shop.test/' };
    expect((await click(body)).body).toEqual({ data: { cookie_domain: 'shop.test', discount: null } });
    expect((await click(body)).body).toEqual({ data: { cookie_domain: 'shop.test', discount: null } });
  });
});
