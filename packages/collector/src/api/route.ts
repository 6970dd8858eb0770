// A route is data: method, path, who may call it, the schema of its body or the filters
// of its list, and a handler that takes plain input and returns a reply. The app mounts
// it; /openapi.json describes it; neither can drift from the other.

import type { z } from 'zod';
import type { Db } from '../platform/db/db.js';
import type { ProgramRow } from '../modules/programs/model.js';
import type { OutboxSender } from '../modules/mail/outbox.js';
import type { AccountRow, PartnerSessionRow } from '../modules/portal/repo.js';
import type { EmbedSessionRow } from '../modules/embed/repo.js';
import type { Role, SessionRow } from '../modules/owners/repo.js';
import type { Access, RouteAccess } from './auth.js';
import type { ListQuery, ListSpec } from '../platform/http/list-query.js';
import type { OutboundPolicy } from '../platform/outbound.js';
import type { Keyring } from '../platform/keyring.js';

/** The part of a route's input that is the app's, the same for every request. */
export type AppInput = Pick<
  RouteInput<unknown>,
  | 'db'
  | 'outbox'
  | 'outbound'
  | 'stripeApiUrl'
  | 'lemonSqueezyApiUrl'
  | 'wiseApiUrl'
  | 'platformApiUrls'
  | 'wiseWebhookPublicKey'
  | 'taxFormKeys'
  | 'paypalApiUrl'
>;

export interface RouteInput<B, Q = unknown> {
  db: Db;
  /** Unix seconds, read once per request. */
  now: number;
  /** The caller's program; none on a public route (sign-in). */
  program: ProgramRow;
  /** The kind of token the caller used: a publishable one is public, and told less. */
  caller: Access;
  /** The dashboard's session, when the caller used one instead of a token. */
  session: SessionRow | undefined;
  /** The session's role in the program; undefined for a token, which may do everything its kind may. */
  role: Role | undefined;
  /** The partner's account and session, on a route for partners (access 'partner'). */
  account: AccountRow | undefined;
  partnerSession: PartnerSessionRow | undefined;
  /** The embedded portal's session, on an embed route (access 'embed'): one partner of `program`. */
  embed: EmbedSessionRow | undefined;
  /** What outgoing webhooks may reach (platform/outbound.ts). */
  outbound: OutboundPolicy;
  /** Sends the e-mail outbox when SMTP is configured; undefined when it is not. */
  outbox: OutboxSender | undefined;
  /** The client's address (or the proxy's word for it), for limits per address. */
  client: string;
  /** The collector's public address, for links it hands out. */
  publicUrl: string;
  /** Stripe's API elsewhere than https://api.stripe.com (STRIPE_API_URL), for codes made in Stripe. */
  stripeApiUrl: string | undefined;
  /** Lemon Squeezy's API elsewhere than https://api.lemonsqueezy.com (LEMONSQUEEZY_API_URL), for orders' codes. */
  lemonSqueezyApiUrl: string | undefined;
  /** Wise's API elsewhere than https://api.wise.com (WISE_API_URL), for partners' bank recipients. */
  wiseApiUrl: string | undefined;
  /** Billing platforms' APIs elsewhere than their own addresses, by platform name (`<NAME>_API_URL`). */
  platformApiUrls: Readonly<Record<string, string>>;
  /** Wise's webhook public key (WISE_WEBHOOK_PUBLIC_KEY); undefined: Wise's webhooks are refused. */
  wiseWebhookPublicKey: string | undefined;
  /** The keys of partners' taxpayer ids (TAX_FORM_KEY); undefined when none is configured. */
  taxFormKeys: Keyring | undefined;
  /** The request's id (X-Request-Id), for the audit log. */
  requestId: string;
  /** The caller's token id, or its session's (`session:<id>`, `partner:<id>`, `embed:<id>`); none on a public route. */
  tokenId: string | undefined;
  /** The client's IP address as the request shows it (through trusted proxies), for a signature's record. */
  clientIp: string;
  /** PayPal's REST API (PAYPAL_API_URL), for payout runs and its webhooks' certificates. */
  paypalApiUrl: string;
  params: Record<string, string>;
  body: B;
  list: ListQuery;
  /** The query string, checked by the route's `query` schema. */
  query: Q;
  /** An upload route's file, its bytes as sent (uploadLimit); undefined elsewhere. */
  upload: Buffer | undefined;
  /** A webhook route's body as received (its signature is over these bytes); '' elsewhere. */
  raw: string;
  /** A request header, by its lower-case name. */
  header(name: string): string | undefined;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Starts a session (its cookie's token) or ends the caller's ('end'). */
  session?: { token: string } | 'end';
  /** The same for a partner's session, in its own cookie. */
  partnerSession?: { token: string } | 'end';
}

/** What a request gives a route's input, beside the app's part. */
export type RequestInput<B, Q> = Omit<RouteInput<B, Q>, keyof AppInput>;

/**
 * A route's input, every field written out: an object spread and then added to past a
 * dozen fields falls into V8's dictionary mode, and every read of it in the handler with
 * it (measured: a tenth of a conversion's CPU, issue 47).
 */
export function routeInput<B, Q>(app: AppInput, r: RequestInput<B, Q>): RouteInput<B, Q> {
  return {
    db: app.db,
    outbox: app.outbox,
    outbound: app.outbound,
    stripeApiUrl: app.stripeApiUrl,
    lemonSqueezyApiUrl: app.lemonSqueezyApiUrl,
    wiseApiUrl: app.wiseApiUrl,
    platformApiUrls: app.platformApiUrls,
    wiseWebhookPublicKey: app.wiseWebhookPublicKey,
    taxFormKeys: app.taxFormKeys,
    paypalApiUrl: app.paypalApiUrl,
    now: r.now,
    program: r.program,
    caller: r.caller,
    session: r.session,
    role: r.role,
    account: r.account,
    partnerSession: r.partnerSession,
    embed: r.embed,
    client: r.client,
    publicUrl: r.publicUrl,
    clientIp: r.clientIp,
    requestId: r.requestId,
    tokenId: r.tokenId,
    params: r.params,
    body: r.body,
    list: r.list,
    query: r.query,
    raw: r.raw,
    upload: r.upload,
    header: r.header,
  };
}

export interface Route<B = unknown, Q = unknown> {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Koa style: /v1/partners/:id */
  path: string;
  summary: string;
  access: RouteAccess;
  body?: z.ZodType<B>;
  list?: ListSpec;
  /** A read a streaming replica may answer, as every list's (the statistics, the leaderboard). */
  replicaReads?: boolean;
  /** Query parameters other than a list's filters (the statistics' range). */
  query?: z.ZodType<Q>;
  /** The success status, for the document. */
  status: number;
  /** The success answer's JSON body (platform/http/schemas.ts); none for 204, or with `produces`. */
  response?: z.ZodType;
  /**
   * A webhook from another service: a JSON body of up to this many bytes, handed to the
   * handler as received (`raw`) for it to verify, with no schema of ours to check.
   */
  webhookBodyLimit?: number;
  /** A file upload: the body is the file's bytes, up to this many, handed to the handler as `upload`. */
  uploadLimit?: number;
  /**
   * The least role a dashboard session needs (a secret token may do everything). Without
   * it, a viewer may only read and an admin may do the rest.
   */
  role?: 'owner' | 'admin';
  /** A 'session' or 'partner' route that a signed-out browser may call too (with no session). */
  optionalSession?: boolean;
  /** Checks a password: refused while the address is over its failed-authentication limit, and a wrong one counts. */
  checksPassword?: boolean;
  /** Trades a one-time token given in the body (an embed token): limited as checksPassword, and a refused one counts. */
  tradesToken?: boolean;
  /** Counted against the per-address hourly limit on applications (RateLimits.applicationsPerHour). */
  applicationLimit?: boolean;
  /** A success answer that is not JSON (a file to download). */
  produces?: 'text/csv' | 'text/html' | 'application/pdf' | 'application/octet-stream' | 'image/svg+xml' | 'image/png';
  // Method syntax on purpose: a route with a narrower body type is still a Route.
  handle(input: RouteInput<B, Q>): Promise<Reply>;
}

/** Identity, for type inference of the body and query from their schemas. */
export function route<B, Q = unknown>(def: Route<B, Q>): Route<B, Q> {
  return def;
}
