// The snippet, served by the collector (docs/api.md §20): /tracker.js, cached for five
// minutes and revalidated by ETag, and /tracker.<hash>.js, which never changes and is
// cached for a year. Each encoding is compressed once, when first asked for (static-file.ts).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Router from '@koa/router';
import { sendStatic, staticFile, type StaticFile } from '../../platform/http/static-file.js';

/**
 * The built snippet, or undefined when the tracker package has not been built: then
 * /tracker.js is a 404, and `missing` is told why once, so the operator is not left
 * guessing at a silent 404.
 */
export function loadTracker(path: string | undefined, missing: (cause: string) => void): StaticFile | undefined {
  let body: Buffer;
  try {
    body = readFileSync(path ?? createRequire(import.meta.url).resolve('@tally/tracker/tracker.js'));
  } catch (err) {
    missing(`${(err as NodeJS.ErrnoException).code ?? 'unreadable'}: ${path ?? '@tally/tracker/tracker.js'}; run npm run build`);
    return undefined;
  }
  return staticFile(body, 'text/javascript; charset=utf-8');
}

export function mountAssets(router: Router, asset: StaticFile | undefined): void {
  if (!asset) return;
  router.get('/tracker.js', (ctx) => sendStatic(ctx, asset, 'public, max-age=300'));
  router.get(`/tracker.${asset.hash}.js`, (ctx) => sendStatic(ctx, asset, 'public, max-age=31536000, immutable'));
}
