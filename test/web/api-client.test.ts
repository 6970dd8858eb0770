// The web apps' API client (packages/web/src/common/api.ts) against a fetch of the test's
// own: what it sends (each parameter encoded, the body as JSON, the session cookie's
// credentials) and what it makes of each kind of answer (data, the API's error, a lost
// session, no network, a cancelled load).

import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';

type Client = typeof import('../../packages/web/src/common/api.js');

const sent: Request[] = [];
let reply: (req: Request) => Response | Promise<Response>;
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

// In a page the client's URLs are relative to it; here they need an origin.
class PageRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, 'http://tally.test') : input, init);
  }
}

let client: Client;
beforeAll(async () => {
  // Before the import: the client takes fetch and Request when it is made.
  vi.stubGlobal('Request', PageRequest);
  vi.stubGlobal('fetch', async (req: Request) => {
    sent.push(req);
    return reply(req);
  });
  client = await import('../../packages/web/src/common/api.js');
});
afterAll(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => {
  sent.length = 0;
  reply = () => json(200, { data: [] });
});

const last = () => sent.at(-1)!;
const target = (req: Request) => {
  const u = new URL(req.url);
  return u.pathname + u.search;
};

it('fills in path parameters encoded, so an id with / or ? stays one segment', async () => {
  await client.api.GET('/v1/partners/{id}', { params: { path: { id: 'a?b/c #%' } } });
  expect(target(last())).toBe('/v1/partners/a%3Fb%2Fc%20%23%25');
  await client.api.POST('/v1/webhook_endpoints/{id}/test', { params: { path: { id: '../tokens' } } });
  expect(target(last())).toBe('/v1/webhook_endpoints/..%2Ftokens/test');
});

it('writes the query string encoded, leaving out what is undefined', async () => {
  await client.api.GET('/v1/referrals', { params: { query: { partner_id_eq: 'x&y=z', per_page: 10, starting_after: undefined } } });
  expect(target(last())).toBe('/v1/referrals?partner_id_eq=x%26y%3Dz&per_page=10');
});

it('sends a body as JSON, with the session cookie (same origin); a call without one says no content type', async () => {
  await client.api.PATCH('/v1/members/{id}', { params: { path: { id: 'm1' } }, body: { role: 'admin' } });
  const patch = last();
  expect(patch.method).toBe('PATCH');
  expect(patch.credentials).toBe('same-origin');
  expect(patch.headers.get('content-type')).toBe('application/json');
  expect(await patch.text()).toBe('{"role":"admin"}');
  await client.api.GET('/v1/program');
  expect(last().headers.get('content-type')).toBeNull();
});

it('resolves to the answer’s JSON, and to undefined for a 204', async () => {
  reply = () => json(200, { data: { id: 'p1' } });
  expect(await client.api.GET('/v1/program')).toEqual({ data: { id: 'p1' } });
  reply = () => new Response(null, { status: 204 });
  expect(await client.api.DELETE('/v1/tokens/{id}', { params: { path: { id: 't1' } } })).toBeUndefined();
});

it('turns the API’s error into an ApiError: status, code, the sentence, the field and Retry-After', async () => {
  reply = () =>
    json(
      422,
      { errors: [{ status: '422', code: 'invalid_url', detail: 'url must be https', source: { pointer: '/url' } }] },
      { 'retry-after': '30' },
    );
  const err = await client.api.POST('/v1/webhook_endpoints', { body: { url: 'http://x.test' } }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(client.ApiError);
  expect(err).toMatchObject({ status: 422, code: 'invalid_url', message: 'url must be https', field: 'url', retryAfter: 30 });
  expect(client.messageOf(err)).toBe('Url must be https');
});

it('says the collector cannot be reached when fetch fails', async () => {
  reply = () => {
    throw new TypeError('fetch failed');
  };
  await expect(client.api.GET('/v1/program')).rejects.toMatchObject({ status: 0, code: 'network' });
});

it('tells the app of a lost session on a 401, but not for a wrong password or a public page', async () => {
  const lost = vi.fn();
  const stop = client.whenSignedOut(lost);
  reply = () => json(401, { errors: [{ code: 'unauthorized', detail: 'sign in first' }] });
  await expect(client.api.GET('/v1/program')).rejects.toMatchObject({ status: 401 });
  expect(lost).toHaveBeenCalledTimes(1);
  await expect(client.api.POST('/v1/auth/sign_in', { body: { email: 'a@b.test', password: 'wrong' } })).rejects.toMatchObject({
    status: 401,
  });
  await expect(client.api.GET('/v1/public/programs/{slug}', { params: { path: { slug: 'acme' } } })).rejects.toMatchObject({ status: 401 });
  expect(lost).toHaveBeenCalledTimes(1);
  stop();
});

it('passes a cancellation on as the AbortError it is: not a network problem, not a lost session', async () => {
  const lost = vi.fn();
  const stop = client.whenSignedOut(lost);
  reply = (req) =>
    new Promise((_, reject) =>
      req.signal.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError'))),
    );
  const controller = new AbortController();
  const pending = client.api.GET('/v1/program', { signal: controller.signal }).catch((e: unknown) => e);
  controller.abort();
  const err = await pending;
  expect(err).not.toBeInstanceOf(client.ApiError);
  expect((err as Error).name).toBe('AbortError');
  expect(lost).not.toHaveBeenCalled();
  stop();
});

it('makes the address of a file to download the same way, encoded', () => {
  expect(client.apiHref('/v1/payout_batches/{id}/file', { path: { id: 'b/1?x' } })).toBe('/v1/payout_batches/b%2F1%3Fx/file');
});
