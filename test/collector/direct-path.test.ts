// The tracker's direct path (api/direct.ts) answers a click or a conversion from a page as
// Koa's chain does: the same status, headers and body, errors included, the same limits
// counted and the same log line. Each request goes to two servers over one app: its own
// listener (the direct path first) and Koa's alone (Koa.prototype.callback).

import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Koa from 'koa';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { createApp } from '../../packages/collector/src/app.js';
import { createProgram } from '../../packages/collector/src/flows/program.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import type { Db } from '../../packages/collector/src/platform/db/db.js';
import { migrate } from '../../packages/collector/src/platform/db/migrate.js';
import { openDatabase } from '../../packages/collector/src/platform/db/open.js';
import type { RateLimits } from '../../packages/collector/src/platform/http/rate-limit.js';
import { testDatabase, type TestDatabase } from './database.js';

const ORIGIN = 'https://p.test';
let database: TestDatabase;
let db: Db;
let programs = 0;
const servers: Server[] = [];

beforeAll(async () => {
  database = await testDatabase();
  db = openDatabase(database.url);
  await migrate(db, 1);
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

interface Answer {
  status: number;
  /** Names lower-cased, in the order sent, with what differs between two requests left out. */
  headers: string[];
  body: unknown;
}

const VARYING = new Set(['date', 'x-request-id', 'location', 'ratelimit-remaining', 'ratelimit-reset', 'content-length']);

function listen(listener: ReturnType<Koa['callback']>): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

/** One POST, its body sent with a Content-Length, or chunked. */
function post(url: string, path: string, headers: Record<string, string>, text: string, chunked = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url + path,
      { method: 'POST', headers: chunked ? headers : { ...headers, 'content-length': Buffer.byteLength(text) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const pairs: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i]!.toLowerCase();
            pairs.push(VARYING.has(name) ? name : `${name}: ${res.rawHeaders[i + 1]}`);
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: pairs, body: raw === '' ? undefined : JSON.parse(raw) });
        });
      },
    );
    req.on('error', reject);
    // Written before the end, the body goes chunked; given to end() alone, Node would count its length.
    if (chunked) req.write(text);
    req.end(chunked ? undefined : text);
  });
}

/** A program with a partner, an app over it (limits as given) and its two listeners. */
async function program(limits?: RateLimits) {
  programs++;
  const made = await createProgram(db, { name: `P${programs}`, siteUrl: ORIGIN }, 1);
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = createApp({ db, log: createLogger('info', sink), limits, now: () => 1_800_000_000 });
  const direct = await listen(app.callback());
  const koa = await listen(Koa.prototype.callback.call(app));
  const secret = { authorization: `Bearer ${made.tokens.secret}`, 'content-type': 'application/json' };
  const partner = await post(koa, '/v1/partners', secret, JSON.stringify({ name: 'A', email: `a${programs}@partners.test` }));
  const id = (partner.body as { data: { id: string } }).data.id;
  const partnership = await post(koa, '/v1/partnerships', secret, JSON.stringify({ partner_id: id, state: 'accepted' }));
  const key = (partnership.body as { data: { attributes: { key: string } } }).data.attributes.key;
  const page = { authorization: `Bearer ${made.tokens.publishable}`, 'content-type': 'application/json', origin: ORIGIN };
  return { direct, koa, key, page, lines, secret };
}

/** Koa's own handling of requests, counted. */
const koaHandled = () => vi.spyOn(Koa.prototype as unknown as { handleRequest: () => unknown }, 'handleRequest');

/** A referral's answer without what one record has and another has not: its id and the e-mail address sent. */
function shape(a: Answer): Answer {
  const data = (a.body as { data?: { id?: string; attributes?: Record<string, unknown> } } | undefined)?.data;
  if (!data?.id) return a;
  return { ...a, body: { data: { ...data, id: 'ID', attributes: { ...data.attributes, email: 'EMAIL' } } } };
}

it('a conversion, its retry and a click answer alike, and Koa handles none of them', async () => {
  const p = await program({ perIp: 100, perToken: 100, authFailures: 5, trustProxy: 0 });
  const handled = koaHandled();
  const click = JSON.stringify({ gr_id: 'g1', pk: p.key, url: 'https://www.p.test/pricing' });
  const conversion = (who: string) => JSON.stringify({ email: `${who}@c.test`, gr_id: 'g1', pk: p.key });
  const before = handled.mock.calls.length;
  const direct = [
    await post(p.direct, '/v1/tracking/click', p.page, click),
    await post(p.direct, '/v1/tracking/conversion', p.page, conversion('d')),
    await post(p.direct, '/v1/tracking/conversion', p.page, conversion('d')),
  ];
  expect(handled.mock.calls.length - before, 'the direct path took every request').toBe(0);
  const viaKoa = [
    await post(p.koa, '/v1/tracking/click', p.page, click),
    await post(p.koa, '/v1/tracking/conversion', p.page, conversion('k')),
    await post(p.koa, '/v1/tracking/conversion', p.page, conversion('k')),
  ];
  expect(handled.mock.calls.length - before).toBe(3);
  expect(direct.map((a) => a.status)).toEqual([202, 201, 200]);
  expect(direct.map(shape)).toEqual(viaKoa.map(shape));
  expect(direct[1]!.headers).toContain(`access-control-allow-origin: ${ORIGIN}`);
  expect(direct[1]!.headers).toContain('ratelimit-limit: 100');
  // The log lines are the same: route, method, status, and never the body's address.
  const requestLines = p.lines.filter((l) => l.msg === 'request' && String(l.route).startsWith('/v1/tracking/'));
  const fields = requestLines.map(({ route, method, status }) => ({ route, method, status }));
  expect(fields.slice(0, 3)).toEqual(fields.slice(3));
  expect(JSON.stringify(p.lines)).not.toContain('@c.test');
});

it('refusals answer alike: malformed and invalid bodies, an unknown token, an origin not allowed', async () => {
  const p = await program();
  const handled = koaHandled();
  const cases: Array<[Record<string, string>, string]> = [
    [p.page, '{"email":'],
    [p.page, JSON.stringify({ gr_id: 'g', pk: p.key })],
    [p.page, JSON.stringify({ email: 'not an address', gr_id: 'g', pk: p.key })],
    [
      { ...p.page, authorization: 'Bearer tly_pub_00000000000000000000000000000000AAAAAA' },
      JSON.stringify({ email: 'x@c.test', gr_id: 'g' }),
    ],
    [{ ...p.page, origin: 'https://elsewhere.test' }, JSON.stringify({ email: 'x@c.test', gr_id: 'g', pk: p.key })],
    [p.page, JSON.stringify({ email: 'x@c.test', gr_id: 'g', pk: 'no-such-key' })],
  ];
  const before = handled.mock.calls.length;
  for (const [headers, text] of cases) {
    const direct = await post(p.direct, '/v1/tracking/conversion', headers, text);
    const viaKoa = await post(p.koa, '/v1/tracking/conversion', headers, text);
    expect(direct.status).toBeGreaterThanOrEqual(400);
    expect(direct, text).toEqual(viaKoa);
  }
  expect(handled.mock.calls.length - before, 'Koa answered only the second of each pair').toBe(cases.length);
});

it('one allowance per address and per token, whichever path counted a request', async () => {
  const p = await program({ perIp: 0, perToken: 3, authFailures: 0, trustProxy: 0 });
  const text = JSON.stringify({ gr_id: 'g2', pk: p.key });
  const statuses = [];
  for (const url of [p.direct, p.koa, p.direct, p.koa]) statuses.push((await post(url, '/v1/tracking/click', p.page, text)).status);
  expect(statuses).toEqual([202, 202, 202, 429]);
  const refused = await post(p.direct, '/v1/tracking/click', p.page, text);
  expect(refused.status).toBe(429);
  expect((refused.body as { errors: Array<{ code: string }> }).errors[0]!.code).toBe('rate_limited');
  expect(refused.headers.some((h) => /^retry-after: \d+$/.test(h))).toBe(true);
  expect(refused.headers).toContain('ratelimit-limit: 3');
  expect(refused).toEqual(await post(p.koa, '/v1/tracking/click', p.page, text));
});

it('what the direct path does not take goes to Koa: a chunked body, a secret token, another type, a preflight', async () => {
  const p = await program();
  const handled = koaHandled();
  const text = JSON.stringify({ gr_id: 'g3', pk: p.key });
  const before = handled.mock.calls.length;
  const chunked = await post(p.direct, '/v1/tracking/click', p.page, text, true);
  const { origin: _origin, ...server } = p.page;
  const secret = await post(p.direct, '/v1/tracking/click', { ...server, authorization: p.secret.authorization }, text);
  const form = await post(p.direct, '/v1/tracking/click', { ...p.page, 'content-type': 'text/plain' }, text);
  const preflight = await new Promise<number>((resolve, reject) => {
    request(`${p.direct}/v1/tracking/click`, { method: 'OPTIONS', headers: { origin: ORIGIN } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
  expect([chunked.status, secret.status, form.status, preflight]).toEqual([202, 202, 415, 204]);
  expect(handled.mock.calls.length - before).toBe(4);
});
