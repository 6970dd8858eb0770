// The dashboard's main flows again in Firefox ESR (over WebDriver BiDi): the first
// sign-in from the printed link, a partner made in the UI and their link, the overview
// with a conversion, sign-out and a wrong password; and a partner applying on the public
// page and reading the portal. dashboard.test.ts and portal.test.ts have the rest, in Chromium.

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningServer } from '../../packages/collector/src/server.js';
import { apiWith, press, waitForText } from './dashboard.js';
import { consoleProblems, type Browser, type Page } from './driver.js';
import { FIREFOX_ENGINE } from './engines.js';
import { startDemoCollector } from './stack.js';

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let server: RunningServer;
let page: Page;
let problems: string[];

beforeAll(async () => {
  browser = await FIREFOX_ENGINE.launch();
  collector = await startDemoCollector();
  server = collector.server;
  page = await (await browser.newContext()).newPage();
  problems = consoleProblems(page);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

const at = (path: string) => `${server.url}/dashboard${path}`;

it('in Firefox: first sign-in, a partner and their link, the overview, sign-out and a wrong password', async () => {
  await page.goto(server.firstSignInLink!);
  await waitForText(page, 'Welcome to Tally');
  await page.fill('input[name=email]', 'owner@company.test');
  await page.fill('input[name=password]', 'a long owner password');
  await page.click('button[type=submit]');
  await page.waitForURL('**/dashboard/');
  await waitForText(page, 'No partners yet');

  await page.goto(at('/partners'));
  await press(page, 'Add partner');
  await page.fill('dialog input[name=name]', 'Fox Partner');
  await page.fill('dialog input[name=email]', 'fox@partner.test');
  await press(page, 'Add partner', 'dialog');
  await page.waitForURL('**/dashboard/partners/*');
  await waitForText(page, 'Referral link');
  expect(await page.textContent('.referral-link')).toBe(`${server.url}/demo/?red=fox-partner`);

  // A conversion, as the snippet would send it, then the overview after one load.
  const api = apiWith(server.url, server.firstProgram!.tokens.secret);
  await fetch(`${server.url}/v1/tracking/conversion`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.firstProgram!.tokens.publishable}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'fox-buyer@customer.test', gr_id: 'ff', pk: 'fox-partner' }),
  });
  expect((await api('GET', '/v1/referrals')).data).toHaveLength(1);
  await page.goto(at('/'));
  await waitForText(page, 'Top partners');
  await waitForText(page, 'Fox Partner');

  await press(page, 'Sign out');
  await page.waitForURL('**/dashboard/sign-in');
  await page.fill('input[name=email]', 'owner@company.test');
  await page.fill('input[name=password]', 'not the password');
  await page.click('button[type=submit]');
  await waitForText(page, 'The e-mail address or the password is wrong');
  await page.fill('input[name=password]', 'a long owner password');
  await page.click('button[type=submit]');
  await page.waitForURL('**/dashboard/');
  await waitForText(page, 'Top partners');
  expect(problems.filter((p) => !/401|Failed to load resource|XHR|fetch/i.test(p))).toEqual([]);
});

it('in Firefox: a partner applies on the public page, sees the wait, then the link once accepted, and their masked referral', async () => {
  const api = apiWith(server.url, server.firstProgram!.tokens.secret);
  await api('PATCH', '/v1/program', { slug: 'fox', page_enabled: true });
  const partner = await (await browser.newContext()).newPage();
  const partnerProblems = consoleProblems(partner);
  await partner.goto(`${server.url}/p/fox/`);
  await waitForText(partner, 'What you earn');
  await partner.fill('input[name=name]', 'Fennec');
  await partner.fill('input[name=email]', 'fennec@partners.test');
  await partner.fill('input[name=password]', 'a long partner password');
  await press(partner, 'Apply');
  await partner.waitForURL('**/portal/');
  await waitForText(partner, 'It is waiting for');
  const [pending] = (await api('GET', '/v1/partnerships?state_eq=pending')).data;
  await api('PATCH', `/v1/partnerships/${pending.id}`, { state: 'accepted' });
  await fetch(`${server.url}/v1/tracking/conversion`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.firstProgram!.tokens.publishable}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'kit@den.test', gr_id: 'fennec-visit', pk: pending.attributes.key }),
  });
  await partner.goto(`${server.url}/portal/`);
  await waitForText(partner, 'Your link');
  expect(await partner.textContent('.referral-link')).toBe(`${server.url}/demo/?red=${pending.attributes.key}`);
  await partner.goto(`${server.url}/portal/referrals`);
  await waitForText(partner, 'k•••@d•••.test');
  expect(partnerProblems).toEqual([]);
});
