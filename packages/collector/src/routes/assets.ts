// The snippet, served by the collector (docs/api.md §20): /tracker.js, cached for five
// minutes and revalidated by ETag, and /tracker.<hash>.js, which never changes and is
// cached for a year. Both are compressed once at start.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type Router from '@koa/router';
import type { Context } from 'koa';

export interface Asset {
  body: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
  /** Eight hex characters of the content's SHA-256, for the versioned URL. */
  hash: string;
}

/**
 * The built snippet, or undefined when the tracker package has not been built: then
 * /tracker.js is a 404, and `missing` is told why once, so the operator is not left
 * guessing at a silent 404.
 */
export function loadTracker(path: string | undefined, missing: (cause: string) => void): Asset | undefined {
  let body: Buffer;
  try {
    body = readFileSync(path ?? createRequire(import.meta.url).resolve('@tally/tracker/tracker.js'));
  } catch (err) {
    missing(`${(err as NodeJS.ErrnoException).code ?? 'unreadable'}: ${path ?? '@tally/tracker/tracker.js'}; run npm run build`);
    return undefined;
  }
  const digest = createHash('sha256').update(body).digest('hex');
  return {
    body,
    gzip: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${digest.slice(0, 32)}"`,
    hash: digest.slice(0, 8),
  };
}

function send(ctx: Context, asset: Asset, cacheControl: string): void {
  ctx.set({ 'Cache-Control': cacheControl, ETag: asset.etag, Vary: 'Accept-Encoding' });
  ctx.type = 'text/javascript; charset=utf-8';
  if (ctx.get('if-none-match') === asset.etag) {
    ctx.status = 304;
    return;
  }
  const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
  if (encoding === 'br' || encoding === 'gzip') ctx.set('Content-Encoding', encoding);
  ctx.body = encoding === 'br' ? asset.brotli : encoding === 'gzip' ? asset.gzip : asset.body;
}

export function mountAssets(router: Router, asset: Asset | undefined): void {
  if (!asset) return;
  router.get('/tracker.js', (ctx) => send(ctx, asset, 'public, max-age=300'));
  router.get(`/tracker.${asset.hash}.js`, (ctx) => send(ctx, asset, 'public, max-age=31536000, immutable'));
}
