// Partners on their own (docs/portal.md): applying on a program's public page, the owner
// accepting, signing in to the portal, and seeing only their own records, e-mails masked.
// Every partner-scoped route is tried with another partner's ids and another program's.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../packages/collector/src/app.js';
import type { Route } from '../../packages/collector/src/api/route.js';
import { expectError, seedPartner, startCollector, type CallOptions, type Collector, type Reply } from './harness.js';
import { asOwner, ownerSession } from './session.js';
import { portalLinkIn, portalTokenFor, startSmtp } from './smtp.js';

let c: Collector;
beforeAll(async () => {
  c = await startCollector({ limits: { perToken: 0, perIp: 0, trustProxy: 0, applicationsPerHour: 0 } });
});
afterAll(() => c.close());

type Call = (method: string, path: string, opts?: CallOptions) => Promise<Reply>;

function partnerCookieOf(reply: Reply): string | undefined {
  return reply.headers
    .getSetCookie()
    .find((x) => x.startsWith('tally_partner='))
    ?.split(';')[0];
}

/** Calls as a browser signed in to the portal does: the cookie and the collector's own Origin. */
const asPartner =
  (cookie: string): Call =>
  (method, path, opts = {}) =>
    c.call(method, path, { ...opts, token: null, headers: { cookie, origin: c.url, ...opts.headers } });

let pages = 0;
/** A program of its own with its public page up. */
async function programWithPage(changes: Record<string, unknown> = {}) {
  const p = await c.otherProgram();
  const slug = `program-${++pages}`;
  const set = await c.call('PATCH', '/v1/program', {
    token: p.secret,
    body: { slug, description: 'Earn 20% on every payment.', page_enabled: true, ...changes },
  });
  expect(set.status).toBe(200);
  return { ...p, slug };
}

let people = 0;
async function applyTo(slug: string, body: Record<string, unknown> = {}) {
  const n = ++people;
  const reply = await c.call('POST', `/v1/public/programs/${slug}/applications`, {
    token: null,
    body: {
      name: `Applicant ${n}`,
      email: `applicant${n}@partners.test`,
      password: 'a long partner password',
      paypal_email: `pay${n}@partners.test`,
      note: 'I run a blog.',
      ...body,
    },
  });
  return { reply, email: (body.email as string | undefined) ?? `applicant${n}@partners.test`, cookie: partnerCookieOf(reply) };
}

describe('the public page and applying', () => {
  it('shows the terms while the page is up; 404 while it is off or unknown', async () => {
    const p = await programWithPage({ recurring_months: 12, hold_days: 30, minimum_payout: { USD: 5000 } });
    const page = await c.call('GET', `/v1/public/programs/${p.slug}`, { token: null });
    expect(page.status).toBe(200);
    expect(page.body.data.attributes).toMatchObject({
      name: 'Other',
      commission_rate_bps: 2000,
      recurring_months: 12,
      hold_days: 30,
      minimum_payout: { USD: 5000 },
      auto_accept: false,
    });
    await c.call('PATCH', '/v1/program', { token: p.secret, body: { page_enabled: false } });
    expectError(await c.call('GET', `/v1/public/programs/${p.slug}`, { token: null }), 404, 'not_found');
    expectError((await applyTo(p.slug)).reply, 404, 'not_found');
    expectError(await c.call('GET', '/v1/public/programs/no-such-program', { token: null }), 404, 'not_found');
  });

  it('a page needs an address, and two programs cannot share one', async () => {
    const p = await c.otherProgram();
    expectError(await c.call('PATCH', '/v1/program', { token: p.secret, body: { page_enabled: true } }), 422, 'invalid_field');
    const q = await programWithPage();
    expectError(await c.call('PATCH', '/v1/program', { token: p.secret, body: { slug: q.slug } }), 409, 'conflict');
  });

  it('an application makes a pending partnership with the note, signs the applicant in, and the owner accepts it', async () => {
    const p = await programWithPage();
    const { reply, cookie, email } = await applyTo(p.slug);
    expect(reply.status).toBe(201);
    expect(reply.body.data.attributes.state).toBe('pending');
    expect(cookie).toBeDefined();
    const me = asPartner(cookie!);
    const [mine] = (await me('GET', '/v1/portal/partnerships')).body.data;
    // Pending: no link to share yet.
    expect(mine.attributes).toMatchObject({ state: 'pending', referral_link: null, key: null });
    const owner = await c.call('GET', '/v1/partnerships?state_eq=pending', { token: p.secret });
    expect(owner.body.data[0].attributes).toMatchObject({ created_by: 'partner', application_note: 'I run a blog.' });
    const partner = await c.call('GET', `/v1/partners/${owner.body.data[0].relationships.partner.data.id}`, { token: p.secret });
    expect(partner.body.data.attributes.email).toBe(email);
    await c.call('PATCH', `/v1/partnerships/${mine.id}`, { token: p.secret, body: { state: 'accepted' } });
    const accepted = (await me('GET', `/v1/portal/partnerships/${mine.id}`)).body.data.attributes;
    expect(accepted.state).toBe('accepted');
    expect(accepted.referral_link).toMatch(/\?red=applicant-\d+$/);
  });

  it('auto-accept makes the partnership accepted at once; a declined partner sees no link', async () => {
    const p = await programWithPage({ auto_accept: true });
    const { reply, cookie } = await applyTo(p.slug);
    expect(reply.body.data.attributes.state).toBe('accepted');
    const me = asPartner(cookie!);
    const [mine] = (await me('GET', '/v1/portal/partnerships')).body.data;
    expect(mine.attributes.referral_link).toContain('?red=');
    await c.call('PATCH', `/v1/partnerships/${mine.id}`, { token: p.secret, body: { state: 'declined' } });
    expect((await me('GET', '/v1/portal/partnerships')).body.data[0].attributes).toMatchObject({
      state: 'declined',
      referral_link: null,
      key: null,
      competitor_slugs: [],
    });
  });

  it('one account across programs: applying elsewhere takes its password; a wrong one is refused', async () => {
    const a = await programWithPage();
    const b = await programWithPage();
    const first = await applyTo(a.slug, { email: 'roaming@partners.test' });
    expectError(
      (await applyTo(b.slug, { email: 'Roaming@Partners.test', password: 'not the password at all' })).reply,
      401,
      'invalid_credentials',
    );
    const second = await applyTo(b.slug, { email: 'roaming@partners.test' });
    expect(second.reply.status).toBe(201);
    const programs = (await asPartner(first.cookie!)('GET', '/v1/portal/partnerships')).body.data.map((x: any) => x.attributes.program_id);
    expect(programs.sort()).toEqual([a.id, b.id].sort());
    // The same program twice: one partnership only.
    expectError((await applyTo(a.slug, { email: 'roaming@partners.test' })).reply, 409, 'conflict');
  });

  it('the honeypot: a filled-in hidden field gets the answer a person gets, and nothing is kept', async () => {
    const p = await programWithPage();
    const { reply, cookie } = await applyTo(p.slug, { website: 'http://spam.example' });
    expect(reply.status).toBe(201);
    expect(reply.body.data.attributes.state).toBe('pending');
    expect(cookie).toBeUndefined();
    expect((await c.call('GET', '/v1/partners', { token: p.secret })).body.data).toEqual([]);
  });

  it('the per-address limit: over it, 429 with Retry-After, and nothing is kept', async () => {
    const limited = await startCollector({ limits: { perToken: 0, perIp: 0, trustProxy: 0, applicationsPerHour: 3 } });
    try {
      const p = await limited.otherProgram();
      await limited.call('PATCH', '/v1/program', { token: p.secret, body: { slug: 'limited', page_enabled: true } });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await limited.call('POST', '/v1/public/programs/limited/applications', {
          token: null,
          body: { name: `Spammer ${i}`, email: `spam${i}@spam.test`, password: 'a long partner password' },
        });
        statuses.push(r.status);
        if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect(statuses).toEqual([201, 201, 201, 429, 429]);
      expect((await limited.call('GET', '/v1/partners', { token: p.secret })).body.data).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });

  it('validates: a short password, a bad e-mail, a missing name', async () => {
    const p = await programWithPage();
    expectError((await applyTo(p.slug, { password: 'short' })).reply, 422, 'invalid_field');
    expectError((await applyTo(p.slug, { email: 'not-an-address' })).reply, 422, 'invalid_email');
    expectError((await applyTo(p.slug, { name: '' })).reply, 422, 'invalid_field');
    expect((await c.call('GET', '/v1/partners', { token: p.secret })).body.data).toEqual([]);
  });
});

describe('signing in', () => {
  it('signs in and out; a wrong password is refused; the owner can invite a partner made by hand', async () => {
    const p = await c.otherProgram();
    const made = await seedPartner(c, { token: p.secret, email: 'byhand@partners.test' });
    const invited = await c.call('POST', `/v1/partners/${made.partnerId}/invitation`, { token: p.secret });
    expect(invited.status).toBe(201);
    expect(invited.body.meta.emailed).toBe(false);
    const token = invited.body.meta.link.split('#')[1];
    const redeemed = await c.call('POST', '/v1/portal/auth/redeem', { token: null, body: { token, password: 'my own portal password' } });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.data.attributes.email).toBe('byhand@partners.test');
    // A link works once.
    expectError(
      await c.call('POST', '/v1/portal/auth/redeem', { token: null, body: { token, password: 'another password here' } }),
      404,
      'not_found',
    );
    expectError(
      await c.call('POST', '/v1/portal/auth/sign_in', { token: null, body: { email: 'byhand@partners.test', password: 'wrong password' } }),
      401,
      'invalid_credentials',
    );
    const signed = await c.call('POST', '/v1/portal/auth/sign_in', {
      token: null,
      body: { email: 'BYHAND@partners.test', password: 'my own portal password' },
    });
    const me = asPartner(partnerCookieOf(signed)!);
    expect((await me('GET', '/v1/portal/partnerships')).body.data.map((x: any) => x.id)).toEqual([made.partnershipId]);
    expect((await me('POST', '/v1/portal/auth/sign_out')).status).toBe(204);
    expectError(await me('GET', '/v1/portal/partnerships'), 401, 'unauthorized');
  });

  it("a partner's session opens no owner route, and an owner's none of the portal's", async () => {
    const p = await programWithPage();
    const { cookie } = await applyTo(p.slug);
    const me = asPartner(cookie!);
    for (const r of ROUTES.filter((x) => x.access === 'secret' || x.access === 'session')) {
      const reply = await me(
        r.method.toUpperCase(),
        r.path.replace(/:(\w+)/g, '01900000-0000-7000-8000-000000000000'),
        r.body ? { body: {} } : {},
      );
      expectSignedOut(reply, r);
    }
    // Nor does an owner's secret token, or an owner's session, open any portal route, even
    // one of the owner's own partnerships.
    const [ship] = (await me('GET', '/v1/portal/partnerships')).body.data;
    const owner = await ownerSession(c, { programId: p.id });
    const partnerRoutes = ROUTES.filter((r) => r.access === 'partner');
    expect(partnerRoutes.length).toBeGreaterThanOrEqual(10);
    for (const r of partnerRoutes) {
      const path = r.path.replace(':id', ship.id) + (r.query ? '?from=2025-03-01&to=2025-03-01' : '');
      const opts = r.body ? { body: {} } : {};
      expectSignedOut(await c.call(r.method.toUpperCase(), path, { token: p.secret, ...opts }), r);
      expectSignedOut(await owner.call(r.method.toUpperCase(), path, opts), r);
    }
    // Nor does the partner's cookie under the owner's cookie name.
    const swapped = asOwner(c, cookie!.replace('tally_partner=', 'tally_session='));
    expect((await swapped('GET', '/v1/partners')).status).toBe(401);
    // A change without the collector's Origin is refused (CSRF).
    expectError(
      await c.call('PATCH', '/v1/portal/account', {
        token: null,
        headers: { cookie: cookie!, origin: 'https://evil.example' },
        body: { name: 'x' },
      }),
      403,
      'cross_origin_request',
    );
  });

  it('locks the account after five wrong passwords in a row', async () => {
    const p = await programWithPage();
    const { email } = await applyTo(p.slug);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await c.call('POST', '/v1/portal/auth/sign_in', { token: null, body: { email, password: `wrong ${i}` } })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });
});

/** Signed out, for a route: "am I signed in?" answers `data: null`, every other route 401. */
function expectSignedOut(reply: Reply, r: Route): void {
  if (r.optionalSession) expect(reply.body, `${r.method} ${r.path}`).toEqual({ data: null });
  else expectError(reply, 401, 'unauthorized');
}

describe('what a partner sees, and nothing more', () => {
  it("their own referrals (masked), commissions, payouts and totals; another partner's or program's ids are 404 on every route", async () => {
    const p = await programWithPage({ auto_accept: true });
    const alice = await applyTo(p.slug);
    const bob = await applyTo(p.slug);
    const asAlice = asPartner(alice.cookie!);
    const asBob = asPartner(bob.cookie!);
    const [aliceShip] = (await asAlice('GET', '/v1/portal/partnerships')).body.data;
    const [bobShip] = (await asBob('GET', '/v1/portal/partnerships')).body.data;
    // A visitor through Alice's link signs up and pays.
    await c.call('POST', '/v1/tracking/click', { token: p.publishable, body: { gr_id: 'portal-v1', pk: aliceShip.attributes.key } });
    const conv = await c.call('POST', '/v1/tracking/conversion', {
      token: p.publishable,
      body: { email: 'jane.doe@example.com', gr_id: 'portal-v1', pk: aliceShip.attributes.key },
    });
    await c.call('POST', '/v1/payments', {
      token: p.secret,
      body: { amount: 10_000, currency: 'USD', referral_id: conv.body.data.id, idempotency_key: 'portal-pay-1' },
    });

    const refs = (await asAlice('GET', `/v1/portal/partnerships/${aliceShip.id}/referrals`)).body;
    expect(refs.data.map((r: any) => r.attributes.email)).toEqual(['j•••@e•••.com']);
    expect(JSON.stringify(refs)).not.toContain('jane');
    expect(refs.meta.pagination).toBeDefined();
    const coms = (await asAlice('GET', `/v1/portal/partnerships/${aliceShip.id}/commissions`)).body.data;
    expect(coms.map((x: any) => [x.attributes.state, x.attributes.amount])).toEqual([['pending', 2_000]]);
    const stats = (await asAlice('GET', `/v1/portal/partnerships/${aliceShip.id}/stats?from=2025-03-01&to=2025-03-01`)).body.data.attributes
      .totals;
    expect(stats).toMatchObject({ clicks: 1, referrals: 1, customers: 1, commissions: { USD: 2_000 } });
    expect((await asAlice('GET', `/v1/portal/partnerships/${aliceShip.id}`)).body.data.attributes.earnings).toEqual({
      USD: { pending: 2_000, payable: 2_000, paid: 0, next_payable_at: null, next_payout: { amount: 2_000, reason: null, minimum: 1 } },
    });

    // Paid out: the partner sees the payout and the commission paid.
    const batch = (await c.call('POST', '/v1/payout_batches', { token: p.secret, body: {} })).body.data[0];
    await c.call('POST', `/v1/payout_batches/${batch.id}/paid`, { token: p.secret });
    expect(
      (await asAlice('GET', `/v1/portal/partnerships/${aliceShip.id}/payouts`)).body.data.map((x: any) => [
        x.attributes.state,
        x.attributes.amount,
      ]),
    ).toEqual([['paid', 2_000]]);
    expect((await asAlice('GET', `/v1/portal/partnerships/${aliceShip.id}/commissions?state_eq=paid`)).body.data).toHaveLength(1);

    // Bob, and a partner of another program, reach none of it.
    const other = await programWithPage();
    const stranger = asPartner((await applyTo(other.slug)).cookie!);
    // Each route with its own method; one with a body has a GET at its path, tried instead (a body is checked before the id).
    const portalRoutes = ROUTES.filter((r) => r.access === 'partner' && r.path.includes(':id') && (r.method === 'get' || !r.body));
    expect(portalRoutes.length).toBeGreaterThanOrEqual(5);
    for (const who of [asBob, stranger]) {
      for (const r of portalRoutes) {
        const query = r.path.endsWith('/stats') ? '?from=2025-03-01&to=2025-03-01' : r.query ? '?currency=EUR' : '';
        expectError(await who(r.method.toUpperCase(), `${r.path.replace(':id', aliceShip.id)}${query}`), 404, 'not_found');
      }
      for (const list of ['partnerships']) {
        expect(JSON.stringify((await who('GET', `/v1/portal/${list}`)).body)).not.toContain(aliceShip.id);
      }
    }
    // Bob's own pages are empty, and an owner's id of Alice's referral leads nowhere for him.
    expect((await asBob('GET', `/v1/portal/partnerships/${bobShip.id}/referrals`)).body.data).toEqual([]);
    expectError(await asBob('GET', `/v1/portal/partnerships/${conv.body.data.id}/referrals`), 404, 'not_found');
  });

  it("the partner changes their name but not their record's PayPal address, and their password (ending other sessions)", async () => {
    const p = await programWithPage();
    const { cookie, email } = await applyTo(p.slug);
    const me = asPartner(cookie!);
    // The record's address is the owner's to set; the partner's goes through the payout method.
    const refused = expectError(
      await me('PATCH', '/v1/portal/account', { body: { name: 'Not Saved', paypal_email: 'new@pay.test' } }),
      422,
      'invalid_field',
    );
    expect(refused.detail).toContain('/v1/portal/partnerships/:id/payout_method');
    const changed = await me('PATCH', '/v1/portal/account', { body: { name: 'New Name' } });
    // The address given when applying stays as it was.
    const applied = changed.body.data.attributes.paypal_email;
    expect(applied).toMatch(/^pay\d+@partners\.test$/);
    expect(changed.body.data.attributes).toEqual({ email, name: 'New Name', paypal_email: applied, locale: null });
    const [partner] = (await c.call('GET', '/v1/partners', { token: p.secret })).body.data;
    expect(partner.attributes).toMatchObject({ name: 'New Name', paypal_email: applied });
    const second = asPartner(
      partnerCookieOf(
        await c.call('POST', '/v1/portal/auth/sign_in', { token: null, body: { email, password: 'a long partner password' } }),
      )!,
    );
    expect(
      (
        await me('POST', '/v1/portal/auth/password', {
          body: { current_password: 'a long partner password', new_password: 'an even longer password' },
        })
      ).status,
    ).toBe(204);
    expect((await second('GET', '/v1/portal/account')).body).toEqual({ data: null });
    expectError(await second('GET', '/v1/portal/partnerships'), 401, 'unauthorized');
    expect((await me('GET', '/v1/portal/account')).status).toBe(200);
  });
});

/** A referral through the partnership's link that pays `amount`; resolves to the payment's key. */
let sales = 0;
async function sale(p: { publishable: string; secret: string }, key: string, amount: number): Promise<string> {
  const n = ++sales;
  // A landing first, as the snippet records it: a public conversion without one is held for review.
  await c.call('POST', '/v1/tracking/click', { token: p.publishable, body: { gr_id: `sale-${n}`, pk: key } });
  const conv = await c.call('POST', '/v1/tracking/conversion', {
    token: p.publishable,
    body: { email: `buyer${n}@customers.test`, gr_id: `sale-${n}`, pk: key },
  });
  expect(conv.status).toBe(201);
  const paid = await c.call('POST', '/v1/payments', {
    token: p.secret,
    body: { amount, currency: 'USD', referral_id: conv.body.data.id, idempotency_key: `sale-${n}` },
  });
  expect(paid.status).toBe(201);
  return `sale-${n}`;
}

describe('the portal lists page as every list does', () => {
  it("the partner's partnerships: the list envelope, state_eq, numbered pages and cursors both ways", async () => {
    const programs = [await programWithPage({ auto_accept: true }), await programWithPage(), await programWithPage({ auto_accept: true })];
    const email = `lists${++people}@partners.test`;
    let cookie = '';
    for (const p of programs) cookie = (await applyTo(p.slug, { email })).cookie ?? cookie;
    const me = asPartner(cookie);
    const all = await me('GET', '/v1/portal/partnerships');
    expect(all.body.meta.pagination).toEqual({ page: 1, per_page: 25, has_more: false });
    // Newest first, as every list.
    expect(all.body.data.map((x: any) => x.attributes.program_id)).toEqual(programs.map((p) => p.id).reverse());
    const ids: string[] = all.body.data.map((x: any) => x.id);
    expect((await me('GET', '/v1/portal/partnerships?state_eq=pending')).body.data.map((x: any) => x.id)).toEqual([ids[1]]);
    expect((await me('GET', '/v1/portal/partnerships?state_eq=accepted')).body.data.map((x: any) => x.id)).toEqual([ids[0], ids[2]]);
    const second = await me('GET', '/v1/portal/partnerships?per_page=1&page=2');
    expect([second.body.data.map((x: any) => x.id), second.body.meta.pagination]).toEqual([
      [ids[1]],
      { page: 2, per_page: 1, has_more: true },
    ]);
    // Walked by cursor, forwards and back.
    const walked: string[] = [];
    let after = '';
    for (;;) {
      const next = await me('GET', `/v1/portal/partnerships?per_page=1${after ? `&starting_after=${after}` : ''}`);
      walked.push(...next.body.data.map((x: any) => x.id));
      if (!next.body.meta.pagination.has_more) break;
      after = walked.at(-1)!;
    }
    expect(walked).toEqual(ids);
    const before = await me('GET', `/v1/portal/partnerships?per_page=5&ending_before=${ids[2]}`);
    expect([before.body.data.map((x: any) => x.id), before.body.meta.pagination]).toEqual([
      [ids[0], ids[1]],
      { page: null, per_page: 5, has_more: false },
    ]);
    // Strict as every list: another partner's id is no cursor, and filters are checked.
    const stranger = await applyTo(programs[0]!.slug);
    const [theirs] = (await asPartner(stranger.cookie!)('GET', '/v1/portal/partnerships')).body.data;
    expectError(await me('GET', `/v1/portal/partnerships?starting_after=${theirs.id}`), 400, 'invalid_parameter');
    expectError(await me('GET', '/v1/portal/partnerships?state_eq=paid'), 400, 'invalid_parameter');
    expectError(await me('GET', '/v1/portal/partnerships?program_id_eq=x'), 400, 'unknown_parameter');
  });

  it("a partnership's payouts: more than one page, filtered by the batch's state and date, by cursor both ways", async () => {
    const p = await programWithPage({ auto_accept: true });
    const alice = asPartner((await applyTo(p.slug)).cookie!);
    const [ship] = (await alice('GET', '/v1/portal/partnerships')).body.data;
    const payouts = (query = '') => alice('GET', `/v1/portal/partnerships/${ship.id}/payouts${query}`);
    const exportNow = async () => (await c.call('POST', '/v1/payout_batches', { token: p.secret, body: {} })).body.data[0].id as string;
    // Paid, then cancelled (its commission let go), then open (the next export takes it again), an hour apart.
    const times: number[] = [];
    await sale(p, ship.attributes.key, 10_000);
    times.push(c.clock.now);
    const paid = await exportNow();
    await c.call('POST', `/v1/payout_batches/${paid}/paid`, { token: p.secret });
    c.clock.now += 3600;
    await sale(p, ship.attributes.key, 20_000);
    times.push(c.clock.now);
    const cancelled = await exportNow();
    await c.call('POST', `/v1/payout_batches/${cancelled}/cancel`, { token: p.secret });
    c.clock.now += 3600;
    times.push(c.clock.now);
    const open = await exportNow();
    c.clock.now += 3600;

    const all = await payouts();
    expect(all.body.meta.pagination).toEqual({ page: 1, per_page: 25, has_more: false });
    expect(all.body.data.map((b: any) => [b.id, b.attributes.state, b.attributes.amount, b.attributes.commissions])).toEqual([
      [open, 'open', 4_000, 1],
      [cancelled, 'cancelled', 4_000, 1],
      [paid, 'paid', 2_000, 1],
    ]);
    const page2 = await payouts('?per_page=1&page=2');
    expect([page2.body.data.map((b: any) => b.id), page2.body.meta.pagination]).toEqual([
      [cancelled],
      { page: 2, per_page: 1, has_more: true },
    ]);
    expect((await payouts(`?per_page=1&starting_after=${open}`)).body.data.map((b: any) => b.id)).toEqual([cancelled]);
    const back = await payouts(`?per_page=1&ending_before=${paid}`);
    expect([back.body.data.map((b: any) => b.id), back.body.meta.pagination.has_more]).toEqual([[cancelled], true]);
    for (const [state, id] of [
      ['paid', paid],
      ['cancelled', cancelled],
      ['open', open],
    ]) {
      expect(
        (await payouts(`?state_eq=${state}`)).body.data.map((b: any) => b.id),
        state,
      ).toEqual([id]);
    }
    expect((await payouts(`?created_at_lt=${times[1]}`)).body.data.map((b: any) => b.id)).toEqual([paid]);
    expect((await payouts(`?created_at_gt=${times[0]}&state_eq=open`)).body.data.map((b: any) => b.id)).toEqual([open]);

    // A batch that holds none of Alice's commissions is no cursor of her list.
    const bob = asPartner((await applyTo(p.slug)).cookie!);
    const [bobShip] = (await bob('GET', '/v1/portal/partnerships')).body.data;
    await sale(p, bobShip.attributes.key, 10_000);
    const bobs = await exportNow();
    expect((await payouts()).body.data).toHaveLength(3);
    expectError(await payouts(`?starting_after=${bobs}`), 400, 'invalid_parameter');
    expectError(await payouts('?state_eq=pending'), 400, 'invalid_parameter');
  });
});

describe('the next payout, as the next export would pay it', () => {
  const nextPayout = async (call: Call, id: string) =>
    (await call('GET', `/v1/portal/partnerships/${id}`)).body.data.attributes.earnings.USD;

  it('is what the export pays, or nothing and why: below the minimum, clawbacks exceed earnings, no PayPal address, not accepted', async () => {
    const p = await programWithPage({ auto_accept: true, minimum_payout: { USD: 5_000 } });
    const exportNow = async () => (await c.call('POST', '/v1/payout_batches', { token: p.secret, body: {} })).body;
    const partner = async (body: Record<string, unknown> = {}) => {
      const applied = await applyTo(p.slug, body);
      const call = asPartner(applied.cookie!);
      const [ship] = (await call('GET', '/v1/portal/partnerships')).body.data;
      return { call, ship };
    };
    const alice = await partner();
    const noPaypal = await partner({ paypal_email: null });
    const declined = await partner();

    // $20 earned, the minimum is $50: the export leaves it for later, and the API says why.
    await sale(p, alice.ship.attributes.key, 10_000);
    expect(await nextPayout(alice.call, alice.ship.id)).toMatchObject({
      payable: 2_000,
      next_payout: { amount: 0, reason: 'below_minimum', minimum: 5_000 },
    });
    // No PayPal address: never paid, whatever the amount; the address is checked first.
    await sale(p, noPaypal.ship.attributes.key, 30_000);
    expect(await nextPayout(noPaypal.call, noPaypal.ship.id)).toMatchObject({
      payable: 6_000,
      next_payout: { amount: 0, reason: 'no_paypal_email' },
    });
    // Declined with a commission payable: no export takes a partnership that is not accepted.
    await sale(p, declined.ship.attributes.key, 30_000);
    await c.call('PATCH', `/v1/partnerships/${declined.ship.id}`, { token: p.secret, body: { state: 'declined' } });
    expect(await nextPayout(declined.call, declined.ship.id)).toMatchObject({
      payable: 6_000,
      next_payout: { amount: 0, reason: 'not_accepted' },
    });
    const skipped = (await exportNow()).meta.skipped.map((x: any) => [x.name, x.reason]);
    expect(skipped.sort()).toEqual(
      [
        [(await alice.call('GET', '/v1/portal/account')).body.data.attributes.name, 'below minimum payout'],
        [(await noPaypal.call('GET', '/v1/portal/account')).body.data.attributes.name, 'no paypal_email'],
      ].sort(),
    );

    // $40 more: $20 + $40 = $60, over the minimum: the next export pays exactly that.
    const second = await sale(p, alice.ship.attributes.key, 20_000);
    expect(await nextPayout(alice.call, alice.ship.id)).toMatchObject({ payable: 6_000, next_payout: { amount: 6_000, reason: null } });
    const [batch] = (await exportNow()).data;
    const [share] = (await alice.call('GET', `/v1/portal/partnerships/${alice.ship.id}/payouts`)).body.data;
    expect([share.id, share.attributes.amount]).toEqual([batch.id, 6_000]);
    // Exported: nothing is payable until it is paid, and nothing is held back either.
    expect(await nextPayout(alice.call, alice.ship.id)).toMatchObject({
      pending: 6_000,
      payable: 0,
      next_payout: { amount: 0, reason: null },
    });
    await c.call('POST', `/v1/payout_batches/${batch.id}/paid`, { token: p.secret });

    // The second payment refunded after it was paid out: a clawback of $40, which the next
    // export does not pay (it carries over to the next commissions).
    await c.call('POST', '/v1/refunds', { token: p.secret, body: { payment_id: second } });
    expect(await nextPayout(alice.call, alice.ship.id)).toMatchObject({
      payable: -4_000,
      paid: 6_000,
      next_payout: { amount: 0, reason: 'clawbacks_exceed_earnings' },
    });
    expect((await exportNow()).meta.skipped.map((x: any) => x.reason)).toContain('clawbacks exceed earnings');
  });
});

describe('e-mail, through a real SMTP server', () => {
  it('a partner who forgot the password gets a reset link by e-mail and signs in with the new one; an invitation is e-mailed, not shown', async () => {
    const inbox = await startSmtp();
    const mailing = await startCollector({ smtpUrl: inbox.url });
    try {
      const p = await mailing.otherProgram();
      await mailing.call('PATCH', '/v1/program', { token: p.secret, body: { slug: 'mailing', page_enabled: true } });
      const applied = await mailing.call('POST', '/v1/public/programs/mailing/applications', {
        token: null,
        body: { name: 'Forgetful', email: 'forgetful@partners.test', password: 'the first password' },
      });
      expect(applied.status).toBe(201);
      const asked = await mailing.call('POST', '/v1/portal/auth/reset', { token: null, body: { email: 'forgetful@partners.test' } });
      expect([asked.status, asked.body.meta.emailed]).toEqual([202, true]);
      // An unknown address is answered the same, and no message goes anywhere.
      expect((await mailing.call('POST', '/v1/portal/auth/reset', { token: null, body: { email: 'nobody@partners.test' } })).body).toEqual(
        asked.body,
      );
      const message = await inbox.waitFor('forgetful@partners.test');
      expect(message.raw).toContain('Subject: Set a new password for the partner portal');
      const link = portalLinkIn(message.raw)!;
      expect(link).toMatch(/^http:\/\/localhost:8787\/portal\/welcome#/);
      const redeemed = await mailing.call('POST', '/v1/portal/auth/redeem', {
        token: null,
        body: { token: link.split('#')[1], password: 'the second password' },
      });
      expect(redeemed.status).toBe(200);
      expectError(
        await mailing.call('POST', '/v1/portal/auth/sign_in', {
          token: null,
          body: { email: 'forgetful@partners.test', password: 'the first password' },
        }),
        401,
        'invalid_credentials',
      );
      expect(
        (
          await mailing.call('POST', '/v1/portal/auth/sign_in', {
            token: null,
            body: { email: 'forgetful@partners.test', password: 'the second password' },
          })
        ).status,
      ).toBe(200);

      const made = await seedPartner(mailing, { token: p.secret, email: 'invited@partners.test' });
      const invited = await mailing.call('POST', `/v1/partners/${made.partnerId}/invitation`, { token: p.secret });
      expect(invited.body.meta).toEqual({ link: null, emailed: true });
      expect(portalLinkIn((await inbox.waitFor('invited@partners.test')).raw)).toBeDefined();
      expect(inbox.messages.flatMap((m) => m.to)).not.toContain('nobody@partners.test');
    } finally {
      await mailing.close();
      await inbox.close();
    }
  });
});

// The review of the portal: nobody reaches an account, or a partnership, without the
// account's password or a one-time link, and the application form neither skips the
// lockout nor tells whether an address has an account (docs/portal.md, Accounts).
describe('nobody takes over an account through the application form or an invitation', () => {
  const signInAs = (email: string, password: string) =>
    c.call('POST', '/v1/portal/auth/sign_in', { token: null, body: { email, password } });
  const redeem = (token: string, password: string) => c.call('POST', '/v1/portal/auth/redeem', { token: null, body: { token, password } });
  /** An owner's partner with an accepted partnership, invited to the portal: the link handed over (no SMTP here). */
  async function invited(email: string) {
    const a = await programWithPage();
    const made = await seedPartner(c, { token: a.secret, email, paypal_email: 'owner-set@pay.test' });
    const invitation = await c.call('POST', `/v1/partners/${made.partnerId}/invitation`, { token: a.secret });
    expect(invitation.status).toBe(201);
    return { a, made, token: invitation.body.meta.link.split('#')[1] as string };
  }

  it("while B's held invitation waits, A's held link chooses no password; once B's has expired, A's link does, and B's next one takes that password", async () => {
    const email = 'wanted@partners.test';
    const fromB = await invited(email);
    const fromA = await invited(email);
    // The attack: A's owner uses the link they hold, with a password of their choosing.
    expectError(await redeem(fromA.token, 'the squatter password'), 409, 'conflict');
    expectError(await signInAs(email, 'the squatter password'), 401, 'invalid_credentials');
    expectError(await redeem(fromB.token, 'the squatter password'), 409, 'conflict');
    // A day on, B's link has expired: A's new one is the only open invitation, and the person chooses the password with it.
    c.clock.now += 24 * 3600;
    const again = await c.call('POST', `/v1/partners/${fromA.made.partnerId}/invitation`, { token: fromA.a.secret });
    expect((await redeem(again.body.meta.link.split('#')[1], 'the real partner password')).status).toBe(200);
    // B invites again: its link takes the password the person chose, and they reach both programs.
    const fromB2 = await c.call('POST', `/v1/partners/${fromB.made.partnerId}/invitation`, { token: fromB.a.secret });
    const tokenB = fromB2.body.meta.link.split('#')[1];
    expectError(await redeem(tokenB, 'the squatter password'), 401, 'invalid_credentials');
    const joined = await redeem(tokenB, 'the real partner password');
    expect(joined.status).toBe(200);
    const reached = (await asPartner(partnerCookieOf(joined)!)('GET', '/v1/portal/partnerships')).body.data.map((x: any) => x.id);
    expect(reached.sort()).toEqual([fromA.made.partnershipId, fromB.made.partnershipId].sort());
  });

  it('an invitation not yet used: applying with its address, on any page, sets no password and signs nobody in; the invitee redeems the link', async () => {
    const { a, made, token } = await invited('invitee@partners.test');
    const b = await programWithPage({ auto_accept: true });
    for (const slug of [b.slug, a.slug]) {
      const attempt = await applyTo(slug, { email: 'Invitee@partners.test', password: 'the attacker password' });
      expectError(attempt.reply, 401, 'invalid_credentials');
      expect(attempt.cookie).toBeUndefined();
    }
    // The attacker's password opens nothing, and program B kept nothing of the attempt.
    expectError(await signInAs('invitee@partners.test', 'the attacker password'), 401, 'invalid_credentials');
    expect((await c.call('GET', '/v1/partners', { token: b.secret })).body.data).toEqual([]);
    expect((await c.call('GET', `/v1/partners/${made.partnerId}`, { token: a.secret })).body.data.attributes.paypal_email).toBe(
      'owner-set@pay.test',
    );
    // The invitee's link still works, and reaches the owner's partnership.
    const redeemed = await redeem(token, 'the invitee password');
    expect(redeemed.status).toBe(200);
    const me = asPartner(partnerCookieOf(redeemed)!);
    expect((await me('GET', '/v1/portal/partnerships')).body.data.map((x: any) => x.id)).toEqual([made.partnershipId]);
    expectError(await signInAs('invitee@partners.test', 'the attacker password'), 401, 'invalid_credentials');
  });

  it("pre-registration: an account made by applying with someone's address never reaches a partnership an owner later invites that address to", async () => {
    const b = await programWithPage();
    const attacker = await applyTo(b.slug, { email: 'victim@partners.test', password: 'the attacker password' });
    expect(attacker.reply.status).toBe(201);
    const { a, made, token } = await invited('victim@partners.test');
    const programsOf = async (call: Call) =>
      (await call('GET', '/v1/portal/partnerships')).body.data.map((x: any) => x.attributes.program_id);
    const asAttacker = asPartner(attacker.cookie!);
    expect(await programsOf(asAttacker)).toEqual([b.id]);
    expectError(await asAttacker('GET', `/v1/portal/partnerships/${made.partnershipId}`), 404, 'not_found');
    // Applying on the inviting program's page with the account's password does not claim the owner's record either.
    expectError((await applyTo(a.slug, { email: 'victim@partners.test', password: 'the attacker password' })).reply, 409, 'conflict');
    // The handed-over link cannot replace the password of an account of another program:
    // it takes the account's own (the owner who holds it does not know it).
    const refused = expectError(await redeem(token, 'a password chosen by the link holder'), 401, 'invalid_credentials');
    expect(refused.detail).toContain('other programs');
    expect(await programsOf(asPartner(partnerCookieOf(await signInAs('victim@partners.test', 'the attacker password'))!))).toEqual([b.id]);
    expect((await c.call('GET', `/v1/partners/${made.partnerId}`, { token: a.secret })).body.data.attributes.paypal_email).toBe(
      'owner-set@pay.test',
    );
  });

  it("an application never claims a partner record the owner made: the owner's invitation does", async () => {
    const a = await programWithPage({ auto_accept: true });
    const made = await c.call('POST', '/v1/partners', {
      token: a.secret,
      body: { name: 'Made by hand', email: 'byowner@partners.test', paypal_email: 'owner-set@pay.test' },
    });
    const attempt = await applyTo(a.slug, { email: 'byowner@partners.test', paypal_email: 'attacker@pay.test' });
    expectError(attempt.reply, 409, 'conflict');
    expect(attempt.cookie).toBeUndefined();
    expect((await c.call('GET', '/v1/partnerships', { token: a.secret })).body.data).toEqual([]);
    expect((await c.call('GET', `/v1/partners/${made.body.data.id}`, { token: a.secret })).body.data.attributes.paypal_email).toBe(
      'owner-set@pay.test',
    );
    // Nor was an account made: the address can still be invited and claimed.
    const invitation = await c.call('POST', `/v1/partners/${made.body.data.id}/invitation`, { token: a.secret });
    expect((await redeem(invitation.body.meta.link.split('#')[1], 'the real partner password')).status).toBe(200);
  });

  it('wrong passwords given on the application form count and lock the account as signing in does, and the lock holds there too', async () => {
    const p = await programWithPage();
    const other = await programWithPage();
    const { email } = await applyTo(p.slug);
    const wrongApplication = async (i: number) => (await applyTo(other.slug, { email, password: `wrong password ${i}` })).reply;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await wrongApplication(i)).status);
    statuses.push((await signInAs(email, 'wrong password 3')).status);
    const fifth = await wrongApplication(4);
    statuses.push(fifth.status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expectError(fifth, 429, 'account_locked');
    expect(Number(fifth.headers.get('retry-after'))).toBeGreaterThan(0);
    // Locked: even the right password is refused, on the form and at sign-in; nothing is kept.
    expectError((await applyTo(other.slug, { email, password: 'a long partner password' })).reply, 429, 'account_locked');
    expectError(await signInAs(email, 'a long partner password'), 429, 'account_locked');
    expect((await c.call('GET', '/v1/partners', { token: other.secret })).body.data).toEqual([]);
    // Once the lock ends, the right password applies, and clears the count.
    c.clock.now += 61;
    expect((await applyTo(other.slug, { email, password: 'a long partner password' })).reply.status).toBe(201);
    expectError(await signInAs(email, 'wrong password 5'), 401, 'invalid_credentials');
  });

  it('with SMTP, the owner of the address takes a pre-registered account back: a reset by e-mail ends the other sessions and every older link, then a new invitation joins', async () => {
    const inbox = await startSmtp();
    const mailing = await startCollector({ smtpUrl: inbox.url });
    try {
      const pages = [];
      for (const slug of ['first', 'second']) {
        const p = await mailing.otherProgram();
        await mailing.call('PATCH', '/v1/program', { token: p.secret, body: { slug, page_enabled: true } });
        pages.push(p);
      }
      const [a, b] = pages as [(typeof pages)[number], (typeof pages)[number]];
      const applied = await mailing.call('POST', '/v1/public/programs/second/applications', {
        token: null,
        body: { name: 'Not the owner', email: 'owner-of@partners.test', password: 'the attacker password' },
      });
      const asAttacker = (path: string) =>
        mailing.call('GET', path, { token: null, headers: { cookie: partnerCookieOf(applied)!, origin: mailing.url } });
      const made = await seedPartner(mailing, { token: a.secret, email: 'owner-of@partners.test' });
      expect((await mailing.call('POST', `/v1/partners/${made.partnerId}/invitation`, { token: a.secret })).body.meta).toEqual({
        link: null,
        emailed: true,
      });
      const invitation = await portalTokenFor(inbox, 'owner-of@partners.test');
      expect((await asAttacker('/v1/portal/partnerships')).body.data.map((x: any) => x.attributes.program_id)).toEqual([b.id]);
      const redeem = (token: string, password: string) =>
        mailing.call('POST', '/v1/portal/auth/redeem', { token: null, body: { token, password } });
      // The invitation asks for the account's password; the owner of the address resets it by e-mail.
      expectError(await redeem(invitation, 'the real owner password'), 401, 'invalid_credentials');
      inbox.messages.length = 0;
      await mailing.call('POST', '/v1/portal/auth/reset', { token: null, body: { email: 'owner-of@partners.test' } });
      const reset = await portalTokenFor(inbox, 'owner-of@partners.test');
      expect((await redeem(reset, 'the real owner password')).status).toBe(200);
      expect((await asAttacker('/v1/portal/account')).body).toEqual({ data: null });
      expectError(await asAttacker('/v1/portal/partnerships'), 401, 'unauthorized');
      // The new password used up every link made before it, the invitation too: the owner invites again.
      expectError(await redeem(invitation, 'the real owner password'), 404, 'not_found');
      inbox.messages.length = 0;
      await mailing.call('POST', `/v1/partners/${made.partnerId}/invitation`, { token: a.secret });
      const again = await portalTokenFor(inbox, 'owner-of@partners.test');
      const joined = await redeem(again, 'the real owner password');
      expect(joined.status).toBe(200);
      const programs = await mailing.call('GET', '/v1/portal/partnerships', {
        token: null,
        headers: { cookie: partnerCookieOf(joined)!, origin: mailing.url },
      });
      expect(programs.body.data.map((x: any) => x.attributes.program_id).sort()).toEqual([a.id, b.id].sort());
      expectError(
        await mailing.call('POST', '/v1/portal/auth/sign_in', {
          token: null,
          body: { email: 'owner-of@partners.test', password: 'the attacker password' },
        }),
        401,
        'invalid_credentials',
      );
    } finally {
      await mailing.close();
      await inbox.close();
    }
  });

  it('the answers do not tell whether an address has an account', async () => {
    const p = await programWithPage();
    const withPassword = (await applyTo(p.slug)).email;
    await invited('not-yet@partners.test');
    const fresh = () => `fresh${++people}@partners.test`;
    const errorOf = (reply: Reply) => ({ http: reply.status, ...reply.body.errors[0] });
    // A wrong password, for an account with one or for an invited account without one yet,
    // is refused in the words the sign-in form uses for an address it does not know.
    const unknown = errorOf(await signInAs(fresh(), 'some password here'));
    for (const email of [withPassword, 'not-yet@partners.test']) {
      const reply = (await applyTo(p.slug, { email, password: 'some password here' })).reply;
      expect(errorOf(reply)).toEqual(unknown);
      expect(JSON.stringify(reply.body)).not.toMatch(/exist|account/i);
    }
    // What is wrong with the application itself is found before any account is looked at:
    // the same answer for an address with an account and for a new one.
    for (const bad of [{ password: 'short' }, { paypal_email: 'not-an-address' }]) {
      const existing = errorOf((await applyTo(p.slug, { email: withPassword, ...bad })).reply);
      const unused = errorOf((await applyTo(p.slug, { email: fresh(), ...bad })).reply);
      expect(existing).toEqual(unused);
      expect(existing.http).toBe(422);
    }
  });
});
