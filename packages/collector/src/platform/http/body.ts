// JSON request bodies: application/json only, at most 16 KiB (also after gzip is
// undone; a webhook's route may allow more), nested at most MAX_JSON_DEPTH deep (json.ts), and a
// JSON object at the top. Every parser failure gets the error shape, and the raw body the
// parser attaches to its errors goes nowhere. The text as received stays on the request
// (rawBody), for a signature over it.

import bodyParser from 'koa-bodyparser';
import type { IncomingMessage } from 'node:http';
import type { Context, Middleware } from 'koa';
import { fail } from '../errors.js';
import { parseJsonObject } from '../json.js';

export const BODY_LIMIT_BYTES = 16 * 1024;

// The body is read as text (JSON's type counted as text) and parsed here, not by the
// parser, so its depth is checked before JSON.parse sees it. The limit counts the bytes
// after a gzip, deflate or br encoding is undone, so what is inflated stops at it too.
const reader = (limit: number) =>
  bodyParser({
    enableTypes: ['text'],
    extendTypes: { text: ['application/json'] },
    textLimit: `${limit}b`,
    onerror(err) {
      const status = (err as { status?: number }).status;
      if (status === 413) throw fail('payload_too_large', `the body is over ${limit} bytes`);
      if (status === 415) throw fail('unsupported_media_type', 'the body encoding or charset is not supported');
      throw fail('malformed_json', 'the body is not valid JSON');
    },
  });

function requireJson(ctx: Context): void {
  if (!ctx.is('application/json')) {
    throw fail('unsupported_media_type', 'the body must be JSON, sent with Content-Type: application/json');
  }
}

/**
 * The body of the request the tracker, the API's clients and the billing platforms send
 * (a Content-Length, no Content-Encoding) read straight from the socket: the same text
 * the parser would make of it (UTF-8, a byte order mark dropped, as its decoder does) and
 * the same refusals (413 over the limit, 400 when the bytes fall short of the length), at
 * a fraction of its CPU (its stream, inflation and decoder layers cost a tenth of a
 * conversion: --cpu-prof, docs/hot-path.md). Undefined for any other request (chunked,
 * compressed), which the parser reads.
 */
export function readPlain(req: IncomingMessage, limit: number): Promise<string> | undefined {
  return readBytes(req, limit)?.then((bytes) => {
    const text = bytes.toString('utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  });
}

/** The body's bytes as sent (Content-Length, no Content-Encoding); undefined for any other request. */
function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> | undefined {
  const coding = req.headers['content-encoding'] ?? '';
  if (coding !== '' && coding.trim().toLowerCase() !== 'identity') return undefined;
  const declared = req.headers['content-length'] ?? '';
  const length = declared === '' ? Number.NaN : Number(declared);
  if (!Number.isSafeInteger(length) || length < 0) return undefined;
  if (length > limit) throw fail('payload_too_large', `the body is over ${limit} bytes`);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (err: unknown) => {
      req.off('data', onData).off('end', onEnd).off('error', finish).off('close', onClose);
      // As the parser's failures are answered (onerror above): the client stopped, or broke the stream.
      if (err !== undefined) return reject(fail('malformed_json', 'the body is not valid JSON'));
      resolve(Buffer.concat(chunks, received));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    };
    // Node's parser delivers no more than Content-Length; fewer means the client stopped short.
    const onEnd = () => finish(received === length ? undefined : new Error('request size did not match content length'));
    const onClose = () => finish(new Error('the request closed before its body ended'));
    req.on('data', onData).on('end', onEnd).on('error', finish).on('close', onClose);
  });
}

/** The body parser for a route that takes up to `limit` bytes. */
export function jsonBodyOf(limit: number): Middleware {
  const read = reader(limit);
  return async (ctx, next) => {
    requireJson(ctx);
    const plain = readPlain(ctx.req, limit);
    if (plain) {
      ctx.request.rawBody = await plain;
      ctx.request.body = parseJsonObject(ctx.request.rawBody);
      return next();
    }
    await read(ctx, async () => {
      ctx.request.body = parseJsonObject(ctx.request.rawBody ?? '');
      await next();
    });
  };
}

export const jsonBody = jsonBodyOf(BODY_LIMIT_BYTES);

/**
 * A webhook's body, read and left unparsed (rawBody) for the handler to verify first:
 * nobody known yet can make the collector parse anything. Sent as is, never compressed,
 * so what it costs to read is what arrives.
 */
export function webhookBodyOf(limit: number): Middleware {
  const read = reader(limit);
  return async (ctx, next) => {
    requireJson(ctx);
    const coding = ctx.get('content-encoding').trim().toLowerCase();
    if (coding !== '' && coding !== 'identity') {
      throw fail('unsupported_media_type', `a webhook's body must be sent uncompressed: Content-Encoding ${coding} is not taken here`);
    }
    const plain = readPlain(ctx.req, limit);
    if (!plain) return read(ctx, next);
    ctx.request.rawBody = await plain;
    ctx.request.body = ctx.request.rawBody;
    return next();
  };
}

/**
 * A file's bytes, sent as the whole body (not multipart: docs/resources.md), with its
 * Content-Length and uncompressed, so the limit counts what is stored. Left on the request
 * as `ctx.state.upload`; what the bytes are is the route's to check, never the Content-Type.
 */
export function uploadBodyOf(limit: number): Middleware {
  return async (ctx, next) => {
    const coding = ctx.get('content-encoding').trim().toLowerCase();
    if (coding !== '' && coding !== 'identity') {
      throw fail('unsupported_media_type', `an upload must be sent uncompressed: Content-Encoding ${coding} is not taken here`);
    }
    const bytes = readBytes(ctx.req, limit);
    if (!bytes) throw fail('bad_request', 'an upload needs a Content-Length: send the file as the whole body');
    ctx.state.upload = await bytes;
    return next();
  };
}
