// `tally users`: invitations print a one-time link that signs the person in through the
// API; list and remove act on the same database as a running server.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectError, PUBLIC_URL, startCollector, type Collector } from './harness.js';
import { tally } from './processes.js';
import { asOwner, sessionCookieOf } from './session.js';

let c: Collector;
let env: Record<string, string>;
beforeAll(async () => {
  c = await startCollector();
  env = { DATABASE_URL: c.databaseUrl, PUBLIC_URL };
});
afterAll(async () => {
  await c?.close();
});

it('invite prints a link that lets the person set a password and sign in; list shows them; remove ends their session', async () => {
  const invited = await tally(['users', 'invite', 'cli@owner.test', '--program', c.programId], env);
  expect(invited.code).toBe(0);
  const link = /Invitation link \(once, within 24 hours\): (\S+)/.exec(invited.stdout)?.[1] ?? '';
  expect(link.startsWith(`${PUBLIC_URL}/dashboard/welcome#`)).toBe(true);
  // The link is shown once: the database keeps only its hash.
  const stored = await c.running.db.all<{ hash: string }>('SELECT hash FROM invitations');
  expect(stored.some((r) => link.endsWith(r.hash))).toBe(false);

  const redeemed = await c.call('POST', '/v1/auth/redeem', {
    token: null,
    body: { token: link.split('#')[1], password: 'cli owner password' },
  });
  expect(redeemed.status).toBe(200);
  const session = asOwner(c, sessionCookieOf(redeemed) ?? '');
  expect((await session('GET', '/v1/partners')).status).toBe(200);

  const listed = await tally(['users', 'list', '--json'], env);
  const rows = JSON.parse(listed.stdout) as { email: string | null; program_id: string; active: boolean }[];
  expect(rows).toContainEqual(expect.objectContaining({ email: 'cli@owner.test', program_id: c.programId, active: true }));
  // The first start's owner has not chosen an address yet.
  expect(rows).toContainEqual(expect.objectContaining({ email: null, active: false }));

  // The operator's reset link sets a new password and ends the other sessions.
  const reset =
    /Reset link \(once, within 24 hours\): (\S+)/.exec((await tally(['users', 'reset', 'cli@owner.test'], env)).stdout)?.[1] ?? '';
  expect(reset.startsWith(`${PUBLIC_URL}/dashboard/welcome#`)).toBe(true);
  const renewed = await c.call('POST', '/v1/auth/redeem', {
    token: null,
    body: { token: reset.split('#')[1], password: 'a new cli password' },
  });
  expect(renewed.status).toBe(200);
  expect((await session('GET', '/v1/auth/session')).body).toEqual({ data: null });
  expect((await tally(['users', 'reset', 'nobody@owner.test'], env)).code).toBe(2);

  const removed = await tally(['users', 'remove', 'CLI@owner.test'], env);
  expect(removed.code).toBe(0);
  expectError(await asOwner(c, sessionCookieOf(renewed) ?? '')('GET', '/v1/partners'), 401, 'unauthorized');
  expect((await tally(['users', 'remove', 'cli@owner.test'], env)).code).not.toBe(0);
});

it('invites in a role, and refuses a role that does not exist', async () => {
  const invited = await tally(['users', 'invite', 'viewer@owner.test', '--program', c.programId, '--role', 'viewer'], env);
  const token = /Invitation link \(once, within 24 hours\): \S+#(\S+)/.exec(invited.stdout)?.[1] ?? '';
  const joined = await c.call('POST', '/v1/auth/redeem', { token: null, body: { token, password: 'a viewer password' } });
  expect(joined.body.data.attributes.programs).toEqual([expect.objectContaining({ id: c.programId, role: 'viewer' })]);
  expect((await tally(['users', 'invite', 'x@owner.test', '--program', c.programId, '--role', 'boss'], env)).code).toBe(2);
});

it('refuses a malformed address and an unknown program', async () => {
  expect((await tally(['users', 'invite', 'not-an-address', '--program', c.programId], env)).code).not.toBe(0);
  expect((await tally(['users', 'invite', 'x@owner.test', '--program', '0190aaaa-0000-7000-8000-000000000000'], env)).code).toBe(2);
});
