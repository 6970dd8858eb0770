// Issue 30: what an attack from outside found, one test per hole, on both engines. Owners
// and partners sign in through one implementation (modules/identity/service.ts), so each rule of
// it is shown for both kinds of account.

import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredAccess } from '../../packages/collector/src/flows/purge.js';
import { LINK_SECONDS, SESSION_IDLE_SECONDS } from '../../packages/collector/src/modules/identity/service.js';
import { expectError, seedPartner, startCollector, type CallOptions, type Collector, type Reply } from './harness.js';
import { asOwner, ownerSession, sessionCookieOf } from './session.js';
import { portalLinkIn, startSmtp } from './smtp.js';

let c: Collector;
beforeAll(async () => {
  c = await startCollector({ limits: { perToken: 0, perIp: 0, trustProxy: 0, applicationsPerHour: 0 } });
});
afterAll(() => c.close());

const tokenOf = (link: string): string => new URL(link).hash.slice(1);
const redeem = (col: Collector, token: string, password: string, email?: string): Promise<Reply> =>
  col.call('POST', '/v1/auth/redeem', { token: null, body: { token, password, ...(email ? { email } : {}) } });

let n = 0;
const address = (who: string) => `${who}-${++n}@trust.test`;

describe('owners: one program never reaches another through an invitation', () => {
  it("an address invited by B and then by A: A's link, which A's owner holds, makes no account, and B's link is not spoiled", async () => {
    const b = await c.otherProgram();
    const cfo = address('cfo');
    const fromB = await c.call('POST', '/v1/members', { token: b.secret, body: { email: cfo } });
    expect(fromB.status).toBe(201);
    const fromA = await c.call('POST', '/v1/members', { body: { email: cfo } });
    expect(fromA.status).toBe(201);
    expect(fromA.body.meta.sign_in_link).not.toBe(fromB.body.meta.sign_in_link);

    // A redeems its own link: while B's invitation waits, it chooses no password (decision 0317).
    expectError(await redeem(c, tokenOf(fromA.body.meta.sign_in_link), 'chosen by program A'), 409, 'conflict');
    expectError(
      await c.call('POST', '/v1/auth/sign_in', { token: null, body: { email: cfo, password: 'chosen by program A' } }),
      401,
      'invalid_credentials',
    );
    // A withdraws; B's link, in the real person's hands, then makes the account with their password.
    expect((await c.call('DELETE', `/v1/members/${fromA.body.data.id}`)).status).toBe(204);
    const joined = await redeem(c, tokenOf(fromB.body.meta.sign_in_link), 'the real cfo password');
    expect(joined.status).toBe(200);
    expect(joined.body.data.attributes.programs.map((p: { id: string }) => p.id)).toEqual([b.id]);
  });

  it("an address A activated before B invites it: B is told nothing, and A's password does not open B", async () => {
    const b = await c.otherProgram();
    const known = address('known');
    const a = await ownerSession(c, { email: known });
    const unknown = address('nobody');
    const toKnown = await c.call('POST', '/v1/members', { token: b.secret, body: { email: known } });
    const toUnknown = await c.call('POST', '/v1/members', { token: b.secret, body: { email: unknown } });
    // The same answer, but for the address itself, its id and its link.
    const shape = (r: Reply) => ({
      status: r.status,
      attributes: { ...r.body.data.attributes, email: '', created_at: 0 },
      link: typeof r.body.meta.sign_in_link,
    });
    expect(shape(toKnown)).toEqual(shape(toUnknown));
    expect(toKnown.body.data.attributes).toMatchObject({ active: false, role: 'viewer' });
    // Nothing was added without the person: A's session does not reach B.
    expectError(await a.call('POST', '/v1/auth/program', { body: { program_id: b.id } }), 404, 'not_found');
    // Accepting takes B's link and the account's own password.
    expectError(await redeem(c, tokenOf(toKnown.body.meta.sign_in_link), 'not the password'), 401, 'invalid_credentials');
    const accepted = await redeem(c, tokenOf(toKnown.body.meta.sign_in_link), a.password);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.attributes.programs.map((p: { id: string }) => p.id).sort()).toEqual([c.programId, b.id].sort());
  });

  it("with SMTP, the real person takes the address back by a reset: the other program's sessions end", async () => {
    const inbox = await startSmtp();
    const mailing = await startCollector({ smtpUrl: inbox.url });
    try {
      const b = await mailing.otherProgram();
      const cfo = address('cfo');
      const fromA = await mailing.call('POST', '/v1/members', { body: { email: cfo } });
      const squatted = await redeem(mailing, tokenOf(fromA.body.meta.sign_in_link), 'chosen by program A');
      const asA = asOwner(mailing, sessionCookieOf(squatted)!);
      const fromB = await mailing.call('POST', '/v1/members', { token: b.secret, body: { email: cfo } });
      expect((await mailing.call('POST', '/v1/auth/reset', { token: null, body: { email: cfo } })).body).toEqual({
        meta: { emailed: true },
      });
      const reset = /https?:\/\/\S+\/dashboard\/welcome#[\w-]+/.exec(
        (await inbox.waitFor(cfo)).raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
      )![0];
      expect((await redeem(mailing, tokenOf(reset), 'the real cfo password')).status).toBe(200);
      expect((await asA('GET', '/v1/auth/session')).body).toEqual({ data: null });
      const joined = await redeem(mailing, tokenOf(fromB.body.meta.sign_in_link), 'the real cfo password');
      expect(joined.body.data.attributes.programs.map((p: { id: string }) => p.id).sort()).toEqual([mailing.programId, b.id].sort());
    } finally {
      await mailing.close();
      await inbox.close();
    }
  });

  it('inviting again replaces the link; a member is not invited twice', async () => {
    const email = address('twice');
    const first = await c.call('POST', '/v1/members', { body: { email } });
    const second = await c.call('POST', '/v1/members', { body: { email } });
    expect(second.body.data.id).toBe(first.body.data.id);
    expectError(await redeem(c, tokenOf(first.body.meta.sign_in_link), 'a good long password'), 404, 'not_found');
    expect((await redeem(c, tokenOf(second.body.meta.sign_in_link), 'a good long password')).status).toBe(200);
    expectError(await c.call('POST', '/v1/members', { body: { email } }), 409, 'conflict');
  });
});

describe('roles', () => {
  /** Without `role` the invitation names none, and must make a viewer. */
  async function member(role?: 'admin' | 'viewer') {
    const p = await c.otherProgram();
    const email = address(role ?? 'unnamed');
    const invited = await c.call('POST', '/v1/members', { token: p.secret, body: role ? { email, role } : { email } });
    expect(invited.body.data.attributes.role).toBe(role ?? 'viewer');
    const signedIn = await redeem(c, tokenOf(invited.body.meta.sign_in_link), 'a good long password');
    return {
      p,
      call: asOwner(c, sessionCookieOf(signedIn)!),
      id: (await c.call('GET', '/v1/members', { token: p.secret })).body.data.find((m: any) => m.attributes.email === email).id as string,
    };
  }

  it('a viewer reads and changes nothing', async () => {
    const { call } = await member('viewer');
    expect((await call('GET', '/v1/partners')).status).toBe(200);
    expect((await call('GET', '/v1/members')).status).toBe(200);
    expectError(await call('POST', '/v1/partners', { body: { name: 'X', email: address('x') } }), 403, 'forbidden');
    expectError(await call('PATCH', '/v1/program', { body: { name: 'Mine now' } }), 403, 'forbidden');
    expectError(await call('POST', '/v1/tokens', { body: { kind: 'publishable' } }), 403, 'forbidden');
    // Their own session is theirs to end.
    expect((await call('POST', '/v1/auth/sign_out')).status).toBe(204);
  });

  it('an invitation without a role makes a viewer: more powers are given on purpose', async () => {
    const { p, call } = await member();
    expect((await call('GET', '/v1/auth/session')).body.data.attributes.programs).toEqual([
      { id: p.id, name: expect.any(String), role: 'viewer' },
    ]);
    expectError(await call('PATCH', '/v1/program', { body: { name: 'Mine now' } }), 403, 'forbidden');
  });

  it('an admin does everything but members and secret tokens', async () => {
    const { p, call } = await member('admin');
    expect((await call('POST', '/v1/partners', { body: { name: 'Made by admin', email: address('p') } })).status).toBe(201);
    expect((await call('POST', '/v1/tokens', { body: { kind: 'publishable' } })).status).toBe(201);
    expectError(await call('POST', '/v1/tokens', { body: { kind: 'secret' } }), 403, 'forbidden');
    const secretId = (await c.call('GET', '/v1/tokens', { token: p.secret })).body.data.find((t: any) => t.attributes.kind === 'secret').id;
    expectError(await call('DELETE', `/v1/tokens/${secretId}`), 403, 'forbidden');
    expectError(await call('POST', '/v1/members', { body: { email: address('friend') } }), 403, 'forbidden');
  });

  it('the last owner can be neither removed nor demoted; another owner first', async () => {
    const p = await c.otherProgram();
    const owner = await ownerSession(c, { programId: p.id });
    const ownerId = (await owner.call('GET', '/v1/members')).body.data[0].id;
    expectError(await owner.call('PATCH', `/v1/members/${ownerId}`, { body: { role: 'admin' } }), 409, 'conflict');
    expectError(await owner.call('DELETE', `/v1/members/${ownerId}`), 409, 'conflict');
    await ownerSession(c, { programId: p.id });
    expect((await owner.call('PATCH', `/v1/members/${ownerId}`, { body: { role: 'viewer' } })).body.data.attributes.role).toBe('viewer');
    // Demoted, the same session reads but no longer changes.
    expectError(await owner.call('POST', '/v1/partners', { body: { name: 'X', email: address('x') } }), 403, 'forbidden');
  });
});

describe('lockout holds against parallel guesses', () => {
  const PARALLEL = 40;
  async function guesses(path: string, email: string): Promise<number[]> {
    const replies = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => c.call('POST', path, { token: null, body: { email, password: `wrong guess ${i}` } })),
    );
    return replies.map((r) => r.status);
  }

  it('owners: at most five wrong passwords are tried before the account locks', async () => {
    const o = await ownerSession(c);
    const statuses = await guesses('/v1/auth/sign_in', o.email);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(PARALLEL - 5);
    expectError(
      await c.call('POST', '/v1/auth/sign_in', { token: null, body: { email: o.email, password: o.password } }),
      429,
      'account_locked',
    );
  });

  it('partners: the same', async () => {
    const p = await c.otherProgram();
    await c.call('PATCH', '/v1/program', { token: p.secret, body: { slug: `locking-${++n}`, page_enabled: true } });
    const email = address('partner');
    const slug = (await c.call('GET', '/v1/program', { token: p.secret })).body.data.attributes.slug;
    await c.call('POST', `/v1/public/programs/${slug}/applications`, {
      token: null,
      body: { name: 'P', email, password: 'a long partner password' },
    });
    const statuses = await guesses('/v1/portal/auth/sign_in', email);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(PARALLEL - 5);
  });

  it('wrong passwords count toward the per-address limit on failed authentications', async () => {
    const limited = await startCollector({ limits: { perToken: 0, perIp: 0, trustProxy: 0, authFailures: 3 } });
    try {
      const signIn = (email: string) =>
        limited.call('POST', '/v1/auth/sign_in', { token: null, body: { email, password: 'not it at all' } });
      // Three accounts, one guess each: the address, not the account, is what runs out.
      for (let i = 0; i < 3; i++) expectError(await signIn(address('spray')), 401, 'invalid_credentials');
      expectError(await signIn(address('spray')), 429, 'rate_limited');
      expectError(
        await limited.call('POST', '/v1/portal/auth/sign_in', {
          token: null,
          body: { email: address('spray'), password: 'not it at all' },
        }),
        429,
        'rate_limited',
      );
    } finally {
      await limited.close();
    }
  });
});

describe('a new password ends every older link and session', () => {
  it('partners: a second invitation link made before activation opens nothing after it, nor after a password change', async () => {
    const made = await seedPartner(c);
    const invite = async () => tokenOf((await c.call('POST', `/v1/partners/${made.partnerId}/invitation`)).body.meta.link);
    const [first, second, third] = [await invite(), await invite(), await invite()];
    const portalRedeem = (token: string, password: string) =>
      c.call('POST', '/v1/portal/auth/redeem', { token: null, body: { token, password } });
    const activated = await portalRedeem(first, 'the partner password');
    expect(activated.status).toBe(200);
    expectError(await portalRedeem(second, 'an attacker password'), 404, 'not_found');
    const cookie = activated.headers
      .getSetCookie()
      .find((x) => x.startsWith('tally_partner='))!
      .split(';')[0]!;
    const asPartner = (method: string, path: string, opts: CallOptions = {}) =>
      c.call(method, path, { ...opts, token: null, headers: { cookie, origin: c.url } });
    expect((await asPartner('GET', '/v1/portal/partnerships')).status).toBe(200);
    expectError(await portalRedeem(third, 'an attacker password'), 404, 'not_found');
    expect((await asPartner('GET', '/v1/portal/partnerships')).status).toBe(200);
  });

  it('owners: a reset link made before a password change is dead after it, and other sessions end', async () => {
    const o = await ownerSession(c);
    const other = await c.call('POST', '/v1/auth/sign_in', { token: null, body: { email: o.email, password: o.password } });
    const { ownerResetLink } = await import('../../packages/collector/src/modules/owners/service.js');
    const reset = (await ownerResetLink(c.running.db, o.email, c.clock.now))!;
    expect(
      (await o.call('POST', '/v1/auth/password', { body: { current_password: o.password, new_password: 'a brand new password' } })).status,
    ).toBe(204);
    expectError(await redeem(c, reset, 'the attacker password'), 404, 'not_found');
    expect((await asOwner(c, sessionCookieOf(other)!)('GET', '/v1/auth/session')).body).toEqual({ data: null });
    expect((await o.call('GET', '/v1/auth/session')).body.data.attributes.email).toBe(o.email);
  });
});

describe('password resets by e-mail', () => {
  /** An SMTP server that accepts connections and never says a word until released. */
  async function silentSmtp(): Promise<{ url: string; release(): Promise<void> }> {
    const sockets: Socket[] = [];
    const server: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return {
      url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
      release: async () => {
        for (const s of sockets) s.destroy();
        await new Promise<void>((r) => server.close(() => r()));
      },
    };
  }

  it('answers without waiting for the mail server, alike for an account and an unknown address', async () => {
    const smtp = await silentSmtp();
    const mailing = await startCollector({ smtpUrl: smtp.url });
    try {
      await mailing.call('PATCH', '/v1/program', { body: { slug: `resets-${++n}`, page_enabled: true } });
      const slug = (await mailing.call('GET', '/v1/program')).body.data.attributes.slug;
      const email = address('has-account');
      await mailing.call('POST', `/v1/public/programs/${slug}/applications`, {
        token: null,
        body: { name: 'P', email, password: 'a long partner password' },
      });
      // The mail server never answers: each reply comes anyway, with the same body.
      const known = await mailing.call('POST', '/v1/portal/auth/reset', { token: null, body: { email } });
      const unknown = await mailing.call('POST', '/v1/portal/auth/reset', { token: null, body: { email: address('no-account') } });
      expect([known.status, known.body]).toEqual([202, { meta: { emailed: true } }]);
      expect([unknown.status, unknown.body]).toEqual([known.status, known.body]);
    } finally {
      await smtp.release();
      await mailing.close();
    }
  });

  it('sends at most three an hour to one address, and only the newest link works', async () => {
    const inbox = await startSmtp();
    const mailing = await startCollector({ smtpUrl: inbox.url });
    try {
      await mailing.call('PATCH', '/v1/program', { body: { slug: `bombs-${++n}`, page_enabled: true } });
      const slug = (await mailing.call('GET', '/v1/program')).body.data.attributes.slug;
      const email = address('target');
      await mailing.call('POST', `/v1/public/programs/${slug}/applications`, {
        token: null,
        body: { name: 'P', email, password: 'a long partner password' },
      });
      for (let i = 0; i < 10; i++) {
        expect((await mailing.call('POST', '/v1/portal/auth/reset', { token: null, body: { email } })).status).toBe(202);
        await mailing.running.outbox!.drain();
      }
      // The resets, not the "application received" notification the same address also got.
      const mails = inbox.messages.filter((m) => m.to.includes(email) && portalLinkIn(m.raw) !== undefined);
      expect(mails.length).toBe(3);
      const links = mails.map((m) => portalLinkIn(m.raw)!.split('#')[1]!);
      const portalRedeem = (token: string) =>
        mailing.call('POST', '/v1/portal/auth/redeem', { token: null, body: { token, password: 'a new partner password' } });
      expectError(await portalRedeem(links[0]!), 404, 'not_found');
      expectError(await portalRedeem(links[1]!), 404, 'not_found');
      expect((await portalRedeem(links[2]!)).status).toBe(200);
      // An hour on, the address may be sent one again.
      mailing.clock.now += 3601;
      inbox.messages.length = 0;
      await mailing.call('POST', '/v1/portal/auth/reset', { token: null, body: { email } });
      expect(portalLinkIn((await inbox.waitFor(email)).raw)).toBeDefined();
    } finally {
      await mailing.close();
      await inbox.close();
    }
  });
});

describe('expired sessions and links are deleted', () => {
  it('of owners and partners, and nothing fresh', async () => {
    const db = c.running.db;
    const count = async (table: string) => Number((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
    const stale = await ownerSession(c);
    const made = await seedPartner(c);
    await c.call('POST', `/v1/partners/${made.partnerId}/invitation`);
    await c.call('POST', '/v1/members', { body: { email: address('late') } });
    const before = { sessions: await count('sessions'), links: await count('partner_links'), invitations: await count('invitations') };
    expect(before.sessions).toBeGreaterThan(0);
    expect(before.links).toBeGreaterThan(0);
    expect(before.invitations).toBeGreaterThan(0);
    // Past every session's idle lifetime and every link's expiry (and the hour the reset limit counts).
    c.clock.now += Math.max(SESSION_IDLE_SECONDS, LINK_SECONDS + 3600);
    const fresh = await ownerSession(c);
    expect(await purgeExpiredAccess(db, c.clock.now)).toBeGreaterThan(0);
    expect(await count('sessions')).toBe(1);
    expect(await count('partner_links')).toBe(0);
    expect(await count('invitations')).toBe(0);
    expect((await fresh.call('GET', '/v1/auth/session')).body.data.attributes.email).toBe(fresh.email);
    expect((await stale.call('GET', '/v1/auth/session')).body).toEqual({ data: null });
  });
});
