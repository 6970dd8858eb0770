// `/` opens the dashboard; `/about` names the service and links to what there is besides
// it, not a JSON 404; and a favicon.

import { Writable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { createApp } from '../../packages/collector/src/app.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { startCollector, type Collector } from './harness.js';

let c: Collector | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

it('sends / to the dashboard, and answers /about with a page naming the service and its version, linking the demo, the API document and the docs', async () => {
  c = await startCollector();
  const root = await fetch(`${c.url}/`, { redirect: 'manual' });
  expect(root.status).toBe(302);
  expect(root.headers.get('location')).toBe('/dashboard/');
  const res = await fetch(`${c.url}/about`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*style-src 'sha256-/);
  const html = await res.text();
  expect(html).toMatch(/<h1>Tally<\/h1>/);
  expect(html).toMatch(/version \d+\.\d+\.\d+/);
  const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
  expect(links).toEqual(expect.arrayContaining(['/demo/', '/openapi.json', '/docs/api.md', '/docs/tracker.md']));
  // Every link on the page answers.
  for (const link of links) expect((await fetch(`${c.url}${link}`)).status, link).toBe(200);
  expect(await (await fetch(`${c.url}/docs/api.md`)).text()).toMatch(/^# /);
  // The decisions: an index, and a file of each that its links reach; nothing outside docs/.
  const index = await (await fetch(`${c.url}/docs/decisions/README.md`)).text();
  const first = /\]\((\d{4}-[\w-]+\.md)\)/.exec(index)?.[1];
  expect((await fetch(`${c.url}/docs/decisions/${first}`)).status).toBe(200);
  expect((await fetch(`${c.url}/docs/decisions.md`)).status).toBe(200);
  expect((await fetch(`${c.url}/docs/%2e%2e/package.json`)).status).not.toBe(200);
  expect((await fetch(`${c.url}/docs/decisions/nothing.md`)).status).toBe(404);
});

it('serves /favicon.ico as an icon', async () => {
  c = await startCollector();
  const res = await fetch(`${c.url}/favicon.ico`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/x-icon');
  const bytes = Buffer.from(await res.arrayBuffer());
  expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]); // ICO, one image
  expect(bytes.subarray(22, 26).toString('latin1')).toBe('\x89PNG');
});

it('says once, in the log, that tracker.js is not built, instead of a silent 404', () => {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) });
  createApp({ db: undefined as never, log: createLogger('warn', sink), trackerPath: '/nonexistent/tracker.js' });
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0]!)).toMatchObject({
    msg: expect.stringContaining('tracker.js is not built'),
    cause: expect.stringContaining('ENOENT'),
  });
});
