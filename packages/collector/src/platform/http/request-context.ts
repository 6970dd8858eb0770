// Gives each request an id (echoing a sane incoming X-Request-Id) and writes one log
// line when it ends. The line names the matched route pattern, never the raw path,
// query or body, which may hold e-mail addresses or tokens.

import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';

const VALID_ID = /^[\x21-\x7e]{1,128}$/;
// A client that sends a token as its request id would have it logged; it gets a new id.
const TOKEN_LIKE = /tly_(sec|pub)_/i;

export function requestContext(parent: Logger): Middleware {
  // The request line's fields are these five, none of them anything the redact list looks
  // for: written without the redaction pass, which cost more than the line itself (about
  // 15 µs of 20 µs a line, measured; docs/hot-path.md). Every other line keeps it.
  const log = parent.child({}, { redact: [] });
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = VALID_ID.test(incoming) && !TOKEN_LIKE.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      log.info(
        {
          req_id: requestId,
          method: ctx.method,
          route: (ctx as { _matchedRoute?: string })._matchedRoute ?? null,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 100) / 100,
        },
        'request',
      );
    }
  };
}
