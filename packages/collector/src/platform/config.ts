// The environment, read in one place, checked once at start, and frozen.

import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isLoopbackHost } from './http/address.js';
import { DEFAULT_TIMEOUTS, type ConnectionLimits } from './http/connections.js';
import type { OutboundPolicy } from './outbound.js';
import type { RateLimits } from './http/rate-limit.js';
import { DEFAULT_MAX_QUEUED } from './db/db.js';
import { type Keyring, keyring, parseKey } from './keyring.js';

const count = z.coerce.number().int().min(0);

const taxFormKey = z.string().check((ctx) => {
  const key = parseKey(ctx.value);
  if (typeof key === 'string') ctx.issues.push({ code: 'custom', message: key, input: ctx.value });
});

/** A PEM public key; `\\n` stands for a line break, as one-line environments write it. */
const publicKeyPem = z
  .string()
  .transform((s) => s.replace(/\\n/g, '\n'))
  .check((ctx) => {
    try {
      createPublicKey(ctx.value);
    } catch {
      ctx.issues.push({ code: 'custom', message: 'must be a PEM public key (-----BEGIN PUBLIC KEY-----)', input: ctx.value });
    }
  });

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8787),
    HOST: z.string().min(1).default('127.0.0.1'),
    /** A SQLite file (a path, `sqlite:` or `file:` URL) or a `postgres://` URL. */
    DATABASE_URL: z.string().min(1).default('./data/tally.db'),
    /**
     * PostgreSQL behind PgBouncer (transaction pooling): the same database reached directly,
     * for the one listening session each process keeps; what it leaves out is DATABASE_URL's.
     */
    DATABASE_DIRECT_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//i)
      .optional(),
    /** A streaming replica (hot standby) of DATABASE_URL: lists and statistics read from it, each caller still seeing its own writes. */
    DATABASE_REPLICA_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//i)
      .optional(),
    /** Connections each process keeps to PostgreSQL. */
    PG_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
    /** Writes (SQLite) or callers waiting for a connection (PostgreSQL) held before 503 at once. */
    DB_MAX_QUEUED: z.coerce.number().int().min(1).default(DEFAULT_MAX_QUEUED),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Where users reach this collector; used for the first program's demo site and origin. */
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Stripe's API, for codes Tally makes in Stripe: https://api.stripe.com unless set (a proxy, or a test's local server). */
    STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
    LEMONSQUEEZY_API_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Wise's API, for partners' bank recipients: https://api.wise.com unless set (the sandbox, or a test's local server). */
    WISE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Wise's public key for its webhooks' X-Signature-SHA256 (sandbox and production differ); no Wise webhook is taken without it. */
    WISE_WEBHOOK_PUBLIC_KEY: publicKeyPem.optional(),
    /** Encrypts partners' taxpayer ids (tax forms): 32 bytes in base64; no tax forms without it. */
    TAX_FORM_KEY: taxFormKey.optional(),
    /** Older TAX_FORM_KEYs, comma-separated: they decrypt the forms sealed with them until re-encrypted. */
    TAX_FORM_OLD_KEYS: z
      .string()
      .transform((s) => s.split(',').filter((k) => k.trim() !== ''))
      .pipe(z.array(taxFormKey))
      .optional(),
    /** PayPal's REST API for payout runs: https://api-m.paypal.com unless set (https://api-m.sandbox.paypal.com to test). */
    PAYPAL_API_URL: z.url({ protocol: /^https?$/ }).default('https://api-m.paypal.com'),
    /** Where partners' invitations and password resets are sent from; none sent without it. */
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    /** The From of those messages. */
    MAIL_FROM: z.string().min(3).default('Tally <tally@localhost>'),
    /** Requests per minute per secret token, and per publishable token and client address; 0 turns it off. */
    RATE_LIMIT_TOKEN: count.default(6000),
    /** Applications on programs' public pages per hour per client address; 0 turns it off. */
    RATE_LIMIT_APPLICATIONS: count.default(10),
    /** Requests per minute per client address on /v1/tracking/*; 0 turns it off. */
    RATE_LIMIT_IP: count.default(600),
    /** Failed authentications per minute per client address, on every /v1 route; 0 turns it off. */
    RATE_LIMIT_AUTH_FAILURES: count.default(60),
    /** Proxies in front that append to X-Forwarded-For; 0 (default) believes the header never. */
    TRUST_PROXY: z.coerce.number().int().min(0).max(16).default(0),
    /** Open connections in all; 0: no cap. Default: defaultMaxConnections(). */
    MAX_CONNECTIONS: count.optional(),
    /** Open connections per client address (IPv6: per /64); 0: no cap. Default 256, or 0 behind TRUST_PROXY. */
    MAX_CONNECTIONS_PER_IP: count.optional(),
    HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1).default(DEFAULT_TIMEOUTS.headersTimeoutMs),
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(DEFAULT_TIMEOUTS.requestTimeoutMs),
    /** The demo site at /demo/: 1 or 0; unset, on only when HOST is a loopback address. */
    DEMO: z.enum(['0', '1']).optional(),
    /** Webhook URLs in plain http://, for local development: 1 allows them. */
    WEBHOOK_ALLOW_HTTP: z.enum(['0', '1']).default('0'),
    /** Webhook URLs that reach loopback, private, link-local or metadata addresses: 1 allows them. */
    WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
    /** How long a webhook's endpoint has to answer. */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
    /** Webhook requests in flight from this process at most. */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
    /** Days raw clicks are kept after last seen (at least each program's cookie_days); 0 keeps them for ever. */
    CLICK_RETENTION_DAYS: count.default(90),
    /**
     * Months of clicks kept whole, counted back from the current month (UTC): older ones
     * are dropped, on PostgreSQL a monthly partition at a time, on SQLite in batches of
     * rows. Unset or 0: kept as long as CLICK_RETENTION_DAYS lets them. Not held back by
     * a program's cookie_days: an operator's ceiling on what is stored.
     */
    CLICK_RETENTION_MONTHS: count.max(1200).optional(),
    /** Days an audit log entry is kept (docs/audit.md); 0 keeps them for ever. */
    AUDIT_RETENTION_DAYS: count.default(400),
  })
  // Node refuses a headers timeout longer than the request's, which contains it.
  .refine((e) => e.HEADERS_TIMEOUT_MS <= e.REQUEST_TIMEOUT_MS, {
    path: ['HEADERS_TIMEOUT_MS'],
    message: 'must not be longer than REQUEST_TIMEOUT_MS',
  });

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  databaseDirectUrl?: string | undefined;
  databaseReplicaUrl?: string | undefined;
  /** PostgreSQL only; 10 unless given. */
  pgPoolSize?: number | undefined;
  /** DB_MAX_QUEUED; the store's default (10,000) unless given. */
  dbMaxQueued?: number | undefined;
  logLevel: string;
  /** PUBLIC_URL when given; otherwise the server names itself by the address it listens on. */
  publicUrl?: string | undefined;
  /** STRIPE_API_URL: Stripe's API elsewhere than https://api.stripe.com. */
  stripeApiUrl?: string | undefined;
  /** LEMONSQUEEZY_API_URL: Lemon Squeezy's API elsewhere than https://api.lemonsqueezy.com. */
  lemonSqueezyApiUrl?: string | undefined;
  /** WISE_API_URL: Wise's API elsewhere than https://api.wise.com. */
  wiseApiUrl?: string | undefined;
  /** Every `<NAME>_API_URL`, by its name in lower case: a billing platform's API elsewhere than its own address. */
  platformApiUrls?: Readonly<Record<string, string>> | undefined;
  /** WISE_WEBHOOK_PUBLIC_KEY: the PEM key Wise's webhooks are verified with. */
  wiseWebhookPublicKey?: string | undefined;
  /** TAX_FORM_KEY and TAX_FORM_OLD_KEYS; absent: tax forms are refused. */
  taxFormKeys?: Keyring | undefined;
  /** PAYPAL_API_URL: PayPal's REST API (payout runs, and the only origin its webhook certificates are fetched from). */
  paypalApiUrl?: string | undefined;
  /** SMTP_URL: partners' invitations and password resets are e-mailed through it. */
  smtpUrl?: string | undefined;
  mailFrom?: string | undefined;
  /** From the environment, with its defaults; absent (tests, embedding) means no limits. */
  limits?: RateLimits | undefined;
  /** From the environment, with its defaults; absent means the default timeouts and no caps. */
  connections?: ConnectionLimits | undefined;
  /** DEMO; absent means on only when `host` is a loopback address (demoEnabled). */
  demo?: boolean | undefined;
  /** Where webhooks may go (WEBHOOK_ALLOW_*); absent: https to public addresses, 15 s. */
  outbound?: OutboundPolicy | undefined;
  /** WEBHOOK_CONCURRENCY; 16 unless given. */
  webhookConcurrency?: number | undefined;
  /** CLICK_RETENTION_DAYS (90 from the environment); absent or 0: raw clicks are kept for ever. */
  clickRetentionDays?: number | undefined;
  /** CLICK_RETENTION_MONTHS; absent or 0: no month is dropped (modules/clicks/partitions.ts). */
  clickRetentionMonths?: number | undefined;
  /** AUDIT_RETENTION_DAYS; absent: 400 days; 0: the audit log is kept for ever. */
  auditRetentionDays?: number | undefined;
  /**
   * scrypt's cost for new passwords; absent: PASSWORD_COST (modules/identity/passwords.ts).
   * Not read from the environment, so every deployment has the default: tests lower it.
   */
  passwordCost?: { N: number; r: number; p: number } | undefined;
}

export class ConfigError extends Error {}

/** Whether /demo/ is served: as configured, else only for a collector this machine alone can reach. */
export function demoEnabled(config: Pick<Config, 'demo' | 'host'>): boolean {
  return config.demo ?? isLoopbackHost(config.host);
}

/**
 * 10,000 connections, or fewer when the process may open fewer files: each connection
 * is a file descriptor, and the database, its WAL and the log need some too. Linux
 * tells the limit in /proc; elsewhere the 10,000 stands.
 */
export function defaultMaxConnections(): number {
  let limit = Infinity;
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (line?.[1]) limit = Number(line[1]);
  } catch {
    // not Linux
  }
  return Math.max(64, Math.min(10_000, limit - 256));
}

/** `<NAME>_API_URL`s by name (CHARGEBEE_API_URL: `chargebee`): a platform's module needs no line here. */
function apiUrls(env: Record<string, string | undefined>): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const name = /^([A-Z][A-Z0-9]*)_API_URL$/.exec(key)?.[1];
    if (name === undefined || value === undefined || value === '') continue;
    if (!z.url({ protocol: /^https?$/ }).safeParse(value).success)
      throw new ConfigError(`invalid configuration: ${key}: must be an http(s) URL`);
    urls[name.toLowerCase()] = value.replace(/\/+$/, '');
  }
  return urls;
}

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
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    databaseReplicaUrl: e.DATABASE_REPLICA_URL,
    pgPoolSize: e.PG_POOL_SIZE,
    dbMaxQueued: e.DB_MAX_QUEUED,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    stripeApiUrl: e.STRIPE_API_URL,
    lemonSqueezyApiUrl: e.LEMONSQUEEZY_API_URL,
    wiseApiUrl: e.WISE_API_URL,
    platformApiUrls: apiUrls(env),
    wiseWebhookPublicKey: e.WISE_WEBHOOK_PUBLIC_KEY,
    taxFormKeys: e.TAX_FORM_KEY === undefined ? undefined : keyring(e.TAX_FORM_KEY, e.TAX_FORM_OLD_KEYS),
    paypalApiUrl: e.PAYPAL_API_URL.replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    limits: Object.freeze({
      perToken: e.RATE_LIMIT_TOKEN,
      perIp: e.RATE_LIMIT_IP,
      authFailures: e.RATE_LIMIT_AUTH_FAILURES,
      applicationsPerHour: e.RATE_LIMIT_APPLICATIONS,
      trustProxy: e.TRUST_PROXY,
    }),
    connections: Object.freeze({
      max: e.MAX_CONNECTIONS ?? defaultMaxConnections(),
      // Behind a proxy every connection comes from the proxy's own address: a cap per
      // address would cap the proxy. The proxy is the place for one there.
      perIp: e.MAX_CONNECTIONS_PER_IP ?? (e.TRUST_PROXY > 0 ? 0 : 256),
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    }),
    demo: e.DEMO === undefined ? undefined : e.DEMO === '1',
    outbound: Object.freeze({
      allowHttp: e.WEBHOOK_ALLOW_HTTP === '1',
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE === '1',
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
    }),
    webhookConcurrency: e.WEBHOOK_CONCURRENCY,
    clickRetentionDays: e.CLICK_RETENTION_DAYS,
    clickRetentionMonths: e.CLICK_RETENTION_MONTHS || undefined,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
  });
}

/** An address for the URL's host part: IPv6 in brackets. */
export const urlHost = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/**
 * Where people reach the collector, as the links it prints and hands out name it:
 * PUBLIC_URL, or HOST:PORT (a wildcard address shown as localhost).
 */
export function publicUrlOf(config: Pick<Config, 'publicUrl' | 'host'>, port: number): string {
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : urlHost(config.host);
  return config.publicUrl ?? `http://${shown}:${port}`;
}
