// The demo pages under their Content-Security-Policy, in Chromium: the pages' own scripts
// and the snippet run without a single violation, and a script injected into the page
// (what an XSS would do) does not run.

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningServer } from '../../packages/collector/src/server.js';
import { launchChromium, startDemoCollector } from './stack.js';

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let server: RunningServer;
beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  server = collector.server;
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

declare global {
  interface Window {
    violations?: string[];
    injected?: number;
  }
}

it.each(['/demo/', '/demo/signup'])('%s runs its scripts with no CSP violation, and refuses an injected one', async (path) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.violations!.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const res = await page.goto(server.url + path);
  expect(res?.headers()['content-security-policy']).toContain("default-src 'none'");
  // The inline script that waits for the snippet has run: the snippet loaded and answered.
  await expect.poll(() => page.textContent('#referral')).toMatch(/^none/);
  expect(await page.evaluate(() => window.violations)).toEqual([]);

  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.injected = 1';
    document.head.appendChild(s);
    return window.injected;
  });
  expect(ran).toBeUndefined();
  await expect.poll(() => page.evaluate(() => window.violations!.length)).toBe(1);
  expect((await page.evaluate(() => window.violations))![0]).toMatch(/^script-src/);
  await context.close();
});
