// Partner groups and rewards in Chromium, as an owner and partners use them: the Groups page
// with only the default group; a group made in the UI, with a reward on a condition and a
// nested AND/OR group, a flat reward per sign-up typed in major units (changed, deleted), a
// preview of what it pays, its settings; a move rule on the default group; a partner moved
// into the group from their page (their moves listed, the partners table and their portal
// saying so) and another moved by the rule after a payment; the program's public page
// listing the groups, and an application through a group's own page landing in that group.
// The pages clean under axe-core (the reward editor open too) and readable at 360 px.

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

/** The reward the owner makes, as the API says it in words. */
const CONDITIONAL =
  "50 % of each payment for 12 months, when the product is prod_pro and (the customer's country is DE or FR or the metadata key plan is annual)";

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let url: string;
let api: Api;
let context: BrowserContext;
let page: Page;
let problems: string[];
let vipId: string;
let defaultId: string;

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  url = collector.server.url;
  api = apiWith(url, collector.server.firstProgram!.tokens.secret);
  await api('PATCH', '/v1/program', { slug: 'acme', page_enabled: true });
  defaultId = (await api('GET', '/v1/groups?slug_eq=default')).data[0].id;
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

/** The partner's portal, signed in through the one-time link the owner would hand over. */
async function portalOf(partnerId: string): Promise<Page> {
  const link = (await api('POST', `/v1/partners/${partnerId}/invitation`)).meta.link as string;
  const portal = await (await browser.newContext()).newPage();
  await redeemLink(portal, link);
  return portal;
}

/** The condition row (or move rule) named `name`, to reach its fields. */
const row = (name: string) => `dialog [role=group][aria-label="${name}"]`;

describe('partner groups and rewards in Chromium', () => {
  it('shows the Groups page with only the default group, saying what groups are for, clean under axe-core', async () => {
    await signInFirst(page, collector.server.firstSignInLink!);
    await press(page, 'Groups');
    await page.waitForURL('**/dashboard/groups');
    await waitForText(page, 'Only the default group so far');
    // The default group and its one reward, the program's rate, in words.
    await waitForText(page, "20 % of each payment, for the customer's lifetime");
    expect(await axeFindings(page)).toEqual([]);
  });

  it('makes a group, and a reward on conditions with a nested OR group; an incomplete condition is named', async () => {
    await press(page, 'New group');
    await page.fill('dialog input[name=name]', 'VIP');
    await press(page, 'Make group', 'dialog');
    await page.waitForURL('**/dashboard/groups/*');
    vipId = new URL(page.url()).pathname.split('/').at(-1)!;
    expect((await api('GET', `/v1/groups/${vipId}`)).data.attributes).toMatchObject({ name: 'VIP', slug: 'vip', default: false });
    await waitForText(page, 'No rewards yet');
    expect(await axeFindings(page)).toEqual([]);

    await press(page, 'Add reward');
    await page.fill('dialog input[name=amount]', '50');
    await page.selectOption('dialog select[name=duration]', 'months');
    await page.fill('dialog input[name=months]', '12');
    await page.check('dialog fieldset.choices label:nth-of-type(2) input');
    await waitForText(page, 'Add condition');
    // Saved with the first condition's value left empty: said, and nothing is made.
    await press(page, 'Add reward', 'dialog');
    await waitForText(page, 'Condition 1: give a value.');
    await page.fill(`${row('Condition 1')} input`, 'prod_pro');
    await press(page, 'Add group', 'dialog');
    await page.selectOption('dialog fieldset.cond-group fieldset.cond-group label.match select', 'or');
    await page.selectOption(`${row('Group 2, condition 1')} label:has-text("Field") select`, 'customer_country');
    await page.selectOption(`${row('Group 2, condition 1')} label:has-text("Operator") select`, 'in');
    await page.fill(`${row('Group 2, condition 1')} label:has-text("Value") input`, 'de, fr');
    await press(page, 'Add condition to group 2', 'dialog');
    await page.selectOption(`${row('Group 2, condition 2')} label:has-text("Field") select`, 'metadata');
    await page.fill(`${row('Group 2, condition 2')} label:has-text("Key") input`, 'plan');
    await page.fill(`${row('Group 2, condition 2')} label:has-text("Value") input`, 'annual');
    expect(await axeFindings(page)).toEqual([]); // the editor open, with its nested group
    await page.evaluate(() => document.querySelector('dialog')!.scrollTo(0, 10_000));
    await page.screenshot({ path: join(shots(), 'dashboard-reward-editor.png') });
    await press(page, 'Add reward', 'dialog');
    await waitForText(page, CONDITIONAL);
    expect(await page.locator('dialog').count()).toBe(0);

    const [reward] = (await api('GET', `/v1/rewards?group_id_eq=${vipId}`)).data;
    expect(reward.attributes).toMatchObject({
      event: 'sale',
      kind: 'percentage',
      amount: 5000,
      currency: null,
      duration: { kind: 'months', months: 12 },
      conditions: {
        op: 'and',
        items: [
          { field: 'product_id', op: 'eq', value: 'prod_pro' },
          {
            op: 'or',
            items: [
              { field: 'customer_country', op: 'in', value: ['DE', 'FR'] },
              { field: 'metadata', op: 'eq', key: 'plan', value: 'annual' },
            ],
          },
        ],
      },
    });
  });

  it('adds a flat reward per sign-up typed in major units, changes it, and deletes it', async () => {
    await press(page, 'Add reward');
    await page.selectOption('dialog select[name=event]', 'lead');
    // A sign-up earns a fixed amount only: the percentage is not offered.
    expect(await page.locator('dialog select[name=kind] option[value=percentage]').isDisabled()).toBe(true);
    await page.fill('dialog input[name=amount]', '2.5');
    await page.fill('dialog input[name=currency]', 'usd');
    await waitForText(page, 'Amount, in USD');
    await press(page, 'Add reward', 'dialog');
    await waitForText(page, 'USD 2.50 per sign-up');
    const lead = (await api('GET', `/v1/rewards?group_id_eq=${vipId}&event_eq=lead`)).data[0];
    expect(lead.attributes).toMatchObject({ kind: 'flat', amount: 250, currency: 'USD', conditions: null });

    await page.click('button[aria-label="Edit: USD 2.50 per sign-up"]');
    expect(await page.inputValue('dialog input[name=amount]')).toBe('2.50');
    await page.fill('dialog input[name=amount]', '3');
    await press(page, 'Save reward', 'dialog');
    await waitForText(page, 'USD 3.00 per sign-up');
    expect((await api('GET', `/v1/rewards/${lead.id}`)).data.attributes.amount).toBe(300);

    await page.click('button[aria-label="Delete: USD 3.00 per sign-up"]');
    await press(page, 'Delete reward', 'dialog');
    await expect.poll(async () => (await bodyText(page)).includes('USD 3.00 per sign-up')).toBe(false);
    expect((await api('GET', `/v1/rewards?group_id_eq=${vipId}`)).data).toHaveLength(1);
  });

  it('previews what a partner of the group earns for a payment, and for one no reward covers', async () => {
    await page.fill('form.preview input[name=amount]', '49');
    await page.fill('form.preview input[name=currency]', 'USD');
    await page.fill('form.preview input[name=month]', '3');
    await page.fill('form.preview input[name=product_id]', 'prod_pro');
    await page.fill('form.preview input[name=customer_country]', 'de');
    await press(page, 'Preview');
    await waitForText(page, 'A partner earns $24.50: 50 % of a renewal, month 3 of 12');
    await page.fill('form.preview input[name=product_id]', 'prod_basic');
    await press(page, 'Preview');
    await waitForText(page, 'A partner earns $0.00: no reward of the group applies to this payment');
  });

  it("saves the group's settings: holding period, minimum payout, applications", async () => {
    await page.fill('input[name=hold_days]', '7');
    await page.fill('textarea[name=minimum_payout]', 'usd 25');
    await page.selectOption('select[name=auto_accept]', 'no');
    await press(page, 'Save settings');
    await waitForText(page, 'Saved.');
    expect((await api('GET', `/v1/groups/${vipId}`)).data.attributes).toMatchObject({
      hold_days: 7,
      minimum_payout: { USD: 2500 },
      auto_accept: false,
      takes_applications: true,
    });
    // Loaded again, the form shows what was saved.
    await page.reload();
    await waitForText(page, 'Commission rules');
    expect(await page.inputValue('select[name=auto_accept]')).toBe('no');
    expect(await page.inputValue('textarea[name=minimum_payout]')).toBe('USD 25.00');
  });

  it("shows the default group's base reward read-only, and saves a move rule to VIP", async () => {
    await page.goto(at(`/groups/${defaultId}`));
    await waitForText(page, "(the program's rate)");
    expect(await page.locator('a:text-is("Change in Settings")').getAttribute('href')).toBe('/dashboard/settings');
    expect(await page.locator('button[aria-label^="Edit:"]').count()).toBe(0);
    await press(page, 'Add rule');
    await page.fill('[aria-label="Rule 1"] label:has-text("reach") input', '1');
    expect(await page.inputValue('[aria-label="Rule 1"] label:has-text("Move to") select')).toBe(vipId);
    await press(page, 'Save move rules');
    await waitForText(page, 'Saved.');
    expect((await api('GET', `/v1/groups/${defaultId}`)).data.attributes.move_rules).toEqual([
      { to_group_id: vipId, metric: 'customers', currency: null, threshold: 1, window_days: null },
    ]);
  });

  it("moves a partner into the group from their page: their moves, the partners' table and their portal say so", async () => {
    const maya = await partner('Maya');
    const portal = await portalOf(maya.id);
    await waitForText(portal, 'You are in the Default group');

    await page.goto(at(`/partners/${maya.id}`));
    await waitForText(page, 'Never moved');
    await press(page, 'Move');
    expect(await page.inputValue('dialog select[name=group_id]')).toBe(defaultId); // where they are now
    await page.selectOption('dialog select[name=group_id]', vipId);
    await press(page, 'Move', 'dialog');
    await waitForText(page, 'From Default to VIP, by an owner');
    await waitForText(page, 'the rewards of VIP');
    const [move] = (await api('GET', `/v1/group_moves?partnership_id_eq=${maya.partnershipId}`)).data;
    expect(move.attributes).toMatchObject({ from_group_id: defaultId, to_group_id: vipId, moved_by: 'owner' });

    await page.goto(at('/partners?q=Maya'));
    await expect.poll(() => page.locator('td a[href^="/dashboard/groups/"]').textContent()).toBe('VIP');

    await portal.reload();
    await waitForText(portal, 'You are in the VIP group');
    await waitForText(portal, CONDITIONAL);
    expect(await axeFindings(portal)).toEqual([]);
    await portal.context().close();
  });

  it('moves a partner by the rule once a payment makes their first paying customer, and lists the move', async () => {
    const rex = await partner('Rex');
    const res = await fetch(`${url}/v1/tracking/conversion`, {
      method: 'POST',
      headers: { authorization: `Bearer ${collector.server.firstProgram!.tokens.publishable}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'buyer@customer.test', gr_id: 'rex-visit', pk: rex.key }),
    });
    expect(res.ok).toBe(true);
    const [referral] = (await api('GET', '/v1/referrals?email_eq=buyer%40customer.test')).data;
    await api('POST', '/v1/payments', { amount: 4_900, currency: 'USD', referral_id: referral.id, idempotency_key: 'rex-1' });
    // No landing came before the conversion, so review holds it: held money moves nobody until approved.
    expect(referral.attributes.review).toBe('held');
    expect((await api('GET', `/v1/group_moves?partnership_id_eq=${rex.partnershipId}`)).data).toEqual([]);
    await api('POST', '/v1/review_decisions', { referral_id: referral.id, decision: 'approve', reason: 'a real buyer' });
    const [move] = (await api('GET', `/v1/group_moves?partnership_id_eq=${rex.partnershipId}`)).data;
    expect(move.attributes).toMatchObject({ to_group_id: vipId, moved_by: 'rule' });
    const [commission] = (await api('GET', `/v1/commissions?partner_id_eq=${rex.id}`)).data;

    await page.goto(at(`/partners/${rex.id}`));
    await waitForText(page, `From Default to VIP, by a move rule: ${move.attributes.reason}`);
    // The payment that crossed the threshold earned at the old group's reward, named on its commission.
    await waitForText(page, commission.attributes.reward_description);
  });

  it('shows the Groups and group pages with data clean under axe-core, and readable at 360 px', async () => {
    await page.goto(at('/groups'));
    await waitForText(page, CONDITIONAL);
    expect(await axeFindings(page)).toEqual([]);
    await page.goto(at(`/groups/${vipId}`));
    await waitForText(page, CONDITIONAL);
    expect(await axeFindings(page)).toEqual([]);
    await page.screenshot({ path: join(shots(), 'dashboard-group.png'), fullPage: true });
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      for (const [path, shows] of [
        ['/groups', CONDITIONAL],
        [`/groups/${vipId}`, CONDITIONAL],
        [`/groups/${defaultId}`, 'Move rules'],
      ] as const) {
        await page.goto(at(path));
        await waitForText(page, shows);
        expect(await overflowsSideways(page), path).toBe(false);
        if (path === `/groups/${vipId}`) await page.screenshot({ path: join(shots(), 'dashboard-group-360.png'), fullPage: true });
      }
      // The reward editor, with its conditions, at 360 px too.
      await page.goto(at(`/groups/${vipId}`));
      await page.click(`button[aria-label="Edit: ${CONDITIONAL}"]`);
      await waitForText(page, 'Change the reward');
      expect(await overflowsSideways(page)).toBe(false);
      const fits = await page.evaluate(() => {
        const d = document.querySelector('dialog')!;
        return [...d.querySelectorAll('input, select, button')].every((el) => el.getBoundingClientRect().right <= window.innerWidth);
      });
      expect(fits).toBe(true);
      await page.evaluate(() => document.querySelector('dialog')!.scrollTo(0, 10_000));
      await page.screenshot({ path: join(shots(), 'dashboard-reward-editor-360.png') });
      await press(page, 'Cancel', 'dialog');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it("lists the groups on the program's page; a group's own page shows its rewards, and an application through it lands in it", async () => {
    const visitor = await (await browser.newContext()).newPage();
    const visitorProblems = consoleProblems(visitor);
    await visitor.goto(`${url}/p/acme/`);
    await waitForText(visitor, 'Partner groups');
    await waitForText(visitor, CONDITIONAL);
    await press(visitor, 'Apply to VIP');
    await visitor.waitForURL('**/p/acme/vip/');
    await waitForText(visitor, 'The VIP group');
    expect(await bodyText(visitor)).not.toContain('Partner groups');
    await waitForText(visitor, CONDITIONAL);
    expect(await axeFindings(visitor)).toEqual([]);
    await visitor.setViewportSize({ width: 360, height: 740 });
    expect(await overflowsSideways(visitor)).toBe(false);
    await visitor.fill('input[name=name]', 'Vera');
    await visitor.fill('input[name=email]', 'vera@partners.test');
    await visitor.fill('input[name=password]', 'a long partner password');
    await press(visitor, 'Apply');
    await visitor.waitForURL('**/portal/');
    await waitForText(visitor, 'You are in the VIP group');
    await waitForText(visitor, 'once they accept you');
    const [vera] = (await api('GET', '/v1/partners?email_eq=vera%40partners.test')).data;
    const [ship] = (await api('GET', `/v1/partnerships?partner_id_eq=${vera.id}`)).data;
    expect(ship.attributes).toMatchObject({ group_id: vipId, state: 'pending' });
    // An address no group takes applications at says so.
    await visitor.goto(`${url}/p/acme/nope/`);
    await waitForText(visitor, 'No group of');
    expect(visitorProblems).toEqual([]);
    await visitor.context().close();
  });

  it('left nothing in the console', () => {
    expect(problems.filter((p) => !/401|Failed to load resource/.test(p))).toEqual([]);
  });
});

function shots(): string {
  const dir = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tally-shots');
  mkdirSync(dir, { recursive: true });
  return dir;
}
