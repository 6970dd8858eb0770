// Promotion codes in Chromium, as an owner and a partner use them (docs/codes.md): the
// partner's page saying what a code is for before there is one; discounts made in Settings
// (a percentage typed as 20 is 2000 basis points, an amount typed in major units kept in
// minor units); a code made for a partner on their page with a discount and a Stripe
// promotion code, one taken in another case refused, disabled and enabled again; the rules
// for codes set in Settings, and a code made on acceptance; the partner's portal showing
// the code with its copy button and the sentence to say, a code of their own refused by the
// prefix rule and one accepted, a disabled code said to be off, and the form taken away when
// the program makes its codes itself. The pages clean under axe-core and readable at 360 px.

import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiWith,
  axeFindings,
  bodyText,
  overflowsSideways,
  press,
  waitForText,
  type Api,
  redeemLink,
  acceptedPartner,
  signInFirst,
} from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

const EMPTY = "A code credits this partner's sales without a link: say it in a video or a podcast";

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let url: string;
let api: Api;
let context: BrowserContext;
let page: Page;
let problems: string[];
let maya: { id: string; partnershipId: string };
let portal: Page;
let portalProblems: string[];
let launchId: string;

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  url = collector.server.url;
  api = apiWith(url, collector.server.firstProgram!.tokens.secret);
  maya = await partner('Maya');
  context = await browser.newContext();
  page = await context.newPage();
  problems = consoleProblems(page);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

const at = (path: string) => `${url}/dashboard${path}`;

/** A partner with an accepted partnership, made as a company's server would. */
const partner = (name: string) => acceptedPartner(api, name);

/** The partnership's codes as the API has them. */
const codesOf = async (partnershipId: string) =>
  (await api('GET', `/v1/discount_codes?partnership_id_eq=${partnershipId}`)).data.map((c: { attributes: unknown }) => c.attributes);

/** The text of the row of the codes table that holds `code`. */
const rowOf = (p: Page, code: string) => p.locator('tr', { has: p.locator(`code:text-is("${code}")`) }).innerText();

describe('promotion codes in Chromium', () => {
  it("says on the partner's page what a code is for before there is one, clean under axe-core", async () => {
    await signInFirst(page, collector.server.firstSignInLink!);
    await page.goto(at(`/partners/${maya.id}`));
    await waitForText(page, 'No codes yet');
    await waitForText(page, EMPTY);
    await waitForText(page, 'No discounts yet: make them in Settings');
    expect(await axeFindings(page)).toEqual([]);
  });

  it('makes discounts in Settings: 20 typed as a percentage is 2000 basis points, 5 USD is 500 cents; a percentage past 100 is refused', async () => {
    await page.goto(at('/settings/promotion-codes'));
    await waitForText(page, 'No discounts yet');
    await press(page, 'New discount');
    await page.fill('dialog input[name=name]', 'Launch');
    await page.fill('dialog input[name=amount]', '120');
    await press(page, 'Make discount', 'dialog');
    await waitForText(page, 'Cannot read the percentage "120": write 0.01 to 100, such as 20.');
    await page.fill('dialog input[name=amount]', '20');
    expect(await axeFindings(page)).toEqual([]); // the dialog open
    await press(page, 'Make discount', 'dialog');
    await waitForText(page, '20 % off every payment');
    expect(await page.locator('dialog').count()).toBe(0);

    await press(page, 'New discount');
    await page.fill('dialog input[name=name]', 'Welcome');
    await page.selectOption('dialog select[name=kind]', 'amount');
    await page.fill('dialog input[name=currency]', 'usd');
    await waitForText(page, 'Amount off, in USD');
    await page.fill('dialog input[name=amount]', '5');
    await page.selectOption('dialog select[name=duration]', 'months');
    await page.fill('dialog input[name=months]', '3');
    await press(page, 'Make discount', 'dialog');
    await waitForText(page, '$5.00 off for 3 months');

    const byName = Object.fromEntries(
      (await api('GET', '/v1/discounts')).data.map((d: { id: string; attributes: { name: string } }) => [d.attributes.name, d]),
    );
    expect(byName.Launch.attributes).toMatchObject({
      kind: 'percent',
      amount: 2000,
      currency: null,
      duration: { kind: 'forever' },
      group_id: null,
    });
    expect(byName.Welcome.attributes).toMatchObject({
      kind: 'amount',
      amount: 500,
      currency: 'USD',
      duration: { kind: 'months', months: 3 },
    });
    launchId = byName.Launch.id;
    expect(await axeFindings(page)).toEqual([]);
  });

  it('makes a code for the partner on their page, with a discount and a Stripe promotion code; the same code in another case is refused', async () => {
    await page.goto(at(`/partners/${maya.id}`));
    await waitForText(page, 'No codes yet');
    await page.fill('form.make-code input[name=code]', 'MAYA20');
    await page.selectOption('form.make-code select[name=discount_id]', launchId);
    await page.fill('form.make-code input[name=stripe_promotion_code_id]', 'promo_1Maya20');
    await press(page, 'Make code');
    await waitForText(page, 'Launch: 20 % off every payment');
    const row = await rowOf(page, 'MAYA20');
    for (const words of ['an owner', 'enabled', 'promo_1Maya20', 'Disable']) expect(row).toContain(words);
    expect(await bodyText(page)).not.toContain('No codes yet');
    // The form is emptied for the next code.
    expect(await page.inputValue('form.make-code input[name=code]')).toBe('');
    expect(await codesOf(maya.partnershipId)).toEqual([
      expect.objectContaining({
        code: 'MAYA20',
        discount_id: launchId,
        enabled: true,
        created_by: 'owner',
        stripe_promotion_code_id: 'promo_1Maya20',
      }),
    ]);

    await page.fill('form.make-code input[name=code]', 'maya20');
    await press(page, 'Make code');
    await waitForText(page, 'This code is taken in this program (codes are the same whatever their case)');
    expect(await codesOf(maya.partnershipId)).toHaveLength(1);
    expect(await axeFindings(page)).toEqual([]);
  });

  it('asks before disabling the code (Cancel changes nothing), disables it, and asks again before enabling it', async () => {
    await page.click('button[aria-label="Disable MAYA20"]');
    await waitForText(page, 'Disable MAYA20?');
    await press(page, 'Cancel', 'dialog');
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    expect((await codesOf(maya.partnershipId))[0].enabled).toBe(true);

    await page.click('button[aria-label="Disable MAYA20"]');
    await waitForText(page, 'Disable MAYA20?');
    await press(page, 'Disable', 'dialog');
    await page.waitForSelector('button[aria-label="Enable MAYA20"]');
    expect(await rowOf(page, 'MAYA20')).toContain('disabled');
    expect((await codesOf(maya.partnershipId))[0].enabled).toBe(false);

    await page.click('button[aria-label="Enable MAYA20"]');
    await waitForText(page, 'Enable MAYA20?');
    await press(page, 'Enable', 'dialog');
    await page.waitForSelector('button[aria-label="Disable MAYA20"]');
    expect(await rowOf(page, 'MAYA20')).toContain('enabled');
    expect((await codesOf(maya.partnershipId))[0].enabled).toBe(true);
  });

  it("sets the rules for codes in Settings (the code wins, codes on acceptance, partners' own within a prefix and a length); an accepted partner then gets one", async () => {
    await page.goto(at('/settings/promotion-codes'));
    await waitForText(page, 'Rules for codes');
    // The defaults: the referral stands, no codes made by anyone but owners.
    expect(await page.isChecked('input[name=code_wins][value=referral]')).toBe(true);
    expect(await page.isChecked('input[name=auto_codes]')).toBe(false);
    expect(await page.isChecked('input[name=partner_codes]')).toBe(false);
    expect(await page.inputValue('input[name=code_max_length]')).toBe('32');
    await waitForText(page, 'The referral stands.');
    await waitForText(page, 'The code wins.');

    await page.check('input[name=code_wins][value=code]');
    await page.check('input[name=auto_codes]');
    await page.check('input[name=partner_codes]');
    await page.fill('input[name=code_prefix]', 'ACME-');
    await page.fill('input[name=code_max_length]', '12');
    await press(page, 'Save code rules');
    await waitForText(page, 'Saved.');
    expect((await api('GET', '/v1/program')).data.attributes).toMatchObject({
      code_wins: true,
      auto_codes: true,
      partner_codes: true,
      code_prefix: 'ACME-',
      code_max_length: 12,
    });

    // Loaded again, the form shows what was saved.
    await page.reload();
    await waitForText(page, 'Rules for codes');
    expect(await page.isChecked('input[name=code_wins][value=code]')).toBe(true);
    expect(await page.isChecked('input[name=auto_codes]')).toBe(true);
    expect(await page.isChecked('input[name=partner_codes]')).toBe(true);
    expect(await page.inputValue('input[name=code_prefix]')).toBe('ACME-');
    expect(await page.inputValue('input[name=code_max_length]')).toBe('12');
    await waitForText(page, 'the partner whose key is maya gets ACME-MAYA');
    expect(await axeFindings(page)).toEqual([]);

    const rex = await partner('Rex');
    await page.goto(at(`/partners/${rex.id}`));
    await waitForText(page, 'ACME-REX');
    expect(await rowOf(page, 'ACME-REX')).toContain('Tally, on acceptance');
  });

  it('the partner sees the code in the portal and copies it, then makes their own: refused outside the prefix, accepted within it', async () => {
    const link = (await api('POST', `/v1/partners/${maya.id}/invitation`)).meta.link as string;
    portal = await (await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] })).newPage();
    portalProblems = consoleProblems(portal);
    await redeemLink(portal, link);
    await waitForText(portal, 'Your promotion codes');
    await waitForText(portal, 'Use code MAYA20 at checkout');
    expect(await axeFindings(portal)).toEqual([]);
    await press(portal, 'Copy MAYA20');
    await waitForText(portal, 'Copied');
    expect(await portal.evaluate(() => navigator.clipboard.readText())).toBe('MAYA20');

    await portal.fill('form.make-code input[name=code]', 'MAYA-SUMMER');
    await press(portal, 'Make code');
    await waitForText(portal, 'A code of this program begins with ACME-');
    expect(await codesOf(maya.partnershipId)).toHaveLength(1);
    await portal.fill('form.make-code input[name=code]', 'ACME-MAYA');
    await press(portal, 'Make code');
    await waitForText(portal, 'Use code ACME-MAYA at checkout');
    expect(await bodyText(portal)).not.toContain('begins with ACME-');
    expect(await codesOf(maya.partnershipId)).toContainEqual(
      expect.objectContaining({ code: 'ACME-MAYA', created_by: 'partner', enabled: true }),
    );
    await press(portal, 'Copy ACME-MAYA');
    await expect.poll(() => portal.evaluate(() => navigator.clipboard.readText())).toBe('ACME-MAYA');
    expect(await axeFindings(portal)).toEqual([]);

    // The owner sees who made it.
    await page.goto(at(`/partners/${maya.id}`));
    await waitForText(page, 'ACME-MAYA');
    expect(await rowOf(page, 'ACME-MAYA')).toContain('the partner, in the portal');
  });

  it('the portal says a disabled code is off; a program that makes its codes itself offers no form to make one', async () => {
    const [code] = (await api('GET', '/v1/discount_codes?code_eq=MAYA20')).data;
    await api('PATCH', `/v1/discount_codes/${code.id}`, { enabled: false });
    await portal.reload();
    await waitForText(portal, 'Use code ACME-MAYA at checkout');
    await waitForText(portal, /Turned off by .+, crediting nothing for now: MAYA20\./);
    expect(await bodyText(portal)).not.toContain('Copy MAYA20');

    expect(await portal.locator('form.make-code').count()).toBe(1);
    await api('PATCH', '/v1/program', { partner_codes: false });
    await portal.reload();
    await waitForText(portal, 'Use code ACME-MAYA at checkout');
    expect(await portal.locator('form.make-code').count()).toBe(0);
    await api('PATCH', '/v1/program', { partner_codes: true });
    await api('PATCH', `/v1/discount_codes/${code.id}`, { enabled: true });
  });

  it("the partner's page, Settings and the portal's home are readable at 360 px", async () => {
    await page.goto(at(`/partners/${maya.id}`));
    await waitForText(page, 'ACME-MAYA');
    await page.screenshot({ path: join(shots(), 'dashboard-partner-codes.png'), fullPage: true });
    await page.goto(at('/settings/promotion-codes'));
    await waitForText(page, 'Rules for codes');
    await page.locator('#promotion-codes').screenshot({ path: join(shots(), 'dashboard-code-settings.png') });
    await page.setViewportSize({ width: 360, height: 740 });
    await portal.setViewportSize({ width: 360, height: 740 });
    try {
      for (const [path, shows] of [
        [`/partners/${maya.id}`, 'ACME-MAYA'],
        ['/settings/promotion-codes', 'Rules for codes'],
      ] as const) {
        await page.goto(at(path));
        await waitForText(page, shows);
        expect(await overflowsSideways(page), path).toBe(false);
      }
      await page.locator('#promotion-codes').screenshot({ path: join(shots(), 'dashboard-code-settings-360.png') });
      await portal.goto(`${url}/portal/`);
      await waitForText(portal, 'Use code ACME-MAYA at checkout');
      expect(await overflowsSideways(portal)).toBe(false);
      await portal.screenshot({ path: join(shots(), 'portal-codes-360.png'), fullPage: true });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('left nothing in the console but the refusals it asked for', () => {
    // The 409, 422 and 403 answers the tests provoked are logged by the browser as resources that failed to load.
    expect(problems.filter((p) => !/401|Failed to load resource/.test(p))).toEqual([]);
    expect(portalProblems.filter((p) => !/Failed to load resource/.test(p))).toEqual([]);
  });
});

function shots(): string {
  const dir = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tally-shots');
  mkdirSync(dir, { recursive: true });
  return dir;
}
