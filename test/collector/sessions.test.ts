// The dashboard's sign-in: one-time links, passwords, lockout, the session cookie and
// its same-origin rule, expiry, revocation, and one program's owner never reaching another's.

import { lsEvent, lsSignature, lsSubscription, newLsSecret, postLs } from './lemonsqueezy-fixtures.js';
import { basicAuth, cbEvent, customer as cbCustomer, newCbSecret, postCb } from './chargebee-fixtures.js';
import { newRcSecret, postRc, rcId, rcNotification, rcSignature } from './recurly-fixtures.js';
import { newShopifySecret, postShopify, shopifyHmac, shopifyOrder } from './shopify-fixtures.js';
import { customer as paddleCustomer, newPaddleSecret, paddleEvent, paddleSignature, postPaddle } from './paddle-fixtures.js';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../packages/collector/src/app.js';
import { expectError, PUBLIC_URL, seedPartner, startCollector, type Collector } from './harness.js';
import { asOwner, ownerSession, sessionCookieOf } from './session.js';
import { read, startSmtp } from './smtp.js';
import { customer, newSecret, postEvent, stripeEvent } from './stripe-fixtures.js';

let c: Collector;
beforeAll(async () => {
  // Webhooks may go to this machine: the other program's endpoint below is a closed local port.
  c = await startCollector({ outbound: { allowHttp: true, allowPrivate: true } });
});
afterAll(async () => {
  await c?.close();
});

const signIn = (email: string, password: string) => c.call('POST', '/v1/auth/sign_in', { token: null, body: { email, password } });
const tokenOf = (link: string) => link.slice(link.indexOf('#') + 1);

describe('the first owner', () => {
  it('signs in once with the link the first start printed, choosing an e-mail and a password', async () => {
    const link = c.running.firstSignInLink ?? '';
    expect(link.startsWith(`${PUBLIC_URL}/dashboard/welcome#`)).toBe(true);
    const body = { token: tokenOf(link), password: 'first owner password' };
    expectError(await c.call('POST', '/v1/auth/redeem', { token: null, body }), 422, 'missing_field');
    const reply = await c.call('POST', '/v1/auth/redeem', { token: null, body: { ...body, email: 'first@owner.test' } });
    expect(reply.status).toBe(200);
    expect(reply.body.data.attributes).toMatchObject({ email: 'first@owner.test', program_id: c.programId });
    const set = reply.headers.getSetCookie().find((h) => h.startsWith('tally_session='));
    expect(set).toMatch(/; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Lax$/); // no Secure on plain http
    const session = await asOwner(c, sessionCookieOf(reply) ?? '')('GET', '/v1/auth/session');
    expect(session.body.data.attributes.programs).toEqual([{ id: c.programId, name: 'My program', role: 'owner' }]);
    // One use only.
    expectError(await c.call('POST', '/v1/auth/redeem', { token: null, body: { ...body, email: 'x@owner.test' } }), 404, 'not_found');
    expect((await signIn('first@owner.test', 'first owner password')).status).toBe(200);
  });

  it('a link is good for 24 hours', async () => {
    const made = await c.call('POST', '/v1/members', { body: { email: 'late@owner.test' } });
    expect(made.status).toBe(201);
    expect(made.body.data.attributes).toMatchObject({ email: 'late@owner.test', active: false });
    const token = tokenOf(made.body.meta.sign_in_link);
    c.clock.now += 24 * 3600;
    try {
      expectError(
        await c.call('POST', '/v1/auth/redeem', { token: null, body: { token, password: 'late owner password' } }),
        404,
        'not_found',
      );
    } finally {
      c.clock.now -= 24 * 3600;
    }
    // A new invitation makes a new link.
    const again = await c.call('POST', '/v1/members', { body: { email: 'late@owner.test' } });
    const redeemed = await c.call('POST', '/v1/auth/redeem', {
      token: null,
      body: { token: tokenOf(again.body.meta.sign_in_link), password: 'late owner password' },
    });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.data.attributes.email).toBe('late@owner.test');
  });

  it('a short password is refused and the link stays usable', async () => {
    const made = await c.call('POST', '/v1/members', { body: { email: 'short@owner.test' } });
    const token = tokenOf(made.body.meta.sign_in_link);
    expectError(await c.call('POST', '/v1/auth/redeem', { token: null, body: { token, password: 'short' } }), 422, 'invalid_field');
    expect((await c.call('POST', '/v1/auth/redeem', { token: null, body: { token, password: 'long enough now' } })).status).toBe(200);
  });
});

describe('passwords', () => {
  it('a wrong password and an unknown address get the same 401', async () => {
    const o = await ownerSession(c);
    const wrong = expectError(await signIn(o.email, 'not the password'), 401, 'invalid_credentials');
    const unknown = expectError(await signIn('nobody@owners.test', 'not the password'), 401, 'invalid_credentials');
    expect(unknown.detail).toBe(wrong.detail);
  });

  it('five wrong passwords in a row lock the account, for longer each time, and the right one then resets', async () => {
    const o = await ownerSession(c);
    for (let i = 1; i <= 4; i++) expectError(await signIn(o.email, `wrong ${i}`), 401, 'invalid_credentials');
    const fifth = await signIn(o.email, 'wrong 5');
    expectError(fifth, 429, 'account_locked');
    expect(fifth.headers.get('retry-after')).toBe('60');
    // Locked: even the right password is refused, and nothing is checked.
    expectError(await signIn(o.email, o.password), 429, 'account_locked');
    c.clock.now += 61;
    const sixth = await signIn(o.email, 'wrong 6');
    expect(sixth.headers.get('retry-after')).toBe('120');
    c.clock.now += 121;
    expect((await signIn(o.email, o.password)).status).toBe(200);
    expectError(await signIn(o.email, 'wrong again'), 401, 'invalid_credentials'); // the count started over
  });

  it('a new password ends every other session, and the old one no longer signs in', async () => {
    const o = await ownerSession(c);
    const other = asOwner(c, sessionCookieOf(await signIn(o.email, o.password)) ?? '');
    expect((await other('GET', '/v1/partners')).status).toBe(200);
    expectError(
      await o.call('POST', '/v1/auth/password', { body: { current_password: 'wrong password', new_password: 'a new password' } }),
      401,
      'invalid_credentials',
    );
    expect(
      (await o.call('POST', '/v1/auth/password', { body: { current_password: o.password, new_password: 'a new password' } })).status,
    ).toBe(204);
    expect((await o.call('GET', '/v1/partners')).status).toBe(200);
    expectError(await other('GET', '/v1/partners'), 401, 'unauthorized');
    expectError(await signIn(o.email, o.password), 401, 'invalid_credentials');
    expect((await signIn(o.email, 'a new password')).status).toBe(200);
  });
});

describe('the session', () => {
  it('acts like the secret token on every /v1 route of its program', async () => {
    const o = await ownerSession(c);
    const made = await o.call('POST', '/v1/partners', { body: { name: 'By session', email: 'by-session@partners.test' } });
    expect(made.status).toBe(201);
    const read = await o.call('GET', `/v1/partners/${made.body.data.id}`);
    expect(read.body.data.attributes.name).toBe('By session');
    // A publishable-token route is not a session's: tracking belongs to the snippet.
    expect((await o.call('GET', '/v1/referrals')).status).toBe(200);
  });

  it('refuses a change from another origin, or with no origin, and changes nothing (CSRF)', async () => {
    const o = await ownerSession(c);
    const before = (await c.call('GET', '/v1/partners?per_page=50')).body.data.length;
    const body = { name: 'Forged', email: 'forged@partners.test' };
    expectError(await o.call('POST', '/v1/partners', { body, headers: { origin: 'https://evil.test' } }), 403, 'cross_origin_request');
    expectError(await o.call('POST', '/v1/partners', { body, headers: { origin: '' } }), 403, 'cross_origin_request');
    expect((await c.call('GET', '/v1/partners?per_page=50')).body.data.length).toBe(before);
    // The configured public origin is the dashboard's too.
    expect((await o.call('POST', '/v1/partners', { body, headers: { origin: PUBLIC_URL } })).status).toBe(201);
    // A read is answered whatever its origin: SameSite=Lax keeps other sites' requests
    // from carrying the cookie at all, and without CORS headers no other page reads the answer.
    const read = await o.call('GET', '/v1/partners', { headers: { origin: 'https://evil.test' } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('ends on sign-out: the cookie is cleared and no longer works', async () => {
    const o = await ownerSession(c);
    const out = await o.call('POST', '/v1/auth/sign_out');
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^tally_session=; Path=\/; Max-Age=0;/);
    expectError(await o.call('GET', '/v1/partners'), 401, 'unauthorized');
    // Asking whether one is signed in is not an error: a signed-out browser logs nothing.
    const asked = await o.call('GET', '/v1/auth/session');
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ data: null });
  });

  it('expires after 14 days without use, and lives on while used', async () => {
    const o = await ownerSession(c);
    const start = c.clock.now;
    try {
      c.clock.now = start + 10 * 86400;
      expect((await o.call('GET', '/v1/partners')).status).toBe(200);
      c.clock.now = start + 20 * 86400;
      expect((await o.call('GET', '/v1/partners')).status).toBe(200);
      c.clock.now = start + 34 * 86400 + 1;
      expectError(await o.call('GET', '/v1/partners'), 401, 'unauthorized');
    } finally {
      c.clock.now = start;
    }
  });

  it('is stored only as a hash', async () => {
    const o = await ownerSession(c);
    const token = o.cookie.split('=')[1] ?? '';
    const rows = await c.running.db.all<{ hash: string }>('SELECT hash FROM sessions');
    expect(rows.some((r) => r.hash === token)).toBe(false);
    expect(rows.some((r) => r.hash === createHash('sha256').update(token).digest('hex'))).toBe(true);
  });
});

describe('programs', () => {
  it("an owner of one program reaches nothing of another's, by any route, until invited there", async () => {
    const other = await c.otherProgram();
    const theirs = await seedPartner(c, { token: other.secret });
    const o = await ownerSession(c);
    const changes = [
      [`/v1/partners/${theirs.partnerId}`, { name: 'Taken' }],
      [`/v1/partnerships/${theirs.partnershipId}`, { state: 'declined' }],
    ] as const;
    for (const [path, change] of changes) {
      expectError(await o.call('GET', path), 404, 'not_found');
      expectError(await o.call('PATCH', path, { body: change }), 404, 'not_found');
    }
    expectError(await o.call('DELETE', `/v1/partners/${theirs.partnerId}`), 404, 'not_found');
    const list = await o.call('GET', `/v1/referrals?partner_id_eq=${theirs.partnerId}`);
    expect(list.body.data).toEqual([]);
    expectError(await o.call('POST', '/v1/auth/program', { body: { program_id: other.id } }), 404, 'not_found');

    // Invited to the other program too, the same person accepts with their own password and switches between the two.
    const invited = await c.call('POST', '/v1/members', { token: other.secret, body: { email: o.email } });
    const token = new URL(invited.body.meta.sign_in_link).hash.slice(1);
    expect((await c.call('POST', '/v1/auth/redeem', { token: null, body: { token, password: o.password } })).status).toBe(200);
    const switched = await o.call('POST', '/v1/auth/program', { body: { program_id: other.id } });
    expect(switched.body.data.attributes.program_id).toBe(other.id);
    expect(switched.body.data.attributes.programs.map((p: { id: string }) => p.id).sort()).toEqual([c.programId, other.id].sort());
    expect((await o.call('GET', `/v1/partners/${theirs.partnerId}`)).status).toBe(200);
    await o.call('POST', '/v1/auth/program', { body: { program_id: c.programId } });
    expectError(await o.call('GET', `/v1/partners/${theirs.partnerId}`), 404, 'not_found');
  });

  it("reads none of another program's records by id, on any route, with a session", async () => {
    const other = await c.otherProgram();
    const theirs = await seedPartner(c, { token: other.secret, paypal_email: 'theirs@pay.test' });
    const as = (method: string, path: string, body?: unknown) => c.call(method, path, { token: other.secret, body });
    await as('POST', '/v1/tracking/click', { gr_id: 'o1', pk: theirs.key });
    const referral = (await as('POST', '/v1/tracking/conversion', { email: 'theirs@buyer.test', gr_id: 'o1', pk: theirs.key })).body.data;
    const payment = (await as('POST', '/v1/payments', { amount: 500, currency: 'USD', referral_id: referral.id, idempotency_key: 'o-1' }))
      .body;
    const batch = (await as('POST', '/v1/payout_batches', {})).body.data[0];
    // Paid, so that it has an invoice of theirs too.
    await as('POST', `/v1/payout_batches/${batch.id}/paid`);
    const [invoice] = (await as('GET', '/v1/invoices')).body.data;
    const click = (await as('GET', '/v1/clicks')).body.data[0];
    const token = (await as('GET', '/v1/tokens')).body.data[0];
    const member = (await as('POST', '/v1/members', { email: 'their-owner@owners.test' })).body.data;
    const signing = newSecret();
    const stripeSecret = (await as('POST', '/v1/integrations/stripe/secrets', { secret: signing })).body;
    const webhook = c.url + new URL(stripeSecret.meta.endpoint_url).pathname;
    const event = (await postEvent(webhook, stripeEvent('customer.created', customer({})), signing, { timestamp: c.clock.now })).body.data;
    const paddleSigning = newPaddleSecret();
    const paddleSecret = (await as('POST', '/v1/integrations/paddle/secrets', { secret: paddleSigning })).body;
    const paddleBody = JSON.stringify(paddleEvent('customer.created', paddleCustomer({ email: 'their-customer@buyer.test' })));
    const endpointId = new URL(paddleSecret.meta.endpoint_url).pathname.split('/').pop()!;
    const paddle = (await postPaddle(c, endpointId, paddleBody, paddleSignature(paddleBody, paddleSigning, Math.floor(Date.now() / 1000))))
      .body.data;
    const lsSigning = newLsSecret();
    const lsSecret = (await as('POST', '/v1/integrations/lemonsqueezy/secrets', { secret: lsSigning })).body;
    const lsBody = JSON.stringify(lsEvent('subscription_cancelled', lsSubscription({ email: 'their-customer@buyer.test' })));
    const ls = (await postLs(c, endpointId, lsBody, lsSignature(lsBody, lsSigning))).body.data;
    const cbSigning = newCbSecret();
    const cbSecret = (await as('POST', '/v1/integrations/chargebee/secrets', { secret: cbSigning })).body;
    const cbBody = JSON.stringify(cbEvent('customer_changed', { customer: cbCustomer({ email: 'their-customer@buyer.test' }) }));
    const cb = (await postCb(c, endpointId, cbBody, basicAuth(cbSigning))).body.data;
    // A notification Tally only records (canceled, not expired): it asks Recurly's API nothing.
    const rcSigning = newRcSecret();
    const rcSecret = (await as('POST', '/v1/integrations/recurly/secrets', { secret: rcSigning })).body;
    const rcBody = JSON.stringify(rcNotification('subscription', 'canceled', rcId(), c.clock.now));
    const rc = (await postRc(c, endpointId, rcBody, rcSignature(rcBody, [rcSigning], c.clock.now * 1000))).body.data;
    const shopifySigning = newShopifySecret();
    const shopifySecret = (await as('POST', '/v1/integrations/shopify/secrets', { secret: shopifySigning })).body;
    const shopifyBody = JSON.stringify(shopifyOrder({ email: 'their-customer@buyer.test', subtotal: 1_000 }));
    const shopify = (
      await postShopify(c, endpointId, shopifyBody, { topic: 'orders/paid', hmac: shopifyHmac(shopifyBody, shopifySigning) })
    ).body.data;
    const endpoint = (await as('POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled: false })).body.data;
    const delivery = (await as('POST', `/v1/webhook_endpoints/${endpoint.id}/test`)).body.data;
    const group = (await as('POST', '/v1/groups', { name: 'Theirs' })).body.data;
    const reward = (await as('POST', `/v1/groups/${group.id}/rewards`, { event: 'lead', kind: 'flat', amount: 100, currency: 'USD' })).body
      .data;
    await as('PATCH', `/v1/partnerships/${theirs.partnershipId}`, { group_id: group.id });
    const [move] = (await as('GET', '/v1/group_moves')).body.data;
    const discount = (await as('POST', '/v1/discounts', { name: 'Theirs', kind: 'percent', amount: 1000, duration: { kind: 'once' } })).body
      .data;
    const code = (
      await as('POST', '/v1/discount_codes', { partnership_id: theirs.partnershipId, code: 'THEIRS', discount_id: discount.id })
    ).body.data;
    const held = (await as('POST', '/v1/tracking/conversion', { email: 'theirs@mailinator.com', gr_id: 'o2', pk: theirs.key })).body.data;
    const decision = (await as('POST', '/v1/review_decisions', { referral_id: held.id, decision: 'reject', reason: 'throwaway' })).body
      .data;
    const resource = (await as('POST', '/v1/resources/copy', { title: 'Theirs', body: 'Their copy' })).body.data;
    const bounty = (
      await as('POST', '/v1/bounties', { name: 'Theirs', kind: 'submission', starts_at: 0, ends_at: 4e9, amount: 100, currency: 'USD' })
    ).body.data;
    const lead = (await as('POST', '/v1/leads', { partner_id: theirs.partnerId, name: 'Their lead', email: 'lead@theirs.test' })).body.data;
    const [theirEvent] = (await as('GET', '/v1/events')).body.data;
    // A draft payout run of theirs: what is payable went to the batch above, and a draft is enough to be looked up.
    const run = '01900000-0000-7000-8000-0000000000aa';
    await c.running.db.run(
      "INSERT INTO payout_runs (id, program_id, provider, state, created_by, created_at) VALUES (?, ?, 'paypal', 'draft', 'them', ?)",
      [run, other.id, Math.floor(Date.now() / 1000)],
    );
    // And a credit note of theirs, correcting that invoice.
    const note = '01900000-0000-7000-8000-0000000000cc';
    await c.running.db.run(
      `INSERT INTO credit_notes (id, program_id, partner_id, payout_id, invoice_id, cause, number, label, currency, amount, issued_at, data, created_at)
       VALUES (?, ?, ?, ?, ?, 'returned', 1, 'CN-2026-000001', 'USD', -100, 0, '{}', 0)`,
      [note, other.id, invoice.attributes.partner_id, invoice.attributes.payout_id, invoice.id],
    );
    await as('POST', `/v1/message_threads/${theirs.partnershipId}/messages`, { body: 'Theirs' });
    const broadcast = (await as('POST', '/v1/broadcasts', { bodies: { en: 'Theirs' } })).body.data;
    const theirLink = (await as('POST', '/v1/links', { partnership_id: theirs.partnershipId, destination: 'https://other.example/' })).body
      .data;
    const [theirEntry] = (await as('GET', '/v1/audit_events')).body.data;
    const ids: Record<string, string> = {
      audit_events: theirEntry.id,
      links: theirLink.id,
      groups: group.id,
      rewards: reward.id,
      group_moves: move.id,
      discounts: discount.id,
      discount_codes: code.id,
      partners: theirs.partnerId,
      partnerships: theirs.partnershipId,
      referrals: referral.id,
      payments: payment.data.id,
      commissions: payment.included[0].id,
      clicks: click.id,
      payout_batches: batch.id,
      invoices: invoice.id,
      credit_notes: note,
      tokens: token.id,
      members: member.id,
      'integrations/stripe/secrets': stripeSecret.data.id,
      'integrations/stripe/events': event.id,
      'integrations/paddle/secrets': paddleSecret.data.id,
      'integrations/paddle/events': paddle.id,
      'integrations/lemonsqueezy/secrets': lsSecret.data.id,
      'integrations/lemonsqueezy/events': ls.id,
      'integrations/chargebee/secrets': cbSecret.data.id,
      'integrations/chargebee/events': cb.id,
      'integrations/recurly/secrets': rcSecret.data.id,
      'integrations/recurly/events': rc.id,
      'integrations/shopify/secrets': shopifySecret.data.id,
      'integrations/shopify/events': shopify.id,
      billing_events: ls.id,
      webhook_endpoints: endpoint.id,
      webhook_deliveries: delivery.id,
      events: theirEvent.id,
      review_decisions: decision.id,
      payout_runs: run,
      message_threads: theirs.partnershipId,
      broadcasts: broadcast.id,
      resources: resource.id,
      bounties: bounty.id,
      leads: lead.id,
      // Another person's enrolment: a factor is its account's alone.
      'auth/factors': (await (await ownerSession(c)).call('POST', '/v1/auth/factors/totp')).body.data.id,
    };
    const o = await ownerSession(c);
    const tried: string[] = [];
    for (const r of ROUTES.filter((route) => route.path.includes(':id') && route.access !== 'partner')) {
      const plural = r.path.slice('/v1/'.length, r.path.indexOf('/:id'));
      const id = ids[plural];
      expect(id, `an id of another program for ${r.path}`).toBeDefined();
      const reply = await o.call(r.method.toUpperCase(), r.path.replace(':id', id!), r.body ? { body: {} } : {});
      // Not found: a body the route would refuse is never looked at before the record is.
      expect([404, 422], `${r.method} ${r.path}`).toContain(reply.status);
      if (reply.status === 422) expect((await o.call('GET', `/v1/${plural}/${id}`)).status).toBe(404);
      tried.push(`${r.method} ${r.path}`);
    }
    expect(tried.length).toBeGreaterThanOrEqual(15);
    // And nothing of theirs shows in any list of ours.
    for (const list of [
      'partners',
      'partnerships',
      'referrals',
      'payments',
      'commissions',
      'clicks',
      'webhook_endpoints',
      'events',
      'groups',
      'rewards',
      'group_moves',
      'resources',
      'leads',
      'audit_events',
    ]) {
      expect(JSON.stringify((await o.call('GET', `/v1/${list}`)).body), list).not.toContain(ids[list]!);
    }
  });

  it('removing a member ends their sessions for that program', async () => {
    const o = await ownerSession(c);
    const members = await c.call('GET', '/v1/members');
    const me = members.body.data.find((m: { attributes: { email?: string } }) => m.attributes.email === o.email);
    expect(me.attributes.active).toBe(true);
    expect((await c.call('DELETE', `/v1/members/${me.id}`)).status).toBe(204);
    expectError(await o.call('GET', '/v1/partners'), 401, 'unauthorized');
    expectError(await signIn(o.email, o.password), 401, 'invalid_credentials'); // no program left: the user is gone
    const other = await c.otherProgram();
    expectError(await c.call('DELETE', `/v1/members/${me.id}`, { token: other.secret }), 404, 'not_found');
  });
});

describe('an address invited by two programs: its password is chosen only by whoever reads its mail', () => {
  it("program A's owner, holding A's link, cannot choose the password while B's invitation waits; the person joins both through the e-mailed link", async () => {
    const inbox = await startSmtp();
    const mailing = await startCollector({ smtpUrl: inbox.url });
    try {
      const [a, b] = [await mailing.otherProgram(), await mailing.otherProgram()];
      const email = 'wanted@owners.test';
      const invite = async (p: { secret: string }) =>
        tokenOf((await mailing.call('POST', '/v1/members', { token: p.secret, body: { email } })).body.meta.sign_in_link);
      const redeem = (token: string, password: string) =>
        mailing.call('POST', '/v1/auth/redeem', { token: null, body: { token, password } });
      const fromB = await invite(b);
      const fromA = await invite(a);

      // The attack: A's owner uses A's link with a password of their choosing.
      const squat = await redeem(fromA, 'the squatter password');
      expectError(squat, 409, 'conflict');
      expect(squat.body.errors[0].detail).toMatch(/sent to the address/);
      expectError(
        await mailing.call('POST', '/v1/auth/sign_in', { token: null, body: { email, password: 'the squatter password' } }),
        401,
        'invalid_credentials',
      );
      // The link went to the address instead; the one A's owner holds is used up.
      await mailing.running.outbox!.drain();
      const [mail] = inbox.take();
      expect(mail!.to).toBe(email);
      const { subject, text, html } = read(mail!.raw);
      expect(subject).toMatch(/^Confirm your invitation to /);
      const link = /http:\/\/localhost:8787\/dashboard\/welcome#\S+/.exec(text)![0];
      expect(html).toContain(`href="${link}"`);
      expectError(await redeem(fromA, 'the squatter password'), 404, 'not_found');
      expect(inbox.take()).toEqual([]);

      // The person who reads the address's mail chooses the password and joins A, then joins B with it.
      const joinedA = await redeem(tokenOf(link), 'the real owner password');
      expect(joinedA.status).toBe(200);
      expect(joinedA.body.data.attributes).toMatchObject({ email, program_id: a.id });
      expectError(await redeem(fromB, 'the squatter password'), 401, 'invalid_credentials');
      const joinedB = await redeem(fromB, 'the real owner password');
      expect(joinedB.status).toBe(200);
      expect(joinedB.body.data.attributes.programs.map((p: { id: string }) => p.id).sort()).toEqual([a.id, b.id].sort());
    } finally {
      await mailing.close();
      await inbox.close();
    }
  });

  it("without SMTP neither program's link chooses it while the other waits; once one invitation is gone, the other's link does, and the person joins the second with that password", async () => {
    const [a, b] = [await c.otherProgram(), await c.otherProgram()];
    const email = 'twice@owners.test';
    const invite = async (p: { secret: string }) => (await c.call('POST', '/v1/members', { token: p.secret, body: { email } })).body;
    const redeem = (token: string, password: string) => c.call('POST', '/v1/auth/redeem', { token: null, body: { token, password } });
    const fromA = await invite(a);
    const fromB = await invite(b);
    expectError(await redeem(tokenOf(fromA.meta.sign_in_link), 'a chosen password'), 409, 'conflict');
    expectError(await redeem(tokenOf(fromB.meta.sign_in_link), 'a chosen password'), 409, 'conflict');
    // B withdraws its invitation: A's link, the only one left, makes the account.
    expect((await c.call('DELETE', `/v1/members/${fromB.data.id}`, { token: b.secret })).status).toBe(204);
    expect((await redeem(tokenOf(fromA.meta.sign_in_link), 'a chosen password')).status).toBe(200);
    const again = await invite(b);
    expect((await redeem(tokenOf(again.meta.sign_in_link), 'a chosen password')).status).toBe(200);
  });
});
