// Passkeys (docs/security.md, decision 0425), answered by a passkey in software: adding one
// (the first factor brings recovery codes), a sign-in's second step, a sign-in without a
// password (the device must verify its user), replay, a cloned key's counter, a phishing
// origin, another account's passkey, step-up and removal by passkey, and partners alike.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, PUBLIC_URL, seedPartner, startCollector, type Collector, type Reply } from './harness.js';
import { type SoftPasskey, softPasskey } from './authenticator.js';
import { type Owner, ownerSession, sessionCookieOf } from './session.js';
import { type Inbox, portalTokenFor, startSmtp, subjectsTo } from './smtp.js';

let inbox: Inbox;
let c: Collector;
beforeAll(async () => {
  inbox = await startSmtp();
  c = await startCollector({ smtpUrl: inbox.url });
});
afterAll(async () => {
  await c?.close();
  await inbox?.close();
});

type Call = (method: string, path: string, body?: unknown) => Promise<Reply>;
const ownerCall =
  (owner: Owner): Call =>
  (method, path, body) =>
    owner.call(method, path, body === undefined ? {} : { body });
const anonymous: Call = (method, path, body) => c.call(method, path, { token: null, body });

/** Registers `key` on the signed-in account under `base`: the answer of …/factors/passkey. */
async function addPasskey(call: Call, key: SoftPasskey, base = '/v1/auth', origin = PUBLIC_URL): Promise<Reply> {
  const started = await call('POST', `${base}/factors/passkey/options`);
  expect(started.status).toBe(200);
  const { token, options } = started.body.meta;
  return call('POST', `${base}/factors/passkey`, { token, response: key.register(options, origin), label: 'Laptop' });
}

/** Signs in with `key`: after the password when `secondFactorToken` is given, else without one. */
async function passkeySignIn(
  key: SoftPasskey,
  opts: { base?: string; secondFactorToken?: string; verified?: boolean; origin?: string } = {},
) {
  const base = opts.base ?? '/v1/auth';
  const started = await anonymous(
    'POST',
    `${base}/sign_in/passkey/options`,
    opts.secondFactorToken ? { token: opts.secondFactorToken } : {},
  );
  expect(started.status).toBe(200);
  const { token, options } = started.body.meta;
  const response = key.assert(options, opts.origin ?? PUBLIC_URL, opts.verified);
  return { options, token, response, reply: await anonymous('POST', `${base}/sign_in/passkey`, { token, response }) };
}

const subjectsOf = (to: string) => subjectsTo(c, inbox, to);

describe('adding a passkey', () => {
  it('registers it as the first factor, with ten recovery codes once, its public key kept and the address told', async () => {
    const owner = await ownerSession(c);
    const key = softPasskey();
    const added = await addPasskey(ownerCall(owner), key);
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ type: 'factor', attributes: { kind: 'webauthn', label: 'Laptop' } });
    expect(added.body.meta.recovery_codes).toHaveLength(10);
    const list = await owner.call('GET', '/v1/auth/factors');
    expect(list.body.data.map((f: { attributes: { kind: string } }) => f.attributes.kind)).toEqual(['webauthn']);
    const row = await c.running.db.get<{ credential_id: string; public_key: string; secret: string | null }>(
      'SELECT credential_id, public_key, secret FROM user_factors WHERE id = ?',
      [added.body.data.id],
    );
    expect(row).toMatchObject({ credential_id: key.id, secret: null });
    expect(row?.public_key.length).toBeGreaterThan(60);
    expect(await subjectsOf(owner.email)).toEqual(['Security notice: a passkey was added']);
    // A second passkey keeps the set: no new codes.
    const again = await addPasskey(ownerCall(owner), softPasskey());
    expect(again.status).toBe(201);
    expect(again.body.meta.recovery_codes).toBeNull();
  });

  it('refuses an answer for another origin and a used token', async () => {
    const owner = await ownerSession(c);
    const call = ownerCall(owner);
    const key = softPasskey();
    expectError(await addPasskey(call, key, '/v1/auth', 'https://tally.phish.test'), 401, 'invalid_credentials');
    const started = await call('POST', '/v1/auth/factors/passkey/options');
    const body = { token: started.body.meta.token, response: key.register(started.body.meta.options, PUBLIC_URL) };
    expect((await call('POST', '/v1/auth/factors/passkey', body)).status).toBe(201);
    expectError(await call('POST', '/v1/auth/factors/passkey', body), 401, 'invalid_credentials');
    // The options name the account's passkeys so the browser does not make a second of one.
    const next = await call('POST', '/v1/auth/factors/passkey/options');
    expect(next.body.meta.options.excludeCredentials).toEqual([{ id: key.id, type: 'public-key', transports: ['internal'] }]);
    expect(next.body.meta.options.authenticatorSelection).toMatchObject({ residentKey: 'required' });
  });

  it('needs a fresh proof of the session, and gives none: a stolen session cannot add a way back in', async () => {
    const owner = await ownerSession(c);
    const call = ownerCall(owner);
    const age = () => c.running.db.transaction((tx) => tx.run('UPDATE sessions SET verified_at = 0'));
    await age();
    const refused = await call('POST', '/v1/auth/factors/passkey/options');
    expectError(refused, 403, 'step_up_required');
    expect(refused.body.errors[0].meta).toMatchObject({ proof: 'password', passkey: false });
    expectError(await call('POST', '/v1/auth/factors/totp'), 403, 'step_up_required');
    expect((await call('POST', '/v1/auth/reauthenticate', { password: owner.password })).status).toBe(200);
    const key = softPasskey();
    expect((await addPasskey(call, key)).status).toBe(201);
    // The same passkey again, though the browser was told to exclude it.
    const again = await call('POST', '/v1/auth/factors/passkey/options');
    const body = { token: again.body.meta.token, response: key.register(again.body.meta.options, PUBLIC_URL) };
    expectError(await call('POST', '/v1/auth/factors/passkey', body), 409, 'conflict');
    await age();
    expectError(await call('POST', '/v1/tokens', { kind: 'secret' }), 403, 'step_up_required');
  });

  it('checks the shape of the browser answer before the library does', async () => {
    const owner = await ownerSession(c);
    const started = await owner.call('POST', '/v1/auth/factors/passkey/options');
    const reply = await owner.call('POST', '/v1/auth/factors/passkey', {
      body: { token: started.body.meta.token, response: { id: 'x', rawId: 'x', type: 'password', response: {} } },
    });
    expectError(reply, 422, 'invalid_field');
  });
});

describe('signing in with a passkey', () => {
  it("is the second step after the password, for that account's passkeys only, once", async () => {
    const owner = await ownerSession(c);
    const key = softPasskey();
    expect((await addPasskey(ownerCall(owner), key)).status).toBe(201);
    const other = await ownerSession(c);
    const otherKey = softPasskey();
    expect((await addPasskey(ownerCall(other), otherKey)).status).toBe(201);

    const first = await anonymous('POST', '/v1/auth/sign_in', { email: owner.email, password: owner.password });
    expect(first.body.data).toBeNull();
    expect(first.body.meta.second_factor.methods).toEqual(['webauthn', 'recovery']);
    const secondFactorToken = first.body.meta.second_factor.token;

    // Another account's passkey does not finish this sign-in.
    const wrong = await passkeySignIn(otherKey, { secondFactorToken });
    expect(wrong.options.allowCredentials).toEqual([{ id: key.id, type: 'public-key', transports: ['internal'] }]);
    expectError(wrong.reply, 401, 'invalid_credentials');

    const done = await passkeySignIn(key, { secondFactorToken });
    expect(done.token).toBe(secondFactorToken);
    expect(done.reply.status).toBe(200);
    expect(done.reply.body.data.attributes.email).toBe(owner.email);
    expect(sessionCookieOf(done.reply)).toBeDefined();
    // The same answer, or the same token, starts nothing more.
    expectError(
      await anonymous('POST', '/v1/auth/sign_in/passkey', { token: done.token, response: done.response }),
      401,
      'invalid_credentials',
    );
    expectError(
      await anonymous('POST', '/v1/auth/sign_in/second_factor', { token: done.token, code: '123456' }),
      401,
      'invalid_credentials',
    );
  });

  it('signs in without the address or a password when the device verified its user', async () => {
    const owner = await ownerSession(c);
    const key = softPasskey();
    expect((await addPasskey(ownerCall(owner), key)).status).toBe(201);
    const unverified = await passkeySignIn(key, { verified: false });
    expect(unverified.options.allowCredentials).toEqual([]);
    expect(unverified.options.userVerification).toBe('required');
    expectError(unverified.reply, 401, 'invalid_credentials');
    const signedIn = await passkeySignIn(key);
    expect(signedIn.reply.status).toBe(200);
    expect(signedIn.reply.body.data.attributes.email).toBe(owner.email);
    const cookie = sessionCookieOf(signedIn.reply);
    const session = await c.call('GET', '/v1/auth/session', { token: null, headers: { cookie: cookie ?? '' } });
    expect(session.body.data.attributes.email).toBe(owner.email);
  });

  it('refuses a passkey it does not know, a phishing origin, and a cloned key whose counter went back', async () => {
    const owner = await ownerSession(c);
    const key = softPasskey();
    expect((await addPasskey(ownerCall(owner), key)).status).toBe(201);
    expectError((await passkeySignIn(softPasskey())).reply, 401, 'invalid_credentials');
    expectError((await passkeySignIn(key, { origin: 'https://tally.phish.test' })).reply, 401, 'invalid_credentials');
    key.counter = 10;
    expect((await passkeySignIn(key)).reply.status).toBe(200);
    key.counter = 5;
    expectError((await passkeySignIn(key)).reply, 401, 'invalid_credentials');
    const { sign_count } = (await c.running.db.get<{ sign_count: number }>('SELECT sign_count FROM user_factors WHERE credential_id = ?', [
      key.id,
    ])) ?? { sign_count: -1 };
    expect(Number(sign_count)).toBe(10);
  });
});

describe('a passkey proves the session again', () => {
  it('for step-up, new recovery codes and removing a factor (with the password)', async () => {
    const owner = await ownerSession(c);
    const key = softPasskey();
    const call = ownerCall(owner);
    const added = await addPasskey(call, key);
    const proof = async () => {
      const started = await call('POST', '/v1/auth/passkey/options');
      expect(started.body.meta.options.allowCredentials).toHaveLength(1);
      return { token: started.body.meta.token, response: key.assert(started.body.meta.options, PUBLIC_URL) };
    };
    await c.running.db.transaction((tx) => tx.run('UPDATE sessions SET verified_at = 0'));
    const refused = await call('POST', '/v1/tokens', { kind: 'secret' });
    expectError(refused, 403, 'step_up_required');
    expect(refused.body.errors[0].meta).toMatchObject({ proof: 'code', passkey: true });
    const stepped = await call('POST', '/v1/auth/reauthenticate', { passkey: await proof() });
    expect(stepped.body.meta.method).toBe('passkey');
    expect((await call('POST', '/v1/tokens', { kind: 'secret' })).status).toBe(201);
    // A step-up's proof is used once.
    const used = await proof();
    expect((await call('POST', '/v1/auth/reauthenticate', { passkey: used })).status).toBe(200);
    expectError(await call('POST', '/v1/auth/reauthenticate', { passkey: used }), 401, 'invalid_credentials');

    const renewed = await call('POST', '/v1/auth/recovery_codes', { passkey: await proof() });
    expect(renewed.body.meta.recovery_codes).toHaveLength(10);
    expectError(await call('POST', `/v1/auth/factors/${added.body.data.id}/disable`, { password: owner.password }), 422, 'missing_field');
    const wrongPassword = await call('POST', `/v1/auth/factors/${added.body.data.id}/disable`, {
      password: 'nope',
      passkey: await proof(),
    });
    expectError(wrongPassword, 401, 'invalid_credentials');
    const removed = await call('POST', `/v1/auth/factors/${added.body.data.id}/disable`, {
      password: owner.password,
      passkey: await proof(),
    });
    expect(removed.status).toBe(204);
    expect((await call('GET', '/v1/auth/factors')).body).toEqual({ data: [], meta: { recovery_codes_left: 0 } });
  });
});

describe("a passkey's token", () => {
  it('answers only its own purpose: a sign-in is no step-up, a step-up no sign-in', async () => {
    const owner = await ownerSession(c);
    const key = softPasskey();
    const call = ownerCall(owner);
    expect((await addPasskey(call, key)).status).toBe(201);
    const signIn = (await anonymous('POST', '/v1/auth/sign_in/passkey/options', {})).body.meta;
    const asStepUp = { token: signIn.token, response: key.assert(signIn.options, PUBLIC_URL) };
    expectError(await call('POST', '/v1/auth/reauthenticate', { passkey: asStepUp }), 401, 'invalid_credentials');
    const stepUp = (await call('POST', '/v1/auth/passkey/options')).body.meta;
    const asSignIn = { token: stepUp.token, response: key.assert(stepUp.options, PUBLIC_URL) };
    expectError(await anonymous('POST', '/v1/auth/sign_in/passkey', asSignIn), 401, 'invalid_credentials');
    // Another owner's step-up token does not prove this one.
    const other = await ownerSession(c);
    const otherKey = softPasskey();
    expect((await addPasskey(ownerCall(other), otherKey)).status).toBe(201);
    const theirs = (await other.call('POST', '/v1/auth/passkey/options')).body.meta;
    const borrowed = { token: theirs.token, response: key.assert(theirs.options, PUBLIC_URL) };
    expectError(await call('POST', '/v1/auth/reauthenticate', { passkey: borrowed }), 401, 'invalid_credentials');
  });
});

describe('partners', () => {
  it('add a passkey in the portal and sign in with it, without a password, into their own account', async () => {
    const { partnerId } = await seedPartner(c, { email: 'passkey-partner@partners.test' });
    expect((await c.call('POST', `/v1/partners/${partnerId}/invitation`)).status).toBeLessThan(300);
    await c.running.work.sendMail();
    const link = await portalTokenFor(inbox, 'passkey-partner@partners.test');
    inbox.take();
    const redeemed = await anonymous('POST', '/v1/portal/auth/redeem', { token: link, password: 'a long partner password' });
    const cookie = redeemed.headers.get('set-cookie')?.split(';')[0] ?? '';
    const portal = {
      call: ((method, path, body) => c.call(method, path, { token: null, headers: { cookie, origin: c.url }, body })) as Call,
    };
    const key = softPasskey();
    const added = await addPasskey(portal.call, key, '/v1/portal/auth');
    expect(added.status).toBe(201);
    expect(added.body.meta.recovery_codes).toHaveLength(10);
    const signedIn = await passkeySignIn(key, { base: '/v1/portal/auth' });
    expect(signedIn.reply.status).toBe(200);
    expect(signedIn.reply.body.data.attributes.email).toBe('passkey-partner@partners.test');
    // An owner's passkey is not a partner's: the realms keep their own.
    const owner = await ownerSession(c);
    const ownerKey = softPasskey();
    expect((await addPasskey(ownerCall(owner), ownerKey)).status).toBe(201);
    expectError((await passkeySignIn(ownerKey, { base: '/v1/portal/auth' })).reply, 401, 'invalid_credentials');
  });
});
