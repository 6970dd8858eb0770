// The log: one JSON line per request with its request id, and never an e-mail address, a
// token or a body, not even for a body that failed to parse or a request that failed.

import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { startServer, type RunningServer } from '../../packages/collector/src/server.js';
import { testDatabase, type TestDatabase } from './database.js';
import { openSocket } from './edge.js';

let server: RunningServer;
let database: TestDatabase;
const lines: string[] = [];

beforeAll(async () => {
  database = await testDatabase();
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  server = await startServer({ port: 0, host: '127.0.0.1', databaseUrl: database.url, logLevel: 'info' }, createLogger('debug', sink));
});
afterAll(async () => {
  await server.close();
  await database.drop();
});

const EMAIL = 'secret.person@private.test';
const BODY_MARK = 'body-marker-7f3a';

it('holds no e-mail, token or body for any kind of request, and one line with the request id for each', async () => {
  const { secret, publishable } = server.firstProgram!.tokens;
  const json = { 'content-type': 'application/json' };
  const requests: Array<[string, string, RequestInit]> = [
    [
      'good conversion, unknown slug',
      '/v1/tracking/conversion',
      {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${publishable}` },
        body: JSON.stringify({ email: EMAIL, gr_id: BODY_MARK, pk: 'nobody' }),
      },
    ],
    [
      'malformed JSON',
      '/v1/partners',
      { method: 'POST', headers: { ...json, authorization: `Bearer ${secret}` }, body: `{"email":"${EMAIL}","name":"${BODY_MARK}"` },
    ],
    [
      'not an object',
      '/v1/partners',
      { method: 'POST', headers: { ...json, authorization: `Bearer ${secret}` }, body: `["${EMAIL}","${BODY_MARK}"]` },
    ],
    [
      'too large',
      '/v1/partners',
      {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${secret}` },
        body: JSON.stringify({ email: EMAIL, pad: BODY_MARK.repeat(3000) }),
      },
    ],
    [
      'bad gzip',
      '/v1/partners',
      { method: 'POST', headers: { ...json, 'content-encoding': 'gzip', authorization: `Bearer ${secret}` }, body: `${EMAIL}${BODY_MARK}` },
    ],
    [
      'gzip over the limit',
      '/v1/partners',
      {
        method: 'POST',
        headers: { ...json, 'content-encoding': 'gzip', authorization: `Bearer ${secret}` },
        body: gzipSync(JSON.stringify({ email: EMAIL, pad: BODY_MARK.repeat(3000) })),
      },
    ],
    [
      'wrong content type',
      '/v1/partners',
      { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${secret}` }, body: `${EMAIL} ${BODY_MARK}` },
    ],
    [
      'invalid e-mail',
      '/v1/partners',
      {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${secret}` },
        body: JSON.stringify({ email: `${EMAIL}\n`, name: BODY_MARK }),
      },
    ],
    ['e-mail in a query', `/v1/referrals?email_eq=${encodeURIComponent(EMAIL)}`, { headers: { authorization: `Bearer ${secret}` } }],
    [
      'e-mail in a bad query',
      `/v1/referrals?${encodeURIComponent(EMAIL)}=${BODY_MARK}`,
      { headers: { authorization: `Bearer ${secret}` } },
    ],
    ['e-mail in the path', `/v1/referrals/${encodeURIComponent(EMAIL)}`, { headers: { authorization: `Bearer ${secret}` } }],
    ['unknown route', `/nowhere/${encodeURIComponent(EMAIL)}?t=${secret}`, { headers: { authorization: `Bearer ${secret}` } }],
    ['wrong token', '/v1/partners', { headers: { authorization: `Bearer ${secret.slice(0, -1)}x` } }],
    ['publishable on a secret route', '/v1/partners', { headers: { authorization: `Bearer ${publishable}` } }],
    ['a token as request id', '/healthz', { headers: { 'x-request-id': secret } }],
  ];
  const ids: string[] = [];
  for (const [name, path, init] of requests) {
    const res = await fetch(server.url + path, init);
    await res.arrayBuffer();
    expect(res.status, name).toBeLessThan(500);
    ids.push(res.headers.get('x-request-id')!);
  }
  const log = lines.join('\n');
  for (const secretText of [
    EMAIL,
    encodeURIComponent(EMAIL),
    'private.test',
    BODY_MARK,
    secret,
    publishable,
    secret.slice(8, 30),
    publishable.slice(8, 30),
  ]) {
    expect(log.includes(secretText), `the log holds ${secretText.slice(0, 12)}…`).toBe(false);
  }
  const requestLines = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
  for (const id of ids.filter((i) => !i.startsWith('tly_'))) {
    expect(
      requestLines.filter((l) => l.req_id === id),
      id,
    ).toHaveLength(1);
  }
  expect(requestLines.length).toBeGreaterThanOrEqual(requests.length);
});

it('a client that resets its connection mid-request is one JSON line at debug level, and nothing is printed', async () => {
  const { publishable } = server.firstProgram!.tokens;
  const printed: string[] = [];
  const spies = [
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void printed.push(a.join(' '))),
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void printed.push(a.join(' '))),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => (printed.push(String(chunk)), true)),
  ];
  const before = lines.length;
  try {
    const socket = await openSocket(Number(new URL(server.url).port));
    socket.on('error', () => undefined);
    // Expect: 100-continue makes the server say when it has read the headers and the app
    // waits for the body: then part of it is sent, and once the server has taken that in
    // (its answer to a second request on another connection comes after it), the reset.
    const continued = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write(
      `POST /v1/tracking/conversion HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${publishable}\r\n` +
        `Expect: 100-continue\r\nContent-Length: 500\r\n\r\n`,
    );
    await continued;
    await new Promise<void>((resolve) => socket.write(`{"email":"${EMAIL}"`, () => resolve()));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    socket.resetAndDestroy();
    for (const deadline = Date.now() + 5_000; !lines.slice(before).some((l) => /reset/.test(l)) && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200); // still up
  } finally {
    for (const s of spies) s.mockRestore();
  }
  expect(printed).toEqual([]);
  const added = lines.slice(before).map((l) => JSON.parse(l));
  const resets = added.filter((l) => /reset/.test(l.msg));
  expect(resets, JSON.stringify(added)).toHaveLength(1);
  expect(resets[0]).toMatchObject({ level: 20, code: 'ECONNRESET' });
  expect(added.every((l) => typeof l.level === 'number')).toBe(true);
  expect(JSON.stringify(added)).not.toContain(EMAIL);
});
