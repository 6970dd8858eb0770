// Rate limits, in fixed one-minute windows counted in this process's memory (each
// collector process counts its own; docs/decisions/0133-limits-with-several-processes.md):
// - per secret token on every /v1 route;
// - per publishable token and client address: a publishable token is public, so a limit
//   on the token alone would be a switch anyone could flip for every visitor of the program;
// - per client address on /v1/tracking/*, before the token lookup;
// - failed authentications per client address on every /v1 route: once over, refused
//   before the token lookup, so made-up tokens cannot make the database work.
// Clients are counted by address key (platform/http/address.ts: IPv6 per /64). Every limited
// answer carries RateLimit-Limit, -Remaining and -Reset; a refusal is 429 rate_limited
// with Retry-After.

import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { type ServiceError, fail } from '../errors.js';
import { addressKey } from './address.js';

export interface RateLimits {
  /** Requests per minute per secret token, and per publishable token and client address; 0 turns it off. */
  perToken: number;
  /** Requests per minute per client address on /v1/tracking/*; 0 turns the limit off. */
  perIp: number;
  /** Failed authentications per minute per client address, on every /v1 route; 0 or absent turns it off. */
  authFailures?: number | undefined;
  /** How many proxies in front of the collector append to X-Forwarded-For; 0 believes none. */
  trustProxy: number;
  /** Applications on programs' public pages per hour per client address; 0 or absent turns it off. */
  applicationsPerHour?: number | undefined;
  /** Keys each counter holds in a window; MAX_KEYS unless given (tests make it small). */
  maxKeys?: number | undefined;
}

export const NO_LIMITS: RateLimits = { perToken: 0, perIp: 0, authFailures: 0, trustProxy: 0 };

const WINDOW_SECONDS = 60;

/**
 * Keys one counter holds in a window. A flood of distinct addresses (or of publishable
 * token and address pairs) would otherwise grow the map without bound within the minute:
 * about 100 bytes a key, so some 5 MB per counter at most.
 */
export const MAX_KEYS = 50_000;

/**
 * When a window's table is full, keys it does not hold yet share this one count. Keys
 * already counted keep their own, so clients seen before the flood are unaffected; the
 * newcomers of a flood's minute share one limit, which holds the database back rather
 * than the flood.
 */
const OVERFLOW = '\0overflow';

export interface Use {
  used: number;
  remaining: number;
  /** Seconds until the window ends. */
  reset: number;
}

/**
 * Counts uses per key in the current window. A new window starts a new map, so memory
 * holds only the keys seen in one minute, and at most `maxKeys` of them (plus OVERFLOW).
 */
export function windowCounter(limit: number, now: () => number, maxKeys = MAX_KEYS, windowSeconds = WINDOW_SECONDS) {
  let window = -1;
  let counts = new Map<string, number>();
  const at = (key: string) => {
    const t = now();
    const current = Math.floor(t / windowSeconds);
    if (current !== window) {
      window = current;
      counts = new Map();
    }
    const slot = counts.has(key) || counts.size < maxKeys ? key : OVERFLOW;
    return { slot, reset: (current + 1) * windowSeconds - t };
  };
  const use = (used: number, reset: number): Use => ({ used, remaining: Math.max(0, limit - used), reset });
  return {
    /** Counts one use of `key`. */
    hit(key: string): Use {
      const { slot, reset } = at(key);
      const used = (counts.get(slot) ?? 0) + 1;
      counts.set(slot, used);
      return use(used, reset);
    },
    /**
     * What `key` itself has used so far, counting nothing. A key the table does not hold
     * has used nothing, never the shared overflow count: a client that has not failed must
     * not be refused because a flood of other addresses filled the table.
     */
    peek(key: string): Use {
      const { slot, reset } = at(key);
      return use(slot === key ? (counts.get(key) ?? 0) : 0, reset);
    },
  };
}

function headersOf(limit: number, u: Use): Record<string, string> {
  return { 'RateLimit-Limit': String(limit), 'RateLimit-Remaining': String(u.remaining), 'RateLimit-Reset': String(u.reset) };
}

function refusal(limit: number, u: Use, what: string, per = 'a minute'): ServiceError {
  return fail('rate_limited', `over ${limit} ${what} ${per}; try again in ${u.reset} s`, {
    headers: headersOf(limit, u),
    retryAfter: u.reset,
  });
}

/** What a request's address is read from. */
export type Peer = Pick<IncomingMessage, 'socket' | 'headers'>;

/**
 * What a request is counted by: its socket and headers, and what the request has worked
 * out so far. Koa's context is one; the tracker's direct path (api/direct.ts) makes its own.
 */
export interface Seen {
  req: Peer;
  state: Record<string, unknown>;
}

/** Counts one use of a key and answers the limit's headers, or throws 429 once over. */
export type Limiter = (key: string) => Record<string, string>;

/** A limit of `limit` uses per key a minute (an hour with `hour`); undefined when 0 turns it off. */
export function limiter(limit: number, now: () => number, maxKeys?: number, hour = false): Limiter | undefined {
  if (limit <= 0) return undefined;
  const counter = windowCounter(limit, now, maxKeys, hour ? 3600 : WINDOW_SECONDS);
  return (key) => {
    const u = counter.hit(key);
    if (u.used > limit) throw refusal(limit, u, 'requests', hour ? 'an hour' : 'a minute');
    return headersOf(limit, u);
  };
}

/** With two limits on one request, the headers tell about the tighter one: whether `next` is tighter than the `shown` remaining. */
export function tighter(next: Record<string, string>, shown: string | undefined): boolean {
  return Number(next['RateLimit-Remaining']) < Number(shown || Infinity);
}

/** A middleware that limits by `keyOf(ctx)`; without a limit it does nothing. */
export function limitedBy(limit: Limiter | undefined, keyOf: (ctx: Seen) => string): Middleware {
  if (!limit) return (_ctx, next) => next();
  return async (ctx, next) => {
    const headers = limit(keyOf(ctx));
    if (tighter(headers, ctx.response.get('RateLimit-Remaining'))) ctx.set(headers);
    await next();
  };
}

/** Failed authentications per key: `check` refuses once over (before any lookup), `failed` counts one. */
export interface FailureLimit {
  check(ctx: Seen): void;
  failed(ctx: Seen): void;
}

export const NO_FAILURE_LIMIT: FailureLimit = { check: () => undefined, failed: () => undefined };

export function failureLimit(limit: number, now: () => number, keyOf: (ctx: Seen) => string, maxKeys?: number): FailureLimit {
  if (limit <= 0) return NO_FAILURE_LIMIT;
  const counter = windowCounter(limit, now, maxKeys);
  return {
    check(ctx) {
      const u = counter.peek(keyOf(ctx));
      if (u.used >= limit) throw refusal(limit, u, 'failed authentications');
    },
    failed(ctx) {
      counter.hit(keyOf(ctx));
    },
  };
}

/**
 * The client's address. Without trusted proxies, the socket's peer: X-Forwarded-For is
 * ignored, so a forged header changes nothing. With `hops` proxies, the address the
 * outermost trusted proxy saw: the hops-th entry from the right of X-Forwarded-For,
 * which those proxies appended themselves.
 */
export function clientIp(req: Peer, hops: number): string {
  const peer = req.socket.remoteAddress ?? '';
  if (hops <= 0) return peer;
  // Node joins a repeated X-Forwarded-For with ", ", as one header would list them.
  const forwarded = req.headers['x-forwarded-for'];
  const chain = (typeof forwarded === 'string' ? forwarded : '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return chain[Math.max(0, chain.length - hops)] ?? peer;
}

/** The key the client is counted under (an IPv4 address or an IPv6 /64). */
export function clientKey(req: Peer, hops: number): string {
  return addressKey(clientIp(req, hops));
}
