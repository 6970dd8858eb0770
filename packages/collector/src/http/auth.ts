// Bearer-token authentication (design/api.md §2). A secret token may call every /v1
// route of its program; a publishable one, which lives in web pages, only tracking.

import type { Middleware } from 'koa';
import { authenticate } from '../domain/tokens.js';
import { fail } from '../errors.js';
import type { Db } from '../store/db.js';

export type Access = 'secret' | 'publishable';

const BEARER = /^Bearer +(\S+) *$/i;

export function requireToken(db: Db, access: Access): Middleware {
  return async (ctx, next) => {
    const match = BEARER.exec(ctx.get('authorization'));
    const credential = match?.[1] ? await authenticate(db, match[1]) : undefined;
    if (!credential) {
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
