// Bearer-token authentication (docs/api.md §3). A secret token may call every /v1
// route of its program, from servers only; a publishable one, which lives in web pages,
// only tracking.

import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { authenticate, tokenKind } from '../domain/tokens.js';
import { fail } from '../errors.js';
import type { Db } from '../store/db.js';
import { NO_FAILURE_LIMIT, type FailureLimit } from './rate-limit.js';

export type Access = 'secret' | 'publishable';

const BEARER = /^Bearer +(\S+) *$/i;

export interface AuthOptions {
  /** Failed authentications per client address; refused before the lookup once over. */
  failures?: FailureLimit;
  /** Told once per token when a secret token arrives from a web page. */
  log?: Logger;
}

/** The authentication of every route: `auth(access)` is the middleware for one route. */
export function tokenAuth(db: Db, options: AuthOptions = {}): (access: Access) => Middleware {
  const failures = options.failures ?? NO_FAILURE_LIMIT;
  // Bounded by the secret tokens that exist: only a known token gets this far.
  const warned = new Set<string>();
  return (access) => async (ctx, next) => {
    failures.check(ctx);
    const token = BEARER.exec(ctx.get('authorization'))?.[1];
    const credential = token ? await authenticate(db, token) : undefined;
    if (!credential) {
      // Only a well-formed token costs a lookup. A missing or malformed one is refused for
      // free, and counting it would lock out every client behind one address (a NAT).
      if (token && tokenKind(token)) failures.failed(ctx);
      throw fail('unauthorized', 'a valid token is required: Authorization: Bearer <token>', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    }
    // Browsers send Origin with every cross-origin request and every POST; servers do
    // not. A secret token in a page is readable by anyone who opens it, so it is refused
    // on every route, even from an allowed origin, before it can do anything.
    if (credential.kind === 'secret' && ctx.get('origin')) {
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
    if (credential.kind === 'publishable' && access === 'secret') {
      throw fail('forbidden', 'a publishable token may only call /v1/tracking routes; use a secret token');
    }
    ctx.state.program = credential.program;
    ctx.state.tokenId = credential.token_id;
    ctx.state.caller = credential.kind;
    await next();
  };
}
