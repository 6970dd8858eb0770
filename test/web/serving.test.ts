// The dashboard as the collector serves it: its page on every app path with a CSP that
// allows no inline script, its hashed files cached for a year, compressed; its size
// within budget; and none of it in the snippet.

import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCollector, type Collector } from '../collector/harness.js';

const DIST = new URL('../../packages/web/dist/dashboard/', import.meta.url);
/** Initial JavaScript of the app (its entry chunk), gzip: the design's budget is about 60 KB. */
const ENTRY_BUDGET = 40_000;
/** The embed's entry chunk, gzip: it loads inside another company's page. */
const EMBED_BUDGET = 32_000;
/** uPlot's chunk, loaded only by pages with a chart. */
const CHART_BUDGET = 25_000;

let c: Collector;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(async () => {
  await c?.close();
});

it('serves the app page on every path under /dashboard/, never cached stale, with a strict CSP', async () => {
  for (const path of ['/dashboard/', '/dashboard/partners/01900000-0000-7000-8000-000000000000', '/dashboard/sign-in']) {
    const res = await fetch(c.url + path);
    expect(res.status, path).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).toMatch(/<script type="module" src="\/dashboard\/assets\/dashboard-[\w-]+\.js"><\/script>/);
    expect(html).not.toMatch(/<script>|<style>| style=/);
  }
  const bare = await fetch(`${c.url}/dashboard`, { redirect: 'manual' });
  expect(bare.status).toBe(301);
  expect(bare.headers.get('location')).toBe('/dashboard/');
});

it('serves the hashed files for a year, compressed, and 404s a name it does not have', async () => {
  const html = await (await fetch(`${c.url}/dashboard/`)).text();
  const files = [...html.matchAll(/\/dashboard\/assets\/[^"]+/g)].map((m) => m[0]);
  expect(files.length).toBe(2); // the script and the stylesheet
  for (const file of files) {
    const res = await fetch(c.url + file, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('br');
  }
  const missing = await fetch(`${c.url}/dashboard/assets/dashboard-00000000.js`);
  expect(missing.status).toBe(404);
  expect((await missing.json()).errors[0].code).toBe('not_found');
});

it('keeps the bundles within budget, and the snippet free of dashboard code', () => {
  const assets = readdirSync(new URL('assets/', DIST));
  const gz = (name: string) => gzipSync(readFileSync(new URL(`assets/${name}`, DIST)), { level: 9 }).length;
  const entry = assets.find((n) => /^dashboard-.*\.js$/.test(n))!;
  const chart = assets.find((n) => /^uPlot.*\.js$/.test(n))!;
  expect(gz(entry)).toBeLessThan(ENTRY_BUDGET);
  expect(gz(chart)).toBeLessThan(CHART_BUDGET);
  // Payouts and settings are their own chunks, fetched when first opened, not part of the entry. The
  // areas (settings/page.tsx, payouts/page.tsx: chunks named "page" like every area's), found by their words.
  const chunksSaying = (words: string) =>
    assets.filter((n) => n.endsWith('.js') && readFileSync(new URL(`assets/${n}`, DIST), 'utf8').includes(words));
  const settings = chunksSaying('Settings sections');
  expect(settings.length).toBeGreaterThan(0);
  expect(settings).not.toContain(entry);
  expect(chunksSaying('/v1/payout_runs')).toEqual([expect.stringMatching(/^page-.*\.js$/)]);
  const tracker = readFileSync(new URL('../../packages/tracker/dist/tracker.js', import.meta.url), 'utf8');
  for (const marker of ['preact', 'uPlot', '/v1/auth', 'dashboard']) expect(tracker).not.toContain(marker);
});

it('serves the partner portal at /portal/ and the public pages at /p/<slug>/, within its own budget', async () => {
  for (const path of ['/portal/', '/portal/earnings', '/p/acme/']) {
    const res = await fetch(c.url + path);
    expect(res.status, path).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self';");
    const html = await res.text();
    expect(html).toContain('<title>Tally partner portal</title>');
    expect(html).toMatch(/<script type="module" src="\/portal\/assets\/portal-[\w-]+\.js"><\/script>/);
  }
  const portal = new URL('../../packages/web/dist/portal/assets/', import.meta.url);
  const entry = readdirSync(portal).find((n) => /^portal-.*\.js$/.test(n))!;
  expect(gzipSync(readFileSync(new URL(entry, portal)), { level: 9 }).length).toBeLessThan(ENTRY_BUDGET);
  // The owner's pages are not in the partner's bundle.
  expect(readFileSync(new URL(entry, portal), 'utf8')).not.toContain('/v1/payout_batches');
});

it("keeps the embed's first load within its budget, the payout forms in a chunk of their own", () => {
  const embed = new URL('../../packages/web/dist/embed/assets/', import.meta.url);
  const assets = readdirSync(embed);
  const entry = assets.find((n) => /^embed-.*\.js$/.test(n))!;
  // docs/embed.md: about 32 KB over the wire; the company's page waits for it.
  expect(gzipSync(readFileSync(new URL(entry, embed)), { level: 9 }).length).toBeLessThan(EMBED_BUDGET);
  expect(readFileSync(new URL(entry, embed), 'utf8')).not.toContain('/v1/embed/tax_form');
  const payment = assets.find((n) => /^payment-.*\.js$/.test(n))!;
  expect(readFileSync(new URL(payment, embed), 'utf8')).toContain('/v1/embed/tax_form');
});

it('serves the gzip and brotli the build wrote beside each file, byte for byte, and they are the file', async () => {
  const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
  const { request } = await import('node:http');
  const assets = new URL('assets/', DIST);
  const js = readdirSync(assets).find((n) => n.endsWith('.js'))!;
  const plain = readFileSync(new URL(js, assets));
  // fetch() undoes the encoding; a raw request shows the bytes sent.
  const raw = (encoding: string) =>
    new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      request(`${c.url}/dashboard/assets/${js}`, { headers: { 'accept-encoding': encoding } }, (res) => {
        const parts: Buffer[] = [];
        res
          .on('data', (d: Buffer) => parts.push(d))
          .on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(parts) }));
      })
        .on('error', reject)
        .end();
    });
  const br = await raw('br');
  expect(br.encoding).toBe('br');
  expect(br.body.equals(readFileSync(new URL(`${js}.br`, assets)))).toBe(true);
  expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
  const gz = await raw('gzip');
  expect(gz.encoding).toBe('gzip');
  expect(gz.body.equals(readFileSync(new URL(`${js}.gz`, assets)))).toBe(true);
  expect(gunzipSync(gz.body).equals(plain)).toBe(true);
  // The compressed copies are not files of the app themselves.
  expect((await fetch(`${c.url}/dashboard/assets/${js}.br`)).status).toBe(404);
});
