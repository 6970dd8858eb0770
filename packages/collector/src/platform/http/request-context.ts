// Gives each request an id (echoing a sane incoming X-Request-Id) and writes one log
// line when it ends. The line names the matched route pattern, never the raw path,
// query or body, which may hold e-mail addresses or tokens.

import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';

const VALID_ID = /^[\x21-\x7e]{1,128}$/;
// A client that sends a token as its request id would have it logged; it gets a new id.
const TOKEN_LIKE = /tly_(sec|pub)_/i;

/** The request's id: a sane incoming X-Request-Id, or a new one. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming && VALID_ID.test(incoming) && !TOKEN_LIKE.test(incoming) ? incoming : randomUUID();
}

/** The fields of a request's one log line. */
export interface RequestLine {
  req_id: string;
  method: string;
  route: string | null;
  status: number;
  /** performance.now() when the request arrived. */
  started: number;
}

/** Writes a request's one line. */
export function requestLog(parent: Logger): (line: RequestLine) => void {
  // The request line's fields are these five, none of them anything the redact list looks
  // for: written without the redaction pass, which cost more than the line itself (about
  // 15 µs of 20 µs a line, measured; docs/hot-path.md). Every other line keeps it.
  const log = parent.child({}, { redact: [] });
  return ({ req_id, method, route, status, started }) =>
    log.info({ req_id, method, route, status, ms: Math.round((performance.now() - started) * 100) / 100 }, 'request');
}

export function requestContext(parent: Logger): Middleware {
  const write = requestLog(parent);
  return async (ctx, next) => {
    const requestId = requestIdOf(ctx.get('x-request-id'));
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      write({
        req_id: requestId,
        method: ctx.method,
        route: (ctx as { _matchedRoute?: string })._matchedRoute ?? null,
        status: ctx.status,
        started,
      });
    }
  };
}
