// A file the collector serves as it was at start (the snippet, the dashboard's files):
// compressed once, gzip and brotli, and sent in the encoding the client accepts, with an
// ETag for revalidation.

import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'koa';

export interface StaticFile {
  body: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
  /** Eight hex characters of the content's SHA-256, for a versioned URL. */
  hash: string;
  type: string;
}

export function staticFile(body: Buffer, type: string): StaticFile {
  const digest = createHash('sha256').update(body).digest('hex');
  return {
    body,
    gzip: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${digest.slice(0, 32)}"`,
    hash: digest.slice(0, 8),
    type,
  };
}

export function sendStatic(ctx: Context, file: StaticFile, cacheControl: string): void {
  ctx.set({ 'Cache-Control': cacheControl, ETag: file.etag, Vary: 'Accept-Encoding' });
  ctx.type = file.type;
  if (ctx.get('if-none-match') === file.etag) {
    ctx.status = 304;
    return;
  }
  const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
  if (encoding === 'br' || encoding === 'gzip') ctx.set('Content-Encoding', encoding);
  ctx.body = encoding === 'br' ? file.brotli : encoding === 'gzip' ? file.gzip : file.body;
}
