// E-mail preferences in Chromium (docs/notifications.md). The owner's: reached from the
// dashboard's navigation, a kind turned off with the keyboard and saved, still off after a
// reload and in the API, the page clean under axe-core. The partner's panel on the portal's
// settings page, in German: the same, through /v1/portal/notifications. An e-mail's
// unsubscribe link followed by a person: its page's button turns the kind off (the page's
// policy lets its form post to this origin, and nowhere else).

import { OWNER_KINDS, PARTNER_KINDS } from '../../packages/collector/src/modules/notifications/kinds.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedPartner, apiWith, axeFindings, press, redeemLink, signInFirst, waitForText } from './dashboard.js';
import { portalLinkIn, startSmtp, type Inbox } from '../collector/smtp.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

let browser: Browser;
let inbox: Inbox;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let page: Page;
let problems: string[];

beforeAll(async () => {
  browser = await launchChromium();
  inbox = await startSmtp();
  collector = await startDemoCollector({ smtpUrl: inbox.url });
  page = await (await browser.newContext()).newPage();
  problems = consoleProblems(page);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
  await inbox?.close();
});

/** A link of a message to `to` (on this collector), once the message has arrived. */
async function linkIn(to: string, find: (raw: string) => string | undefined): Promise<string> {
  const link = find((await inbox.waitFor(to, (raw) => find(raw) !== undefined)).raw) ?? '';
  return link.replace(/^https?:\/\/[^/]+/, collector.server.url);
}
const unsubscribeLinkIn = (raw: string) => /^List-Unsubscribe: <([^>]+)>/m.exec(raw.replace(/\r\n[ \t]+/g, ' '))?.[1];

/** The partner signs in to the portal on a page of their own with the invitation e-mailed to them. */
async function invitedPortal(api: ReturnType<typeof apiWith>, partner: { id: string }, email: string): Promise<Page> {
  const portal = await (await browser.newContext()).newPage();
  await api('POST', `/v1/partners/${partner.id}/invitation`);
  await redeemLink(portal, await linkIn(email, portalLinkIn));
  return portal;
}

const weekly = 'input[type=checkbox][name=weekly_summary]';
/** The owner's preferences as the API answers them to this browser's session. */
const stored = () =>
  page.evaluate(async () => (await (await fetch('/v1/notifications/preferences')).json()).data.attributes as Record<string, boolean>);

describe("the owner's e-mail preferences in Chromium", () => {
  it('turns the weekly summary off with the keyboard; it stays off after a reload and in the API; clean under axe-core', async () => {
    await signInFirst(page, collector.server.firstSignInLink!);
    await press(page, 'Your e-mails');
    await page.waitForURL('**/dashboard/notifications');
    await waitForText(page, 'The weekly summary.');
    // Each kind is a labelled checkbox, on until turned off.
    expect(await page.getByRole('checkbox', { name: /The weekly summary/ }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox').count()).toBe(OWNER_KINDS.length);
    expect(await axeFindings(page)).toEqual([]);

    await page.focus(weekly);
    await page.keyboard.press('Space');
    await waitForText(page, 'Not saved yet.');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Save');
    await page.keyboard.press('Enter');
    await waitForText(page, 'Saved.');
    expect(await axeFindings(page)).toEqual([]);

    await page.reload();
    await waitForText(page, 'The weekly summary.');
    expect(await page.isChecked(weekly)).toBe(false);
    expect(await page.isChecked('input[name=new_application]')).toBe(true);
    expect(await stored()).toMatchObject({ weekly_summary: false, new_application: true });
    expect(problems).toEqual([]);
  });
});

describe("the partner's e-mail preferences (the portal's settings) in Chromium", () => {
  it('in German: first referral turned off and saved; off after a reload and in the API; clean under axe-core', async () => {
    const server = collector.server;
    const api = apiWith(server.url, server.firstProgram!.tokens.secret);
    const partner = await acceptedPartner(api, 'Greta');
    const portal = await invitedPortal(api, partner, 'greta@partners.test');
    const seen = consoleProblems(portal);
    // German, the partner's own choice: the panel speaks the portal's language.
    await portal.goto(`${server.url}/portal/`);
    const chosen = await portal.evaluate(
      async () =>
        (await fetch('/v1/portal/account', { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: '{"locale":"de"}' }))
          .status,
    );
    expect(chosen).toBe(200);
    const open = async () => {
      await portal.goto(`${server.url}/portal/settings`);
      await waitForText(portal, 'Eine E-Mail an mich, wenn');
    };
    await open();
    const first = portal.getByRole('checkbox', { name: /Ihre erste Empfehlung eingeht/ });
    expect(await first.isChecked()).toBe(true);
    expect(await portal.getByRole('checkbox').count()).toBe(PARTNER_KINDS.length);
    await portal.getByRole('checkbox', { name: /Ein Partner über Ihren Anwerbelink beitritt/ }).waitFor();
    expect(await portal.evaluate(() => document.documentElement.lang)).toBe('de');

    await first.focus();
    await portal.keyboard.press('Space');
    await waitForText(portal, 'Noch nicht gespeichert.');
    await press(portal, 'E-Mail-Auswahl speichern');
    await waitForText(portal, 'Gespeichert.');
    expect(await axeFindings(portal)).toEqual([]);

    await open();
    expect(await first.isChecked()).toBe(false);
    const stored = await portal.evaluate(async () => (await (await fetch('/v1/portal/notifications')).json()).data.attributes);
    expect(stored).toMatchObject({ first_referral: false, payout_sent: true });
    expect(seen).toEqual([]);
  });
});

describe("an e-mail's unsubscribe link in Chromium", () => {
  it('opens a page whose button turns the kind off; the portal shows it off; clean under axe-core', async () => {
    const server = collector.server;
    const api = apiWith(server.url, server.firstProgram!.tokens.secret);
    // Accepted: the partner is told of it, in a message with its unsubscribe link.
    const partner = (await api('POST', '/v1/partners', { name: 'Ulla', email: 'ulla@partners.test' })).data;
    const ship = await api('POST', '/v1/partnerships', { partner_id: partner.id, state: 'pending' });
    await api('PATCH', `/v1/partnerships/${ship.data.id}`, { state: 'accepted' });
    const link = await linkIn('ulla@partners.test', unsubscribeLinkIn);
    const person = await (await browser.newContext()).newPage();
    const seen = consoleProblems(person);
    await person.goto(link);
    await waitForText(person, 'Stop these e-mails?');
    expect(await axeFindings(person)).toEqual([]);
    await press(person, 'Unsubscribe');
    await waitForText(person, 'Unsubscribed');
    expect(await axeFindings(person)).toEqual([]);
    // The page's policy lets its form post here and nowhere else.
    const policy = (await fetch(link)).headers.get('content-security-policy') ?? '';
    expect(policy).toContain("form-action 'self'");
    expect(policy).toContain("default-src 'none'");
    expect(seen).toEqual([]);

    const portal = await invitedPortal(api, partner, 'ulla@partners.test');
    const stored = await portal.evaluate(async () => (await (await fetch('/v1/portal/notifications')).json()).data.attributes);
    expect(stored).toMatchObject({ application_approved: false, first_referral: true });
  });
});
