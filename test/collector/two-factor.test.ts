// Two-factor sign-in for owners and partners (docs/security.md): enrolling an authenticator
// app, the two-step sign-in, recovery codes, replay, lockout, removing a factor, a program's
// require_two_factor, and step-up before what moves money, with the e-mails each sends.

import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../packages/collector/src/app.js';
import { STEP_UP } from '../../packages/collector/src/api/step-up.js';
import { purgeExpiredAccess } from '../../packages/collector/src/flows/purge.js';
import { expectError, seedPartner, startCollector, type Collector, type Reply } from './harness.js';
import { asOwner, type Owner, ownerSession, sessionCookieOf } from './session.js';
import { type Inbox, portalTokenFor, read, startSmtp, subjectsTo } from './smtp.js';

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

const subjectsOf = (to: string) => subjectsTo(c, inbox, to);

const codeFor = (secret: string, at = c.clock.now) => generateSync({ secret, epoch: at });
/** The next time step: a code of the step before is never taken twice. */
const nextStep = () => {
  c.clock.now += 30;
};

const signIn = (email: string, password: string) => c.call('POST', '/v1/auth/sign_in', { token: null, body: { email, password } });
const secondStep = (token: string, code: string) =>
  c.call('POST', '/v1/auth/sign_in/second_factor', { token: null, body: { token, code } });

/** Enrols an authenticator app for `who`: its secret and the recovery codes. */
async function enrol(call: Owner['call'], base = '/v1/auth'): Promise<{ secret: string; recovery: string[]; factorId: string }> {
  const started = await call('POST', `${base}/factors/totp`);
  expect(started.status).toBe(201);
  const { secret } = started.body.data.attributes;
  const confirmed = await call('POST', `${base}/factors/${started.body.data.id}/confirm`, { body: { code: codeFor(secret) } });
  expect(confirmed.status).toBe(200);
  nextStep();
  return { secret, recovery: confirmed.body.meta.recovery_codes, factorId: started.body.data.id };
}

const challengeOf = (reply: Reply): string => {
  expect(reply.status).toBe(200);
  expect(reply.body.data).toBeNull();
  expect(sessionCookieOf(reply)).toBeUndefined();
  return reply.body.meta.second_factor.token;
};

describe('enrolling an authenticator app', () => {
  it('shows the secret as a URI and a QR code, takes its first code, and answers ten recovery codes once', async () => {
    const owner = await ownerSession(c);
    const started = await owner.call('POST', '/v1/auth/factors/totp');
    expect(started.status).toBe(201);
    const { secret, otpauth_uri, qr_svg } = started.body.data.attributes;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toBe(`otpauth://totp/Tally:${encodeURIComponent(owner.email)}?secret=${secret}&issuer=Tally`);
    expect(qr_svg).toMatch(/^<svg /);
    // Not a factor until confirmed: signing in is still one step.
    expect((await owner.call('GET', '/v1/auth/factors')).body).toEqual({ data: [], meta: { recovery_codes_left: 0 } });
    const confirm = (code: string) => owner.call('POST', `/v1/auth/factors/${started.body.data.id}/confirm`, { body: { code } });
    expectError(await confirm(codeFor(secret, c.clock.now - 120)), 401, 'invalid_credentials');
    const confirmed = await confirm(codeFor(secret));
    expect(confirmed.status).toBe(200);
    const codes: string[] = confirmed.body.meta.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const list = await owner.call('GET', '/v1/auth/factors');
    expect(list.body.data).toMatchObject([{ type: 'factor', attributes: { kind: 'totp', label: 'Authenticator app' } }]);
    expect(list.body.meta.recovery_codes_left).toBe(10);
    // One authenticator at a time.
    expectError(await owner.call('POST', '/v1/auth/factors/totp'), 409, 'conflict');
    expect(await subjectsOf(owner.email)).toEqual(['Security notice: an authenticator app was added as a second factor']);
  });

  it('keeps no secret or code in the clear: the recovery codes are hashes', async () => {
    const owner = await ownerSession(c);
    const { recovery } = await enrol(owner.call);
    const rows = await c.running.db.all<{ hash: string }>('SELECT hash FROM user_recovery_codes');
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const code of recovery) expect(rows.some((r) => r.hash.includes(code) || r.hash.includes(code.replace('-', '')))).toBe(false);
  });
});

describe('signing in with a second factor', () => {
  it('the password answers a challenge and no session; a code gives the session, once', async () => {
    const owner = await ownerSession(c);
    const { secret } = await enrol(owner.call);
    const first = await signIn(owner.email, owner.password);
    const token = challengeOf(first);
    expect(first.body.meta.second_factor).toMatchObject({ purpose: 'second_factor', methods: ['totp', 'recovery'] });
    expectError(await secondStep(token, '000000'), 401, 'invalid_credentials');
    const code = codeFor(secret);
    const done = await secondStep(token, code);
    expect(done.status).toBe(200);
    expect(done.body.data.attributes.email).toBe(owner.email);
    const cookie = sessionCookieOf(done) ?? '';
    expect((await asOwner(c, cookie)('GET', '/v1/auth/session')).body.data.attributes.email).toBe(owner.email);
    // The challenge is used, and the same code (replayed within its step) is refused on another.
    expectError(await secondStep(token, codeFor(secret)), 401, 'invalid_credentials');
    const again = challengeOf(await signIn(owner.email, owner.password));
    expectError(await secondStep(again, code), 401, 'invalid_credentials');
    nextStep();
    expect((await secondStep(again, codeFor(secret))).status).toBe(200);
  });

  it('a challenge lasts ten minutes', async () => {
    const owner = await ownerSession(c);
    const { secret } = await enrol(owner.call);
    const token = challengeOf(await signIn(owner.email, owner.password));
    c.clock.now += 600;
    const refused = expectError(await secondStep(token, codeFor(secret)), 401, 'invalid_credentials');
    expect(refused.source).toEqual({ pointer: '/token' });
    // The purge of what opens nothing any more takes it.
    const expired = 'SELECT COUNT(*) AS n FROM user_challenges WHERE expires_at <= ?';
    expect(Number((await c.running.db.get<{ n: number }>(expired, [c.clock.now]))?.n)).toBeGreaterThan(0);
    await purgeExpiredAccess(c.running.db, c.clock.now);
    expect(Number((await c.running.db.get<{ n: number }>(expired, [c.clock.now]))?.n)).toBe(0);
  });

  it('a recovery code works once, and the address is told', async () => {
    const owner = await ownerSession(c);
    const { recovery } = await enrol(owner.call);
    await subjectsOf(owner.email);
    const code = recovery[3] ?? '';
    const done = await secondStep(challengeOf(await signIn(owner.email, owner.password)), ` ${code.toUpperCase()} `);
    expect(done.status).toBe(200);
    expect(await subjectsOf(owner.email)).toEqual(['Security notice: a recovery code was used to sign in or confirm an action']);
    expectError(await secondStep(challengeOf(await signIn(owner.email, owner.password)), code), 401, 'invalid_credentials');
    expect((await asOwner(c, sessionCookieOf(done) ?? '')('GET', '/v1/auth/factors')).body.meta.recovery_codes_left).toBe(9);
  });

  it('wrong codes count with wrong passwords: the fifth in a row locks the account, even for the right code', async () => {
    const owner = await ownerSession(c);
    const { secret } = await enrol(owner.call);
    expectError(await signIn(owner.email, 'a wrong password'), 401, 'invalid_credentials');
    const token = challengeOf(await signIn(owner.email, owner.password));
    // The right password does not give the codes a fresh allowance: the wrong one before counts.
    for (let i = 0; i < 3; i++) expectError(await secondStep(token, '123456'), 401, 'invalid_credentials');
    const locked = expectError(await secondStep(token, 'wrong-code'), 429, 'account_locked');
    expect(locked.detail).toMatch(/locked/);
    expectError(await secondStep(token, codeFor(secret)), 429, 'account_locked');
    // Once the lock is over, the right password and code sign in; the count starts again.
    c.clock.now += 61;
    const later = challengeOf(await signIn(owner.email, owner.password));
    expect((await secondStep(later, codeFor(secret))).status).toBe(200);
    const row = await c.running.db.get<{ failed_count: number }>('SELECT failed_count FROM users WHERE email = ?', [owner.email]);
    expect(Number(row?.failed_count)).toBe(0);
  });

  it('a link that sets a password does not skip the second step', async () => {
    const owner = await ownerSession(c);
    await enrol(owner.call);
    const made = await c.call('POST', '/v1/members', { body: { email: owner.email, role: 'admin' } });
    expectError(made, 409, 'conflict');
    const other = await c.otherProgram();
    const invited = await c.call('POST', '/v1/members', { token: other.secret, body: { email: owner.email, role: 'admin' } });
    const link = String(invited.body.meta.sign_in_link).split('#')[1];
    const redeemed = await c.call('POST', '/v1/auth/redeem', { token: null, body: { token: link, password: owner.password } });
    expect(redeemed.body.meta.second_factor.purpose).toBe('second_factor');
    expect(sessionCookieOf(redeemed)).toBeUndefined();
  });
});

describe('removing a factor', () => {
  it('needs the password and a current code; the last one takes the recovery codes, and the address is told', async () => {
    const owner = await ownerSession(c);
    const { secret, factorId, recovery } = await enrol(owner.call);
    await subjectsOf(owner.email);
    const disable = (body: unknown) => owner.call('POST', `/v1/auth/factors/${factorId}/disable`, { body });
    expectError(await disable({ password: owner.password }), 422, 'missing_field');
    expectError(await disable({ password: 'not the password', code: codeFor(secret) }), 401, 'invalid_credentials');
    expectError(await disable({ password: owner.password, code: '000000' }), 401, 'invalid_credentials');
    expectError(
      await owner.call('POST', '/v1/auth/factors/nope/disable', { body: { password: owner.password, code: '1' } }),
      404,
      'not_found',
    );
    expect((await disable({ password: owner.password, code: recovery[0] })).status).toBe(204);
    expect((await owner.call('GET', '/v1/auth/factors')).body).toEqual({ data: [], meta: { recovery_codes_left: 0 } });
    const subjects = await subjectsOf(owner.email);
    expect(subjects).toContain('Security notice: a second factor was removed');
    expect((await signIn(owner.email, owner.password)).body.data.attributes.email).toBe(owner.email);
  });

  it('new recovery codes need a code, and the old ones stop working', async () => {
    const owner = await ownerSession(c);
    const { secret, recovery } = await enrol(owner.call);
    expectError(await owner.call('POST', '/v1/auth/recovery_codes', { body: { code: '999999' } }), 401, 'invalid_credentials');
    const renewed = await owner.call('POST', '/v1/auth/recovery_codes', { body: { code: codeFor(secret) } });
    expect(renewed.status).toBe(200);
    expect(renewed.body.meta.recovery_codes).toHaveLength(10);
    expectError(await secondStep(challengeOf(await signIn(owner.email, owner.password)), recovery[0] ?? ''), 401, 'invalid_credentials');
    const fresh = renewed.body.meta.recovery_codes[0];
    expect((await secondStep(challengeOf(await signIn(owner.email, owner.password)), fresh)).status).toBe(200);
  });
});

describe("a program's require_two_factor", () => {
  it('signs out members without a factor; they enrol at sign-in before getting a session', async () => {
    const program = await c.otherProgram();
    const owner = await ownerSession(c, { programId: program.id });
    const member = await ownerSession(c, { programId: program.id, role: 'viewer' });
    const set = (call: Owner['call'], on: boolean) => call('PATCH', '/v1/team/settings', { body: { require_two_factor: on } });
    // Whoever requires it from the dashboard must have one, or be locked out.
    expectError(await set(owner.call, true), 409, 'conflict');
    await enrol(owner.call);
    expect((await set(owner.call, true)).body).toEqual({ data: { require_two_factor: true } });
    expect((await owner.call('GET', '/v1/team/settings')).body.data.require_two_factor).toBe(true);
    expectError(await member.call('GET', '/v1/auth/factors'), 401, 'unauthorized');
    const first = await signIn(member.email, member.password);
    expect(first.body.meta.second_factor).toMatchObject({ purpose: 'enrol', methods: [] });
    const token = challengeOf(first);
    // The challenge is no second step: it only enrols.
    expectError(await secondStep(token, '123456'), 401, 'invalid_credentials');
    const started = await c.call('POST', '/v1/auth/sign_in/enrol', { token: null, body: { token } });
    expect(started.status).toBe(201);
    const { secret } = started.body.data.attributes;
    const confirm = (code: string) =>
      c.call('POST', '/v1/auth/sign_in/enrol/confirm', { token: null, body: { token, factor_id: started.body.data.id, code } });
    expectError(await confirm('000000'), 401, 'invalid_credentials');
    const done = await confirm(codeFor(secret));
    expect(done.status).toBe(200);
    expect(done.body.meta.recovery_codes).toHaveLength(10);
    const session = asOwner(c, sessionCookieOf(done) ?? '');
    const factors = await session('GET', '/v1/auth/factors');
    expect(factors.body.data).toHaveLength(1);
    // The last factor stays while a program requires one.
    nextStep();
    const kept = await session('POST', `/v1/auth/factors/${factors.body.data[0].id}/disable`, {
      body: { password: member.password, code: codeFor(secret) },
    });
    expectError(kept, 409, 'conflict');
  });

  it('keeps a member without a factor from switching into the program', async () => {
    const strict = await c.otherProgram();
    const owner = await ownerSession(c);
    await c.call('POST', '/v1/members', { body: { email: owner.email } }).catch(() => undefined);
    const invited = await c.call('POST', '/v1/members', { token: strict.secret, body: { email: owner.email, role: 'admin' } });
    const link = String(invited.body.meta.sign_in_link).split('#')[1];
    const joined = await c.call('POST', '/v1/auth/redeem', { token: null, body: { token: link, password: owner.password } });
    expect(joined.status).toBe(200);
    await c.call('PATCH', '/v1/team/settings', { token: strict.secret, body: { require_two_factor: true } });
    expectError(await owner.call('POST', '/v1/auth/program', { body: { program_id: strict.id } }), 403, 'two_factor_required');
  });
});

describe('step-up before what moves money', () => {
  it('every step-up rule names a route', () => {
    const routes = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    for (const key of Object.keys(STEP_UP)) expect(routes.has(key), key).toBe(true);
  });

  it('a session older than ten minutes proves the password again before a secret token; the address is told', async () => {
    const owner = await ownerSession(c);
    await subjectsOf(owner.email);
    const secret = () => owner.call('POST', '/v1/tokens', { body: { kind: 'secret' } });
    expect((await secret()).status).toBe(201);
    c.clock.now += 600;
    const refused = expectError(await secret(), 403, 'step_up_required');
    expect(refused.meta).toEqual({ proof: 'password', passkey: false, reauthenticate: '/v1/auth/reauthenticate', fresh_for: 600 });
    // A publishable token moves no money: not asked.
    expect((await owner.call('POST', '/v1/tokens', { body: { kind: 'publishable' } })).status).toBe(201);
    expectError(await owner.call('POST', '/v1/auth/reauthenticate', { body: {} }), 422, 'missing_field');
    expectError(await owner.call('POST', '/v1/auth/reauthenticate', { body: { password: 'wrong password!' } }), 401, 'invalid_credentials');
    const proved = await owner.call('POST', '/v1/auth/reauthenticate', { body: { password: owner.password } });
    expect(proved.body.meta).toEqual({ verified_at: c.clock.now, fresh_until: c.clock.now + 600, method: 'password' });
    expect((await secret()).status).toBe(201);
    expect(await subjectsOf(owner.email)).toEqual([
      'Security notice: a secret API token was created',
      'Security notice: a secret API token was created',
    ]);
  });

  it('with a second factor, a code is the proof; a secret token is never asked', async () => {
    const owner = await ownerSession(c);
    const { secret } = await enrol(owner.call);
    c.clock.now += 900;
    const invite = () => owner.call('POST', '/v1/members', { body: { email: `step-${c.clock.now}@owners.test` } });
    expect(expectError(await invite(), 403, 'step_up_required').meta.proof).toBe('code');
    expectError(await owner.call('POST', '/v1/auth/reauthenticate', { body: { password: owner.password } }), 422, 'missing_field');
    expect((await owner.call('POST', '/v1/auth/reauthenticate', { body: { code: codeFor(secret) } })).body.meta.method).toBe('totp');
    expect((await invite()).status).toBe(201);
    expect((await c.call('POST', '/v1/tokens', { body: { kind: 'secret' } })).status).toBe(201);
  });
});

describe('partners', () => {
  it('enrol, sign in in two steps, and prove it again before changing how they are paid', async () => {
    const { partnerId, partnershipId } = await seedPartner(c, { email: 'twofa-partner@partners.test' });
    expect((await c.call('POST', `/v1/partners/${partnerId}/invitation`)).status).toBeLessThan(300);
    await c.running.work.sendMail();
    const link = await portalTokenFor(inbox, 'twofa-partner@partners.test');
    inbox.take();
    const redeemed = await c.call('POST', '/v1/portal/auth/redeem', {
      token: null,
      body: { token: link, password: 'a long partner password' },
    });
    const cookie = redeemed.headers.get('set-cookie')?.split(';')[0] ?? '';
    const portal = {
      call: (method: string, path: string, body?: unknown) =>
        c.call(method, path, { token: null, headers: { cookie, origin: c.url }, body }),
    };
    const call: Owner['call'] = (method, path, opts = {}) => portal.call(method, path, opts.body);
    const { secret } = await enrol(call, '/v1/portal/auth');
    await c.running.work.sendMail();
    const [notice] = inbox
      .take()
      .filter((m) => m.to === 'twofa-partner@partners.test')
      .map((m) => read(m.raw));
    expect(notice?.subject).toBe('Security notice: an authenticator app was added as a second factor');
    // It links to the portal's Security page, where the partner's factors are.
    expect(notice?.text).toMatch(/https?:\/\/\S+\/portal\/settings\/security\b/);
    const first = await c.call('POST', '/v1/portal/auth/sign_in', {
      token: null,
      body: { email: 'twofa-partner@partners.test', password: 'a long partner password' },
    });
    const token = challengeOf(first);
    expect(first.headers.getSetCookie().some((h) => h.startsWith('tally_partner='))).toBe(false);
    const done = await c.call('POST', '/v1/portal/auth/sign_in/second_factor', { token: null, body: { token, code: codeFor(secret) } });
    expect(done.status).toBe(200);
    expect(done.body.data.attributes.email).toBe('twofa-partner@partners.test');
    c.clock.now += 600;
    const method = () =>
      portal.call('POST', `/v1/portal/partnerships/${partnershipId}/payout_method`, {
        method: 'paypal',
        paypal_email: 'pay@partners.test',
      });
    const refused = expectError(await method(), 403, 'step_up_required');
    expect(refused.meta.reauthenticate).toBe('/v1/portal/auth/reauthenticate');
    nextStep();
    expect((await portal.call('POST', '/v1/portal/auth/reauthenticate', { code: codeFor(secret) })).status).toBe(200);
    expect((await method()).status).toBeLessThan(300);
    expect(await subjectsOf('twofa-partner@partners.test')).toContain('Security notice: how payouts are paid was changed');
  });
});
