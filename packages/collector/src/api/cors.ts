// CORS for /v1/tracking/* only (docs/api.md §4): the snippet posts from the company's
// pages with a publishable token. No other route answers browsers, since secret tokens
// do not belong in them.

import type { Middleware } from 'koa';
import { fail } from '../platform/errors.js';
import { allowsOrigin } from '../modules/programs/service.js';
import type { ProgramRow } from '../modules/programs/model.js';
import type { Db } from '../platform/db/db.js';

/** A preflight carries no token, so any origin is answered; the POST itself is checked. */
export const preflight: Middleware = async (ctx) => {
  const origin = ctx.get('origin');
  ctx.vary('Origin');
  if (origin) ctx.set('Access-Control-Allow-Origin', origin);
  ctx.set({
    'Access-Control-Allow-Methods': 'POST',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type',
    'Access-Control-Max-Age': '7200',
  });
  ctx.status = 204;
};

/**
 * The headers that open the answer to a browser origin inside the program's list (none
 * without an Origin); throws for one outside it.
 */
export async function originHeaders(db: Db, programId: string, origin: string | undefined): Promise<Record<string, string> | undefined> {
  if (!origin) return undefined;
  if (!(await allowsOrigin(db, programId, origin))) {
    // The page's developer reads this in the browser's console: it says where to allow the
    // origin, without the program's id (the publishable token is public).
    throw fail(
      'origin_not_allowed',
      `origin ${origin} is not allowed for this program: add it under Settings → Program → Allowed origins in the dashboard, ` +
        `or with npx tally programs update <program id> --add-origin ${origin}`,
    );
  }
  // The snippet's outbox reads Retry-After; Location names the record.
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': 'Location, Retry-After, X-Request-Id' };
}

/** Refuses a browser origin outside the program's list; opens the answer to one inside it. */
export function allowedOrigin(db: Db): Middleware {
  return async (ctx, next) => {
    ctx.vary('Origin');
    const headers = await originHeaders(db, (ctx.state.program as ProgramRow).id, ctx.get('origin'));
    if (headers) ctx.set(headers);
    await next();
  };
}
