// Who is calling (docs/api.md §3): a bearer token, or the dashboard's session cookie.
// A secret token may call every /v1 route of its program, from servers only; a
// publishable one, which lives in web pages, only tracking. A session acts with a secret
// token's rights for the program it is switched to, from the collector's own pages only.

import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { authenticateSession } from '../modules/owners/service.js';
import { authenticatePartner } from '../flows/portal.js';
import { authenticateEmbed } from '../flows/embed.js';
import { authenticate, tokenKind } from '../modules/tokens/service.js';
import { fail } from '../platform/errors.js';
import type { Db } from '../platform/db/db.js';
import type { Role } from '../modules/owners/repo.js';
import { NO_FAILURE_LIMIT, type FailureLimit, type Seen } from '../platform/http/rate-limit.js';
import type { Credential } from '../modules/tokens/service.js';
import { checkSameOrigin, PARTNER_COOKIE, sessionCookie, setSessionCookie } from './session.js';

/** What a caller's credential may do. */
export type Access = 'secret' | 'publishable' | 'partner' | 'embed';
/** Who may call a route: a token of that kind (or a session, for secret), only a session, a partner's session, an embed's, or anyone. */
export type RouteAccess = Access | 'session' | 'public';

const BEARER = /^Bearer +(\S+) *$/i;

/** The token an Authorization header carries, if it is a bearer one. */
export const bearerToken = (authorization: string | undefined): string | undefined => BEARER.exec(authorization ?? '')?.[1];

export interface AuthOptions {
  /** Failed authentications per client address; refused before the lookup once over. */
  failures?: FailureLimit;
  /** Told once per token when a secret token arrives from a web page. */
  log?: Logger;
  /** Unix seconds, for session expiry. */
  now?: () => number;
  /** The collector's public address: its origin is the dashboard's. */
  publicUrl?: string | undefined;
  /** The bearer token's check, when the app shares one with its direct path. */
  bearer?: BearerCheck | undefined;
}

const RANK: Record<Role, number> = { viewer: 0, admin: 1, owner: 2 };

/**
 * What a member's role lets a session do on a program's route: a viewer reads, an admin
 * changes what a route does not keep for owners, an owner does everything. A read needs
 * no more than a viewer, whatever the route keeps its changes for.
 */
export function checkRole(method: string, role: Role, minimum: Role | undefined): void {
  if (minimum === undefined) return;
  const needed = method === 'GET' || method === 'HEAD' ? 'viewer' : minimum;
  if (RANK[role] < RANK[needed]) {
    throw fail(
      'forbidden',
      needed === 'owner'
        ? 'only an owner of the program may do this'
        : 'a viewer may look but not change anything; ask an owner for another role',
    );
  }
}

/** A 401 that says where a working credential comes from: none was sent, or the one sent is not known. */
const unauthorized = (sent = false) =>
  fail(
    'unauthorized',
    sent
      ? 'this token is unknown or revoked: use the secret token the first start printed, or make one under ' +
          'Settings → API tokens in the dashboard (npx tally tokens create --program ID --kind secret)'
      : 'a token is required: send Authorization: Bearer <secret token>, or sign in to the dashboard',
    { headers: { 'WWW-Authenticate': 'Bearer' } },
  );

/** A bearer token's credential, from its Authorization and Origin headers; throws 401 or 403 for one that may not call. */
export type BearerCheck = (seen: Seen, authorization: string | undefined, origin: string | undefined) => Promise<Credential>;

/** The check of a bearer token (the tracker's direct path, api/direct.ts, uses it too). */
export function bearerCheck(db: Db, options: AuthOptions = {}): BearerCheck {
  const failures = options.failures ?? NO_FAILURE_LIMIT;
  // Bounded by the secret tokens that exist: only a known token gets this far.
  const warned = new Set<string>();
  return async (seen, authorization, origin) => {
    const token = bearerToken(authorization);
    const credential = token ? await authenticate(db, token) : undefined;
    if (!credential) {
      // Only a well-formed token costs a lookup. A missing or malformed one is refused for
      // free, and counting it would lock out every client behind one address (a NAT).
      if (token && tokenKind(token)) failures.failed(seen);
      throw unauthorized(Boolean(token));
    }
    // Browsers send Origin with every cross-origin request and every POST; servers do
    // not. A secret token in a page is readable by anyone who opens it, so it is refused
    // on every route, even from an allowed origin, before it can do anything.
    if (credential.kind === 'secret' && origin) {
      if (!warned.has(credential.token_id)) {
        warned.add(credential.token_id);
        options.log?.warn({ token_id: credential.token_id }, 'a secret token was sent from a web page; replace it');
      }
      throw fail(
        'secret_token_in_browser',
        'secret tokens belong on servers: this request came from a web page (it has an Origin header). ' +
          'Use a publishable token in pages, and replace this secret token, since the page exposed it.',
      );
    }
    return credential;
  };
}

/**
 * The authentication of every route: `auth(access, minimum, optional)` is the middleware
 * for one route. An optional session lets a signed-out browser through with none, so
 * that asking "am I signed in?" is not an error.
 */
export function tokenAuth(db: Db, options: AuthOptions = {}): (access: RouteAccess, minimum?: Role, optional?: boolean) => Middleware {
  const failures = options.failures ?? NO_FAILURE_LIMIT;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const bearer = options.bearer ?? bearerCheck(db, options);
  const publicOrigin = options.publicUrl === undefined ? undefined : new URL(options.publicUrl).origin;

  const bySession =
    (minimum: Role | undefined, optional = false): Middleware =>
    async (ctx, next) => {
      const cookie = sessionCookie(ctx);
      const found = cookie ? await authenticateSession(db, cookie, now()) : undefined;
      if (!found) {
        if (cookie) setSessionCookie(ctx, null, options.publicUrl);
        if (optional) return next();
        throw unauthorized();
      }
      checkSameOrigin(ctx, publicOrigin);
      if (found.touched) setSessionCookie(ctx, cookie ?? null, options.publicUrl);
      checkRole(ctx.method, found.role, minimum);
      ctx.state.program = found.program;
      ctx.state.session = found.session;
      ctx.state.role = found.role;
      ctx.state.tokenId = `session:${found.session.id}`;
      ctx.state.caller = 'secret';
      await next();
    };

  // A partner's session: the portal's routes, and only those.
  const byPartner =
    (optional: boolean): Middleware =>
    async (ctx, next) => {
      const cookie = sessionCookie(ctx, PARTNER_COOKIE);
      const found = cookie ? await authenticatePartner(db, cookie, now()) : undefined;
      if (!found) {
        if (cookie) setSessionCookie(ctx, null, options.publicUrl, PARTNER_COOKIE);
        if (optional) return next();
        throw fail('unauthorized', 'sign in to the partner portal first');
      }
      checkSameOrigin(ctx, publicOrigin);
      if (found.touched) setSessionCookie(ctx, cookie ?? null, options.publicUrl, PARTNER_COOKIE);
      ctx.state.account = found.account;
      ctx.state.partnerSession = found.session;
      ctx.state.tokenId = `partner:${found.session.id}`;
      ctx.state.caller = 'partner';
      await next();
    };

  // The embedded portal's session (modules/embed): a bearer token held by the page, no
  // cookie (an iframe on another site gets none), for the embed's routes only.
  const byEmbed: Middleware = async (ctx, next) => {
    const token = BEARER.exec(ctx.get('authorization'))?.[1];
    const found = token ? await authenticateEmbed(db, token, now()) : undefined;
    if (!found) {
      if (token) failures.failed(ctx);
      throw fail('unauthorized', 'the embed session is missing or over: open the embedded page again', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    }
    ctx.state.program = found.program;
    ctx.state.embed = found.session;
    ctx.state.tokenId = `embed:${found.session.id}`;
    ctx.state.caller = 'embed';
    await next();
  };

  return (access, minimum, optional = false) =>
    async (ctx, next) => {
      if (access === 'public') return next();
      failures.check(ctx);
      if (access === 'embed') return byEmbed(ctx, next);
      if (access === 'partner') return byPartner(optional)(ctx, next);
      const token = BEARER.exec(ctx.get('authorization'))?.[1];
      // The dashboard sends its cookie and no token; a token, when sent, is what counts.
      if (access === 'session' || (access === 'secret' && token === undefined && sessionCookie(ctx))) {
        return bySession(access === 'secret' ? (minimum ?? 'admin') : undefined, optional)(ctx, next);
      }
      const credential = await bearer(ctx, ctx.get('authorization'), ctx.get('origin'));
      if (credential.kind === 'publishable' && access === 'secret') {
        throw fail('forbidden', 'a publishable token may only call /v1/tracking routes; use a secret token');
      }
      ctx.state.program = credential.program;
      ctx.state.tokenId = credential.token_id;
      ctx.state.caller = credential.kind;
      await next();
    };
}
