// A partner makes a deep link with a key of their own in the portal's Links page, copies it
// and downloads its QR code; the owner approves a waiting key on the partner's page and sets
// the program's link rules. Clean under axe-core and readable at 360 px (docs/links.md).

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptedPartner,
  apiWith,
  axeFindings,
  overflowsSideways,
  press,
  redeemLink,
  signInFirst,
  waitForText,
  type Api,
} from './dashboard.js';
import { launchChromium, startDemoCollector } from './stack.js';

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let url: string;
let api: Api;
let origin: string;
let portal: Page;
let partnershipId: string;
let partnerId: string;

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  url = collector.server.url;
  api = apiWith(url, collector.server.firstProgram!.tokens.secret);
  origin = (await api('GET', '/v1/program')).data.attributes.allowed_origins[0];
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

/** What the page's own session fetches at `href`: its status, type and first bytes. */
const fetched = (href: string) =>
  portal.evaluate(async (h) => {
    const res = await fetch(h);
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { status: res.status, type: res.headers.get('content-type'), head: Array.from(bytes.slice(0, 8)) };
  }, href);

describe("the portal's Links page", () => {
  it('a partner makes a deep link with their own key, and its QR code downloads as SVG and PNG', async () => {
    // Signed in here: the page's waits are expect.poll, which runs only inside a test.
    const ana = await acceptedPartner(api, 'Ana');
    partnershipId = ana.partnershipId;
    partnerId = ana.id;
    const link = (await api('POST', `/v1/partners/${ana.id}/invitation`)).meta.link as string;
    portal = await (await browser.newContext()).newPage();
    await redeemLink(portal, link);
    await portal.goto(`${url}/portal/`);
    await press(portal, 'Links');
    await waitForText(portal, 'Make a link');
    await portal.fill('input[name=destination]', `${origin}/pricing`);
    await portal.fill('input[name=key]', 'ana-pricing');
    await press(portal, 'Make link');
    await waitForText(portal, 'Copy link ana-pricing');
    const [made] = (await api('GET', `/v1/links?partnership_id_eq=${partnershipId}`)).data;
    expect(made.attributes).toMatchObject({ key: 'ana-pricing', status: 'active', destination: `${origin}/pricing` });
    await waitForText(portal, made.attributes.url);
    const svg = await portal.getAttribute('a[download="ana-pricing.svg"]', 'href');
    const png = await portal.getAttribute('a[download="ana-pricing.png"]', 'href');
    const image = await fetched(svg!);
    expect([image.status, image.type?.split(';')[0], String.fromCharCode(...image.head.slice(0, 4))]).toEqual([
      200,
      'image/svg+xml',
      '<svg',
    ]);
    expect((await fetched(png!)).head).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(await axeFindings(portal)).toEqual([]);
    await portal.setViewportSize({ width: 360, height: 740 });
    try {
      await portal.reload();
      await waitForText(portal, 'Copy link ana-pricing');
      expect(await overflowsSideways(portal)).toBe(false);
    } finally {
      await portal.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('a key out of the rules is told on the page; one waiting for approval says so', async () => {
    await api('PATCH', '/v1/link_settings', { approval_required: true });
    await portal.goto(`${url}/portal/links`);
    await waitForText(portal, 'A key you choose waits for the company’s approval.');
    await portal.fill('input[name=destination]', `${origin}/`);
    await portal.fill('input[name=key]', 'admin');
    await press(portal, 'Make link');
    await waitForText(portal, 'This key is reserved: choose another');
    await portal.fill('input[name=key]', 'ana-video');
    await press(portal, 'Make link');
    await waitForText(portal, 'Waiting for approval');
    expect(await axeFindings(portal)).toEqual([]);
  });
});

describe("the owner's side", () => {
  it("approves the waiting key on the partner's page, and sets the link rules in Settings → Links", async () => {
    const page = await (await browser.newContext()).newPage();
    await signInFirst(page, collector.server.firstSignInLink!);
    await page.goto(`${url}/dashboard/partners/${partnerId}`);
    await waitForText(page, 'Waiting for approval');
    expect(await axeFindings(page)).toEqual([]);
    await press(page, 'Approve ana-video');
    await waitForText(page, 'Disable ana-video');
    const links = (await api('GET', '/v1/links?status_eq=active')).data.map((l: { attributes: { key: string } }) => l.attributes.key);
    expect(links.sort()).toEqual(['ana-pricing', 'ana-video']);
    await page.goto(`${url}/dashboard/settings/links`);
    await page.fill('input[name=utm_source]', 'partners');
    await page.fill('input[name=reserved_keys]', 'sale, promo');
    await press(page, 'Save link rules');
    await waitForText(page, 'Saved.');
    expect((await api('GET', '/v1/link_settings')).data.attributes).toMatchObject({
      utm: { utm_source: 'partners' },
      reserved_keys: ['sale', 'promo'],
      approval_required: true,
    });
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of [`/dashboard/partners/${partnerId}`, '/dashboard/settings/links']) {
      await page.goto(url + path);
      await waitForText(page, /Links/);
      expect(await overflowsSideways(page), path).toBe(false);
    }
  });
});
