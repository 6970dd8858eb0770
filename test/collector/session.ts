// Signing in as the dashboard does: a one-time link redeemed over HTTP, then the session
// cookie (and the same-origin Origin header a browser adds) on every call.

import { invite } from '../../packages/collector/src/modules/owners/service.js';
import type { CallOptions, Collector, Reply } from './harness.js';

let counter = 0;

export interface Owner {
  email: string;
  password: string;
  /** The Cookie header's value. */
  cookie: string;
  /** A call with this owner's session, from the collector's own origin. */
  call(method: string, path: string, opts?: CallOptions): Promise<Reply>;
}

/** The `name=value` of the session cookie a reply set, or undefined. */
export function sessionCookieOf(reply: Reply): string | undefined {
  const set = reply.headers.getSetCookie().find((c) => c.startsWith('tally_session='));
  return set?.split(';')[0];
}

export function asOwner(c: Collector, cookie: string): Owner['call'] {
  return (method, path, opts = {}) => c.call(method, path, { ...opts, token: null, headers: { cookie, origin: c.url, ...opts.headers } });
}

/** A new owner of `programId` (the first program by default), signed in. */
export async function ownerSession(
  c: Collector,
  opts: { email?: string; password?: string; programId?: string; role?: 'owner' | 'admin' | 'viewer' } = {},
): Promise<Owner> {
  counter++;
  const email = opts.email ?? `owner${counter}@owners.test`;
  const password = opts.password ?? `correct horse ${counter}`;
  const { link } = await invite(c.running.db, opts.programId ?? c.programId, email, c.clock.now, opts.role ?? 'owner');
  if (link === null) throw new Error(`${email} can sign in already`);
  const reply = await c.call('POST', '/v1/auth/redeem', { token: null, body: { token: link, password } });
  const cookie = sessionCookieOf(reply);
  if (reply.status !== 200 || !cookie) throw new Error(`redeem: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { email, password, cookie, call: asOwner(c, cookie) };
}

/** A partner's portal session through their invitation, and calls under one of their partnerships (with the same-origin Origin). */
export async function partnerPortal(c: Collector, secret: string, partnerId: string) {
  const invited = await c.call('POST', `/v1/partners/${partnerId}/invitation`, { token: secret });
  const token = String(invited.body.meta.link).split('#')[1];
  const redeemed = await c.call('POST', '/v1/portal/auth/redeem', { token: null, body: { token, password: 'a long partner password' } });
  const cookie = redeemed.headers.get('set-cookie')!.split(';')[0]!;
  const call = (method: string, path: string, body?: unknown): Promise<Reply> =>
    c.call(method, path, { token: null, headers: { cookie, origin: c.url }, body });
  return { cookie, call };
}
