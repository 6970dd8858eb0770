// The owner's own account: the dashboard's language, saved on the user (PATCH
// /v1/auth/account), answered on their session in every program they run, and theirs alone.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startCollector, type Collector } from './harness.js';
import { ownerSession } from './session.js';

let c: Collector;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(async () => {
  await c?.close();
});

const localeOf = async (call: (m: string, p: string) => Promise<{ body: any }>) =>
  (await call('GET', '/v1/auth/session')).body.data.attributes.locale;

describe("the owner's language", () => {
  it('is null (the browser’s) until chosen, then kept on the account for every program and session', async () => {
    const b = await c.otherProgram();
    const o = await ownerSession(c);
    expect(await localeOf(o.call)).toBeNull();
    const changed = await o.call('PATCH', '/v1/auth/account', { body: { locale: 'de' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.attributes).toMatchObject({ email: o.email, locale: 'de', program_id: c.programId });
    // The same person in another program, signed in again elsewhere, reads the same choice.
    await c.call('POST', '/v1/members', { token: b.secret, body: { email: o.email } });
    const again = await c.call('POST', '/v1/auth/sign_in', { token: null, body: { email: o.email, password: o.password } });
    expect(again.body.data.attributes.locale).toBe('de');
    // An empty change keeps it; null gives the choice back to the browser.
    expect((await o.call('PATCH', '/v1/auth/account', { body: {} })).body.data.attributes.locale).toBe('de');
    expect((await o.call('PATCH', '/v1/auth/account', { body: { locale: null } })).body.data.attributes.locale).toBeNull();
    expect(await localeOf(o.call)).toBeNull();
  });

  it('accepts only the languages Tally has, and no other field', async () => {
    const o = await ownerSession(c);
    expectError(await o.call('PATCH', '/v1/auth/account', { body: { locale: 'it' } }), 422, 'invalid_field');
    expectError(await o.call('PATCH', '/v1/auth/account', { body: { email: 'x@owners.test' } }), 422, 'unknown_field');
    expect(await localeOf(o.call)).toBeNull();
  });

  it("is each user's own: a viewer may choose theirs, and another member's stays as it was", async () => {
    const owner = await ownerSession(c);
    const viewer = await ownerSession(c, { role: 'viewer' });
    expect((await viewer.call('PATCH', '/v1/auth/account', { body: { locale: 'fr' } })).status).toBe(200);
    expect((await owner.call('PATCH', '/v1/auth/account', { body: { locale: 'es' } })).status).toBe(200);
    expect(await localeOf(viewer.call)).toBe('fr');
    expect(await localeOf(owner.call)).toBe('es');
  });

  it('needs a dashboard session: not a secret token, not signed out', async () => {
    expectError(await c.call('PATCH', '/v1/auth/account', { body: { locale: 'de' } }), 401, 'unauthorized');
    expectError(await c.call('PATCH', '/v1/auth/account', { token: null, body: { locale: 'de' } }), 401, 'unauthorized');
  });
});
