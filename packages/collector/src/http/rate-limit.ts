// Rate limits: per token on every /v1 route, and per client IP on /v1/tracking/*, where
// publishable tokens are public. Fixed one-minute windows, counted in this process's
// memory (each collector process counts its own; docs/decisions.md). Every limited
// answer carries RateLimit-Limit, -Remaining and -Reset; a refusal is 429 rate_limited
// with Retry-After.

import type { Context, Middleware } from 'koa';
import { fail } from '../errors.js';

export interface RateLimits {
  /** Requests per minute per token; 0 turns the limit off. */
  perToken: number;
  /** Requests per minute per client IP on /v1/tracking/*; 0 turns the limit off. */
  perIp: number;
  /** How many proxies in front of the collector append to X-Forwarded-For; 0 believes none. */
  trustProxy: number;
}

export const NO_LIMITS: RateLimits = { perToken: 0, perIp: 0, trustProxy: 0 };

const WINDOW_SECONDS = 60;

/**
 * Counts requests per key in the current window. A new window starts a new map, so
 * memory holds only the keys seen in one minute.
 */
function counter(limit: number, now: () => number) {
  let window = -1;
  let counts = new Map<string, number>();
  return (key: string) => {
    const t = now();
    const current = Math.floor(t / WINDOW_SECONDS);
    if (current !== window) {
      window = current;
      counts = new Map();
    }
    const used = (counts.get(key) ?? 0) + 1;
    counts.set(key, used);
    return { allowed: used <= limit, remaining: Math.max(0, limit - used), reset: (current + 1) * WINDOW_SECONDS - t };
  };
}

/** A middleware that limits by `keyOf(ctx)`; with a limit of 0 it does nothing. */
export function rateLimit(limit: number, now: () => number, keyOf: (ctx: Context) => string): Middleware {
  if (limit <= 0) return (_ctx, next) => next();
  const take = counter(limit, now);
  return async (ctx, next) => {
    const { allowed, remaining, reset } = take(keyOf(ctx));
    // With two limits on one request, the headers tell about the tighter one.
    const shown = Number(ctx.response.get('RateLimit-Remaining') || Infinity);
    const headers = { 'RateLimit-Limit': String(limit), 'RateLimit-Remaining': String(remaining), 'RateLimit-Reset': String(reset) };
    if (remaining < shown || !allowed) ctx.set(headers);
    if (!allowed) {
      throw fail('rate_limited', `over ${limit} requests a minute; try again in ${reset} s`, {
        headers: { ...headers, 'Retry-After': String(reset) },
      });
    }
    await next();
  };
}

/**
 * The client's address. Without trusted proxies, the socket's peer: X-Forwarded-For is
 * ignored, so a forged header changes nothing. With `hops` proxies, the address the
 * outermost trusted proxy saw: the hops-th entry from the right of X-Forwarded-For,
 * which those proxies appended themselves.
 */
export function clientIp(ctx: Context, hops: number): string {
  const peer = ctx.req.socket.remoteAddress ?? '';
  if (hops <= 0) return peer;
  const chain = ctx.get('x-forwarded-for').split(',').map((s) => s.trim()).filter(Boolean);
  return chain[Math.max(0, chain.length - hops)] ?? peer;
}
