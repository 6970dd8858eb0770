// The tracker's two requests answered without Koa (issue 47). A click or a conversion
// from a page (a publishable token, a JSON body with its Content-Length) takes the steps
// of the app's chain for it, in its order, from the same parts: request id and log line,
// security headers, the limits per address and per token, the token, the origin, the body,
// the route, the error shape. What it leaves out is Koa's context, its middleware chain and
// its header-by-header answer. Every other request, these routes' preflights, secret
// tokens and compressed or chunked bodies too, goes to Koa, which answers it as before.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import { answerFor } from '../platform/http/errors.js';
import { BODY_LIMIT_BYTES, readPlain } from '../platform/http/body.js';
import { clientIp, tighter, type FailureLimit, type Limiter, type Seen } from '../platform/http/rate-limit.js';
import { requestIdOf, requestLog } from '../platform/http/request-context.js';
import { SECURITY_HEADERS } from '../platform/http/security-headers.js';
import { NO_LIST } from '../platform/http/list-query.js';
import { validateBody } from '../platform/http/validate.js';
import { parseJsonObject } from '../platform/json.js';
import { bearerToken, type BearerCheck } from './auth.js';
import { originHeaders } from './cors.js';
import { routeInput, type AppInput, type Reply, type Route } from './route.js';

export interface DirectParts {
  /** The tracking routes, as the app runs them (audited). */
  routes: readonly Route[];
  fixed: AppInput;
  log: Logger;
  now: () => number;
  publicUrl: string | undefined;
  trustProxy: number;
  /** The app's own limits and checks, so a request counts the same by either path. */
  client: (seen: Seen) => string;
  perIp: Limiter | undefined;
  perToken: Limiter | undefined;
  failures: FailureLimit;
  bearer: BearerCheck;
}

/** Takes the request and resolves true when it is one of the direct path's, or leaves it alone and answers false. */
export type DirectPath = (req: IncomingMessage, res: ServerResponse) => boolean;

const JSON_TYPE = 'application/json';

/** A header as Koa's ctx.get would give it, undefined for none. */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A JSON body with its length, uncompressed and within the limit: what readPlain reads. */
function plainJson(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  if (type === undefined || type.split(';', 1)[0]?.trim().toLowerCase() !== JSON_TYPE) return false;
  const coding = req.headers['content-encoding'];
  if (coding !== undefined && coding !== '' && coding.trim().toLowerCase() !== 'identity') return false;
  const length = Number(req.headers['content-length'] ?? Number.NaN);
  return Number.isSafeInteger(length) && length >= 0 && length <= BODY_LIMIT_BYTES;
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  const text = JSON.stringify(body);
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = String(Buffer.byteLength(text));
  res.writeHead(status, headers).end(text);
}

export function directPath(parts: DirectParts): DirectPath {
  const routes = new Map(parts.routes.map((r) => [r.path, r]));
  const line = requestLog(parts.log);

  /** The chain's steps up to the route's reply; `headers` gathers what the answer carries, an error's too. */
  const reply = async (route: Route, req: IncomingMessage, requestId: string, headers: Record<string, string>): Promise<Reply> => {
    const seen: Seen = { req, state: {} };
    const client = parts.client(seen);
    const limited = (use: Record<string, string> | undefined) => {
      if (use && tighter(use, headers['RateLimit-Remaining'])) Object.assign(headers, use);
    };
    limited(parts.perIp?.(client));
    parts.failures.check(seen);
    const origin = headerOf(req, 'origin');
    const credential = await parts.bearer(seen, req.headers.authorization, origin);
    limited(parts.perToken?.(`${credential.token_id} ${client}`));
    headers.Vary = 'Origin';
    Object.assign(headers, await originHeaders(parts.fixed.db, credential.program.id, origin));
    const raw = (await readPlain(req, BODY_LIMIT_BYTES)) ?? '';
    const body = validateBody(route.body as NonNullable<Route['body']>, parseJsonObject(raw));
    const encrypted = (req.socket as TLSSocket).encrypted === true;
    return route.handle(
      routeInput(parts.fixed, {
        now: parts.now(),
        program: credential.program,
        caller: credential.kind,
        session: undefined,
        role: undefined,
        account: undefined,
        partnerSession: undefined,
        embed: undefined,
        client,
        publicUrl: parts.publicUrl ?? `${encrypted ? 'https' : 'http'}://${req.headers.host ?? ''}`,
        clientIp: clientIp(req, parts.trustProxy),
        requestId,
        tokenId: credential.token_id,
        params: {},
        body,
        list: NO_LIST,
        query: undefined,
        raw: '',
        upload: undefined,
        header: (name) => headerOf(req, name),
      }),
    );
  };

  const answer = async (route: Route, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const requestId = requestIdOf(headerOf(req, 'x-request-id'));
    const headers: Record<string, string> = { 'X-Request-Id': requestId, ...SECURITY_HEADERS, 'Cache-Control': 'no-store' };
    let status: number;
    let body: unknown;
    try {
      const done = await reply(route, req, requestId, headers);
      status = done.status;
      Object.assign(headers, done.headers);
      body = done.body;
    } catch (err) {
      const failed = answerFor(err, requestId, parts.log);
      status = failed.status;
      Object.assign(headers, failed.headers);
      body = failed.body;
    }
    send(res, status, headers, body);
    line({ req_id: requestId, method: 'POST', route: route.path, status, started });
  };

  return (req, res) => {
    if (req.method !== 'POST') return false;
    const route = routes.get(req.url ?? '');
    if (!route || !plainJson(req) || !bearerToken(req.headers.authorization)?.startsWith('tly_pub_')) return false;
    answer(route, req, res).catch((err: unknown) => parts.log.error({ err }, 'unhandled error'));
    return true;
  };
}
