// The partner's whole way in Chromium, as people do it: a partner applies on the
// program's public page; the owner accepts in the dashboard; the partner signs in, copies
// the link; a visitor follows it and signs up in the demo shop; Stripe sends the payment
// (a signed fixture event); the partner sees the click, the referral with a masked
// e-mail (in the CSV download too), the pending commission and the next payout, then the
// payout paid. The portal from the keyboard alone; an application the owner declines in
// the dashboard, seen by its partner on signing in. A forgotten password is reset through
// a real SMTP server. Every portal page clean under axe-core and at 360 px.

import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoice, newSecret, postEvent, stripeEvent } from '../collector/stripe-fixtures.js';
import { portalLinkIn, startSmtp, type Inbox } from '../collector/smtp.js';
import { apiWith, axeFindings, bodyText, overflowsSideways, press, waitForText, type Api } from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

const OWNER = { email: 'owner@company.test', password: 'a long owner password' };
const PARTNER = { name: 'Pat Partner', email: 'pat@partners.test', password: 'a long partner password' };
/** A second applicant, whom the owner declines. */
const DECLINED = { name: 'Dee Declined', email: 'dee@partners.test', password: 'a long password of dee' };

let browser: Browser;
let inbox: Inbox;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let api: Api;
let url: string;
let partnerContext: BrowserContext;
let portal: Page;
let problems: string[];
let signing: string;
let webhook: string;

beforeAll(async () => {
  browser = await launchChromium();
  inbox = await startSmtp();
  collector = await startDemoCollector({ smtpUrl: inbox.url });
  url = collector.server.url;
  api = apiWith(url, collector.server.firstProgram!.tokens.secret);
  await api('PATCH', '/v1/program', { slug: 'acme', description: 'Tell your readers about Acme.', page_enabled: true, hold_days: 0 });
  signing = newSecret();
  webhook = new URL((await api('POST', '/v1/integrations/stripe/secrets', { secret: signing })).meta.endpoint_url).pathname;
  partnerContext = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  portal = await partnerContext.newPage();
  problems = consoleProblems(portal);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
  await inbox?.close();
});

/** The text of the element that has the focus. */
const focused = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText.trim());

/** Presses Tab (or Shift+Tab) until the focus is on the control whose text is `label`, as a keyboard user does. */
async function tabTo(page: Page, label: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press(key);
    if ((await focused(page)) === label) return;
  }
  throw new Error(`${key} never reached "${label}"`);
}

describe('the partner portal in Chromium', () => {
  it('a partner applies on the public page and lands in the portal, waiting', async () => {
    await portal.goto(`${url}/p/acme/`);
    await waitForText(portal, 'Partner with');
    await waitForText(portal, '20% of every payment');
    expect(await axeFindings(portal)).toEqual([]);
    await portal.fill('input[name=name]', PARTNER.name);
    await portal.fill('input[name=email]', PARTNER.email);
    await portal.fill('input[name=password]', PARTNER.password);
    await portal.fill('input[name=paypal_email]', 'pay@pat.test');
    await portal.fill('textarea[name=note]', 'I write about tools.');
    await press(portal, 'Apply');
    await portal.waitForURL('**/portal/');
    await waitForText(portal, 'It is waiting for');
    expect(await portal.$('.referral-link')).toBeNull();
  });

  it('the owner accepts the application in the dashboard', async () => {
    const owner = await (await browser.newContext()).newPage();
    await owner.goto(collector.server.firstSignInLink!);
    await owner.fill('input[name=email]', OWNER.email);
    await owner.fill('input[name=password]', OWNER.password);
    await owner.click('button[type=submit]');
    await owner.waitForURL('**/dashboard/');
    const [partner] = (await api('GET', '/v1/partners')).data;
    await owner.goto(`${url}/dashboard/partners/${partner.id}`);
    await waitForText(owner, PARTNER.name);
    await waitForText(owner, 'I write about tools.');
    await press(owner, 'Accept');
    await press(owner, 'Accept', 'dialog');
    await waitForText(owner, 'accepted');
    await owner.close();
  });

  it('the partner sees the link, copies it, and a visitor follows it and signs up in the demo shop', async () => {
    await portal.reload();
    await waitForText(portal, 'Your link');
    await waitForText(portal, 'No clicks yet');
    expect(await axeFindings(portal)).toEqual([]);
    await press(portal, 'Copy link');
    const link = await portal.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(`${url}/demo/?red=pat-partner`);

    const shop = await (await browser.newContext()).newPage();
    await shop.goto(link);
    await expect.poll(() => shop.textContent('#referral')).toContain('partner pat-partner');
    await shop.click('text=Sign up');
    await shop.fill('input[name=email]', 'jordan.smith@customer.test');
    await shop.click('button');
    await expect.poll(() => shop.textContent('#result')).toContain('Conversion recorded');
    await shop.close();
  });

  it('a payment arrives from Stripe; the partner sees the click, the masked referral and the pending commission', async () => {
    const now = Math.floor(Date.now() / 1000);
    const event = stripeEvent(
      'invoice.paid',
      invoice({ customer: 'cus_portalJordan', amountPaid: 4_900, email: 'jordan.smith@customer.test' }),
      { created: now },
    );
    const posted = await postEvent(url + webhook, event, signing, { timestamp: now });
    expect(posted.body.data.attributes.outcome).toBe('credited');

    await portal.goto(`${url}/portal/`);
    await waitForText(portal, 'Earnings per click');
    const figures = await portal.evaluate(() =>
      Object.fromEntries(
        [...document.querySelectorAll('.figure')].map((f) => [f.querySelector('dt')!.textContent, f.querySelector('.value')!.textContent]),
      ),
    );
    expect(figures).toMatchObject({
      Clicks: '1',
      Referrals: '1',
      'Paying customers': '1',
      'Referrals per click': '1',
      'Pending (USD)': '$9.80',
      'Next payout (USD)': '$9.80',
    });
    expect(await portal.textContent('.next-payout .hint')).toBe('Paid to your PayPal address with the next payout.');

    await portal.goto(`${url}/portal/referrals`);
    await waitForText(portal, 'j•••@c•••.test');
    expect(await bodyText(portal)).not.toContain('jordan');
    expect(await axeFindings(portal)).toEqual([]);

    await portal.goto(`${url}/portal/earnings`);
    await waitForText(portal, '$9.80');
    await waitForText(portal, 'pending');
    await waitForText(portal, 'No payouts yet');
    expect(await axeFindings(portal)).toEqual([]);
  });

  it("the referrals table's CSV download holds masked addresses only", async () => {
    await portal.goto(`${url}/portal/referrals`);
    await waitForText(portal, 'j•••@c•••.test');
    const [download] = await Promise.all([portal.waitForEvent('download'), press(portal, 'Download CSV')]);
    expect(download.suggestedFilename()).toBe('referrals.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    const [header, ...rows] = csv.trim().split('\r\n');
    expect(header).toBe('Date,Customer,State');
    expect(rows.map((r) => r.split(',')[1])).toEqual(['j•••@c•••.test']);
    expect(csv).not.toContain('jordan');
    expect(csv).not.toContain('customer.test');
  });

  it('after the payout is marked paid, the partner sees it paid', async () => {
    const [batch] = (await api('POST', '/v1/payout_batches', {})).data;
    await api('POST', `/v1/payout_batches/${batch.id}/paid`);
    await portal.goto(`${url}/portal/earnings`);
    await waitForText(portal, /paid \w/);
    const table = (caption: string) =>
      portal.evaluate((c) => [...document.querySelectorAll('table')].find((t) => t.caption?.textContent === c)?.innerText ?? '', caption);
    // Each panel loads on its own: the commissions' "paid" may show before the payouts' table.
    await expect.poll(() => table('Your payouts')).toContain('$9.80');
    expect(await table('Your payouts')).toContain('paid');
    // Its self-billing invoice, whose link downloads the PDF with the partner's session.
    await waitForText(portal, 'Download PDF');
    expect(await table('Your invoices')).toMatch(/INV-\d{4}-000001[\s\S]*\$9\.80/);
    const [download] = await Promise.all([portal.waitForEvent('download'), press(portal, 'Download PDF')]);
    expect(download.suggestedFilename()).toMatch(/^INV-\d{4}-000001\.pdf$/);
    expect(
      readFileSync((await download.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('settings: the name changes (the PayPal address is a payout method, not here); every page is readable at 360 px', async () => {
    await portal.goto(`${url}/portal/settings`);
    expect(await portal.locator('input[name=paypal_email]').count()).toBe(0);
    await portal.fill('input[name=name]', 'Pat Renamed');
    await press(portal, 'Save');
    await waitForText(portal, 'Saved.');
    expect((await api('GET', '/v1/partners')).data[0].attributes.name).toBe('Pat Renamed');
    await portal.fill('input[name=billing_vat_id]', 'DE999999999');
    await press(portal, 'Save', 'form:has(input[name=billing_vat_id])');
    await waitForText(portal, 'Your next invoices print these details.');
    // That sentence stands before the save too: the saved value is what is waited for.
    await expect.poll(async () => (await api('GET', '/v1/partners')).data[0].attributes.billing_vat_id).toBe('DE999999999');
    expect(await axeFindings(portal)).toEqual([]);
    await portal.setViewportSize({ width: 360, height: 740 });
    try {
      for (const path of ['/portal/', '/portal/referrals', '/portal/earnings', '/portal/settings', '/p/acme/']) {
        await portal.goto(url + path);
        await waitForText(portal, /Your link|Referrals|Commissions|Settings|Partner with/);
        expect(await overflowsSideways(portal), path).toBe(false);
      }
    } finally {
      await portal.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('languages: German chosen in settings, a French browser with no choice, else the program default (docs/languages.md)', async () => {
    // Chosen: the language form saves it on the account, and the portal speaks it at once, formats included.
    await portal.goto(`${url}/portal/settings`);
    await portal.selectOption('select[name=locale]', 'de');
    await press(portal, 'Save', 'form:has(select[name=locale])');
    await waitForText(portal, 'Gespeichert. Das Portal spricht ab jetzt diese Sprache.');
    expect(await portal.getAttribute('html', 'lang')).toBe('de');
    expect((await api('GET', '/v1/partners')).data[0].attributes.locale).toBe('de');
    await portal.goto(`${url}/portal/earnings`);
    // The navigation names the page at once; its figures come with the page's chunk and data.
    // Each panel loads on its own: all are waited for. 'CSV herunterladen' is a shared component's words (common/locales).
    await waitForText(portal, /9,80\s\$/, /ausgezahlt am \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/, 'CSV herunterladen');
    expect(await axeFindings(portal)).toEqual([]);
    await portal.goto(`${url}/portal/settings`);
    await portal.selectOption('select[name=locale]', '');
    await press(portal, 'Speichern', 'form:has(select[name=locale])');
    await waitForText(portal, 'Saved. The portal speaks this language from now on.');
    expect(await portal.getAttribute('html', 'lang')).toBe('en');

    /** A browser in `locale`, signed in as the partner (who has chosen nothing now). */
    const browserIn = async (locale: string) => {
      const page = await (await browser.newContext({ locale })).newPage();
      await page.goto(`${url}/portal/sign-in`);
      await page.fill('input[name=email]', PARTNER.email);
      await page.fill('input[name=password]', PARTNER.password);
      await page.press('input[name=password]', 'Enter');
      await page.waitForURL('**/portal/');
      return page;
    };
    const french = await browserIn('fr-FR');
    await waitForText(french, 'Gains par clic');
    expect(await french.getAttribute('html', 'lang')).toBe('fr');
    expect(await bodyText(french)).toMatch(/Versé \(USD\)\s+9,80\s\$US/);
    await french.goto(`${url}/p/acme/`);
    await waitForText(french, /20\s% de chaque paiement/);
    await french.context().close();

    // A browser asking for none of ours: the program's default (the owner's select in the dashboard), on its page and in the portal.
    const owner = await (await browser.newContext()).newPage();
    await owner.goto(`${url}/dashboard/sign-in`);
    await owner.fill('input[name=email]', OWNER.email);
    await owner.fill('input[name=password]', OWNER.password);
    await owner.click('button[type=submit]');
    await owner.waitForURL('**/dashboard/');
    await owner.goto(`${url}/dashboard/settings/public-page`);
    await owner.selectOption('#public-page select[name=locale]', 'es');
    await press(owner, 'Save', '#public-page');
    await waitForText(owner, 'Saved.');
    await owner.context().close();
    expect((await api('GET', '/v1/program')).data.attributes.locale).toBe('es');
    try {
      const japanese = await browserIn('ja-JP');
      await waitForText(japanese, 'Ganancias por clic');
      expect(await japanese.getAttribute('html', 'lang')).toBe('es');
      await japanese.goto(`${url}/p/acme/`);
      await waitForText(japanese, 'Hazte socio de');
      await japanese.context().close();
    } finally {
      await api('PATCH', '/v1/program', { locale: 'en' });
    }
  });

  it('works from the keyboard alone: signing in, the skip link, every page of the navigation, copying the link', async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    try {
      await page.goto(`${url}/portal/sign-in`);
      await waitForText(page, 'Partner sign-in');
      // The address field has the focus; Tab, the password, Enter.
      await page.keyboard.type(PARTNER.email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(PARTNER.password);
      await page.keyboard.press('Enter');
      await page.waitForURL('**/portal/');
      await waitForText(page, 'Your link');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('Skip to content');
      for (const [label, path, heading] of [
        ['Referrals', '/portal/referrals', 'j•••@c•••.test'],
        ['Commissions and payouts', '/portal/earnings', 'Payouts'],
        ['Settings', '/portal/settings', 'Billing details'],
      ] as const) {
        await tabTo(page, label);
        await page.keyboard.press('Enter');
        await expect.poll(() => new URL(page.url()).pathname).toBe(path);
        await waitForText(page, heading);
      }
      await tabTo(page, 'Home', 'Shift+Tab');
      await page.keyboard.press('Enter');
      await expect.poll(() => new URL(page.url()).pathname).toBe('/portal/');
      await tabTo(page, 'Copy link');
      // Where the focus is shows.
      expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe('none');
      await page.keyboard.press('Enter');
      await waitForText(page, 'Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${url}/demo/?red=pat-partner`);
    } finally {
      await context.close();
    }
  });

  it('signed out, a portal page sends the partner to sign in once, with next that page, and one press lands there', async () => {
    const signIn = async (page: Page) => {
      await page.fill('input[name=email]', PARTNER.email);
      await page.fill('input[name=password]', PARTNER.password);
      await press(page, 'Sign in');
    };
    for (const [opened, lands, text] of [
      ['/portal/', '/portal/', 'Your link'],
      ['/portal/earnings', '/portal/earnings', 'Payouts'],
      // A link from before this was fixed, whose next is the sign-in page itself.
      ['/portal/sign-in?next=%2Fportal%2Fsign-in%3Fnext%3D%252Fportal%252F', '/portal/', 'Your link'],
    ] as const) {
      const context = await browser.newContext();
      // Every change the app makes to the address, to count the redirects.
      await context.addInitScript(() => {
        const moves: string[] = ((window as unknown as { moves: string[] }).moves = []);
        for (const kind of ['pushState', 'replaceState'] as const) {
          const original = history[kind].bind(history);
          history[kind] = (data: unknown, unused: string, to?: string | URL | null) => {
            moves.push(`${kind} ${String(to)}`);
            original(data, unused, to);
          };
        }
      });
      try {
        const page = await context.newPage();
        await page.goto(url + opened);
        await page.waitForURL('**/portal/sign-in**');
        await waitForText(page, 'Partner sign-in');
        await page.waitForTimeout(300); // a second, late redirect would change the address by now
        const at = new URL(page.url());
        expect(at.pathname, opened).toBe('/portal/sign-in');
        if (!opened.startsWith('/portal/sign-in')) {
          expect(at.searchParams.get('next'), opened).toBe(opened);
          // One redirect, replacing the page that sent them away: Back does not bounce through it.
          expect(await page.evaluate(() => (window as unknown as { moves: string[] }).moves), opened).toEqual([
            `replaceState /portal/sign-in?next=${encodeURIComponent(opened)}`,
          ]);
        }
        await signIn(page);
        await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toBe(lands);
        await waitForText(page, text);
      } finally {
        await context.close();
      }
    }
  });

  it('the pages outside the portal are clean under axe-core: sign-in, a new password, the welcome page of a one-time link', async () => {
    const page = await (await browser.newContext()).newPage();
    try {
      for (const [path, text] of [
        ['/portal/sign-in', 'Partner sign-in'],
        ['/portal/reset', 'A new password'],
        ['/portal/welcome#not-a-real-token', 'Choose your password'],
      ]) {
        await page.goto(url + path!);
        await waitForText(page, text!);
        expect(await axeFindings(page), path).toEqual([]);
      }
    } finally {
      await page.context().close();
    }
  });

  it('another partner applies, and the owner declines the application in the dashboard', async () => {
    const applying = await browser.newContext();
    const form = await applying.newPage();
    await form.goto(`${url}/p/acme/`);
    await form.fill('input[name=name]', DECLINED.name);
    await form.fill('input[name=email]', DECLINED.email);
    await form.fill('input[name=password]', DECLINED.password);
    await press(form, 'Apply');
    await form.waitForURL('**/portal/');
    await applying.close();

    const ownerContext = await browser.newContext();
    const owner = await ownerContext.newPage();
    try {
      await owner.goto(`${url}/dashboard/sign-in`);
      await owner.fill('input[name=email]', OWNER.email);
      await owner.fill('input[name=password]', OWNER.password);
      await owner.click('button[type=submit]');
      await owner.waitForURL('**/dashboard/');
      const [dee] = (await api('GET', `/v1/partners?email_eq=${DECLINED.email}`)).data;
      await owner.goto(`${url}/dashboard/partners/${dee.id}`);
      await waitForText(owner, DECLINED.name);
      await press(owner, 'Decline');
      await press(owner, 'Decline', 'dialog');
      await expect
        .poll(async () => (await api('GET', `/v1/partnerships?partner_id_eq=${dee.id}`)).data[0].attributes.state)
        .toBe('declined');
    } finally {
      await ownerContext.close();
    }
  });

  it('the declined partner sees the outcome on signing in, and no link', async () => {
    const signing = await browser.newContext();
    const page = await signing.newPage();
    try {
      await page.goto(`${url}/portal/sign-in`);
      await page.fill('input[name=email]', DECLINED.email);
      await page.fill('input[name=password]', DECLINED.password);
      await press(page, 'Sign in');
      await page.waitForURL('**/portal/');
      await waitForText(page, 'My program declined it');
      expect(await page.$('.referral-link')).toBeNull();
      expect(await bodyText(page)).not.toMatch(/Copy link|\?red=/);
      expect(await axeFindings(page)).toEqual([]);
    } finally {
      await signing.close();
    }
  });

  it('a forgotten password is reset with the link from the e-mail, through a real SMTP server', async () => {
    await portal.goto(`${url}/portal/`);
    // Signed out only once the page has loaded: a request still on its way would find no session.
    await portal.waitForLoadState('networkidle');
    await press(portal, 'Sign out');
    await portal.waitForURL('**/portal/sign-in');
    await press(portal, 'Forgot your password?');
    await portal.fill('input[name=email]', PARTNER.email);
    await press(portal, 'Send me a link');
    await waitForText(portal, 'a link to set a new password is on its way');
    // The partner has had the program's notifications by now: the one with a sign-in link.
    const link = portalLinkIn((await inbox.waitFor(PARTNER.email, (raw) => portalLinkIn(raw) !== undefined)).raw)!;
    await portal.goto(link.replace(/^https?:\/\/[^/]+/, url));
    await portal.fill('input[name=password]', 'my brand new password');
    await press(portal, 'Set password and sign in');
    await portal.waitForURL('**/portal/');
    await waitForText(portal, 'Your link');
    expect(problems).toEqual([]);
  });
});
