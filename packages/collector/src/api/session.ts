// The dashboard's session cookie, and the same-origin rule that makes it safe to honour.
// The cookie is HttpOnly (no script reads it), SameSite=Lax (other sites' forms and
// fetches do not carry it), and Secure whenever the service is reached over https.

import type { Context } from 'koa';
import { SESSION_IDLE_SECONDS } from '../modules/owners/service.js';
import { fail } from '../platform/errors.js';

export const SESSION_COOKIE = 'tally_session';
/** A partner's, apart: a partner's session never opens an owner's routes, nor the reverse. */
export const PARTNER_COOKIE = 'tally_partner';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session token the browser sent, if any. */
export function sessionCookie(ctx: Context, name = SESSION_COOKIE): string | undefined {
  return ctx.cookies.get(name) || undefined;
}

function secure(ctx: Context, publicUrl: string | undefined): boolean {
  return ctx.protocol === 'https' || (publicUrl?.startsWith('https:') ?? false);
}

/**
 * Written by hand: Koa's cookie jar refuses a Secure cookie on a plain connection, which
 * is just what a TLS-terminating proxy in front of the collector hands us.
 */
export function setSessionCookie(ctx: Context, token: string | null, publicUrl: string | undefined, name = SESSION_COOKIE): void {
  const parts = [`${name}=${token ?? ''}`, 'Path=/', `Max-Age=${token === null ? 0 : SESSION_IDLE_SECONDS}`, 'HttpOnly', 'SameSite=Lax'];
  if (secure(ctx, publicUrl)) parts.push('Secure');
  ctx.append('Set-Cookie', parts.join('; '));
}

/**
 * A cookie rides along with any request the browser makes, whoever's page made it; the
 * Origin header says whose page. A change made with a session must come from the
 * collector's own pages (CSRF). Reads need no check: another site can send them, but
 * cannot read the answer.
 */
export function checkSameOrigin(ctx: Context, publicOrigin: string | undefined): void {
  if (SAFE_METHODS.has(ctx.method)) return;
  const origin = ctx.get('origin');
  // The address this request was sent to (Koa 3's ctx.origin is the Origin header itself).
  if (origin !== publicOrigin && origin !== `${ctx.protocol}://${ctx.host}`) {
    throw fail(
      'cross_origin_request',
      origin
        ? `a signed-in change must come from the dashboard's own origin, not ${origin}`
        : 'a signed-in change must carry an Origin header naming the dashboard',
    );
  }
}
