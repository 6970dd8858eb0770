// The collector serves the built snippet and the demo pages (docs/api.md §20).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCollector, type Collector } from './harness.js';

const built = readFileSync(createRequire(import.meta.url).resolve('@tally/tracker/tracker.js'));

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(c.url + path, { headers: { 'accept-encoding': 'identity', ...headers } });

describe('/tracker.js', () => {
  it('serves the built snippet with an ETag and a five-minute cache, no token needed', async () => {
    const res = await get('/tracker.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(built)).toBe(true);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const etag = (await get('/tracker.js')).headers.get('etag')!;
    const res = await get('/tracker.js', { 'if-none-match': etag });
    expect(res.status).toBe(304);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('sends it compressed to clients that accept gzip or brotli', async () => {
    // node's fetch decodes on its own; read the raw bytes through a plain request instead.
    const { request } = await import('node:http');
    const raw = (encoding: string) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        request(`${c.url}/tracker.js`, { headers: { 'accept-encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        })
          .on('error', reject)
          .end();
      });
    const br = await raw('br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(built)).toBe(true);
    const gz = await raw('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(built)).toBe(true);
    expect(gz.headers.vary).toMatch(/Accept-Encoding/);
  });

  it('serves a versioned copy at /tracker.<hash>.js, immutable for a year', async () => {
    const etag = (await get('/tracker.js')).headers.get('etag')!;
    const hash = etag.slice(1, 9);
    const res = await get(`/tracker.${hash}.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await res.arrayBuffer()).equals(built)).toBe(true);
    expect((await get('/tracker.00000000.js')).status).toBe(404);
  });
});

describe('/demo/', () => {
  it('serves a landing and a signup page that load the snippet with a working publishable token', async () => {
    for (const path of ['/demo/', '/demo/signup']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await res.text();
      expect(html).toContain('src="/tracker.js"');
      const token = /data-key="(tly_pub_[0-9A-Za-z]{38})"/.exec(html)?.[1];
      expect(token).toBeDefined();
      // The token belongs to the first program and may post conversions.
      const reply = await c.call('POST', '/v1/tracking/click', { token: token!, body: { gr_id: 'g', pk: 'nobody' } });
      expect(reply.status).toBe(422); // authenticated; only the slug is unknown
    }
    const redirect = await fetch(`${c.url}/demo`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/demo/');
  });
});
