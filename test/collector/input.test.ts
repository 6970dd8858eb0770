// Hostile input: bodies over 16 KiB however they are framed or encoded, keys that try to
// reach Object.prototype, over-long strings, control characters in e-mails, wrong types.

import { request } from 'node:http';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, seedPartner, startCollector, type Collector, type Reply } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

/** A raw request: the body written in chunks (no Content-Length) or at once, with any headers. */
function send(path: string, body: Buffer, headers: Record<string, string>, chunked: boolean): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const url = new URL(c.url + path);
    const req = request(
      { host: url.hostname, port: url.port, path, method: 'POST', headers: { authorization: `Bearer ${c.secret}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: new Headers(res.headers as Record<string, string>), body: JSON.parse(text) }),
        );
      },
    );
    req.on('error', reject);
    if (chunked) {
      for (let i = 0; i < body.length; i += 1000) req.write(body.subarray(i, i + 1000));
    } else {
      req.setHeader('content-length', body.length);
      req.write(body);
    }
    req.end();
  });
}

const big = Buffer.from(JSON.stringify({ name: 'x', email: 'a@b.test', pad: 'y'.repeat(20_000) }));
const json = { 'content-type': 'application/json' };

describe('413 payload_too_large', () => {
  it.each([
    ['plain with a length', big, {}, false],
    ['chunked with no length', big, {}, true],
    ['gzip, small on the wire', gzipSync(big), { 'content-encoding': 'gzip' }, false],
    ['gzip and chunked', gzipSync(big), { 'content-encoding': 'gzip' }, true],
    ['deflate', deflateSync(big), { 'content-encoding': 'deflate' }, true],
  ] as const)('%s', async (_name, body, headers, chunked) => {
    if (headers['content-encoding' as keyof typeof headers]) expect(body.length).toBeLessThan(16 * 1024);
    expectError(await send('/v1/partners', body, { ...json, ...headers }, chunked), 413, 'payload_too_large');
    expect((await c.call('GET', '/v1/partners')).body.data).toEqual([]);
  });

  it('a gzip body under the limit is read', async () => {
    const body = gzipSync(Buffer.from(JSON.stringify({ name: 'Zed', email: 'zed@partners.test' })));
    expect((await send('/v1/partners', body, { ...json, 'content-encoding': 'gzip' }, true)).status).toBe(201);
  });

  it('an unknown content encoding is 415', async () => {
    expectError(
      await send('/v1/partners', Buffer.from('{}'), { ...json, 'content-encoding': 'zstd' }, false),
      415,
      'unsupported_media_type',
    );
  });
});

describe('strict JSON', () => {
  it.each(['[]', '"text"', '1', 'null', 'true', '', ' ', '{"a":1} trailing', '{"a":'])('%j is 400 malformed_json', async (raw) => {
    expectError(await c.call('POST', '/v1/partners', { raw, headers: json }), 400, 'malformed_json');
  });
});

describe('prototype keys', () => {
  it('__proto__, constructor and prototype in a body pollute nothing and are not stored', async () => {
    const raw =
      '{"__proto__":{"polluted":1,"email":"evil@x.test"},"constructor":{"prototype":{"polluted":1}},' +
      '"prototype":{"polluted":1},"name":"Safe","email":"safe@partners.test"}';
    // constructor and prototype are unknown fields of a management write: refused whole.
    expectError(await c.call('POST', '/v1/partners', { raw, headers: json }), 422, 'unknown_field');
    // __proto__ alone is dropped by the parser, and the rest of the body stands.
    const reply = await c.call('POST', '/v1/partners', {
      raw: '{"__proto__":{"polluted":1,"email":"evil@x.test"},"name":"Safe","email":"safe@partners.test"}',
      headers: json,
    });
    expect(reply.status).toBe(201);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    const partner = (await c.call('GET', `/v1/partners/${reply.body.data.id}`)).body.data;
    expect(partner.attributes.name).toBe('Safe');
    expect(JSON.stringify(partner)).not.toMatch(/polluted|evil/);
    expect((await c.call('GET', '/v1/partners?email_eq=evil%40x.test')).body.data).toEqual([]);
  });

  it('a __proto__ whose value holds the only e-mail is dropped: the e-mail is still missing', async () => {
    const raw = '{"__proto__":{"email":"evil@x.test"},"name":"N"}';
    expectError(await c.call('POST', '/v1/partners', { raw, headers: json }), 422, 'missing_field');
  });
});

describe('lengths and characters', () => {
  it('every string field has a maximum length', async () => {
    const p = await seedPartner(c);
    const long = 'a'.repeat(5000);
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['POST', '/v1/partners', { name: long, email: 'n@p.test' }, '/name'],
      ['POST', '/v1/partners', { name: 'n', email: `${long}@p.test` }, '/email'],
      ['POST', '/v1/partnerships', { partner_id: long }, '/partner_id'],
      ['PATCH', `/v1/partnerships/${p.partnershipId}`, { key: long }, '/key'],
      ['POST', '/v1/tracking/conversion', { email: 'a@b.test', gr_id: long, pk: p.key }, '/gr_id'],
      ['POST', '/v1/tracking/conversion', { email: 'a@b.test', gr_id: 'g', pk: long }, '/pk'],
      ['POST', '/v1/tracking/conversion', { email: 'a@b.test', gr_id: 'g', pk: p.key, uid: long }, '/uid'],
      ['POST', '/v1/tracking/click', { gr_id: 'g', pk: p.key, url: `https://x.test/${long}` }, '/url'],
      ['POST', '/v1/payments', { amount: 1, currency: 'USD', idempotency_key: long, referral_id: 'r' }, '/idempotency_key'],
    ];
    for (const [method, path, body, pointer] of cases) {
      const reply = await c.call(method, path, { body });
      expect([reply.status, reply.body.errors?.[0]?.source?.pointer], `${method} ${path} ${pointer}`).toEqual([422, pointer]);
    }
  });

  it.each(['a\u0000b@x.test', 'a@x.test\n', 'a\r\n@x.test', 'a\u0085@x.test', 'a\u2028@x.test', 'a\u007f@x.test'])(
    'an e-mail with a control character (%j) is 422 invalid_email',
    async (email) => {
      const p = await seedPartner(c);
      const reply = await c.call('POST', '/v1/tracking/conversion', { body: { email, gr_id: 'g', pk: p.key } });
      expectError(reply, 422, 'invalid_email');
    },
  );

  it('U+0000 is refused on every engine: in a body string, a filter value and a path id, and nothing is stored', async () => {
    const p = await seedPartner(c);
    const name = await c.call('POST', '/v1/partners', { body: { name: 'a\u0000b', email: 'nul@p.test' } });
    expect(expectError(name, 422, 'invalid_field').source).toEqual({ pointer: '/name' });
    const conv = await c.call('POST', '/v1/tracking/conversion', { body: { email: 'n@x.test', gr_id: 'g\u0000', pk: p.key } });
    expect(expectError(conv, 422, 'invalid_field').source).toEqual({ pointer: '/gr_id' });
    const filter = await c.call('GET', '/v1/partners?name_eq=a%00b');
    expect(expectError(filter, 400, 'invalid_parameter').source).toEqual({ parameter: 'name_eq' });
    expectError(await c.call('GET', '/v1/partners/a%00b'), 404, 'not_found');
    expect((await c.call('GET', '/v1/partners')).body.data).toHaveLength(1);
    expect((await c.call('GET', '/v1/referrals')).body.data).toHaveLength(0);
  });
});

// A payout address lands in a CSV file that people open in spreadsheets, and an address
// is compared with others to refuse self-referral: neither may hide a formula or
// characters that show nothing.
describe('e-mail addresses that hide a formula or invisible characters', () => {
  const formulas = ['+cmd|calc!A0@x.y', '=HYPERLINK("http://evil.test")@x.y', '-2+3@x.y', ' =1+1@x.y'];
  const invisible = [
    ['zero-width space', 'ali\u200bce@partner.test'],
    ['zero-width joiner', '\u200dalice@partner.test'],
    ['word joiner', 'alice@partner.test\u2060'],
    ['invisible plus', 'alice\u2064@partner.test'],
    ['byte-order mark', 'alice\ufeff@partner.test'],
    ['left-to-right mark', 'ali\u200ece@partner.test'],
    ['right-to-left mark', 'ali\u200fce@partner.test'],
    ['right-to-left override', 'ali\u202ece@partner.test'],
    ['left-to-right isolate', 'ali\u2066ce@partner.test'],
    ['soft hyphen', 'ali\u00adce@partner.test'],
    ['combining grapheme joiner', 'ali\u034fce@partner.test'],
    ['Mongolian vowel separator', 'alice@part\u180ener.test'],
    ['variation selector', 'alice\ufe0f@partner.test'],
    ['tag character', 'alice@partner.test\u{e0041}'],
  ];
  const cases: Array<[string, string]> = [
    ...formulas.map((f): [string, string] => ['a formula', f]),
    ...(invisible as Array<[string, string]>),
  ];

  it.each(cases)('%s (%j): 422 invalid_email with a pointer on every e-mail field', async (_name, bad) => {
    const p = await seedPartner(c);
    const sends: Array<[string, string, Record<string, unknown>, string]> = [
      ['POST', '/v1/partners', { name: 'N', email: bad }, '/email'],
      ['POST', '/v1/partners', { name: 'N', email: 'n@partners.test', paypal_email: bad }, '/paypal_email'],
      ['PATCH', `/v1/partners/${p.partnerId}`, { email: bad }, '/email'],
      ['PATCH', `/v1/partners/${p.partnerId}`, { paypal_email: bad }, '/paypal_email'],
      ['POST', '/v1/tracking/conversion', { email: bad, gr_id: 'g', pk: p.key }, '/email'],
      ['POST', '/v1/payments', { amount: 1, currency: 'USD', idempotency_key: 'k', referral_email: bad }, '/referral_email'],
    ];
    for (const [method, path, body, pointer] of sends) {
      const err = expectError(await c.call(method, path, { body }), 422, 'invalid_email');
      expect(err.source, `${method} ${path}`).toEqual({ pointer });
    }
    expect((await c.call('GET', '/v1/partners')).body.data).toHaveLength(1);
    expect((await c.call('GET', `/v1/partners/${p.partnerId}`)).body.data.attributes).not.toHaveProperty('paypal_email');
    expect((await c.call('GET', '/v1/referrals')).body.data).toEqual([]);
  });

  it('says why: a formula, or a character that shows nothing', async () => {
    const formula = expectError(await c.call('POST', '/v1/partners', { body: { name: 'N', email: '=1@x.y' } }), 422, 'invalid_email');
    expect(formula.detail).toMatch(/must not start with/);
    const hidden = expectError(await c.call('POST', '/v1/partners', { body: { name: 'N', email: 'a\u200b@x.y' } }), 422, 'invalid_email');
    expect(hidden.detail).toMatch(/invisible/);
  });

  it('addresses with a + or - inside, and letters of any script, are still taken', async () => {
    for (const email of ['alice+tag@x.test', 'mary-jane@x.test', 'zoë@x.test', 'δοκιμή@παράδειγμα.test']) {
      expect((await c.call('POST', '/v1/partners', { body: { name: 'N', email, paypal_email: email } })).status, email).toBe(201);
    }
  });
});
