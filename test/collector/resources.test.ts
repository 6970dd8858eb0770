// Brand resources (docs/resources.md): files checked by their bytes, copy, the owner's order;
// served with safe headers; partners of the program (portal, embed) list and download them,
// anyone else gets 404; and every refused upload leaves nothing stored, in the one error shape.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, startCollector, type Collector } from './harness.js';
import { PDF, PNG, SVG, SVG_ONLOAD, SVG_SCRIPT, ZIP, ZIP_BOMB } from './brand-files.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(() => c.close());

/** Uploads `bytes` as the whole body, with whatever name and Content-Type the test claims. */
async function upload(bytes: Buffer, opts: { title?: string; name?: string; type?: string; token?: string } = {}) {
  const query = new URLSearchParams({ title: opts.title ?? 'Logo', ...(opts.name ? { file_name: opts.name } : {}) });
  return c.call('POST', `/v1/resources/files?${query}`, {
    token: opts.token,
    raw: bytes as unknown as string,
    headers: { 'content-type': opts.type ?? 'application/octet-stream' },
  });
}

async function list(token?: string) {
  const reply = await c.call('GET', '/v1/resources', { token });
  expect(reply.status).toBe(200);
  return reply.body.data as any[];
}

async function fetchFile(path: string, headers: Record<string, string>) {
  const res = await fetch(c.url + path, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const owner = () => ({ authorization: `Bearer ${c.secret}` });

/** A partner of the first program with a portal session, through its public page. */
async function portalPartner(slug: string, n: number, autoAccept = true) {
  await c.call('PATCH', '/v1/program', { body: { slug, page_enabled: true, auto_accept: autoAccept } });
  const reply = await c.call('POST', `/v1/public/programs/${slug}/applications`, {
    token: null,
    body: { name: `Portal ${n}`, email: `brand${n}@partners.test`, password: 'a long partner password' },
  });
  expect(reply.status).toBe(201);
  const cookie = reply.headers
    .getSetCookie()
    .find((x) => x.startsWith('tally_partner='))!
    .split(';')[0]!;
  const headers = { cookie, origin: c.url };
  const [partnership] = (await c.call('GET', '/v1/portal/partnerships', { token: null, headers })).body.data;
  return { headers, id: partnership.id as string, partnership };
}

describe('uploads', () => {
  it('stores a PNG by its bytes, whatever it is called or claims, and serves it with its own type and safe headers', async () => {
    const made = await upload(PNG, { name: 'Our Logo (final).jpeg', type: 'text/html' });
    expect(made.status).toBe(201);
    expect(made.body.data.attributes).toMatchObject({
      kind: 'file',
      title: 'Logo',
      media_type: 'image/png',
      file_name: 'Our-Logo-final.png',
      size: PNG.length,
      body: null,
      position: 1,
    });
    const file = await fetchFile(`/v1/resources/${made.body.data.id}/file`, owner());
    expect(file.status).toBe(200);
    expect(file.bytes.equals(PNG)).toBe(true);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="Our-Logo-final.png"');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
    expect(file.headers.get('content-security-policy')).toContain("default-src 'none'");
    const etag = file.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{43}"$/);
    const again = await fetchFile(`/v1/resources/${made.body.data.id}/file`, { ...owner(), 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
  });

  it('takes a PDF, a clean SVG and a ZIP, each typed from its bytes', async () => {
    const types = [];
    for (const bytes of [PDF, SVG, ZIP]) types.push((await upload(bytes, { name: 'file.bin' })).body.data.attributes.media_type);
    expect(types).toEqual(['application/pdf', 'image/svg+xml', 'application/zip']);
    const svg = (await list())[1];
    const served = await fetchFile(`/v1/resources/${svg.id}/file`, owner());
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename="file\.svg"$/);
  });

  it.each([
    ['text named logo.png', Buffer.from('just some text, not a picture'), 415, 'unsupported_media_type'],
    ['an HTML page named logo.png', Buffer.from('<!doctype html><script>alert(1)</script>'), 415, 'unsupported_media_type'],
    ['an executable named logo.png', Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]), 415, 'unsupported_media_type'],
    ['an SVG with a script', SVG_SCRIPT, 422, 'invalid_field'],
    ['an SVG with an onload handler', SVG_ONLOAD, 422, 'invalid_field'],
    ['a zip bomb', ZIP_BOMB, 413, 'payload_too_large'],
    ['an empty file', Buffer.alloc(0), 422, 'invalid_field'],
  ])('refuses %s and stores nothing', async (_what, bytes, status, code) => {
    const refused = await upload(bytes, { name: 'logo.png', type: 'image/png' });
    const err = expectError(refused, status, code);
    expect(err.detail).toMatch(/\w/);
    expect(await list()).toEqual([]);
  });

  it('refuses a file over 10 MiB before reading it, and stores nothing', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
    expectError(await upload(big), 413, 'payload_too_large');
    expect(await list()).toEqual([]);
  });

  it('refuses a compressed upload: the limit counts what is stored', async () => {
    const refused = await c.call('POST', '/v1/resources/files?title=Logo', {
      raw: PNG as unknown as string,
      headers: { 'content-type': 'image/png', 'content-encoding': 'gzip' },
    });
    expectError(refused, 415, 'unsupported_media_type');
    expect(await list()).toEqual([]);
  });
});

describe('copy, order and deletion', () => {
  it('keeps copy with its text, in the order the owner sets, renamed and deleted by id', async () => {
    const logo = (await upload(PNG)).body.data;
    const copy = await c.call('POST', '/v1/resources/copy', {
      body: { title: 'Tweet', body: 'Try Acme: the widgets that ship themselves.' },
    });
    expect(copy.status).toBe(201);
    expect(copy.body.data.attributes).toMatchObject({
      kind: 'copy',
      body: 'Try Acme: the widgets that ship themselves.',
      media_type: null,
      position: 2,
    });
    expectError(await c.call('GET', `/v1/resources/${copy.body.data.id}/file`), 404, 'not_found');

    const ordered = await c.call('POST', '/v1/resources/order', { body: { ids: [copy.body.data.id, logo.id] } });
    expect(ordered.body.data.map((r: any) => [r.id, r.attributes.position])).toEqual([
      [copy.body.data.id, 1],
      [logo.id, 2],
    ]);
    expectError(await c.call('POST', '/v1/resources/order', { body: { ids: [logo.id] } }), 422, 'invalid_field');
    expectError(await c.call('POST', '/v1/resources/order', { body: { ids: [logo.id, logo.id] } }), 422, 'invalid_field');

    const renamed = await c.call('PATCH', `/v1/resources/${logo.id}`, { body: { title: 'Logo, dark' } });
    expect(renamed.body.data.attributes.title).toBe('Logo, dark');
    expect((await c.call('DELETE', `/v1/resources/${logo.id}`)).status).toBe(204);
    expect((await list()).map((r) => r.id)).toEqual([copy.body.data.id]);
    expectError(await c.call('DELETE', `/v1/resources/${logo.id}`), 404, 'not_found');

    const events = (await c.call('GET', '/v1/events?per_page=10')).body.data.map((e: any) => e.attributes?.type ?? e.type);
    expect(events.filter((t: string) => t.startsWith('resource.')).sort()).toEqual([
      'resource.created',
      'resource.created',
      'resource.deleted',
    ]);
  });
});

describe('who sees them', () => {
  it("another program's owner gets 404 for every route of a resource, and an empty list", async () => {
    const logo = (await upload(PNG)).body.data;
    const other = await c.otherProgram();
    expect(await list(other.secret)).toEqual([]);
    expectError(await c.call('GET', `/v1/resources/${logo.id}`, { token: other.secret }), 404, 'not_found');
    expectError(await c.call('PATCH', `/v1/resources/${logo.id}`, { token: other.secret, body: { title: 'x' } }), 404, 'not_found');
    expectError(await c.call('DELETE', `/v1/resources/${logo.id}`, { token: other.secret }), 404, 'not_found');
    expect((await fetchFile(`/v1/resources/${logo.id}/file`, { authorization: `Bearer ${other.secret}` })).status).toBe(404);
    expect(await list()).toHaveLength(1);
  });

  it('the portal lists and downloads them for an accepted partner; a pending one and another program get 404', async () => {
    const logo = (await upload(PNG, { name: 'logo.png' })).body.data;
    await c.call('POST', '/v1/resources/copy', { body: { title: 'Tweet', body: 'Try Acme.' } });
    const partner = await portalPartner('brand', 1);
    const listed = await c.call('GET', `/v1/portal/partnerships/${partner.id}/resources`, { token: null, headers: partner.headers });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: any) => r.attributes.title)).toEqual(['Logo', 'Tweet']);
    const file = await fetchFile(`/v1/portal/partnerships/${partner.id}/resources/${logo.id}/file`, partner.headers);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(PNG)).toBe(true);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="logo.png"');

    // The same partner's account in another program does not reach this program's file through it.
    const other = await c.otherProgram();
    const otherLogo = (await upload(PNG, { token: other.secret })).body.data;
    expect((await fetchFile(`/v1/portal/partnerships/${partner.id}/resources/${otherLogo.id}/file`, partner.headers)).status).toBe(404);

    const pending = await portalPartner('brand', 2, false);
    expect(pending.partnership.attributes.state).toBe('pending');
    expectError(
      await c.call('GET', `/v1/portal/partnerships/${pending.id}/resources`, { token: null, headers: pending.headers }),
      404,
      'not_found',
    );
    expect((await fetchFile(`/v1/portal/partnerships/${pending.id}/resources/${logo.id}/file`, pending.headers)).status).toBe(404);
    expectError(
      await c.call('GET', `/v1/portal/partnerships/${partner.id}/resources`, { token: null, headers: pending.headers }),
      404,
      'not_found',
    );
  });

  it("the embed lists and downloads its program's resources, and 404s another program's", async () => {
    await c.call('PATCH', '/v1/program', { body: { allowed_origins: ['https://app.company.test'] } });
    const logo = (await upload(PNG)).body.data;
    const minted = await c.call('POST', '/v1/embed_tokens', { body: { user_id: 'u1', name: 'User', email: 'user@company.test' } });
    const opened = await c.call('POST', '/v1/embed/sessions', { token: null, body: { token: minted.body.data.attributes.token } });
    const bearer = opened.body.data.attributes.token as string;
    const listed = await c.call('GET', '/v1/embed/resources', { token: bearer });
    expect(listed.body.data.map((r: any) => r.id)).toEqual([logo.id]);
    const file = await fetchFile(`/v1/embed/resources/${logo.id}/file`, { authorization: `Bearer ${bearer}` });
    expect(file.bytes.equals(PNG)).toBe(true);
    const other = await c.otherProgram();
    const otherLogo = (await upload(PNG, { token: other.secret })).body.data;
    expect((await fetchFile(`/v1/embed/resources/${otherLogo.id}/file`, { authorization: `Bearer ${bearer}` })).status).toBe(404);
  });
});
