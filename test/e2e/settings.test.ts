// The dashboard's Settings in Chromium, as a new owner follows the README: the snippet and
// the call Settings → Snippet shows, pasted as they are into a site's page, record a
// conversion; every section has its own address, reached by URL and by keyboard from the
// menu, clean under axe-core and readable at 360 px, and every "Settings → …" of README.md
// and docs/ names one; Settings → Integrations warns that a local PUBLIC_URL cannot be
// reached, says how to test anyway, and shows a test event land, refused or verified.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSession, newSecret, postEvent, stripeEvent, stripeId } from '../collector/stripe-fixtures.js';
import { acceptedPartner, axeFindings, dashboardStack, overflowsSideways, press, signInFirst, waitForText, type Api } from './dashboard.js';
import { consoleProblems } from './driver.js';
import { Site } from './stack.js';

const ROOT = join(import.meta.dirname, '..', '..');

let stack: Awaited<ReturnType<typeof dashboardStack>>;
let browser: Browser;
let site: Site;
let url: string;
let api: Api;
let page: Page;
let problems: string[];

beforeAll(async () => {
  stack = await dashboardStack();
  ({ browser, url, api, page, problems } = stack);
  site = new Site();
  await site.start();
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

const at = (path: string) => `${url}/dashboard${path}`;

describe('Settings → Snippet in Chromium', () => {
  it('the snippet and the call it shows, pasted as shown into a page of the site, record the conversion', async () => {
    await signInFirst(page, stack.collector.server.firstSignInLink!);
    await api('PATCH', '/v1/program', { allowed_origins: [site.origin()] });
    await page.goto(at('/settings/snippet'));
    await press(page, 'Make a publishable token for it');
    await press(page, 'Make token', 'dialog');
    await waitForText(page, 'Copy snippet');
    // What a person copies: the snippet's block, and the call the panel tells them to make.
    const [snippet, call] = await page.evaluate(() => {
      const codes = [...document.querySelectorAll<HTMLElement>('#snippet code')].map((c) => c.innerText.trim());
      return [codes.find((c) => c.startsWith('<script>')) ?? '', codes.find((c) => c.startsWith('gr(')) ?? ''];
    });
    expect(snippet).toContain('data-key="tly_pub_');
    site.set(
      '/',
      `<!doctype html><html lang="en"><head><title>Shop</title><link rel="icon" href="data:,">${snippet}</head><body><h1>Shop</h1></body></html>`,
    );
    site.set(
      '/signup',
      `<!doctype html><html lang="en"><head><title>Sign up</title><link rel="icon" href="data:,">${snippet}</head><body><h1>Sign up</h1></body></html>`,
    );

    const maya = await acceptedPartner(api, 'Maya');
    const visitor = await browser.newContext();
    const shop = await visitor.newPage();
    const shopProblems = consoleProblems(shop);
    await shop.goto(`${site.origin()}/?red=${maya.key}`);
    await expect.poll(() => shop.evaluate(() => document.cookie)).toContain('_gr_id');
    await shop.goto(`${site.origin()}/signup`);
    // The page's own signup code, with the address in `email` as the panel says.
    await shop.evaluate(([call, email]) => new Function('email', call)(email), [call, 'new.customer@shop.test'] as const);
    await expect
      .poll(async () => (await api('GET', '/v1/referrals?email_eq=new.customer%40shop.test')).data.length, { timeout: 10_000 })
      .toBe(1);
    const [referral] = (await api('GET', '/v1/referrals?email_eq=new.customer%40shop.test')).data;
    expect(referral.relationships.partnership.data.id).toBe(maya.partnershipId);
    expect(shopProblems).toEqual([]);
    expect(problems).toEqual([]);
    await visitor.close();
  });
});

/** The menu's sections as the page lists them: [id, title], the current one marked. */
const menu = () =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLAnchorElement>('nav.sections a')].map((a) => ({
      id: a.pathname.split('/').pop() ?? '',
      title: a.innerText.trim(),
      current: a.getAttribute('aria-current') === 'page',
    })),
  );
const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText.trim());

describe('Settings asks before it changes anything, in Chromium', () => {
  const tokens = async (kind: string) => (await api('GET', '/v1/tokens')).data.filter((t: any) => t.attributes.kind === kind).length;

  for (const [section, label, kind, shown] of [
    ['api-tokens', 'New secret token', 'secret', 'Your new secret token, shown only now'],
    ['snippet', 'Make a publishable token for it', 'publishable', 'Copy snippet'],
  ] as const) {
    it(`"${label}" asks first: cancelled, no token is made; confirmed, one is, shown once`, async () => {
      await page.goto(at(`/settings/${section}`));
      const before = await tokens(kind);
      await press(page, label);
      await page.waitForSelector('dialog[open]', { timeout: 5_000 });
      expect(await page.textContent('dialog h2')).toBe(`Make a ${kind} token?`);
      expect(await axeFindings(page)).toEqual([]);
      await press(page, 'Cancel', 'dialog');
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
      expect(await tokens(kind)).toBe(before);
      await press(page, label);
      await press(page, 'Make token', 'dialog');
      await waitForText(page, shown);
      expect(await tokens(kind)).toBe(before + 1);
    });
  }

  it('invites a viewer when the role is left as it is, again after the form empties', async () => {
    await page.goto(at('/settings/team'));
    for (const email of ['left-alone@company.test', 'next-one@company.test']) {
      await page.fill('form.inline input[name=email]', email);
      await press(page, 'Invite');
      await waitForText(page, `Send ${email} this invitation link`);
      const members = (await api('GET', '/v1/members')).data;
      expect(members.find((m: any) => m.attributes.email === email)?.attributes.role).toBe('viewer');
    }
  });
});

describe('Settings, a section at a time, in Chromium', () => {
  it('has an address for each section, named as the docs name them; the old one-page addresses lead there', async () => {
    await page.goto(at('/settings'));
    await page.waitForURL('**/dashboard/settings/program');
    const sections = await menu();
    expect(sections.map((x) => x.title)).toEqual([
      'Program',
      'Snippet',
      'Public page',
      'Promotion codes',
      'Two-tier referrals',
      'Links',
      'Review',
      'Integrations',
      'Webhooks',
      'API tokens',
      'Team',
      'Security',
    ]);
    for (const { id, title } of sections) {
      await page.goto(at(`/settings/${id}`));
      await expect.poll(async () => (await menu()).filter((x) => x.current).map((x) => x.title)).toEqual([title]);
      await expect.poll(() => page.locator('main h2').first().innerText()).toBe(title);
    }
    // A link from before the sections (the overview's "#snippet", the review page's "#review").
    await page.goto(at('/settings#review'));
    await page.waitForURL('**/dashboard/settings/review');
    await page.goto(at('/settings/nothing-here'));
    await waitForText(page, 'There is no section “nothing-here” in the settings');
  });

  it('every "Settings → …" of README.md and docs/ names a section of the menu', async () => {
    await page.goto(at('/settings/program'));
    // The menu is drawn after the session is read: read it once it is there, not before.
    await page.waitForSelector('nav.sections a[aria-current=page]');
    const titles = (await menu()).map((x) => x.title);
    const files = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const named: string[] = [];
    const unknown: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/\s+/g, ' ');
      for (const m of text.matchAll(/Settings → ([^*)]{1,40})/g)) {
        // Lemon Squeezy's own settings ("Lemon Squeezy's Settings → Webhooks"), not Tally's.
        if (/Squeezy[^.]{0,12}$/.test(text.slice(Math.max(0, m.index - 20), m.index))) continue;
        const title = titles.find((t) => m[1]!.startsWith(t));
        if (title) named.push(title);
        else unknown.push(`${file}: Settings → ${m[1]}`);
      }
    }
    expect(unknown).toEqual([]);
    // The README names the sections its walk goes through.
    expect(new Set(named)).toEqual(new Set(titles));
  });

  it('goes from section to section by keyboard alone: Tab along the menu, Enter opens, focus stays on the menu', async () => {
    await page.goto(at('/settings/program'));
    const sections = await menu();
    await page.focus('nav.sections a[aria-current=page]');
    expect(await focused()).toBe('Program');
    for (const { id, title } of sections.slice(1)) {
      await page.keyboard.press('Tab');
      expect(await focused()).toBe(title);
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/dashboard/settings/${id}`);
      await expect.poll(async () => (await menu()).find((x) => x.current)?.title).toBe(title);
      await expect.poll(focused).toBe(title);
    }
  });

  it('each section is clean under axe-core and readable at 360 px', async () => {
    await page.goto(at('/settings/program'));
    await page.waitForSelector('nav.sections a');
    const sections = await menu();
    expect(sections).toHaveLength(12);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      for (const { id, title } of sections) {
        await page.goto(at(`/settings/${id}`));
        await expect.poll(() => page.locator('main h2').first().innerText()).toBe(title);
        await page.waitForFunction(() => !document.querySelector('[aria-busy=true], .loading'));
        expect(await axeFindings(page), `${id} at ${width} px`).toEqual([]);
        expect(await overflowsSideways(page), `${id} at ${width} px`).toBe(false);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(problems).toEqual([]);
  });
});

describe('Settings → Integrations on a collector at a local address, in Chromium', () => {
  it('warns that Stripe cannot reach the URL, says how to test with the Stripe CLI, and shows a test event land, refused then verified', async () => {
    await page.goto(at('/settings/integrations'));
    const card = page.locator('#stripe');
    const stripe = (await api('GET', '/v1/integrations/stripe')).data.attributes;
    await expect.poll(() => card.innerText()).toContain('This URL is on this machine');
    expect(await card.innerText()).toContain(`stripe listen --forward-to ${stripe.endpoint_url}`);
    expect(await card.innerText()).toContain('stripe trigger checkout.session.completed');
    expect(await card.innerText()).toContain('No event from Stripe has arrived yet.');
    for (const platform of ['paddle', 'lemonsqueezy', 'chargebee', 'recurly', 'shopify']) {
      await expect.poll(() => page.locator(`#${platform}`).innerText()).toContain('open a tunnel to this collector');
    }

    // What `stripe listen` prints is pasted in the card; an event signed otherwise is refused.
    const secret = newSecret();
    await api('POST', '/v1/integrations/stripe/secrets', { secret, label: 'cli' });
    const hook = url + new URL(stripe.endpoint_url).pathname;
    const now = Math.floor(Date.now() / 1000);
    const event = stripeEvent('checkout.session.completed', checkoutSession({ customer: stripeId('cus') }), { created: now });
    expect((await postEvent(hook, event, newSecret(), { timestamp: now })).status).toBe(400);
    await press(page, 'Check again', '#stripe');
    await expect.poll(() => card.innerText()).toMatch(/Last event refused, received .*: the Stripe-Signature header matches no/);
    expect((await postEvent(hook, event, secret, { timestamp: now })).status).toBe(200);
    await press(page, 'Check again', '#stripe');
    await expect.poll(() => card.innerText()).toMatch(/Last event verified: checkout\.session\.completed, received /);
    expect(await axeFindings(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
