// Submitted leads in Chromium (docs/leads.md): a partner submits one in the portal's Leads
// page, and a second at the same company is refused with the reason in the portal's words;
// the owner qualifies it from the keyboard on the dashboard's Leads page and marks it won,
// which makes the partner's referral; the partner sees it won. Both pages clean under
// axe-core and readable at 360 px.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptedPartner,
  axeFindings,
  bodyText,
  dashboardStack,
  overflowsSideways,
  press,
  redeemLink,
  signInFirst,
  waitForText,
} from './dashboard.js';
import { consoleProblems } from './driver.js';

let stack: Awaited<ReturnType<typeof dashboardStack>>;
let url: string;
let page: Page;
let portal: Page;
let portalProblems: string[];
let maya: { id: string; partnershipId: string };
const api = (method: string, path: string, body?: unknown) => stack.api(method, path, body);

beforeAll(async () => {
  stack = await dashboardStack();
  ({ url, page } = stack);
  maya = await acceptedPartner(stack.api, 'Maya');
  portal = await (await stack.browser.newContext()).newPage();
  portalProblems = consoleProblems(portal);
});
afterAll(() => stack?.close());

const leadsOf = async () => (await api('GET', `/v1/leads?partner_id_eq=${maya.id}`)).data;

describe('submitted leads in Chromium', () => {
  it('the partner submits a lead in the portal; another at the same company is refused with the reason', async () => {
    await redeemLink(portal, (await api('POST', `/v1/partners/${maya.id}/invitation`)).meta.link as string);
    await press(portal, 'Leads');
    await waitForText(portal, 'No leads yet');
    expect(await axeFindings(portal)).toEqual([]);
    await portal.fill('input[name=name]', 'Dana Buyer');
    await portal.fill('input[name=email]', 'dana@acme.test');
    await portal.fill('input[name=company]', 'Acme');
    await portal.fill('textarea[name=notes]', 'Wants a demo in March');
    await press(portal, 'Submit lead');
    await waitForText(portal, 'Lead submitted: Dana Buyer.');
    await waitForText(portal, 'Your leads');
    expect(await portal.locator('table tbody tr').innerText()).toContain('New');
    expect((await leadsOf()).map((l: { attributes: unknown }) => l.attributes)).toEqual([
      expect.objectContaining({ name: 'Dana Buyer', email: 'dana@acme.test', company: 'Acme', stage: 'new', submitted_by: 'partner' }),
    ]);

    await portal.fill('input[name=name]', 'Sam Other');
    await portal.fill('input[name=email]', 'sam@acme.test');
    await press(portal, 'Submit lead');
    await waitForText(portal, 'Someone from this company was already submitted as a lead.');
    expect(await leadsOf()).toHaveLength(1);
    expect(await axeFindings(portal)).toEqual([]);
  });

  it('the owner qualifies it from the keyboard and marks it won: the partner has a referral, and sees the lead won', async () => {
    await signInFirst(page, stack.collector.server.firstSignInLink!);
    await page.goto(`${url}/dashboard/leads?stage=new`);
    await waitForText(page, 'Dana Buyer');
    await waitForText(page, 'Wants a demo in March');
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Qualify Dana Buyer' }).focus();
    await page.keyboard.press('Enter');
    await waitForText(page, 'Qualify this lead?');
    expect(await axeFindings(page)).toEqual([]); // the dialog open
    // The dialog opens on Cancel; Tab reaches its confirmation.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await waitForText(page, 'Dana Buyer: qualified.');
    await expect.poll(async () => (await leadsOf())[0].attributes.stage).toBe('qualified');

    await page.goto(`${url}/dashboard/leads?stage=qualified`);
    await page.getByRole('button', { name: 'Mark won Dana Buyer' }).click();
    await waitForText(page, 'Mark this lead won?');
    await press(page, 'Mark won', 'dialog');
    await waitForText(page, 'Dana Buyer: won.');
    const [won] = await leadsOf();
    expect(won.attributes.stage).toBe('won');
    const referral = (await api('GET', `/v1/referrals/${won.relationships.referral.data.id}`)).data;
    expect(referral.attributes.email).toBe('dana@acme.test');
    expect(referral.relationships.partnership.data.id).toBe(maya.partnershipId);

    await page.goto(`${url}/dashboard/leads?stage=won`);
    await waitForText(page, 'Dana Buyer');
    expect(await page.locator('table tbody tr').innerText()).toContain('Referral');
    await portal.reload();
    await waitForText(portal, 'Your leads');
    expect(await portal.locator('table tbody tr').innerText()).toContain('Won');
  });

  it('both pages are readable at 360 px', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await portal.setViewportSize({ width: 360, height: 740 });
    try {
      await page.goto(`${url}/dashboard/leads`);
      await waitForText(page, 'Dana Buyer');
      expect(await overflowsSideways(page)).toBe(false);
      await portal.goto(`${url}/portal/leads`);
      await waitForText(portal, 'Your leads');
      expect(await overflowsSideways(portal)).toBe(false);
      expect(await bodyText(portal)).toContain('Submit a lead');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('left nothing in the console but the refusal it asked for (and the signed-out check before signing in)', () => {
    expect(stack.problems.filter((p) => !/\b401\b/.test(p))).toEqual([]);
    expect(portalProblems.filter((p) => !p.includes('409'))).toEqual([]);
    expect(portalProblems.filter((p) => p.includes('409'))).toHaveLength(1);
  });
});
