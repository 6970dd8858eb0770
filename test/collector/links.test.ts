// Partners' links (docs/links.md) through the API: keys within the program's rules (taken,
// reserved, characters, length), destinations only on the allowed origins, the owner's
// approval, another partner's or program's link a 404, a click through a link crediting its
// partnership and its short address redirecting with the UTMs, per-link statistics, and
// QR codes as valid SVG and PNG. One collector for the file, a program per test.

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError, seedPartner } from './harness.js';
import { type Json, type Program, programsKit } from './programs-kit.js';
import { partnerPortal } from './session.js';

const kit = programsKit();
const { api, ok } = kit;
const SITE = 'https://other.example';

/** A program (origin https://other.example) with two accepted partners, each signed in to the portal. */
async function program() {
  const p = await kit.c.otherProgram();
  const maya = await seedPartner(kit.c, { token: p.secret, email: `maya-${p.id}@partners.test` });
  const leo = await seedPartner(kit.c, { token: p.secret });
  const portal = await partnerPortal(kit.c, p.secret, maya.partnerId);
  const mine = (method: string, path: string, body?: unknown) =>
    portal.call(method, `/v1/portal/partnerships/${maya.partnershipId}${path}`, body);
  return { ...p, maya, leo, mine };
}

const click = (p: Program, pk: string, grId = randomUUID()) =>
  kit.c.call('POST', '/v1/tracking/click', { token: p.publishable, body: { gr_id: grId, pk, url: `${SITE}/pricing` } });

/** The short address's answer, not followed. */
const go = (path: string) => fetch(kit.c.url + path, { redirect: 'manual' });

describe('a partner makes links', () => {
  it('a deep link with a chosen key credits its partnership and its short address redirects there with the UTMs', async () => {
    const p = await program();
    await ok(p, 'PATCH', '/v1/link_settings', { utm: { utm_source: 'partner', utm_medium: 'affiliate' } });
    const made = await p.mine('POST', '/links', {
      destination: `${SITE}/pricing?plan=pro#top`,
      key: 'Maya-Spring',
      utm: { utm_campaign: 'spring', utm_source: 'mine' },
    });
    expect(made.status).toBe(201);
    const link = made.body.data;
    expect(link.attributes).toMatchObject({
      key: 'maya-spring',
      status: 'active',
      created_by: 'partner',
      destination: `${SITE}/pricing?plan=pro`,
      // The template's fields win; the link fills those it leaves empty.
      utm: { utm_source: 'partner', utm_medium: 'affiliate', utm_campaign: 'spring' },
      url: `${SITE}/pricing?plan=pro&red=maya-spring&utm_source=partner&utm_medium=affiliate&utm_campaign=spring`,
    });
    const short = new URL(link.attributes.short_url);
    expect(short.pathname).toBe(`/v1/go/${p.id}/maya-spring`);
    const redirected = await go(short.pathname);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('location')).toBe(link.attributes.url);
    // The landing page's snippet reports the key: the click is Maya's, through this link.
    expect((await click(p, 'MAYA-SPRING')).status).toBe(202);
    const [stored] = (await ok(p, 'GET', `/v1/clicks?partnership_id_eq=${p.maya.partnershipId}`)).data;
    expect(stored.attributes.link_id).toBe(link.id);
    // The partnership's own key keeps working, as its default link.
    expect((await click(p, p.maya.key)).status).toBe(202);
    const clicks = (await ok(p, 'GET', `/v1/clicks?partnership_id_eq=${p.maya.partnershipId}`)).data;
    expect(clicks.map((c: Json) => c.attributes.link_id ?? null).sort()).toEqual([link.id, null].sort());
    expect((await p.mine('GET', '/links')).body.data.map((l: Json) => l.id)).toEqual([link.id]);
  });

  it('a chosen key is refused when it is taken, reserved, too short or long, or of other characters; a made-up one when the program chooses', async () => {
    const p = await program();
    await ok(p, 'PATCH', '/v1/link_settings', { key_min_length: 4, key_max_length: 16, reserved_keys: ['Sale'] });
    const make = (key: string) => p.mine('POST', '/links', { destination: `${SITE}/`, key });
    expectError(await make(p.leo.key), 409, 'conflict');
    expectError(await make(p.maya.key), 409, 'conflict');
    expectError(await make('sale'), 422, 'invalid_field');
    expectError(await make('admin'), 422, 'invalid_field');
    expectError(await make('abc'), 422, 'invalid_field');
    expectError(await make('abcdefghijklmnopq'), 422, 'invalid_field');
    expectError(await make('-abcd'), 422, 'invalid_field');
    expectError(await make('abc.d'), 422, 'invalid_field');
    // Another partner's link's key is taken too, and so for the partnership's key.
    const leos = await ok(p, 'POST', '/v1/links', { partnership_id: p.leo.partnershipId, destination: `${SITE}/`, key: 'leo-blog' });
    expect(leos.data.attributes).toMatchObject({ status: 'active', created_by: 'company' });
    expectError(await make('leo-blog'), 409, 'conflict');
    expectError(await api(p, 'PATCH', `/v1/partnerships/${p.maya.partnershipId}`, { key: 'leo-blog' }), 409, 'conflict');
    await ok(p, 'PATCH', '/v1/link_settings', { key_characters: 'letters_digits' });
    expectError(await make('ab-cd'), 422, 'invalid_field');
    expect((await make('abcd')).status).toBe(201);
    expectError(await make('ABCD'), 409, 'conflict');
    await ok(p, 'PATCH', '/v1/link_settings', { custom_keys: false });
    expectError(await make('wxyz'), 403, 'forbidden');
    const madeUp = await p.mine('POST', '/links', { destination: `${SITE}/` });
    expect(madeUp.status).toBe(201);
    expect(madeUp.body.data.attributes.key).toMatch(/^[a-z0-9]{8}$/);
  });

  it('a destination outside the allowed origins is refused', async () => {
    const p = await program();
    for (const destination of [
      'https://evil.example/',
      'http://other.example/',
      'javascript:alert(1)',
      'https://other.example.evil.test/',
      '/pricing',
    ]) {
      expectError(await p.mine('POST', '/links', { destination }), 422, 'invalid_field');
    }
    await ok(p, 'PATCH', '/v1/program', { allowed_origins: [SITE, 'https://blog.other.example'] });
    expect((await p.mine('POST', '/links', { destination: 'https://blog.other.example/post/1' })).status).toBe(201);
  });

  it("a chosen key waits for the owner's approval where the program asks, and a disabled link credits nothing", async () => {
    const p = await program();
    await ok(p, 'PATCH', '/v1/link_settings', { approval_required: true });
    const waiting = (await p.mine('POST', '/links', { destination: `${SITE}/`, key: 'maya-video' })).body.data;
    expect(waiting.attributes.status).toBe('pending_approval');
    // Waiting, its key credits nothing and redirects nowhere, and no one else may take it.
    expectError(await click(p, 'maya-video'), 422, 'unattributed');
    expect((await go(`/v1/go/${p.id}/maya-video`)).status).toBe(404);
    expectError(
      await api(p, 'POST', '/v1/links', { partnership_id: p.leo.partnershipId, destination: `${SITE}/`, key: 'maya-video' }),
      409,
      'conflict',
    );
    expect((await ok(p, 'GET', '/v1/links?status_eq=pending_approval')).data.map((l: Json) => l.id)).toEqual([waiting.id]);
    const approved = await ok(p, 'PATCH', `/v1/links/${waiting.id}`, { status: 'active' });
    expect(approved.data.attributes.status).toBe('active');
    expect((await click(p, 'maya-video')).status).toBe(202);
    expect((await go(`/v1/go/${p.id}/maya-video`)).status).toBe(302);
    await ok(p, 'PATCH', `/v1/links/${waiting.id}`, { status: 'disabled' });
    expectError(await click(p, 'maya-video'), 422, 'unattributed');
    expect((await go(`/v1/go/${p.id}/maya-video`)).status).toBe(404);
    const events = (await ok(p, 'GET', '/v1/events?type_eq=link.updated')).data;
    expect(events.map((e: Json) => e.attributes.data.attributes.status)).toEqual(['disabled', 'active']);
    expect((await ok(p, 'GET', '/v1/events?type_eq=link.created')).data).toHaveLength(1);
    // The owners heard the key waits, and Maya that it was approved: once each, through the outbox.
    const notices = await kit.c.running.db.all<{ kind: string; audience: string }>(
      "SELECT kind, audience FROM notifications WHERE program_id = ? AND kind LIKE 'link_%' ORDER BY kind",
      [p.id],
    );
    expect(notices).toEqual([
      { kind: 'link_approved', audience: 'partner' },
      { kind: 'link_waiting', audience: 'owners' },
    ]);
    // A made-up key needs no approval.
    expect((await p.mine('POST', '/links', { destination: `${SITE}/` })).body.data.attributes.status).toBe('active');
  });

  it("another partner's or another program's link is a 404", async () => {
    const p = await program();
    const q = await program();
    const leos = (await ok(p, 'POST', '/v1/links', { partnership_id: p.leo.partnershipId, destination: `${SITE}/`, key: 'leo-only' })).data;
    for (const tail of ['/stats', '/qr.svg', '/qr.png']) {
      expectError(await p.mine('GET', `/links/${leos.id}${tail}`), 404, 'not_found');
      expectError(await api(q, 'GET', `/v1/links/${leos.id}${tail}`), 404, 'not_found');
    }
    expectError(await p.mine('GET', `/links/${leos.id}/stats`.replace(p.maya.partnershipId, p.leo.partnershipId)), 404, 'not_found');
    const leosPortal = `/v1/portal/partnerships/${p.leo.partnershipId}/links`;
    const maya = await partnerPortal(kit.c, p.secret, p.maya.partnerId);
    expectError(await maya.call('GET', leosPortal), 404, 'not_found');
    expectError(await maya.call('POST', leosPortal, { destination: `${SITE}/` }), 404, 'not_found');
    expectError(await api(q, 'GET', `/v1/links/${leos.id}`), 404, 'not_found');
    expectError(await api(q, 'PATCH', `/v1/links/${leos.id}`, { status: 'disabled' }), 404, 'not_found');
    expect((await ok(q, 'GET', '/v1/links')).data).toEqual([]);
    // Another program's partnership is not one to give a link.
    expectError(await api(q, 'POST', '/v1/links', { partnership_id: p.leo.partnershipId, destination: `${SITE}/` }), 404, 'not_found');
    expect((await go(`/v1/go/${q.id}/leo-only`)).status).toBe(404);
    // The same key is free in another program.
    expect(
      (await api(q, 'POST', '/v1/links', { partnership_id: q.leo.partnershipId, destination: `${SITE}/`, key: 'leo-only' })).status,
    ).toBe(201);
  });
});

describe("a link's statistics and QR code", () => {
  it('counts its clicks, the referrals its visitors made and those that paid, apart from the default link', async () => {
    const p = await program();
    const link = (await p.mine('POST', '/links', { destination: `${SITE}/`, key: 'maya-pod' })).body.data;
    const [a, b] = [randomUUID(), randomUUID()];
    await click(p, 'maya-pod', a);
    await click(p, 'maya-pod', b);
    await click(p, p.maya.key);
    for (const [grId, email] of [
      [a, `a-${p.id}@buyers.test`],
      [b, `b-${p.id}@buyers.test`],
    ] as const) {
      const made = await kit.c.call('POST', '/v1/tracking/conversion', { token: p.publishable, body: { email, gr_id: grId } });
      expect(made.status).toBe(201);
    }
    await ok(p, 'POST', '/v1/payments', {
      amount: 5_000,
      currency: 'USD',
      idempotency_key: randomUUID(),
      referral_email: `a-${p.id}@buyers.test`,
    });
    const expected = { clicks: 2, referrals: 2, conversions: 1 };
    expect((await p.mine('GET', `/links/${link.id}/stats`)).body.data.attributes).toEqual(expected);
    expect((await ok(p, 'GET', `/v1/links/${link.id}/stats`)).data.attributes).toEqual(expected);
  });

  it('answers its short address as SVG and as a 512-pixel PNG, the same at every download', async () => {
    const p = await program();
    const link = (await p.mine('POST', '/links', { destination: `${SITE}/`, key: 'maya-qr' })).body.data;
    const portal = await partnerPortal(kit.c, p.secret, p.maya.partnerId);
    const download = (path: string) => fetch(kit.c.url + path, { headers: { cookie: portal.cookie, origin: kit.c.url } });
    const base = `/v1/portal/partnerships/${p.maya.partnershipId}/links/${link.id}`;
    const svg = await download(`${base}/qr.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get('cache-control')).toBe('private, max-age=86400');
    const markup = await svg.text();
    expect(markup).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]* viewBox="0 0 (\d+) \1"/);
    expect(markup).toMatch(/<path [^>]*d="M/);
    const png = await download(`${base}/qr.png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([512, 512]);
    const again = Buffer.from(await (await download(`${base}/qr.png`)).arrayBuffer());
    expect(again.equals(bytes)).toBe(true);
    // The owner's download is the same image.
    const owners = await fetch(`${kit.c.url}/v1/links/${link.id}/qr.svg`, { headers: { authorization: `Bearer ${p.secret}` } });
    expect(await owners.text()).toBe(markup);
  });
});
