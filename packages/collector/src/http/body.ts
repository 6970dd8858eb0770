// JSON request bodies: application/json only, at most 16 KiB (also after gzip is
// undone; a webhook's route may allow more), and a JSON object at the top. Every parser
// failure gets the error shape, and the raw body the parser attaches to its errors goes
// nowhere. The text as received stays on the request (rawBody), for a signature over it.

import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';
import { fail } from '../errors.js';

export const BODY_LIMIT_BYTES = 16 * 1024;

const parser = (limit: number) => bodyParser({
  enableTypes: ['json'],
  jsonLimit: `${limit}b`,
  strict: true,
  // Passed through to co-body's parser: `__proto__` (and `constructor.prototype`) keys are
  // dropped while parsing, like any other key the route does not know. Never merged.
  ...({ onProtoPoisoning: 'remove' } as object),
  onerror(err) {
    const status = (err as { status?: number }).status;
    if (status === 413) throw fail('payload_too_large', `the body is over ${limit} bytes`);
    if (status === 415) throw fail('unsupported_media_type', 'the body encoding or charset is not supported');
    throw fail('malformed_json', 'the body is not valid JSON');
  },
});

/** The body parser for a route that takes up to `limit` bytes. */
export function jsonBodyOf(limit: number): Middleware {
  const parse = parser(limit);
  return async (ctx, next) => {
    if (!ctx.is('application/json')) {
      throw fail('unsupported_media_type', 'the body must be JSON, sent with Content-Type: application/json');
    }
    await parse(ctx, async () => {
      const body: unknown = ctx.request.body;
      if (ctx.request.rawBody === '' || typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw fail('malformed_json', 'the body must be a JSON object');
      }
      await next();
    });
  };
}

export const jsonBody = jsonBodyOf(BODY_LIMIT_BYTES);
