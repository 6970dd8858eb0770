// A program's branding (docs/branding.md): its logo (one of its images), its accent colour
// (refused below WCAG AA, with the ratio), its own host name (one program's, and `/` there
// opens its page), shown to partners in the portal, on the public page and in the embed, and
// its name on the e-mails partners get.

import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';
import { PDF, PNG } from './brand-files.js';
import { startSmtp } from './smtp.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(() => c.close());

async function upload(bytes: Buffer, token?: string): Promise<string> {
  const made = await c.call('POST', '/v1/resources/files?title=Logo', { token, raw: bytes as unknown as string });
  expect(made.status).toBe(201);
  return made.body.data.id;
}

const brand = (body: Record<string, unknown>, token?: string) => c.call('PATCH', '/v1/program/branding', { token, body });

describe('branding settings', () => {
  it('starts with none, and keeps a logo that is one of the images, and an accent that passes AA', async () => {
    const none = await c.call('GET', '/v1/program/branding');
    expect(none.body.data.attributes).toEqual({ logo_id: null, logo_url: null, accent: null, host: null });
    const logo = await upload(PNG);
    const set = await brand({ logo_id: logo, accent: '#0B6B78' });
    expect(set.status).toBe(200);
    expect(set.body.data.attributes).toEqual({
      logo_id: logo,
      logo_url: `/v1/public/brands/${c.programId}/logo?v=${logo}`,
      accent: '#0b6b78',
      host: null,
    });
    expect((await c.call('GET', '/v1/program/branding')).body.data.attributes.accent).toBe('#0b6b78');
    // Each field alone: the others stay.
    expect((await brand({ accent: null })).body.data.attributes).toMatchObject({ logo_id: logo, accent: null });
  });

  it('refuses an accent below 4.5:1 against the light surfaces with its ratio, and keeps the one before', async () => {
    await brand({ accent: '#1d4ed8' });
    const err = expectError(await brand({ accent: '#ffcc00' }), 422, 'invalid_field');
    expect(err.source).toEqual({ pointer: '/accent' });
    expect(err.meta).toEqual({ contrast_ratio: 1.41, required_ratio: 4.5 });
    expect(err.detail).toContain('1.41:1');
    // #767676 is 4.54:1 on white but 4.23:1 on the page's #f6f7f9: refused too.
    expect(expectError(await brand({ accent: '#767676' }), 422, 'invalid_field').meta.contrast_ratio).toBe(4.23);
    expectError(await brand({ accent: 'teal' }), 422, 'invalid_field');
    expect((await c.call('GET', '/v1/program/branding')).body.data.attributes.accent).toBe('#1d4ed8');
  });

  it("refuses a logo that is a PDF, copy, or another program's image", async () => {
    const pdf = await upload(PDF);
    expectError(await brand({ logo_id: pdf }), 422, 'invalid_field');
    const copy = (await c.call('POST', '/v1/resources/copy', { body: { title: 'T', body: 'text' } })).body.data.id;
    expectError(await brand({ logo_id: copy }), 422, 'invalid_field');
    const other = await c.otherProgram();
    const theirs = await upload(PNG, other.secret);
    expectError(await brand({ logo_id: theirs }), 422, 'invalid_field');
    expect((await c.call('GET', '/v1/program/branding')).body.data.attributes.logo_id).toBeNull();
  });

  it('serves the logo publicly with safe headers, and unsets it when its file is deleted', async () => {
    const logo = await upload(PNG);
    const { logo_url } = (await brand({ logo_id: logo })).body.data.attributes;
    const res = await fetch(c.url + logo_url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    expect((await c.call('DELETE', `/v1/resources/${logo}`)).status).toBe(204);
    expect((await c.call('GET', '/v1/program/branding')).body.data.attributes.logo_id).toBeNull();
    expect((await fetch(c.url + logo_url)).status).toBe(404);
    const other = await c.otherProgram();
    expect((await fetch(`${c.url}/v1/public/brands/${other.id}/logo`)).status).toBe(404);
  });
});

/** Where `/` sends a visitor who came by `host` (fetch may not set Host). */
function rootFrom(host?: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(`${c.url}/`, { headers: host ? { host } : {} }, (res) => {
      res.resume();
      resolve(res.headers.location);
    });
    req.on('error', reject).end();
  });
}

describe("a program's own host name", () => {
  it('is validated, one program’s only, and never the collector’s own', async () => {
    expect((await brand({ host: 'Partners.Acme.test.' })).body.data.attributes.host).toBe('partners.acme.test');
    for (const bad of ['not a host', 'localhost', 'http://x.test/', 'x.test:8080', '-x.test']) {
      expectError(await brand({ host: bad }), 422, 'invalid_field');
    }
    expectError(await brand({ host: 'localhost.' }), 422, 'invalid_field');
    const other = await c.otherProgram();
    expectError(await brand({ host: 'partners.acme.test' }, other.secret), 409, 'conflict');
    expect((await brand({ host: null })).body.data.attributes.host).toBeNull();
    expect((await brand({ host: 'partners.acme.test' }, other.secret)).status).toBe(200);
  });

  it("opens the program's public page at / on its host, and the dashboard elsewhere", async () => {
    await c.call('PATCH', '/v1/program', { body: { slug: 'acme', page_enabled: true } });
    await brand({ host: 'partners.acme.test' });
    expect(await rootFrom('partners.acme.test')).toBe('/p/acme/');
    expect(await rootFrom('PARTNERS.acme.test:443')).toBe('/p/acme/');
    expect(await rootFrom()).toBe('/dashboard/');
    expect(await rootFrom('other.acme.test')).toBe('/dashboard/');
    await c.call('PATCH', '/v1/program', { body: { page_enabled: false } });
    expect(await rootFrom('partners.acme.test')).toBe('/portal/');
  });
});

describe('where partners see it', () => {
  it('the public page and the portal show the name, logo and accent', async () => {
    const logo = await upload(PNG);
    await brand({ logo_id: logo, accent: '#6d28d9', host: 'partners.acme.test' });
    await c.call('PATCH', '/v1/program', { body: { name: 'Acme Widgets', slug: 'acme', page_enabled: true, auto_accept: true } });
    const page = await c.call('GET', '/v1/public/programs/acme', { token: null });
    expect(page.body.data.attributes).toMatchObject({
      name: 'Acme Widgets',
      brand: { accent: '#6d28d9', logo_url: `/v1/public/brands/${c.programId}/logo?v=${logo}` },
    });
    const applied = await c.call('POST', '/v1/public/programs/acme/applications', {
      token: null,
      body: { name: 'Pat', email: 'pat@partners.test', password: 'a long partner password' },
    });
    const cookie = applied.headers
      .getSetCookie()
      .find((x) => x.startsWith('tally_partner='))!
      .split(';')[0]!;
    const [p] = (await c.call('GET', '/v1/portal/partnerships', { token: null, headers: { cookie, origin: c.url } })).body.data;
    expect(p.attributes.brand).toEqual({
      accent: '#6d28d9',
      logo_url: `/v1/public/brands/${c.programId}/logo?v=${logo}`,
      host: 'partners.acme.test',
    });
  });

  it('e-mails to partners carry the program’s name as the sender, at the configured address', async () => {
    const inbox = await startSmtp();
    const mailing = await startCollector({ smtpUrl: inbox.url });
    try {
      await mailing.call('PATCH', '/v1/program', { body: { name: 'Acme "Widgets"' } });
      const made = await seedPartner(mailing, { email: 'branded@partners.test' });
      expect((await mailing.call('POST', `/v1/partners/${made.partnerId}/invitation`)).body.meta.emailed).toBe(true);
      const { raw } = await inbox.waitFor('branded@partners.test');
      expect(raw).toMatch(/^From: "Acme \\"Widgets\\"" <tally@test\.example>\r?$/m);
    } finally {
      await mailing.close();
      await inbox.close();
    }
  });
});
