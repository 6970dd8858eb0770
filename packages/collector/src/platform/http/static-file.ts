// A file the collector serves as it was at start (the snippet, the dashboard's files),
// sent in the encoding the client accepts, with an ETag for revalidation. The build
// writes each web file's gzip and brotli beside it (rollup.config.mjs), which are read
// as they are; a file without them is compressed once, when first asked for in that
// encoding: brotli at quality 11 costs some 400 ms for the web apps, not to be paid at
// every start (nor by every test).

import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'koa';

export interface StaticFile {
  body: Buffer;
  readonly gzip: Buffer;
  readonly brotli: Buffer;
  etag: string;
  /** Eight hex characters of the content's SHA-256, for a versioned URL. */
  hash: string;
  type: string;
}

export const gzipOf = (body: Buffer): Buffer => gzipSync(body, { level: 9 });
export const brotliOf = (body: Buffer): Buffer => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });

export function staticFile(body: Buffer, type: string, made: { gzip?: Buffer | undefined; brotli?: Buffer | undefined } = {}): StaticFile {
  const digest = createHash('sha256').update(body).digest('hex');
  let { gzip, brotli } = made;
  return {
    body,
    get gzip() {
      gzip ??= gzipOf(body);
      return gzip;
    },
    get brotli() {
      brotli ??= brotliOf(body);
      return brotli;
    },
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
