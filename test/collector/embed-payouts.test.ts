// How a partner is paid, set inside the embed (docs/embed.md, docs/payouts.md): the same
// choices and tax forms as the portal's, through /v1/embed/payout_method and /v1/embed/tax_form
// with the embed's bearer session, for that session's partner only. Stripe and Wise are local
// fakes answering as their API references document; mail goes through a real SMTP server.

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyring } from '../../packages/collector/src/platform/keyring.js';
import { payoutMethodOf } from '../../packages/collector/src/modules/payout-methods/service.js';
import { expectError, startCollector, type Collector, type Reply } from './harness.js';
import { startSmtp, type Inbox } from './smtp.js';
import { startStripeApi, type StripeApi } from './stripe-api.js';
import { startWiseApi, type WiseApi } from './wise-api.js';

const STRIPE_KEY = 'sk_test_embedpayouts0123456789';
const WISE_TOKEN = 'wise-embed-token-0123';
const WISE_PROFILE = 16_310_002;
const IBAN = 'DE89370400440532013000';

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
    taxFormKeys: keyring(randomBytes(32).toString('base64')),
    limits: { perToken: 0, perIp: 0, trustProxy: 0, applicationsPerHour: 0 },
  });
});
afterAll(async () => {
  await c?.close();
  await Promise.all([stripe?.close(), wise?.close(), inbox?.close()]);
});

type Program = { id: string; secret: string };
let users = 0;

/** A program offering every method, with its Stripe key and Wise account. */
async function program(): Promise<Program> {
  const p = await c.otherProgram();
  const set = async (path: string, body: unknown) => {
    const reply = await c.call('PATCH', path, { token: p.secret, body });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  };
  await set('/v1/program', { allowed_origins: ['https://app.company.test'], stripe_api_key: STRIPE_KEY });
  await set('/v1/program/payout_settings', {
    offered: ['paypal', 'stripe_connect', 'wise'],
    wise_api_token: WISE_TOKEN,
    wise_profile_id: WISE_PROFILE,
  });
  return p;
}

/** A user of the company's app in the embed: their partner id, e-mail and bearer session. */
async function embedded(p: Program) {
  const n = ++users;
  const email = `payee${n}@company.test`;
  const minted = await c.call('POST', '/v1/embed_tokens', { token: p.secret, body: { user_id: `u-${n}`, name: `Payee ${n}`, email } });
  expect(minted.status).toBe(201);
  const opened = await c.call('POST', '/v1/embed/sessions', { token: null, body: { token: minted.body.data.attributes.token } });
  const bearer: string = opened.body.data.attributes.token;
  return {
    email,
    bearer,
    partnerId: minted.body.data.relationships.partner.data.id as string,
    partnershipId: minted.body.data.relationships.partnership.data.id as string,
    as: (method: string, path: string, body?: unknown): Promise<Reply> => c.call(method, path, { token: bearer, body }),
  };
}

const wiseChoice = (details: Record<string, unknown>) => ({
  method: 'wise',
  country: 'DE',
  currency: 'EUR',
  type: 'iban',
  account_holder_name: 'Payee Person',
  details: { legalType: 'PRIVATE', ...details },
});

const w8ben = {
  kind: 'w8ben',
  name: 'Hans Muster',
  country: 'DE',
  address: { line1: 'Hauptstr. 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
  tin: 'DE 12345678901',
  date_of_birth: '1980-05-17',
  signature: 'Hans Muster',
};

describe('the embed payout method', () => {
  it('offers what the program offers; PayPal at the own address is ready, another waits for its e-mailed link', async () => {
    const p = await program();
    const who = await embedded(p);
    const first = await who.as('GET', '/v1/embed/payout_method');
    expect(first.status).toBe(200);
    expect(first.body.data.attributes).toMatchObject({ ready: false, reason: 'no_method', offered: ['paypal', 'stripe_connect', 'wise'] });
    const own = await who.as('POST', '/v1/embed/payout_method', { method: 'paypal', paypal_email: who.email });
    expect(own.body.data.attributes).toMatchObject({ method: 'paypal', ready: true, paypal_email: who.email });
    const address = `wallet-${who.partnerId.slice(-6)}@paypal.test`;
    const other = await who.as('POST', '/v1/embed/payout_method', { method: 'paypal', paypal_email: address });
    expect(other.body.data.attributes).toMatchObject({ method: 'paypal', ready: false, reason: 'unconfirmed', paypal_email: address });
    const message = await inbox.waitFor(address);
    const token = /\/portal\/payout-confirm#([\w-]+)/.exec(message.raw.replace(/=\r?\n/g, ''))?.[1];
    expect((await c.call('POST', '/v1/portal/payout_method/confirm', { token: null, body: { token } })).status).toBe(204);
    expect((await who.as('GET', '/v1/embed/payout_method')).body.data.attributes).toMatchObject({ ready: true, paypal_confirmed: true });
    expect((await who.as('GET', '/v1/embed/account')).body.data.attributes.paypal_email).toBe(address);
  });

  it('onboards a Stripe Express account through an Account Link that comes back to the embed page', async () => {
    const p = await program();
    const who = await embedded(p);
    const set = await who.as('POST', '/v1/embed/payout_method', { method: 'stripe_connect', country: 'US' });
    expect(set.body.data.attributes).toMatchObject({ method: 'stripe_connect', ready: false, reason: 'onboarding' });
    const account = set.body.data.attributes.stripe_account_id as string;
    const link = await who.as('POST', '/v1/embed/payout_method/onboarding');
    expect(link.status).toBe(201);
    expect(link.body.data.attributes.url).toContain(`https://connect.stripe.com/setup/e/${account}/`);
    // No partnership id in the address: the embed's page, in the window Stripe opened in, says to go back.
    expect(stripe.calls.at(-1)?.form).toMatchObject({
      account,
      return_url: 'http://localhost:8787/embed/?stripe=return',
      refresh_url: 'http://localhost:8787/embed/?stripe=refresh',
    });
    stripe.accounts.set(account, { ...stripe.accounts.get(account), payouts_enabled: true, requirements: { currently_due: [] } });
    const back = await who.as('POST', '/v1/embed/payout_method/refresh');
    expect(back.body.data.attributes).toMatchObject({ method: 'stripe_connect', ready: true, payouts_enabled: true });
    expect(await payoutMethodOf(c.running.db, p.id, who.partnerId)).toMatchObject({ ready: true, stripeAccountId: account });
  });

  it("asks Wise's requirements and makes the recipient, keeping only a masked line", async () => {
    const p = await program();
    const who = await embedded(p);
    const asked = await who.as('GET', '/v1/embed/payout_method/wise_requirements?currency=EUR');
    expect(asked.body.data.map((r: { type: string }) => r.type)).toEqual(['iban']);
    const set = await who.as('POST', '/v1/embed/payout_method', wiseChoice({ iban: IBAN }));
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.attributes).toMatchObject({ method: 'wise', ready: true, wise_account: 'iban •••• 3000' });
    expect(JSON.stringify(set.body)).not.toContain(IBAN.slice(4, 18));
  });

  it('refuses bad input in the one error shape, changing nothing', async () => {
    const p = await program();
    const who = await embedded(p);
    const wrongIban = await who.as('POST', '/v1/embed/payout_method', wiseChoice({ iban: 'DE00' }));
    expect(expectError(wrongIban, 422, 'invalid_field').source).toEqual({ pointer: '/details/iban' });
    const noCountry = await who.as('POST', '/v1/embed/payout_method', { method: 'stripe_connect' });
    expect(expectError(noCountry, 422, 'missing_field').source).toEqual({ pointer: '/country' });
    expectError(await who.as('POST', '/v1/embed/payout_method', { method: 'cheque' }), 422, 'invalid_field');
    const badTin = await who.as('POST', '/v1/embed/tax_form', { ...w8ben, tin: '!' });
    expect(expectError(badTin, 422, 'invalid_field').source).toEqual({ pointer: '/tin' });
    expectError(await who.as('POST', '/v1/embed/tax_form', { ...w8ben, country: 'US' }), 422, 'invalid_field');
    expect((await who.as('GET', '/v1/embed/payout_method')).body.data.attributes).toMatchObject({ reason: 'no_method' });
    expect((await who.as('GET', '/v1/embed/tax_form')).body.data.attributes).toEqual({ status: 'missing', form: null });
  });
});

describe('the embed tax form', () => {
  it('takes a W-8BEN signed with the typed name and shows it masked, as the owner reads it', async () => {
    const p = await program();
    const who = await embedded(p);
    const given = await who.as('POST', '/v1/embed/tax_form', w8ben);
    expect(given.status, JSON.stringify(given.body)).toBe(201);
    expect(given.body.data.attributes).toMatchObject({ status: 'valid', form: { kind: 'w8ben', tin: '•••••8901' } });
    expect(JSON.stringify(given.body)).not.toContain('12345678901');
    const owners = await c.call('GET', `/v1/partners/${who.partnerId}/tax_form`, { token: p.secret });
    expect(owners.body.data.attributes).toMatchObject({ status: 'valid', form: { kind: 'w8ben', signature: { name: 'Hans Muster' } } });
  });
});

describe('the embed session', () => {
  it("reaches its own partner's method and form only: no other program's or partner's, and no other credential reaches them", async () => {
    const [a, b] = [await program(), await program()];
    const inA = await embedded(a);
    const inB = await embedded(b);
    await inA.as('POST', '/v1/embed/payout_method', { method: 'stripe_connect', country: 'US' });
    await inA.as('POST', '/v1/embed/tax_form', w8ben);
    // B's session sees B's partner, untouched by A's choices.
    expect((await inB.as('GET', '/v1/embed/payout_method')).body.data.attributes).toMatchObject({ reason: 'no_method' });
    expect((await inB.as('GET', '/v1/embed/tax_form')).body.data.attributes.status).toBe('missing');
    // The embed's routes take no id; the portal's, which do, refuse the embed's session.
    expectError(await inB.as('GET', `/v1/portal/partnerships/${inA.partnershipId}/payout_method`), 401, 'unauthorized');
    expectError(await inB.as('GET', `/v1/portal/partnerships/${inA.partnershipId}/tax_form`), 401, 'unauthorized');
    expectError(await inB.as('GET', `/v1/embed/payout_method/${inA.partnershipId}`), 404, 'not_found');
    for (const [method, path] of [
      ['GET', '/v1/embed/payout_method'],
      ['GET', '/v1/embed/tax_form'],
      ['POST', '/v1/embed/payout_method/onboarding'],
    ] as const) {
      expectError(await c.call(method, path, { token: a.secret }), 401, 'unauthorized');
      expectError(await c.call(method, path, { token: null }), 401, 'unauthorized');
    }
    // Its partner deleted, the session ends with it.
    expect((await c.call('DELETE', `/v1/partners/${inB.partnerId}`, { token: b.secret })).status).toBeLessThan(300);
    expectError(await inB.as('GET', '/v1/embed/payout_method'), 401, 'unauthorized');
  });
});
