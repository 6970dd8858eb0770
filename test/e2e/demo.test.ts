// The README's five-minute walk, in Chromium: start the collector, add a partner, follow
// the referral link to the demo page, sign up, and find the conversion in the API.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../packages/collector/src/log.js';
import { startServer, type RunningServer } from '../../packages/collector/src/server.js';
import { launchChromium } from './stack.js';

let browser: Browser;
let server: RunningServer;
let dir: string;
beforeAll(async () => {
  browser = await launchChromium();
  dir = mkdtempSync(join(tmpdir(), 'tally-demo-'));
  server = await startServer(
    { port: 0, host: '127.0.0.1', databaseUrl: join(dir, 'tally.db'), logLevel: 'silent' },
    createLogger('silent'),
  );
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('a referral link to /demo/, a signup, and the conversion listed by GET /v1/referrals', async () => {
  const secret = server.firstProgram!.tokens.secret;
  const api = async (method: string, path: string, body?: unknown) =>
    (
      await fetch(server.url + path, {
        method,
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
    ).json() as Promise<any>;
  const partner = await api('POST', '/v1/partners', { name: 'Alice Example', email: 'alice@partner.test' });
  const ps = await api('POST', '/v1/partnerships', { partner_id: partner.data.id, state: 'accepted' });
  const link = ps.data.attributes.referral_link as string;
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/demo\/\?red=alice-example$/);

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expect.poll(() => page.textContent('#referral')).toContain('partner alice-example');
  await page.click('text=Sign up');
  await page.fill('input[name=email]', 'bob@customer.test');
  await page.click('button');
  await expect.poll(() => page.textContent('#result')).toContain('Conversion recorded');

  const referrals = await api('GET', '/v1/referrals');
  expect(referrals.data).toHaveLength(1);
  expect(referrals.data[0].attributes.email).toBe('bob@customer.test');
  expect(referrals.data[0].relationships.partnership.data.id).toBe(ps.data.id);
  await page.screenshot({ path: join(process.env.SCREENSHOT_DIR ?? dir, 'demo-signup.png') });
  await context.close();
});
