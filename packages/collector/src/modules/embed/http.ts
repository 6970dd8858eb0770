// The embedded portal's page at /embed/?token=…, which only the program's allowed origins
// may frame: its Content-Security-Policy names them in frame-ancestors, worked out from the
// token on each load ('none' for an unknown or expired one), and the global
// X-Frame-Options: DENY (platform/http/security-headers.ts) is taken off this page alone.
// Its files are served as every web app's are (site/web.ts).

import type Router from '@koa/router';
import type { Db } from '../../platform/db/db.js';
import { fail } from '../../platform/errors.js';
import type { FailureLimit } from '../../platform/http/rate-limit.js';
import { sendStatic } from '../../platform/http/static-file.js';
import { APP_POLICY, mountAppFiles, type WebApp } from '../site/web.js';
import { frameAncestors } from '../../flows/embed.js';

export function mountEmbed(router: Router, db: Db, now: () => number, failures: FailureLimit, app: WebApp | undefined): void {
  mountAppFiles(router, app, 'embed');
  router.get('/embed', (ctx, next) => {
    if (ctx.path !== '/embed') return next();
    ctx.status = 301;
    ctx.redirect(`/embed/${ctx.search}`);
  });
  router.get('/embed/', async (ctx) => {
    if (!app) throw fail('unavailable', 'the embed is not built: run npm run build', { retryAfter: 60 });
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    // The policy tells a live token from a guess: guesses are limited as the API's are.
    failures.check(ctx);
    const ancestors = await frameAncestors(db, token, now());
    if (ancestors === undefined && token) failures.failed(ctx);
    ctx.set('Content-Security-Policy', APP_POLICY.replace("frame-ancestors 'none'", `frame-ancestors ${ancestors ?? "'none'"}`));
    ctx.remove('X-Frame-Options');
    // The answer depends on the token: no cache keeps it for another.
    sendStatic(ctx, app.page, 'no-store');
  });
}
