// The web apps, served by the collector itself: the owner's dashboard at /dashboard/, the
// partner portal at /portal/ and the programs' public pages at /p/<slug>/ (the portal's
// app too). Every path under them answers the app's page (the app routes in the
// browser); their hashed files are cached for a year. `/` sends a visitor to the
// dashboard. Read once at start, like the snippet; without a build, they say how to make one.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import { fail } from '../../platform/errors.js';
import { sendStatic, staticFile, type StaticFile } from '../../platform/http/static-file.js';

/** The app's own policy: its scripts and styles from this origin only, calls to the API here. */
export const APP_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

/** A built file, with the gzip and brotli the build wrote beside it when it did. */
function load(path: string): StaticFile {
  const beside = (ext: string) => (existsSync(path + ext) ? readFileSync(path + ext) : undefined);
  return staticFile(readFileSync(path), TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream', {
    gzip: beside('.gz'),
    brotli: beside('.br'),
  });
}

export type WebApp = { page: StaticFile; assets: Map<string, StaticFile> };

/** A built app ('dashboard', 'portal' or 'embed'): its page and its files by name; undefined when the web package is not built. */
export function loadWebApp(dir?: string, app = 'dashboard'): WebApp | undefined {
  const root = dir ?? join(dirname(createRequire(import.meta.url).resolve('@tally/web/package.json')), 'dist', app);
  if (!existsSync(join(root, 'index.html'))) return undefined;
  const assets = new Map<string, StaticFile>();
  for (const name of readdirSync(join(root, 'assets'))) {
    if (!name.endsWith('.gz') && !name.endsWith('.br')) assets.set(name, load(join(root, 'assets', name)));
  }
  return { page: load(join(root, 'index.html')), assets };
}

/** The app's hashed files at /<base>/assets/, cached for a year. */
export function mountAppFiles(router: Router, app: WebApp | undefined, base: string): void {
  router.get(`/${base}/assets/:name`, (ctx) => {
    const file = app?.assets.get(ctx.params.name ?? '');
    if (!file) throw fail('not_found', `no file ${ctx.path}`);
    sendStatic(ctx, file, 'public, max-age=31536000, immutable');
  });
}

/** The app's page, and its hashed files at /<base>/assets/. */
function mountApp(router: Router, app: WebApp | undefined, base: string, pages: readonly string[]): void {
  mountAppFiles(router, app, base);
  for (const prefix of pages) {
    // The router matches /<prefix>/ here too (it is not strict about a final slash).
    router.get(`/${prefix}`, (ctx, next) => {
      if (ctx.path !== `/${prefix}`) return next();
      ctx.status = 301;
      ctx.redirect(`/${prefix}/`);
    });
    router.get(`/${prefix}/{*rest}`, (ctx) => {
      if (!app) throw fail('unavailable', `the ${base} is not built: run npm run build`, { retryAfter: 60 });
      ctx.set('Content-Security-Policy', APP_POLICY);
      // Revalidated on every visit: it names the hashed files of the current build.
      sendStatic(ctx, app.page, 'no-cache');
    });
  }
}

export function mountWeb(router: Router, dashboard: WebApp | undefined, portal: WebApp | undefined): void {
  router.get('/', (ctx) => {
    ctx.status = 302;
    ctx.redirect('/dashboard/');
  });
  mountApp(router, dashboard, 'dashboard', ['dashboard']);
  mountApp(router, portal, 'portal', ['portal', 'p']);
}
