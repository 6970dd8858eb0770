// What a body may cost before anyone is known: the Stripe webhook reads its bytes and
// checks the endpoint and the signature before any JSON is parsed, and takes no
// compressed body; every JSON body is refused past a nesting depth by a scan of its text,
// before JSON.parse, so a small deeply nested body cannot hold the event loop.

import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { expectError, seedPartner, startCollector, type Collector, type Reply } from './harness.js';
import { customer, newSecret, signedHeader, stripeEvent } from './stripe-fixtures.js';

// platform/http/body.ts's MAX_JSON_DEPTH, written out: the tests hold the server to the number.
const DEPTH = 32;

let c: Collector;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(() => c.close());

// Every JSON.parse in this process (the server runs in it): a body with a long run of
// brackets must never reach one.
let parse: MockInstance<typeof JSON.parse>;
beforeEach(() => {
  parse = vi.spyOn(JSON, 'parse');
});
afterEach(() => {
  parse.mockRestore();
});
const RUN = '['.repeat(64);
const parsedNested = () =>
  parse.mock.calls.some(([text]) => typeof text === 'string' && (text.includes(RUN) || text.includes('{"a":'.repeat(64))));

/** `levels` arrays inside one another, as JSON text. */
const nest = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

interface Endpoint {
  url: string;
  secret: string;
  token: string;
}

async function endpoint(): Promise<Endpoint> {
  const p = await c.otherProgram();
  const secret = newSecret();
  const added = await c.call('POST', '/v1/integrations/stripe/secrets', { token: p.secret, body: { secret, label: 'test' } });
  expect(added.status).toBe(201);
  return { url: c.url + new URL(added.body.meta.endpoint_url).pathname, secret, token: p.secret };
}

async function post(url: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>): Promise<Reply> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const events = async (e: Endpoint) => (await c.call('GET', '/v1/integrations/stripe/events', { token: e.token })).body.data as unknown[];

describe('the Stripe webhook parses nothing before the endpoint and the signature check out', () => {
  it('a body nested 100,000 deep with a wrong signature, or none, is refused as a signature failure, unparsed', async () => {
    const e = await endpoint();
    for (const body of ['['.repeat(100_000), nest(100_000)]) {
      const wrong = await post(e.url, body, { 'stripe-signature': signedHeader(body, newSecret(), c.clock.now) });
      expect(expectError(wrong, 400, 'invalid_signature').detail).toMatch(/matches none/);
      expectError(await post(e.url, body, {}), 400, 'invalid_signature');
      expectError(await post(e.url, body, { 'stripe-signature': 'garbage' }), 400, 'invalid_signature');
    }
    expect(parsedNested()).toBe(false);
    expect(await events(e)).toEqual([]);
  });

  it('an unknown endpoint is 404 as before, whatever the body, without parsing it', async () => {
    const e = await endpoint();
    const unknown = e.url.replace(/we_[\w-]+$/, 'we_nosuchendpoint0000');
    expectError(
      await post(unknown, nest(100_000), { 'stripe-signature': signedHeader(nest(100_000), e.secret, c.clock.now) }),
      404,
      'not_found',
    );
    const event = JSON.stringify(stripeEvent('customer.created', customer({}), { created: c.clock.now }));
    expectError(await post(unknown, event, { 'stripe-signature': signedHeader(event, e.secret, c.clock.now) }), 404, 'not_found');
    expect(parsedNested()).toBe(false);
  });

  it('a correctly signed event still works; one nested to the limit too; one past it is 400 malformed_json, refused before JSON.parse', async () => {
    const e = await endpoint();
    const taken = JSON.stringify(stripeEvent('customer.created', customer({}), { created: c.clock.now }));
    const ok = await post(e.url, taken, { 'stripe-signature': signedHeader(taken, e.secret, c.clock.now) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.attributes).toMatchObject({ type: 'customer.created', outcome: 'ignored' });

    // The envelope is depth 1: `extra` holds the rest of the levels.
    const deep = (levels: number) =>
      JSON.stringify(stripeEvent('customer.updated', customer({}), { created: c.clock.now })).replace(/}$/, `,"extra":${nest(levels)}}`);
    const atLimit = deep(DEPTH - 1);
    expect((await post(e.url, atLimit, { 'stripe-signature': signedHeader(atLimit, e.secret, c.clock.now) })).status).toBe(200);
    const past = deep(DEPTH);
    const refused = await post(e.url, past, { 'stripe-signature': signedHeader(past, e.secret, c.clock.now) });
    expect(expectError(refused, 400, 'malformed_json').detail).toMatch(new RegExp(`deeper than ${DEPTH}`));

    const huge = nest(100_000);
    expectError(await post(e.url, huge, { 'stripe-signature': signedHeader(huge, e.secret, c.clock.now) }), 400, 'malformed_json');
    expect(parsedNested()).toBe(false);
    expect(await events(e)).toHaveLength(2);
  });

  it('twenty nested bodies at once are all refused, and the server answers others meanwhile', async () => {
    const e = await endpoint();
    const body = nest(200_000);
    const bombs = Array.from({ length: 20 }, () => post(e.url, body, { 'stripe-signature': 't=1,v1=00' }));
    const health = await fetch(`${c.url}/healthz`);
    expect(health.status).toBe(200);
    for (const reply of await Promise.all(bombs)) expectError(reply, 400, 'invalid_signature');
    expect(parsedNested()).toBe(false);
  });
});

describe('the Stripe webhook takes no compressed body', () => {
  const n = 256 * 1024;
  // 546 bytes on the wire, 512 KiB of brackets inflated: what the review sent.
  const bomb = gzipSync(nest(n), { level: 9 });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)(
    'Content-Encoding %s on a correctly signed event is 415 unsupported_media_type, and nothing is recorded',
    async (coding, compress) => {
      const e = await endpoint();
      const event = JSON.stringify(stripeEvent('customer.created', customer({}), { created: c.clock.now }));
      const reply = await post(e.url, Uint8Array.from(compress(event)), {
        'content-encoding': coding,
        'stripe-signature': signedHeader(event, e.secret, c.clock.now),
      });
      expect(expectError(reply, 415, 'unsupported_media_type').detail).toMatch(/Content-Encoding/);
      expect(await events(e)).toEqual([]);
    },
  );

  it('the 546-byte nested gzip body is 415 unparsed; Content-Encoding identity is taken', async () => {
    expect(bomb.length).toBeLessThan(600);
    const e = await endpoint();
    expectError(
      await post(e.url, Uint8Array.from(bomb), { 'content-encoding': 'gzip', 'stripe-signature': 't=1,v1=00' }),
      415,
      'unsupported_media_type',
    );
    expect(parsedNested()).toBe(false);
    const event = JSON.stringify(stripeEvent('customer.created', customer({}), { created: c.clock.now }));
    const plain = await post(e.url, event, {
      'content-encoding': 'identity',
      'stripe-signature': signedHeader(event, e.secret, c.clock.now),
    });
    expect(plain.status).toBe(200);
  });
});

describe('every JSON body has a nesting limit', () => {
  const json = { 'content-type': 'application/json' };
  const click = (key: string, extra: string) => `{"gr_id":"g-depth","pk":"${key}","url":"https://shop.test/","extra":${extra}}`;

  it(`a tracking body nested ${DEPTH} deep is taken; ${DEPTH + 1} deep is 400 malformed_json`, async () => {
    const p = await seedPartner(c);
    // The tracking routes ignore fields they do not know, so only the depth decides.
    const atLimit = await c.call('POST', '/v1/tracking/click', { raw: click(p.key, nest(DEPTH - 1)), headers: json });
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(202);
    const objects = await c.call('POST', '/v1/tracking/click', {
      raw: click(p.key, `${'{"a":'.repeat(DEPTH - 1)}1${'}'.repeat(DEPTH - 1)}`),
      headers: json,
    });
    expect(objects.status).toBe(202);
    const past = await c.call('POST', '/v1/tracking/click', { raw: click(p.key, nest(DEPTH)), headers: json });
    expect(expectError(past, 400, 'malformed_json').detail).toMatch(new RegExp(`deeper than ${DEPTH}`));
  });

  it('a body read straight from the socket (a Content-Length, no encoding) reads as the parser read it: UTF-8 across chunks, a byte order mark dropped; gzip still taken', async () => {
    const p = await seedPartner(c);
    const body = `{"gr_id":"g-read-é€😀","pk":"${p.key}","url":"https://shop.test/ünï"}`;
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body, 'utf8')]);
    // Sent in pieces that split the multi-byte characters.
    const pieces = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(Uint8Array.from(bytes.subarray(i, i + 3)));
        controller.close();
      },
    });
    const split = await fetch(`${c.url}/v1/tracking/click`, {
      method: 'POST',
      headers: { authorization: `Bearer ${c.secret}`, 'content-length': String(bytes.length), ...json },
      body: pieces,
      duplex: 'half',
    } as RequestInit);
    expect(split.status, await split.clone().text()).toBe(202);
    const zipped = await fetch(`${c.url}/v1/tracking/click`, {
      method: 'POST',
      headers: { authorization: `Bearer ${c.secret}`, 'content-encoding': 'gzip', ...json },
      body: Uint8Array.from(gzipSync(body)),
    });
    expect(zipped.status).toBe(202);
    const stored = await c.call('GET', `/v1/clicks?partnership_id_eq=${p.partnershipId}`, { token: c.secret });
    expect(stored.body.data.map((x: { attributes: { gr_id: string } }) => x.attributes.gr_id)).toEqual(['g-read-é€😀']);
  });

  it('brackets inside strings, after escaped quotes too, do not count', async () => {
    const p = await seedPartner(c);
    const text = JSON.stringify(`\\"${'['.repeat(2000)}"{{{`);
    const reply = await c.call('POST', '/v1/tracking/click', { raw: click(p.key, text), headers: json });
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  });

  it('16,000 brackets (under 16 KiB) to a public tracking route are 400 before JSON.parse; 100,000 are 413; a gzip bomb is 413', async () => {
    const p = await seedPartner(c);
    for (const raw of ['['.repeat(16_000), nest(8000), '{"a":'.repeat(3000)]) {
      const reply = await c.call('POST', '/v1/tracking/click', { token: c.publishable, raw, headers: json });
      expectError(reply, 400, 'malformed_json');
    }
    expectError(
      await c.call('POST', '/v1/tracking/click', { token: c.publishable, raw: '['.repeat(100_000), headers: json }),
      413,
      'payload_too_large',
    );
    // Inflated, it is over 16 KiB: refused at the limit, as the bytes arrive.
    const bomb = Uint8Array.from(gzipSync(nest(256 * 1024), { level: 9 }));
    const res = await fetch(`${c.url}/v1/tracking/click`, {
      method: 'POST',
      headers: { authorization: `Bearer ${c.publishable}`, 'content-encoding': 'gzip', ...json },
      body: bomb,
    });
    expect([res.status, ((await res.json()) as { errors: Array<{ code: string }> }).errors[0]!.code]).toEqual([413, 'payload_too_large']);
    expect(parsedNested()).toBe(false);
    expect((await c.call('POST', '/v1/tracking/click', { raw: click(p.key, '1'), headers: json })).status).toBe(202);
  });

  it('a management write and a public sign-in are refused for depth before their fields are checked', async () => {
    const partner = await c.call('POST', '/v1/partners', { raw: `{"name":"N","email":"n@p.test","extra":${nest(DEPTH)}}`, headers: json });
    expectError(partner, 400, 'malformed_json');
    const signIn = await c.call('POST', '/v1/auth/sign_in', {
      token: null,
      raw: `{"email":"a@b.test","password":${nest(5000)}}`,
      headers: json,
    });
    expectError(signIn, 400, 'malformed_json');
    expect(parsedNested()).toBe(false);
  });
});
