// How partners are paid (docs/payouts.md, "How partners are paid"): a partner signed in to the
// portal chooses PayPal, Stripe Connect or Wise among what the program offers, and makes it
// ready (a confirmed address, an onboarded account, a recipient made); Stripe's signed
// account.updated keeps a connected account's readiness current, in order and once each.
// Stripe and Wise are local fakes answering as their API references document; mail goes
// through a real SMTP server.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startCollector, type CallOptions, type Collector, type Reply } from './harness.js';
import { startStripeApi, type StripeApi } from './stripe-api.js';
import { newSecret, postEvent, stripeEvent } from './stripe-fixtures.js';
import { startWiseApi, type WiseApi } from './wise-api.js';
import { startSmtp, type Inbox } from './smtp.js';
import type { Json } from './programs-kit.js';
import { payoutMethodOf } from '../../packages/collector/src/modules/payout-methods/service.js';

const STRIPE_KEY = 'sk_test_payoutmethods0123456789';
const WISE_TOKEN = 'wise-program-token-0123';
const WISE_PROFILE = 16_310_001;

let c: Collector;
let stripe: StripeApi;
let wise: WiseApi;
let inbox: Inbox;
beforeAll(async () => {
  [stripe, wise, inbox] = await Promise.all([startStripeApi(STRIPE_KEY), startWiseApi(WISE_TOKEN, WISE_PROFILE), startSmtp()]);
  c = await startCollector({
    stripeApiUrl: stripe.url,
    wiseApiUrl: wise.url,
    smtpUrl: inbox.url,
    limits: { perToken: 0, perIp: 0, trustProxy: 0, applicationsPerHour: 0 },
  });
});
afterAll(async () => {
  await c?.close();
  await Promise.all([stripe?.close(), wise?.close(), inbox?.close()]);
});

interface Program {
  id: string;
  secret: string;
  slug: string;
  /** The program's Stripe webhook endpoint and its signing secret. */
  hook: string;
  signing: string;
}

const owner = (p: Program, method: string, path: string, body?: unknown) => c.call(method, path, { token: p.secret, body });
async function ok(p: Program, method: string, path: string, body?: unknown): Promise<Json> {
  const reply = await owner(p, method, path, body);
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
  return reply.body;
}

let programs = 0;
/** A program of its own with its page up, its Stripe key and endpoint, and `settings` for payouts. */
async function program(settings?: Json): Promise<Program> {
  const made = await c.otherProgram();
  const slug = `payouts-${++programs}`;
  const signing = newSecret();
  const p = { id: made.id, secret: made.secret, slug, signing, hook: '' };
  await ok(p, 'PATCH', '/v1/program', { slug, page_enabled: true, stripe_api_key: STRIPE_KEY });
  const added = await ok(p, 'POST', '/v1/integrations/stripe/secrets', { secret: signing, label: 'connect' });
  p.hook = c.url + new URL(added.meta.endpoint_url).pathname;
  if (settings) await ok(p, 'PATCH', '/v1/program/payout_settings', settings);
  return p;
}

type Call = (method: string, path: string, body?: unknown) => Promise<Reply>;

interface Partner {
  email: string;
  partnerId: string;
  partnershipId: string;
  call: Call;
  /** Under the partner's partnership: /v1/portal/partnerships/:id/payout_method + `path`. */
  method: (httpMethod: string, path?: string, body?: unknown) => Promise<Reply>;
}

let people = 0;
/** A partner who applied on the program's page, signed in to the portal. */
async function partnerOf(p: Program, extra: Json = {}): Promise<Partner> {
  const email = `payee${++people}@partners.test`;
  const applied = await c.call('POST', `/v1/public/programs/${p.slug}/applications`, {
    token: null,
    body: { name: `Payee ${people}`, email, password: 'a long partner password', ...extra },
  });
  expect(applied.status, JSON.stringify(applied.body)).toBe(201);
  const cookie = applied.headers
    .getSetCookie()
    .find((x) => x.startsWith('tally_partner='))!
    .split(';')[0]!;
  const call: Call = (method, path, body) => c.call(method, path, { token: null, body, headers: { cookie, origin: c.url } } as CallOptions);
  const [ship] = (await call('GET', '/v1/portal/partnerships')).body.data;
  const partnerId = (await ok(p, 'GET', `/v1/partners?email_eq=${email}`)).data[0].id;
  return {
    email,
    partnerId,
    partnershipId: ship.id,
    call,
    method: (m, path = '', body) => call(m, `/v1/portal/partnerships/${ship.id}/payout_method${path}`, body),
  };
}

/** The partner's method as the partner reads it. */
const mine = async (who: Partner): Promise<Json> => (await who.method('GET')).body.data.attributes;
/** The same as the program's owner reads it. */
const ownersView = async (p: Program, who: Partner): Promise<Json> =>
  (await ok(p, 'GET', `/v1/partners/${who.partnerId}/payout_method`)).data.attributes;

/** Stripe's account.updated for a connected account, signed with the program's secret. */
function accountUpdated(p: Program, account: string, state: { payouts: boolean; due: string[] }, opts: { id?: string; created: number }) {
  const object = {
    ...stripe.accounts.get(account),
    payouts_enabled: state.payouts,
    requirements: { currently_due: state.due, past_due: [] },
  };
  const event = { ...stripeEvent('account.updated', object, { id: opts.id, created: opts.created }), account };
  return postEvent(p.hook, event, p.signing, { timestamp: c.clock.now });
}

describe('the program offers', () => {
  it('PayPal alone by default, with no country rule; the owner changes what is offered and to whom', async () => {
    const p = await program();
    const defaults = (await ok(p, 'GET', '/v1/program/payout_settings')).data.attributes;
    expect(defaults).toEqual({
      offered: ['paypal'],
      countries: {},
      wise_api_token_hint: null,
      wise_profile_id: null,
      wise_source_currency: 'USD',
      schedule: { every: 'off', day: 1, time_zone: 'UTC' },
    });
    const changed = await ok(p, 'PATCH', '/v1/program/payout_settings', {
      offered: ['paypal', 'stripe_connect'],
      countries: { stripe_connect: ['us', 'GB'] },
      wise_api_token: WISE_TOKEN,
      wise_profile_id: WISE_PROFILE,
    });
    expect(changed.data.attributes).toEqual({
      offered: ['paypal', 'stripe_connect'],
      countries: { stripe_connect: ['US', 'GB'] },
      wise_api_token_hint: '…0123',
      wise_profile_id: String(WISE_PROFILE),
      wise_source_currency: 'USD',
      schedule: { every: 'off', day: 1, time_zone: 'UTC' },
    });
    expect(JSON.stringify(changed)).not.toContain(WISE_TOKEN);
    const who = await partnerOf(p);
    expect(await mine(who)).toEqual({ ready: false, reason: 'no_method', offered: ['paypal', 'stripe_connect'] });
  });

  it('refuses bad settings in the one error shape', async () => {
    const p = await program();
    expectError(await owner(p, 'PATCH', '/v1/program/payout_settings', { offered: [] }), 422, 'invalid_field');
    expectError(await owner(p, 'PATCH', '/v1/program/payout_settings', { offered: ['bitcoin'] }), 422, 'invalid_field');
    expectError(await owner(p, 'PATCH', '/v1/program/payout_settings', { countries: { paypal: ['USA'] } }), 422, 'invalid_field');
    expectError(await owner(p, 'PATCH', '/v1/program/payout_settings', { wise_source_currency: 'QQQ' }), 422, 'invalid_field');
    expect((await ok(p, 'GET', '/v1/program/payout_settings')).data.attributes.offered).toEqual(['paypal']);
  });
});

describe('PayPal', () => {
  it('at the sign-in address is ready at once, and the partner record pays it', async () => {
    const p = await program();
    const who = await partnerOf(p);
    // The domain in any case is the same mailbox; the local part may be case-sensitive, so it is kept as given.
    const spelled = who.email.replace('@partners.test', '@Partners.TEST');
    const set = await who.method('POST', '', { method: 'paypal', paypal_email: spelled });
    expect(set.status).toBe(200);
    expect(set.body.data.attributes).toMatchObject({ method: 'paypal', ready: true, paypal_confirmed: true });
    expect(await ownersView(p, who)).toMatchObject({ method: 'paypal', ready: true });
    expect((await ok(p, 'GET', `/v1/partners/${who.partnerId}`)).data.attributes.paypal_email).toBe(spelled);
  });

  it('at another address waits for the link e-mailed to it; the link works once', async () => {
    const p = await program();
    const who = await partnerOf(p, { paypal_email: `old${people + 1}@paypal.test` });
    // The record's address (given on applying, which the owner accepts, or set by the owner) is vouched for: ready.
    expect(await mine(who)).toMatchObject({ method: 'paypal', ready: true, paypal_email: `old${people}@paypal.test` });
    const address = `wallet-${who.partnerId.slice(-6)}@paypal.test`;
    const set = await who.method('POST', '', { method: 'paypal', paypal_email: address });
    expect(set.body.data.attributes).toMatchObject({ method: 'paypal', ready: false, reason: 'unconfirmed', paypal_email: address });
    expect(await ownersView(p, who)).toMatchObject({ ready: false, reason: 'unconfirmed' });
    const message = await inbox.waitFor(address);
    expect(message.raw).toContain('Confirm your PayPal address');
    const token = /\/portal\/payout-confirm#([\w-]+)/.exec(message.raw.replace(/=\r?\n/g, ''))?.[1];
    expect(token).toBeDefined();
    const confirmed = await c.call('POST', '/v1/portal/payout_method/confirm', { token: null, body: { token } });
    expect(confirmed.status).toBe(204);
    expect(await mine(who)).toMatchObject({ method: 'paypal', ready: true, paypal_confirmed: true, paypal_email: address });
    expect((await ok(p, 'GET', `/v1/partners/${who.partnerId}`)).data.attributes.paypal_email).toBe(address);
    expectError(await c.call('POST', '/v1/portal/payout_method/confirm', { token: null, body: { token } }), 404, 'not_found');
    expectError(
      await c.call('POST', '/v1/portal/payout_method/confirm', { token: null, body: { token: 'x'.repeat(43) } }),
      404,
      'not_found',
    );
  });

  it('a run pays the address the partner confirmed, else the one the owner set on the record, never an unconfirmed one', async () => {
    const p = await program();
    const [vouched, pending, confirmed] = [await partnerOf(p), await partnerOf(p), await partnerOf(p)];
    const ownerSet = (who: Partner) => `owner-set-${who.partnerId.slice(-8)}@paypal.test`;
    const chosen = (who: Partner) => `chosen-${who.partnerId.slice(-8)}@paypal.test`;
    for (const who of [vouched, pending]) await ok(p, 'PATCH', `/v1/partners/${who.partnerId}`, { paypal_email: ownerSet(who) });
    // Chosen, not confirmed: the owner's address stands until the link is followed.
    await pending.method('POST', '', { method: 'paypal', paypal_email: chosen(pending) });
    await confirmed.method('POST', '', { method: 'paypal', paypal_email: chosen(confirmed) });
    const link = (await inbox.waitFor(chosen(confirmed))).raw.replace(/=\r?\n/g, '');
    const token = /\/portal\/payout-confirm#([\w-]+)/.exec(link)?.[1];
    expect((await c.call('POST', '/v1/portal/payout_method/confirm', { token: null, body: { token } })).status).toBe(204);
    // The owner changing the record afterwards does not outrank what the partner confirmed.
    await ok(p, 'PATCH', `/v1/partners/${confirmed.partnerId}`, { paypal_email: ownerSet(confirmed) });
    expect(await ownersView(p, vouched)).toMatchObject({ method: 'paypal', ready: true, paypal_email: ownerSet(vouched) });
    for (const who of [vouched, pending, confirmed]) {
      await ok(p, 'PATCH', `/v1/partnerships/${who.partnershipId}`, { state: 'accepted' });
      await ok(p, 'POST', '/v1/commissions', { partner_id: who.partnerId, amount: 5000, currency: 'USD' });
    }
    const run = await ok(p, 'POST', '/v1/payout_runs');
    const paidTo = Object.fromEntries(run.included.map((i: Json) => [i.attributes.partner_id, i.attributes.address]));
    expect(paidTo).toEqual({
      [vouched.partnerId]: ownerSet(vouched),
      [pending.partnerId]: ownerSet(pending),
      [confirmed.partnerId]: chosen(confirmed),
    });
  });
});

describe('Stripe Connect', () => {
  const offered = { offered: ['paypal', 'stripe_connect'], countries: { stripe_connect: ['US', 'GB'] } };

  it('is refused where the program does not offer it, or not to the country', async () => {
    const p = await program();
    const who = await partnerOf(p);
    expect(expectError(await who.method('POST', '', { method: 'stripe_connect', country: 'US' }), 422, 'invalid_field').source).toEqual({
      pointer: '/method',
    });
    await ok(p, 'PATCH', '/v1/program/payout_settings', offered);
    expect(expectError(await who.method('POST', '', { method: 'stripe_connect', country: 'FR' }), 422, 'invalid_field').source).toEqual({
      pointer: '/country',
    });
    expect(await mine(who)).toMatchObject({ ready: false, reason: 'no_method' });
  });

  it('makes one Express account, onboards it through an Account Link, and follows account.updated both ways, once each and in order', async () => {
    const p = await program(offered);
    const who = await partnerOf(p);
    const made = stripe.calls.length;
    const set = await who.method('POST', '', { method: 'stripe_connect', country: 'us' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const account = set.body.data.attributes.stripe_account_id as string;
    expect(account).toMatch(/^acct_/);
    expect(set.body.data.attributes).toMatchObject({
      method: 'stripe_connect',
      country: 'US',
      ready: false,
      reason: 'onboarding',
      payouts_enabled: false,
    });
    const create = stripe.calls.slice(made).find((x) => x.path === '/v1/accounts');
    expect(create?.form).toMatchObject({ type: 'express', country: 'US', email: who.email, 'metadata[tally_partner_id]': who.partnerId });
    // Chosen again: the same account, no second one.
    await who.method('POST', '', { method: 'stripe_connect', country: 'US' });
    expect(stripe.calls.slice(made).filter((x) => x.method === 'POST' && x.path === '/v1/accounts')).toHaveLength(1);

    const link = await who.method('POST', '/onboarding');
    expect(link.status).toBe(201);
    expect(link.body.data.attributes.url).toContain(`https://connect.stripe.com/setup/e/${account}/`);
    // Stripe sends the partner back to this partnership's Earnings page, which refreshes or asks a fresh link.
    const back = `http://localhost:8787/portal/earnings?p=${who.partnershipId}&stripe=`;
    expect(stripe.calls.at(-1)?.form).toMatchObject({
      account,
      type: 'account_onboarding',
      return_url: `${back}return`,
      refresh_url: `${back}refresh`,
    });

    const t = c.clock.now;
    const enabled = await accountUpdated(p, account, { payouts: true, due: [] }, { id: 'evt_acct_enabled', created: t + 10 });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect(await mine(who)).toMatchObject({ ready: true, payouts_enabled: true, currently_due: [] });
    expect(await ownersView(p, who)).toMatchObject({ method: 'stripe_connect', ready: true });
    expect(await payoutMethodOf(c.running.db, p.id, who.partnerId)).toMatchObject({
      method: 'stripe_connect',
      ready: true,
      stripeAccountId: account,
    });

    const due = await accountUpdated(p, account, { payouts: true, due: ['external_account'] }, { id: 'evt_acct_due', created: t + 20 });
    expect(due.status).toBe(200);
    expect(await mine(who)).toMatchObject({ ready: false, reason: 'requirements_due', currently_due: ['external_account'] });
    expect(await payoutMethodOf(c.running.db, p.id, who.partnerId)).toMatchObject({ ready: false, reason: 'requirements_due' });
    // The first event again: a duplicate, which changes nothing.
    const again = await accountUpdated(p, account, { payouts: true, due: [] }, { id: 'evt_acct_enabled', created: t + 10 });
    expect(again.status).toBe(200);
    expect(await mine(who)).toMatchObject({ ready: false, reason: 'requirements_due' });
    // An older state, delivered late under a new id, is not applied either.
    const late = await accountUpdated(p, account, { payouts: true, due: [] }, { id: 'evt_acct_late', created: t + 15 });
    expect(late.status).toBe(200);
    expect(await mine(who)).toMatchObject({ ready: false, reason: 'requirements_due' });
    const log = (await ok(p, 'GET', '/v1/integrations/stripe/events?type_eq=account.updated')).data.map((e: Json) => [
      e.id,
      e.attributes.outcome,
    ]);
    expect(log).toEqual(
      expect.arrayContaining([
        ['evt_acct_enabled', 'linked'],
        ['evt_acct_due', 'linked'],
        ['evt_acct_late', 'ignored'],
      ]),
    );

    const off = await accountUpdated(p, account, { payouts: false, due: [] }, { id: 'evt_acct_off', created: t + 30 });
    expect(off.status).toBe(200);
    expect(await mine(who)).toMatchObject({ ready: false, reason: 'onboarding', payouts_enabled: false });

    // Back from onboarding, the partner asks Stripe now.
    Object.assign(stripe.accounts.get(account)!, { payouts_enabled: true, requirements: { currently_due: [] } });
    c.clock.now = t + 60;
    const refreshed = await who.method('POST', '/refresh');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.attributes).toMatchObject({ ready: true, payouts_enabled: true });
  });

  it('an account.updated for an account no partner has changes nothing', async () => {
    const p = await program(offered);
    const stranger = { id: 'acct_1NoPartnerHere000', payouts_enabled: true, requirements: { currently_due: [] } };
    const event = { ...stripeEvent('account.updated', stranger, { created: c.clock.now }), account: stranger.id };
    const reply = await postEvent(p.hook, event, p.signing, { timestamp: c.clock.now });
    expect([reply.status, reply.body.data.attributes.outcome]).toEqual([200, 'ignored']);
  });
});

describe('Wise', () => {
  const iban = 'DE89370400440532013000';

  it('asks what Wise requires, makes a recipient from it, and keeps only its id and a masked line', async () => {
    const p = await program({ offered: ['wise'] });
    const who = await partnerOf(p);
    expect(expectError(await who.method('GET', '/wise_requirements?currency=EUR'), 422, 'invalid_field').source).toEqual({
      pointer: '/method',
    });
    await ok(p, 'PATCH', '/v1/program/payout_settings', {
      wise_api_token: WISE_TOKEN,
      wise_profile_id: WISE_PROFILE,
      wise_source_currency: 'gbp',
    });
    const asked = await who.method('GET', '/wise_requirements?currency=eur');
    expect(asked.status).toBe(200);
    expect(asked.body.data.map((r: Json) => r.type)).toEqual(['iban']);
    expect(asked.body.data[0].fields.map((f: Json) => [f.key, f.required])).toEqual([
      ['accountHolderName', true],
      ['iban', true],
    ]);
    expect(wise.calls.at(-1)?.query).toEqual({ source: 'GBP', target: 'EUR', sourceAmount: '1000' });

    const bad = await who.method('POST', '', {
      method: 'wise',
      country: 'DE',
      currency: 'EUR',
      type: 'iban',
      account_holder_name: 'Payee Person',
      details: { legalType: 'PRIVATE', iban: 'DE00' },
    });
    expect(expectError(bad, 422, 'invalid_field').source).toEqual({ pointer: '/details/iban' });
    expect(await mine(who)).toMatchObject({ ready: false, reason: 'no_method' });

    const set = await who.method('POST', '', {
      method: 'wise',
      country: 'DE',
      currency: 'EUR',
      type: 'iban',
      account_holder_name: 'Payee Person',
      details: { legalType: 'PRIVATE', iban },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.attributes).toMatchObject({ method: 'wise', ready: true, wise_currency: 'EUR', wise_account: 'iban •••• 3000' });
    const [recipient] = [...wise.recipients.values()].filter((r) => (r.details as Json).iban === iban);
    expect(recipient).toMatchObject({ profile: WISE_PROFILE, accountHolderName: 'Payee Person', ownedByCustomer: false });
    // What a payout run asks: where to pay, and that it may.
    expect(await payoutMethodOf(c.running.db, p.id, who.partnerId)).toEqual({
      method: 'wise',
      ready: true,
      reason: null,
      country: 'DE',
      paypalEmail: null,
      stripeAccountId: null,
      wiseRecipientId: String(recipient!.id),
      wiseCurrency: 'EUR',
    });
    const seen = await ownersView(p, who);
    expect(seen).toMatchObject({ method: 'wise', ready: true, wise_account: 'iban •••• 3000' });
    expect(JSON.stringify([seen, set.body])).not.toContain(iban.slice(4, 18));
    const stored = await c.running.db.get('SELECT * FROM payout_methods WHERE program_id = ? AND partner_id = ?', [p.id, who.partnerId]);
    expect(stored).toMatchObject({ wise_recipient_id: String(recipient!.id), wise_display: 'iban •••• 3000' });
    expect(JSON.stringify(stored)).not.toContain(iban.slice(4, 18));
  });

  it("a token Wise refuses is the owner's to fix", async () => {
    const p = await program({ offered: ['wise'], wise_api_token: 'not-the-right-token', wise_profile_id: WISE_PROFILE });
    const who = await partnerOf(p);
    expect(expectError(await who.method('GET', '/wise_requirements?currency=EUR'), 422, 'invalid_field').source).toEqual({
      pointer: '/wise_api_token',
    });
  });
});

describe('who reaches what', () => {
  it("a partner cannot read or set another's method; an owner sees only their program's partners", async () => {
    const p = await program({ offered: ['paypal', 'stripe_connect'] });
    const [alice, bob] = [await partnerOf(p), await partnerOf(p)];
    await alice.method('POST', '', { method: 'paypal', paypal_email: alice.email });
    const intoAlice = (m: string, path = '', body?: unknown) =>
      bob.call(m, `/v1/portal/partnerships/${alice.partnershipId}/payout_method${path}`, body);
    expectError(await intoAlice('GET'), 404, 'not_found');
    expectError(await intoAlice('POST', '', { method: 'paypal', paypal_email: bob.email }), 404, 'not_found');
    expectError(await intoAlice('POST', '/onboarding'), 404, 'not_found');
    expectError(await intoAlice('GET', '/wise_requirements?currency=EUR'), 404, 'not_found');
    expect(await mine(alice)).toMatchObject({ paypal_email: alice.email, ready: true });
    const other = await program();
    expectError(await owner(other, 'GET', `/v1/partners/${alice.partnerId}/payout_method`), 404, 'not_found');
    expectError(await c.call('GET', `/v1/portal/partnerships/${alice.partnershipId}/payout_method`, { token: null }), 401, 'unauthorized');
  });

  it('refuses malformed choices in the one error shape, changing nothing', async () => {
    const p = await program({ offered: ['paypal', 'stripe_connect'] });
    const who = await partnerOf(p);
    for (const body of [
      { method: 'bitcoin' },
      { method: 'paypal' },
      { method: 'paypal', paypal_email: 'not an address' },
      { method: 'stripe_connect' },
      { method: 'stripe_connect', country: 'USA' },
      { method: 'paypal', paypal_email: who.email, extra: 1 },
    ]) {
      const reply = await who.method('POST', '', body);
      expect(reply.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expectError(reply, reply.status, reply.body.errors[0].code);
    }
    expect(await mine(who)).toMatchObject({ ready: false, reason: 'no_method' });
  });
});
