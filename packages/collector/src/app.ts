// createApp(deps): the middleware chain and the routes, with nothing started. The
// server, the tests and the benchmarks all build the same app.

import { IncomingMessage, type ServerResponse } from 'node:http';
import Router from '@koa/router';
import Koa, { type Context, type Middleware } from 'koa';
import type { Logger } from 'pino';
import { describeCause, type ErrorCode, fail, ServiceError } from './platform/errors.js';
import { bearerCheck, tokenAuth, type Access } from './api/auth.js';
import { directPath, type DirectPath } from './api/direct.js';
import { PARTNER_COOKIE, setSessionCookie } from './api/session.js';
import { jsonBody, uploadBodyOf, webhookBodyOf } from './platform/http/body.js';
import { isClientGone } from './platform/http/client-errors.js';
import { allowedOrigin, preflight } from './api/cors.js';
import { STEP_UP, stepUp } from './api/step-up.js';
import { errorResponses } from './platform/http/errors.js';
import { NO_LIST, parseListQuery } from './platform/http/list-query.js';
import {
  clientIp,
  clientKey,
  failureLimit,
  limitedBy,
  limiter,
  NO_LIMITS,
  type RateLimits,
  type Seen,
} from './platform/http/rate-limit.js';
import { openApiDocument } from './api/openapi.js';
import { DEFAULT_OUTBOUND, type OutboundPolicy } from './platform/outbound.js';
import { requestContext } from './platform/http/request-context.js';
import { routeInput, type AppInput, type Route } from './api/route.js';
import { audited } from './api/audited.js';
import { securityHeaders } from './platform/http/security-headers.js';
import { validateBody, validateQuery } from './platform/http/validate.js';
import { loadTracker, mountAssets } from './modules/site/assets.js';
import { authRoutes } from './modules/owners/routes.js';
import { clickRoutes } from './modules/clicks/routes.js';
import { commissionRoutes } from './modules/commissions/routes.js';
import { mountDemo, type Demo } from './modules/site/demo.js';
import { mountHome } from './modules/site/home.js';
import { memberRoutes } from './modules/owners/members-routes.js';
import { partnerRoutes } from './modules/partners/routes.js';
import { partnershipRoutes } from './modules/partnerships/routes.js';
import { rewardRoutes } from './modules/rewards/routes.js';
import { codeRoutes } from './modules/codes/routes.js';
import { linkRoutes } from './modules/links/routes.js';
import { reviewRoutes } from './modules/review/routes.js';
import { paymentRoutes } from './modules/payments/routes.js';
import { payoutRoutes } from './modules/payouts/routes.js';
import { payoutRunRoutes } from './modules/payout-runs/routes.js';
import { invoiceRoutes } from './modules/invoices/routes.js';
import { bountyRoutes } from './modules/bounties/routes.js';
import { programRoutes } from './modules/programs/routes.js';
import { programPageRoutes } from './modules/programs/page-routes.js';
import { portalRoutes } from './modules/portal/routes.js';
import { embedPayoutMethodRoutes, payoutMethodRoutes } from './modules/payout-methods/routes.js';
import { referralRoutes } from './modules/referrals/routes.js';
import { statsRoutes } from './modules/stats/routes.js';
import { billingRoutes } from './modules/billing/routes.js';
import { tokenRoutes } from './modules/tokens/routes.js';
import { loadWebApp, mountWeb, type WebApp } from './modules/site/web.js';
import { trackingRoutes } from './modules/referrals/tracking-routes.js';
import { webhookRoutes } from './modules/webhooks/routes.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import { embedRoutes } from './modules/embed/routes.js';
import { embedTaxFormRoutes, taxFormRoutes } from './modules/tax-forms/routes.js';
import { messageRoutes } from './modules/messages/routes.js';
import { resourceRoutes } from './modules/resources/routes.js';
import { brandingRoutes } from './modules/branding/routes.js';
import { mountBrandHosts } from './modules/branding/http.js';
import { leadRoutes } from './modules/leads/routes.js';
import { twoTierRoutes } from './modules/two-tier/routes.js';
import { auditRoutes } from './modules/audit/routes.js';
import type { Keyring } from './platform/keyring.js';
import { mountEmbed } from './modules/embed/http.js';
import type { OutboxSender } from './modules/mail/outbox.js';
import type { Db } from './platform/db/db.js';
import type { AccountRow, PartnerSessionRow } from './modules/portal/repo.js';
import type { EmbedSessionRow } from './modules/embed/repo.js';
import type { ProgramRow } from './modules/programs/model.js';
import type { Role, SessionRow } from './modules/owners/repo.js';
import { asCaller } from './platform/db/caller.js';
import { registerSubscribers } from './subscribers.js';

export interface AppDeps {
  db: Db;
  log: Logger;
  /** Unix seconds. */
  now?: () => number;
  /** The demo pages' program and token; no demo without it. */
  demo?: Demo | undefined;
  /** Where the built snippet is; the tracker package's by default. */
  trackerPath?: string;
  /** None unless given: the server passes the configured ones. */
  limits?: RateLimits | undefined;
  /** The built dashboard; read from the web package unless given (null: none). */
  webApp?: WebApp | null;
  /** The built partner portal, likewise. */
  portalApp?: WebApp | null;
  /** The built embedded portal (/embed/), likewise. */
  embedApp?: WebApp | null;
  /** The collector's public address: links it hands out, and the dashboard's origin. */
  publicUrl?: string | undefined;
  /** SMTP_URL's: partners' invitations and password resets; none sent without it. */
  /** The e-mail outbox's sender, when SMTP is configured. */
  outbox?: OutboxSender | undefined;
  /** Where webhook URLs may point; https and public addresses only unless given. */
  outbound?: OutboundPolicy | undefined;
  /** Stripe's API elsewhere than https://api.stripe.com (STRIPE_API_URL). */
  stripeApiUrl?: string | undefined;
  /** Lemon Squeezy's API elsewhere than https://api.lemonsqueezy.com (LEMONSQUEEZY_API_URL). */
  lemonSqueezyApiUrl?: string | undefined;
  /** Wise's API elsewhere than https://api.wise.com (WISE_API_URL). */
  wiseApiUrl?: string | undefined;
  /** Billing platforms' APIs elsewhere than their own addresses, by platform name (`<NAME>_API_URL`). */
  platformApiUrls?: Readonly<Record<string, string>> | undefined;
  /** WISE_WEBHOOK_PUBLIC_KEY: Wise's webhooks are refused without it. */
  wiseWebhookPublicKey?: string | undefined;
  /** TAX_FORM_KEY's ring: partners' taxpayer ids; tax forms are refused without it. */
  taxFormKeys?: Keyring | undefined;
  /** PayPal's REST API, https://api-m.paypal.com unless given. */
  paypalApiUrl?: string | undefined;
}

export const ROUTES: readonly Route[] = [
  ...partnerRoutes,
  ...partnershipRoutes,
  ...rewardRoutes,
  ...codeRoutes,
  ...reviewRoutes,
  ...commissionRoutes,
  ...referralRoutes,
  ...paymentRoutes,
  ...clickRoutes,
  ...payoutRoutes,
  ...payoutRunRoutes,
  ...invoiceRoutes,
  ...bountyRoutes,
  ...programRoutes,
  ...tokenRoutes,
  ...statsRoutes,
  ...trackingRoutes,
  ...authRoutes,
  ...memberRoutes,
  ...billingRoutes,
  ...programPageRoutes,
  ...portalRoutes,
  ...payoutMethodRoutes,
  ...webhookRoutes,
  ...notificationRoutes,
  ...embedRoutes,
  ...taxFormRoutes,
  ...leadRoutes,
  ...twoTierRoutes,
  ...embedPayoutMethodRoutes,
  ...embedTaxFormRoutes,
  ...messageRoutes,
  ...resourceRoutes,
  ...brandingRoutes,
  ...linkRoutes,
  ...auditRoutes,
];

/** The app's part of every route's input, worked out once. */
function appInput(deps: AppDeps): AppInput {
  return {
    db: deps.db,
    outbox: deps.outbox,
    outbound: deps.outbound ?? DEFAULT_OUTBOUND,
    stripeApiUrl: deps.stripeApiUrl,
    lemonSqueezyApiUrl: deps.lemonSqueezyApiUrl,
    wiseApiUrl: deps.wiseApiUrl,
    platformApiUrls: deps.platformApiUrls ?? {},
    wiseWebhookPublicKey: deps.wiseWebhookPublicKey,
    taxFormKeys: deps.taxFormKeys,
    paypalApiUrl: deps.paypalApiUrl ?? 'https://api-m.paypal.com',
  };
}

function handler(r: Route, deps: AppDeps, fixed: AppInput, now: () => number, client: (ctx: Seen) => string): Middleware {
  const replicated = deps.db?.stats().replicaReads !== undefined;
  const trustProxy = (deps.limits ?? NO_LIMITS).trustProxy;
  return async (ctx) => {
    // No record has an id with U+0000, and PostgreSQL refuses it in text outright.
    if (Object.values(ctx.params as Record<string, string>).some((v) => v.includes('\0'))) {
      throw fail('not_found', `no record at ${ctx.path}`);
    }
    // With a replica, a list or the statistics may be read from it, and what the caller wrote
    // is then seen (platform/db/caller.ts). Not the snippet's publishable token, which reads
    // no list, nor without a replica: the scope costs every promise of the request a hook.
    const caller = replicated && ctx.state.caller !== 'publishable' ? (ctx.state.tokenId as string | undefined) : undefined;
    const reply = await asCaller(caller, r.method === 'get' && (r.list !== undefined || r.replicaReads === true), () =>
      r.handle(
        routeInput(fixed, {
          now: now(),
          program: ctx.state.program as ProgramRow,
          caller: ctx.state.caller as Access,
          session: ctx.state.session as SessionRow | undefined,
          role: ctx.state.role as Role | undefined,
          account: ctx.state.account as AccountRow | undefined,
          partnerSession: ctx.state.partnerSession as PartnerSessionRow | undefined,
          embed: ctx.state.embed as EmbedSessionRow | undefined,
          client: client(ctx),
          publicUrl: deps.publicUrl ?? `${ctx.protocol}://${ctx.host}`,
          clientIp: clientIp(ctx.req, trustProxy),
          requestId: ctx.state.requestId as string,
          tokenId: ctx.state.tokenId as string | undefined,
          params: ctx.params as Record<string, string>,
          body: r.body ? validateBody(r.body, ctx.request.body) : undefined,
          list: r.list ? parseListQuery(ctx.querystring, r.list) : NO_LIST,
          query: r.query ? validateQuery(r.query, ctx.querystring) : undefined,
          raw: r.webhookBodyLimit ? (ctx.request.rawBody ?? '') : '',
          upload: ctx.state.upload as Buffer | undefined,
          header: (name) => ctx.get(name) || undefined,
        }),
      ),
    );
    ctx.status = reply.status;
    if (reply.headers) ctx.set(reply.headers);
    if (reply.session) setSessionCookie(ctx, reply.session === 'end' ? null : reply.session.token, deps.publicUrl);
    if (reply.partnerSession)
      setSessionCookie(ctx, reply.partnerSession === 'end' ? null : reply.partnerSession.token, deps.publicUrl, PARTNER_COOKIE);
    if (reply.body !== undefined) {
      ctx.body = reply.body;
    } else if (reply.status !== 204) {
      // Koa would send the status text ("Accepted") as the body of an answer without one.
      ctx.body = '';
      ctx.remove('Content-Type');
    }
  };
}

/** The limits and credential checks of the app's routes, shared by Koa's chains and the direct path. */
function appChecks(deps: AppDeps, limits: RateLimits, now: () => number) {
  // Worked out once per request (three limits ask for it), and kept on the request.
  const client = (ctx: Seen): string => {
    ctx.state.client ??= clientKey(ctx.req, limits.trustProxy);
    return ctx.state.client as string;
  };
  // Before the token lookup, so a flood of bad tokens is limited too.
  const perIpLimit = limiter(limits.perIp, now, limits.maxKeys);
  const perIp = limitedBy(perIpLimit, client);
  // A publishable token is in every page of the program's site: counted per client, so
  // one client's flood cannot use up every visitor's allowance.
  const perTokenLimit = limiter(limits.perToken, now, limits.maxKeys);
  const perToken = limitedBy(perTokenLimit, (ctx) =>
    ctx.state.caller === 'secret' ? (ctx.state.tokenId as string) : `${ctx.state.tokenId as string} ${client(ctx)}`,
  );
  // Spam on the public pages: applications per address per hour, counted once they are well-formed requests.
  const applications = limitedBy(limiter(limits.applicationsPerHour ?? 0, now, limits.maxKeys, true), client);
  const failures = failureLimit(limits.authFailures ?? 0, now, client, limits.maxKeys);
  // Signing in, or trading a one-time token, counts against the same allowance as a bad
  // token: a guess is a guess, whichever credential it guesses.
  const guesses =
    (...counted: ErrorCode[]): Middleware =>
    async (ctx, next) => {
      failures.check(ctx);
      try {
        await next();
      } catch (err) {
        if (err instanceof ServiceError && err.problems.some((p) => counted.includes(p.code))) failures.failed(ctx);
        throw err;
      }
    };
  const passwordChecks = guesses('invalid_credentials', 'account_locked');
  const tokenTrades = guesses('unauthorized');
  const bearer = bearerCheck(deps.db, { failures, log: deps.log });
  const auth = tokenAuth(deps.db, {
    failures,
    log: deps.log,
    now,
    publicUrl: deps.publicUrl,
    bearer,
  });
  return { client, perIpLimit, perIp, perTokenLimit, perToken, applications, failures, passwordChecks, tokenTrades, bearer, auth };
}

/** Koa, with the tracker's requests taken first by their direct path (api/direct.ts). */
class App extends Koa {
  constructor(private readonly direct: DirectPath) {
    super();
  }

  override callback(): ReturnType<Koa['callback']> {
    const koa = super.callback();
    // The collector serves HTTP/1.1 (server.ts); anything else is Koa's alone.
    return (req, res) => (req instanceof IncomingMessage && this.direct(req, res as ServerResponse) ? Promise.resolve() : koa(req, res));
  }
}

export function createApp(deps: AppDeps): Koa {
  registerSubscribers();
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  const router = new Router();
  // The tracker's routes and their preflights, tried first: a click or a conversion is
  // matched against these four patterns, not against every route's (issue 47).
  const tracking = new Router();

  const limits = deps.limits ?? NO_LIMITS;
  // Stripe's and Lemon Squeezy's addresses came before the map and are still given on their own.
  const platformApiUrls: Record<string, string> = { ...deps.platformApiUrls };
  if (deps.stripeApiUrl) platformApiUrls.stripe ??= deps.stripeApiUrl;
  if (deps.lemonSqueezyApiUrl) platformApiUrls.lemonsqueezy ??= deps.lemonSqueezyApiUrl;
  const withUrls: AppDeps = { ...deps, platformApiUrls };
  const checks = appChecks(deps, limits, now);
  const { client, perIp, perToken, applications, failures, passwordChecks, tokenTrades, auth } = checks;
  const fixed = appInput(withUrls);
  const direct: Route[] = [];

  for (const r of ROUTES) {
    const tracked = r.path.startsWith('/v1/tracking/');
    const into = tracked ? tracking : router;
    // Tracking and sign-in are open to anyone: limited per address before anything else.
    const chain: Middleware[] = tracked || r.access === 'public' ? [perIp] : [];
    chain.push(auth(r.access, r.role, r.optionalSession));
    if (r.checksPassword) chain.push(passwordChecks);
    if (r.tradesToken) chain.push(tokenTrades);
    if (r.access !== 'public') chain.push(perToken);
    if (r.access === 'publishable') {
      chain.push(allowedOrigin(deps.db));
      into.options(r.path, preflight);
    }
    if (r.applicationLimit) chain.push(applications);
    if (r.body) chain.push(jsonBody);
    if (r.webhookBodyLimit) chain.push(webhookBodyOf(r.webhookBodyLimit));
    if (r.uploadLimit) chain.push(uploadBodyOf(r.uploadLimit));
    const asks = STEP_UP[`${r.method} ${r.path}`];
    if (asks) chain.push(stepUp(deps.db, now, deps.outbox, asks));
    const run = audited(r, ROUTES);
    if (tracked) direct.push(run);
    chain.push(handler(run, withUrls, fixed, now, client));
    into.register(r.path, [r.method.toUpperCase()], chain, { name: `${r.method} ${r.path}` });
  }

  // Made at the first request for it, not at start: zod's JSON Schemas of every route were a quarter of start-up's CPU (issue 47).
  let openapi: ReturnType<typeof openApiDocument> | undefined;
  router.get('/openapi.json', (ctx) => {
    ctx.body = openapi ??= openApiDocument(ROUTES);
  });
  mountAssets(
    router,
    loadTracker(deps.trackerPath, (cause) => deps.log.warn({ cause }, 'tracker.js is not built: /tracker.js answers 404')),
  );
  mountDemo(router, deps.demo);
  mountHome(router, { demo: deps.demo !== undefined });
  mountBrandHosts(router, deps.db);
  mountWeb(
    router,
    deps.webApp === undefined ? loadWebApp() : (deps.webApp ?? undefined),
    deps.portalApp === undefined ? loadWebApp(undefined, 'portal') : (deps.portalApp ?? undefined),
  );
  mountEmbed(router, deps.db, now, failures, deps.embedApp === undefined ? loadWebApp(undefined, 'embed') : (deps.embedApp ?? undefined));
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  // The cause of a failed readiness check goes to the log once, when it first appears or
  // changes, not on every probe of a load balancer.
  let notReady: string | undefined;
  router.get('/readyz', async (ctx) => {
    try {
      await deps.db.ping();
      notReady = undefined;
    } catch (err) {
      const cause = describeCause(err);
      if (cause !== notReady) deps.log.warn({ cause }, 'not ready: the database does not answer');
      notReady = cause;
      throw fail('unavailable', 'the database does not answer', { retryAfter: 1 });
    }
    ctx.body = { status: 'ok' };
  });

  const app = new App(
    directPath({
      routes: direct,
      fixed,
      log: deps.log,
      now,
      publicUrl: deps.publicUrl,
      trustProxy: limits.trustProxy,
      client,
      perIp: checks.perIpLimit,
      perToken: checks.perTokenLimit,
      failures,
      bearer: checks.bearer,
    }),
  );
  app.use(requestContext(deps.log));
  app.use(securityHeaders);
  app.use(errorResponses(deps.log));
  app.use(tracking.routes());
  app.use(router.routes());
  // Reached only when no route took the request: a known path with another method is 405.
  app.use(async (ctx) => {
    const layers = [tracking, router].flatMap((r) => r.match(ctx.path, ctx.method).path);
    const allowed = [...new Set(layers.flatMap((layer) => layer.methods))];
    if (allowed.length === 0) throw fail('not_found', `no route for ${ctx.method} ${ctx.path}`);
    throw fail('method_not_allowed', `${ctx.method} is not allowed here; use ${allowed.join(', ')}`, {
      headers: { Allow: allowed.join(', ') },
    });
  });
  // Koa reports here what happens outside the middleware chain, such as a socket that
  // fails while an answer is written. Its default prints a stack trace among the JSON
  // log lines; this logs one line. A client that went away was logged by the server
  // (platform/http/client-errors.ts), and an error the client caused was answered already.
  app.on('error', (err: unknown, ctx?: Context) => {
    if ((err as { expose?: boolean }).expose || isClientGone(err)) return;
    deps.log.error({ req_id: ctx?.state.requestId ?? null, err }, 'unhandled error');
  });
  return app;
}
