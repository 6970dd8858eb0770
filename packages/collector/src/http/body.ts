// JSON request bodies: application/json only, at most 16 KiB (also after gzip is
// undone), and a JSON object at the top. Every parser failure gets the error shape, and
// the raw body the parser attaches to its errors goes nowhere.

import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';
import { fail } from '../errors.js';

export const BODY_LIMIT_BYTES = 16 * 1024;

const parse = bodyParser({
  enableTypes: ['json'],
  jsonLimit: `${BODY_LIMIT_BYTES}b`,
  strict: true,
  // Passed through to co-body's parser: `__proto__` (and `constructor.prototype`) keys are
  // dropped while parsing, like any other key the route does not know. Never merged.
  ...({ onProtoPoisoning: 'remove' } as object),
  onerror(err) {
    const status = (err as { status?: number }).status;
    if (status === 413) throw fail('payload_too_large', `the body is over ${BODY_LIMIT_BYTES} bytes`);
    if (status === 415) throw fail('unsupported_media_type', 'the body encoding or charset is not supported');
    throw fail('malformed_json', 'the body is not valid JSON');
  },
});

export const jsonBody: Middleware = async (ctx, next) => {
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
