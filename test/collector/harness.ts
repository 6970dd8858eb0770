// A real collector for each test: its own database (a SQLite file, or a PostgreSQL
// schema: database.ts), a real HTTP server on port 0, and a clock the test can move
// (time is the only thing faked).

import { checkAnswer } from './answers.js';
import { collectorDatabase } from './database.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { startServer, type RunningServer } from '../../packages/collector/src/server.js';
import { createProgram } from '../../packages/collector/src/flows/program.js';
import type { OutboundPolicy } from '../../packages/collector/src/platform/outbound.js';
import type { RateLimits } from '../../packages/collector/src/platform/http/rate-limit.js';
import type { Keyring } from '../../packages/collector/src/platform/keyring.js';

/** 2025-03-01 10:00:00 UTC */
export const T0 = 1_740_823_200;

export interface Reply {
  status: number;
  headers: Headers;
  // any: a reply may be any JSON; each test asserts the shape it expects.
  body: any;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as-is instead of JSON.stringify(body). */
  raw?: string;
  headers?: Record<string, string>;
}

export interface Collector {
  url: string;
  /** The DATABASE_URL the server runs on: the CLI and checks behind the API use it too. */
  databaseUrl: string;
  /** A temp folder of the test's own. */
  dir: string;
  running: RunningServer;
  clock: { now: number };
  secret: string;
  publishable: string;
  programId: string;
  call(method: string, path: string, opts?: CallOptions): Promise<Reply>;
  /** A second, unrelated program on the same server. */
  otherProgram(): Promise<{ id: string; secret: string; publishable: string }>;
  close(): Promise<void>;
}

export const PUBLIC_URL = 'http://localhost:8787';

/**
 * The least scrypt takes, for the test servers' passwords: at production's cost each sign-in,
 * reset and account was 100-400 ms of a loaded 2-core machine, most of the API tier's time.
 * password-cost.test.ts holds production to its own.
 */
export const TEST_PASSWORD_COST = Object.freeze({ N: 16, r: 1, p: 1 });

export interface CollectorOptions {
  limits?: RateLimits;
  /** Stripe's API at a test's local server. */
  stripeApiUrl?: string;
  lemonSqueezyApiUrl?: string;
  wiseApiUrl?: string;
  /** Billing platforms' APIs by name: local servers answering as the platforms document. */
  platformApiUrls?: Record<string, string>;
  /** WISE_WEBHOOK_PUBLIC_KEY: the fake Wise's signing key's public half. */
  wiseWebhookPublicKey?: string;
  /** TAX_FORM_KEY's ring; no tax forms without it. */
  taxFormKeys?: Keyring;
  paypalApiUrl?: string;
  smtpUrl?: string;
  /** Where webhooks may go; https to public addresses only unless given. */
  outbound?: Partial<OutboundPolicy>;
  webhookPollMs?: number;
  /** Pins the retries' jitter factor (5 s × 0.2 = a first retry after 1 s). */
  webhookJitter?: () => number;
  /** How often the statistics are folded (every second by default, when background work is on). */
  foldEveryMs?: number;
  /**
   * Background work (webhook delivery, the statistics' fold, purges) on its timers; off
   * unless a test is about it: a test runs it with `running.work` when it wants it, so
   * nothing happens that it did not ask for.
   */
  background?: boolean;
}

export async function startCollector(opts: CollectorOptions = {}): Promise<Collector> {
  const database = await collectorDatabase(T0);
  const clock = { now: T0 };
  const running = await startServer(
    {
      port: 0,
      host: '127.0.0.1',
      databaseUrl: database.url,
      logLevel: 'silent',
      publicUrl: PUBLIC_URL,
      limits: opts.limits,
      smtpUrl: opts.smtpUrl,
      stripeApiUrl: opts.stripeApiUrl,
      lemonSqueezyApiUrl: opts.lemonSqueezyApiUrl,
      wiseApiUrl: opts.wiseApiUrl,
      platformApiUrls: opts.platformApiUrls,
      wiseWebhookPublicKey: opts.wiseWebhookPublicKey,
      taxFormKeys: opts.taxFormKeys,
      paypalApiUrl: opts.paypalApiUrl,
      mailFrom: 'Tally <tally@test.example>',
      passwordCost: TEST_PASSWORD_COST,
    },
    createLogger('silent'),
    {
      now: () => clock.now,
      outbound: opts.outbound,
      webhookPollMs: opts.webhookPollMs,
      webhookJitter: opts.webhookJitter,
      foldEveryMs: opts.foldEveryMs,
      background: opts.background ?? false,
    },
  );
  // The test's fetch shares this process's event loop with the server: a test that keeps the
  // loop busy past Node's 5 s keep-alive (planning, hashing on a loaded machine) would send
  // its next request on a socket the server is closing (ECONNRESET). A minute is past any gap.
  running.server.keepAliveTimeout = 60_000;
  const first = running.firstProgram;
  if (!first) throw new Error('a new database must get a first program');

  const call = async (method: string, path: string, opts: CallOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? first.tokens.secret : opts.token;
    if (token !== null) headers.authorization ??= `Bearer ${token}`;
    let body: string | undefined = opts.raw;
    if (body === undefined && opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(running.url + path, { method, headers, body });
    const text = await res.text();
    const isJson = res.headers.get('content-type')?.startsWith('application/json');
    const answer = isJson ? JSON.parse(text) : text || undefined;
    if (isJson) checkAnswer(method, path, res.status, answer);
    return { status: res.status, headers: res.headers, body: answer };
  };

  return {
    url: running.url,
    databaseUrl: database.url,
    dir: database.dir,
    running,
    clock,
    secret: first.tokens.secret,
    publishable: first.tokens.publishable,
    programId: first.program.id,
    call,
    async otherProgram() {
      const p = await createProgram(running.db, { name: 'Other', siteUrl: 'https://other.example/' }, clock.now);
      return { id: p.program.id, ...p.tokens };
    },
    async close() {
      await running.close();
      await database.drop();
    },
  };
}

let counter = 0;

/** A partner with an accepted (or given) partnership; returns both records' ids and the key. */
export async function seedPartner(
  c: Collector,
  opts: { name?: string; email?: string; paypal_email?: string; state?: string; token?: string } = {},
): Promise<{ partnerId: string; partnershipId: string; key: string }> {
  counter++;
  const partner = await c.call('POST', '/v1/partners', {
    token: opts.token,
    body: {
      name: opts.name ?? `Partner ${counter}`,
      email: opts.email ?? `partner${counter}@partners.test`,
      ...(opts.paypal_email ? { paypal_email: opts.paypal_email } : {}),
    },
  });
  if (partner.status !== 201) throw new Error(`partner: ${JSON.stringify(partner.body)}`);
  const partnership = await c.call('POST', '/v1/partnerships', {
    token: opts.token,
    body: { partner_id: partner.body.data.id, state: opts.state ?? 'accepted' },
  });
  if (partnership.status !== 201) throw new Error(`partnership: ${JSON.stringify(partnership.body)}`);
  return { partnerId: partner.body.data.id, partnershipId: partnership.body.data.id, key: partnership.body.data.attributes.key };
}

/** Asserts the one error shape of docs/api.md §7 and returns the first error. */
// any: the error object is JSON the caller inspects freely.
export function expectError(reply: Reply, status: number, code: string): Record<string, any> {
  const err = reply.body?.errors?.[0];
  if (reply.status !== status || err?.code !== code || err?.status !== String(status)) {
    throw new Error(`expected ${status} ${code}, got ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  for (const field of ['title', 'detail']) {
    if (typeof err[field] !== 'string' || err[field].length === 0) throw new Error(`error without ${field}`);
  }
  if (!String(reply.headers.get('content-type')).startsWith('application/json')) throw new Error('error not JSON');
  return err;
}
