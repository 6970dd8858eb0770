// Bearer-token authentication (design/api.md §2). A secret token may call every /v1
// route of its program; a publishable one, which lives in web pages, only tracking.

import type { Middleware } from 'koa';
import { authenticate } from '../domain/tokens.js';
import { fail } from '../errors.js';
import type { Db } from '../store/db.js';
import { NO_FAILURE_LIMIT, type FailureLimit } from './rate-limit.js';

export type Access = 'secret' | 'publishable';

const BEARER = /^Bearer +(\S+) *$/i;

export interface AuthOptions {
  /** Failed authentications per client address; refused before the lookup once over. */
  failures?: FailureLimit;
}

/** The authentication of every route: `auth(access)` is the middleware for one route. */
export function tokenAuth(db: Db, options: AuthOptions = {}): (access: Access) => Middleware {
  const failures = options.failures ?? NO_FAILURE_LIMIT;
  return (access) => async (ctx, next) => {
    failures.check(ctx);
    const match = BEARER.exec(ctx.get('authorization'));
    const credential = match?.[1] ? await authenticate(db, match[1]) : undefined;
    if (!credential) {
      failures.failed(ctx);
      throw fail('unauthorized', 'a valid token is required: Authorization: Bearer <token>', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
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
