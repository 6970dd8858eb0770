// JSON request bodies: application/json only, at most 16 KiB (also after gzip is
// undone; a webhook's route may allow more), nested at most MAX_JSON_DEPTH deep, and a
// JSON object at the top. Every parser failure gets the error shape, and the raw body the
// parser attaches to its errors goes nowhere. The text as received stays on the request
// (rawBody), for a signature over it.

import bodyParser from 'koa-bodyparser';
import type { Context, Middleware } from 'koa';
import { fail } from '../errors.js';

export const BODY_LIMIT_BYTES = 16 * 1024;

/** No route's body needs more than a few levels, nor a Stripe event a dozen. */
export const MAX_JSON_DEPTH = 32;

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

/**
 * True when `text` opens more than `max` arrays or objects inside one another. One pass,
 * counting brackets outside strings; whether the rest is valid JSON is JSON.parse's to say.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // a backslash: the next character is escaped, even a quote
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return true;
    } else if (ch === 0x5d || ch === 0x7d) {
      depth--;
    }
  }
  return false;
}

// A `__proto__` key is dropped while parsing, like any other key a route does not know, so
// it is never merged anywhere. Only text that can spell it (plainly, or with \u escapes)
// pays for the reviver.
const dropProto = (key: string, value: unknown) => (key === '__proto__' ? undefined : value);

/** The JSON object `text` holds, or 400 `malformed_json`: too deep, not JSON, or not an object. */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) throw fail('malformed_json', `the body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text, text.includes('__proto__') || text.includes('\\u') ? dropProto : undefined);
  } catch {
    throw fail('malformed_json', 'the body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('malformed_json', 'the body must be a JSON object');
  return value as Record<string, unknown>;
}

function requireJson(ctx: Context): void {
  if (!ctx.is('application/json')) {
    throw fail('unsupported_media_type', 'the body must be JSON, sent with Content-Type: application/json');
  }
}

/** The body parser for a route that takes up to `limit` bytes. */
export function jsonBodyOf(limit: number): Middleware {
  const read = reader(limit);
  return async (ctx, next) => {
    requireJson(ctx);
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
    await read(ctx, next);
  };
}
