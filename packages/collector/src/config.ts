// The environment, read in one place, checked once at start, and frozen.

import { z } from 'zod';
import type { RateLimits } from './http/rate-limit.js';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** A SQLite file (a path, `sqlite:` or `file:` URL) or a `postgres://` URL. */
  DATABASE_URL: z.string().min(1).default('./data/tally.db'),
  /** Connections each process keeps to PostgreSQL. */
  PG_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where users reach this collector; used for the first program's demo site and origin. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Requests per minute per secret token, and per publishable token and client address; 0 turns it off. */
  RATE_LIMIT_TOKEN: z.coerce.number().int().min(0).default(6000),
  /** Requests per minute per client address on /v1/tracking/*; 0 turns it off. */
  RATE_LIMIT_IP: z.coerce.number().int().min(0).default(600),
  /** Failed authentications per minute per client address, on every /v1 route; 0 turns it off. */
  RATE_LIMIT_AUTH_FAILURES: z.coerce.number().int().min(0).default(60),
  /** Proxies in front that append to X-Forwarded-For; 0 (default) believes the header never. */
  TRUST_PROXY: z.coerce.number().int().min(0).max(16).default(0),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** PostgreSQL only; 10 unless given. */
  pgPoolSize?: number | undefined;
  logLevel: string;
  /** PUBLIC_URL when given; otherwise the server names itself by the address it listens on. */
  publicUrl?: string | undefined;
  /** From the environment, with its defaults; absent (tests, embedding) means no limits. */
  limits?: RateLimits | undefined;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Readonly<Config> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const e = result.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    pgPoolSize: e.PG_POOL_SIZE,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    limits: Object.freeze({
      perToken: e.RATE_LIMIT_TOKEN,
      perIp: e.RATE_LIMIT_IP,
      authFailures: e.RATE_LIMIT_AUTH_FAILURES,
      trustProxy: e.TRUST_PROXY,
    }),
  });
}
