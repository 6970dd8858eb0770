// The web apps' API client in Chromium: a page's load is cancelled when the person leaves
// the page or a newer load replaces it (its answer, arriving late, shows nothing and logs
// nothing), and a path parameter reaches the API encoded, whatever the address held.

import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bodyText, choose, press, waitForText } from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

const OWNER = { email: 'owner@company.test', password: 'a long owner password' };

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let owner: BrowserContext;

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  owner = await browser.newContext();
  const page = await owner.newPage();
  await page.goto(collector.server.firstSignInLink!);
  await page.waitForSelector('text=Welcome to Tally');
  await page.fill('input[name=email]', OWNER.email);
  await page.fill('input[name=password]', OWNER.password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/dashboard/');
  await page.close();
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

const at = (path: string) => `${collector.server.url}/dashboard${path}`;

/**
 * Holds the first request `matches` accepts until the test answers it, and records how
 * each such request ended in the browser (`net::ERR_ABORTED` when the page cancelled it).
 */
async function holdFirst(page: Page, matches: (url: URL) => boolean) {
  let held: Route | undefined;
  let arrived!: () => void;
  const seen = new Promise<void>((resolve) => (arrived = resolve));
  const failures: string[] = [];
  await page.route(
    (url) => matches(url),
    (route) => {
      if (held) return route.continue();
      held = route;
      arrived();
    },
  );
  page.on('requestfailed', (r: Request) => {
    if (matches(new URL(r.url()))) failures.push(r.failure()?.errorText ?? '');
  });
  return {
    seen,
    failures,
    /** Answers the held request at last, with an error a page still waiting would show. */
    answerLate: () =>
      held!
        .fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ errors: [{ code: 'internal', detail: 'the late answer' }] }),
        })
        .catch(() => undefined),
  };
}

const alerts = (page: Page) => page.evaluate(() => [...document.querySelectorAll('[role=alert]')].map((e) => (e as HTMLElement).innerText));

it('cancels a page’s load when the person leaves the page: its late answer shows nothing, and the console stays empty', async () => {
  const page = await owner.newPage();
  const problems = consoleProblems(page);
  await page.goto(at('/'));
  await waitForText(page, 'Overview');
  // The partners page's own list (the overview's top five ask the same route for 5).
  const list = await holdFirst(page, (u) => u.pathname === '/v1/stats/partners' && u.searchParams.get('per_page') === '25');
  await press(page, 'Partners');
  await list.seen;
  await press(page, 'Clicks');
  await waitForText(page, /No clicks yet|Download CSV/);
  await expect.poll(() => list.failures).toEqual(['net::ERR_ABORTED']);
  await list.answerLate();
  await page.waitForTimeout(300);
  expect(await alerts(page)).toEqual([]);
  expect(await bodyText(page)).not.toContain('late answer');
  expect(problems).toEqual([]);
  await page.close();
});

it('cancels the older load when a newer one replaces it (another sort), and shows only the newer', async () => {
  const page = await owner.newPage();
  const problems = consoleProblems(page);
  const first = await holdFirst(page, (u) => u.pathname === '/v1/stats/partners' && u.searchParams.get('sort') === 'revenue');
  await page.goto(at('/partners'));
  await first.seen;
  await choose(page, 'Sort by', 'clicks');
  await waitForText(page, /No partners yet|Download CSV/);
  await expect.poll(() => first.failures).toEqual(['net::ERR_ABORTED']);
  await first.answerLate();
  await page.waitForTimeout(300);
  expect(await alerts(page)).toEqual([]);
  expect(page.url()).toContain('sort=clicks');
  expect(problems).toEqual([]);
  await page.close();
});

it('encodes path parameters: an address crafted with / and ? asks the API for the whole id, which answers 404 for it', async () => {
  const page = await owner.newPage();
  const sent: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/v1/')) sent.push(u.pathname + u.search);
  });
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/v1/partners/'));
  // The router decodes the segment to the id "a?b/c".
  await page.goto(at('/partners/a%3Fb%2Fc'));
  const res = await answer;
  expect(new URL(res.url()).pathname).toBe('/v1/partners/a%3Fb%2Fc');
  expect(res.status()).toBe(404);
  // Unencoded, it would have been "no partner a" (the rest a query string) or "no route for GET /v1/partners/a/b".
  expect((await res.json()).errors[0]).toMatchObject({ code: 'not_found', detail: 'no partner a?b/c' });
  await waitForText(page, 'No partner a?b/c');
  // Query parameters too.
  expect(sent).toContain('/v1/partnerships?partner_id_eq=a%3Fb%2Fc');
  expect(sent).toContain('/v1/referrals?partner_id_eq=a%3Fb%2Fc&per_page=10');
  await page.close();
});
