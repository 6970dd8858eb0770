// The README's five-minute walk, in Chromium and in Firefox: start the collector, add a
// partner, follow the referral link to the demo page, sign up, and find the conversion in
// the API; the page's console stays silent throughout (the demo runs on 127.0.0.1, where
// the cookie is host-only: Firefox logged each refused domain as an error).

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../packages/collector/src/server.js';
import { consoleProblems, type Browser } from './driver.js';
import { ENGINES, LAUNCH_TIMEOUT } from './engines.js';
import { startDemoCollector } from './stack.js';

for (const engine of ENGINES) {
  describe(`in ${engine.name}`, () => {
    let browser: Browser;
    let collector: Awaited<ReturnType<typeof startDemoCollector>>;
    let server: RunningServer;
    beforeAll(async () => {
      browser = await engine.launch();
      collector = await startDemoCollector();
      server = collector.server;
    }, LAUNCH_TIMEOUT);
    afterAll(async () => {
      await browser?.close();
      await collector?.close();
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
      const problems = consoleProblems(page);
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
      // Host-only on an address: the cookie has no domain attribute to refuse.
      const cookies = (await context.cookies()).filter((c) => c.name === '_gr_id');
      expect(cookies.map((c) => c.domain)).toEqual(['127.0.0.1']);
      // Nothing in the console: not the tracker's cookies, not the page's icon or its policy.
      expect(problems).toEqual([]);
      const shot = `demo-signup${engine.name === 'Chromium' ? '' : `-${engine.name.toLowerCase()}`}.png`;
      await page.screenshot({ path: join(process.env.SCREENSHOT_DIR ?? tmpdir(), shot) });
      await context.close();
    });
  });
}
