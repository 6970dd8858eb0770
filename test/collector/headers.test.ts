// Response headers that protect browsers: a strict Content-Security-Policy on the HTML
// pages (the demo's inline scripts allowed by hash, nothing else), nosniff, no framing
// and no referrer everywhere; API answers, which carry personal data, never cached.

import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

/** The directives of a CSP header, by name. */
function directives(csp: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of String(csp).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function expectEverywhere(res: Response) {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'none'"]);
  return csp;
}

describe('the demo pages', () => {
  it.each(['/demo/', '/demo/signup'])(
    '%s allow only their own inline scripts and styles, by hash, and scripts and calls to this origin',
    async (path) => {
      const res = await fetch(c.url + path);
      expect(res.status).toBe(200);
      const html = await res.text();
      const csp = expectEverywhere(res);
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      const scripts = csp.get('script-src')!;
      const styles = csp.get('style-src')!;
      expect(scripts).toContain("'self'"); // /tracker.js
      for (const list of [scripts, styles]) {
        expect(list.join(' ')).not.toMatch(/unsafe|\*|data:|https?:/);
      }
      const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(inline.length).toBeGreaterThanOrEqual(2);
      for (const text of inline) expect(scripts).toContain(sha256(text));
      expect(scripts.filter((s) => s.startsWith("'sha256-"))).toHaveLength(inline.length);
      const css = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
      expect(css).toHaveLength(1);
      expect(styles).toEqual([sha256(css[0]!)]);
    },
  );

  it('the redirect from /demo, whose body is HTML, gets the strict default policy', async () => {
    const res = await fetch(`${c.url}/demo`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(res.status).toBe(302);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(expectEverywhere(res).get('default-src')).toEqual(["'none'"]);
  });
});

describe('the API', () => {
  it('every /v1 answer, error or not, is no-store and nosniff', async () => {
    const answers = [
      await fetch(`${c.url}/v1/partners`, { headers: { authorization: `Bearer ${c.secret}` } }),
      await fetch(`${c.url}/v1/partners`, {
        method: 'POST',
        headers: { authorization: `Bearer ${c.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Header Test', email: 'h@partner.test' }),
      }),
      await fetch(`${c.url}/v1/partners`),
      await fetch(`${c.url}/v1/partners/01900000-0000-7000-8000-000000000000`, { headers: { authorization: `Bearer ${c.secret}` } }),
      await fetch(`${c.url}/v1/nothing`),
      await fetch(`${c.url}/v1/tracking/click`, {
        method: 'POST',
        headers: { authorization: `Bearer ${c.publishable}`, 'content-type': 'application/json' },
        body: '{',
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 201, 401, 404, 404, 400]);
    for (const res of answers) {
      expect(res.headers.get('cache-control'), res.url).toBe('no-store');
      expect(expectEverywhere(res).get('default-src')).toEqual(["'none'"]);
    }
  });

  it('/tracker.js keeps its caching; /healthz and unknown paths get the strict defaults', async () => {
    const tracker = await fetch(`${c.url}/tracker.js`);
    expect(tracker.headers.get('cache-control')).toBe('public, max-age=300');
    expect(tracker.headers.get('x-content-type-options')).toBe('nosniff');
    for (const path of ['/healthz', '/nowhere']) expectEverywhere(await fetch(c.url + path));
  });
});
