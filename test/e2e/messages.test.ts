// Messages in Chromium (docs/messages.md): the partner sees the team's message counted beside
// Messages in the portal, reads it (its address a link), answers with the keyboard; the
// owner sees the answer counted in the dashboard's menu, opens the thread from the partner's
// page and replies, and sends a broadcast. Each page clean under axe-core and readable at 360 px.

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedPartner, apiWith, axeFindings, overflowsSideways, press, redeemLink, signInFirst, waitForText } from './dashboard.js';
import { portalLinkIn, startSmtp, type Inbox } from '../collector/smtp.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

let browser: Browser;
let inbox: Inbox;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let api: ReturnType<typeof apiWith>;
let partner: { id: string; partnershipId: string };

beforeAll(async () => {
  browser = await launchChromium();
  inbox = await startSmtp();
  collector = await startDemoCollector({ smtpUrl: inbox.url });
  api = apiWith(collector.server.url, collector.server.firstProgram!.tokens.secret);
  partner = await acceptedPartner(api, 'Mira');
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
  await inbox?.close();
});

/** Readable at 360 px: nothing wider than the screen; back to a desktop's width after. */
async function narrow(page: Page) {
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await overflowsSideways(page)).toBe(false);
  expect(await axeFindings(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const thread = () => api('GET', `/v1/message_threads/${partner.partnershipId}/messages`);

describe('messages in the portal', () => {
  it("the partner sees the team's message counted, reads it and answers with the keyboard", async () => {
    await api('POST', `/v1/message_threads/${partner.partnershipId}/messages`, { body: 'Welcome! The kit is at https://example.com/kit.' });
    const portal = await (await browser.newContext()).newPage();
    const seen = consoleProblems(portal);
    await api('POST', `/v1/partners/${partner.id}/invitation`);
    const link = portalLinkIn((await inbox.waitFor('mira@partners.test', (raw) => portalLinkIn(raw) !== undefined)).raw) ?? '';
    await redeemLink(portal, link.replace(/^https?:\/\/[^/]+/, collector.server.url));
    // The unread message beside Messages in the menu.
    await expect.poll(() => portal.locator('nav a[href*="/portal/messages"]').innerText()).toMatch(/Messages\s*1/);
    await press(portal, (await portal.locator('nav a[href*="/portal/messages"]').innerText()).trim());
    await waitForText(portal, 'Welcome! The kit is at');
    expect(await portal.locator('.message a').getAttribute('href')).toBe('https://example.com/kit');
    // Read once shown: the count goes at the next page.
    await expect
      .poll(async () => (await api('GET', `/v1/message_threads/${partner.partnershipId}`)).data.attributes.other_read_at)
      .not.toBeNull();
    expect(await axeFindings(portal)).toEqual([]);

    await portal.focus('textarea[name=body]');
    await portal.keyboard.type('Thanks, <b>got it</b>');
    await portal.keyboard.press('Tab');
    expect(await portal.evaluate(() => document.activeElement?.textContent)).toBe('Send');
    await portal.keyboard.press('Enter');
    await waitForText(portal, 'Thanks, <b>got it</b>');
    expect(await portal.locator('.message b').count()).toBe(0);
    expect((await thread()).data[0].attributes).toMatchObject({ author: 'partner', body: 'Thanks, <b>got it</b>' });
    await narrow(portal);
    // Read: nothing is counted on the next page.
    await press(portal, (await portal.locator('nav a[href*="/portal/"]').first().innerText()).trim());
    await portal.waitForURL(/\/portal\/(\?.*)?$/);
    const unread = await portal.evaluate(
      async (id) => (await (await fetch(`/v1/portal/partnerships/${id}/message_thread`)).json()).data.attributes.unread,
      partner.partnershipId,
    );
    expect(unread).toBe(0);
    // The menu's count follows the read a moment later (it is asked for again).
    await expect.poll(() => portal.locator('nav .badge').count()).toBe(0);
    expect(seen).toEqual([]);
  });
});

describe('messages in the dashboard', () => {
  it("the owner sees the answer counted, opens the thread from the partner's page, replies and broadcasts", async () => {
    const page = await (await browser.newContext()).newPage();
    const seen = consoleProblems(page);
    await signInFirst(page, collector.server.firstSignInLink!);
    await expect.poll(() => page.locator('nav a[href$="/dashboard/messages"]').innerText()).toMatch(/Messages\s*1/);
    await page.goto(`${collector.server.url}/dashboard/partners/${partner.id}`);
    await press(page, 'Messages', 'main');
    await page.waitForURL(`**/dashboard/messages/${partner.partnershipId}`);
    await waitForText(page, 'Thanks, <b>got it</b>');
    expect(await axeFindings(page)).toEqual([]);
    await page.focus('textarea[name=body]');
    await page.keyboard.type('Glad to hear it.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await waitForText(page, 'Glad to hear it.');
    expect((await thread()).data[0].attributes).toMatchObject({ author: 'team', body: 'Glad to hear it.' });
    await narrow(page);

    // Read: the menu counts nothing on the list of threads.
    await press(page, 'Messages', 'main');
    await waitForText(page, 'Broadcast');
    expect((await api('GET', '/v1/messages/unread')).data.attributes.messages).toBe(0);
    await expect.poll(() => page.locator('nav .badge').count()).toBe(0);
    await page.fill('textarea[name=body-en]', 'New banners are up.');
    await page.fill('textarea[name=body-de]', 'Neue Banner sind online.');
    await press(page, 'Send broadcast');
    await waitForText(page, 'to 1: New banners are up.');
    expect((await thread()).data[0].attributes.body).toBe('New banners are up.');
    expect(await axeFindings(page)).toEqual([]);
    await narrow(page);
    expect(seen).toEqual([]);
  });
});
