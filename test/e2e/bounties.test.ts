// Bounties in Chromium (docs/bounties.md): the owner makes a submission bounty in the
// dashboard's dialog; the partner sees it in the portal beside a performance bounty's
// progress bar and submits a link and a text; the owner approves it on the bounty's page,
// which makes one commission. Each page clean under axe-core and readable at 360 px.

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedPartner, apiWith, cleanAtBothWidths, press, redeemLink, signInFirst, waitForText, type Api } from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

const DAY = 86_400;
let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let url: string;
let api: Api;
let owner: Page;
let ownerProblems: string[];
let maya: { id: string; partnershipId: string };

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  url = collector.server.url;
  api = apiWith(url, collector.server.firstProgram!.tokens.secret);
  maya = await acceptedPartner(api, 'Maya');
  const now = Math.floor(Date.now() / 1000);
  await api('POST', '/v1/bounties', {
    name: 'Ten sales in spring',
    kind: 'performance',
    metric: 'sales',
    target: 10,
    starts_at: now - DAY,
    ends_at: now + 30 * DAY,
    amount: 10_000,
    currency: 'USD',
  });
  owner = await (await browser.newContext()).newPage();
  ownerProblems = consoleProblems(owner);
  await signInFirst(owner, collector.server.firstSignInLink!);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

/** Checks the page under axe-core, and at 360 px that nothing scrolls sideways. */
describe('bounties in Chromium', () => {
  it('the owner makes a submission bounty in the dialog', async () => {
    await owner.goto(`${url}/dashboard/bounties`);
    await waitForText(owner, 'Ten sales in spring');
    await press(owner, 'New bounty');
    await owner.fill('dialog input[name=name]', 'Review us on your blog');
    await owner.selectOption('dialog select[name=kind]', 'submission');
    await owner.fill('dialog input[name=amount]', '25');
    await owner.fill('dialog input[name=currency]', 'EUR');
    const day = (d: number) => new Date(Date.now() + d * DAY * 1000).toISOString().slice(0, 10);
    await owner.fill('dialog input[name=starts]', day(-1));
    await owner.fill('dialog input[name=ends]', day(30));
    await owner.check('dialog input[name=requires_url]');
    await cleanAtBothWidths(owner);
    await press(owner, 'Make bounty', 'dialog');
    await waitForText(owner, 'Review us on your blog');
    const made = (await api('GET', '/v1/bounties?kind_eq=submission')).data;
    expect(made.map((b: any) => [b.attributes.name, b.attributes.amount, b.attributes.currency, b.attributes.requires_url])).toEqual([
      ['Review us on your blog', 2500, 'EUR', true],
    ]);
    await cleanAtBothWidths(owner);
    expect(ownerProblems).toEqual([]);
  });

  it('the partner sees progress and submits proof in the portal; the owner approves it into one commission', async () => {
    const link = (await api('POST', `/v1/partners/${maya.id}/invitation`)).meta.link as string;
    const portal = await (await browser.newContext()).newPage();
    const portalProblems = consoleProblems(portal);
    try {
      await redeemLink(portal, link);
      await press(portal, 'Bounties');
      await waitForText(portal, 'Review us on your blog');
      await waitForText(portal, '0 of 10');
      expect(await portal.locator('progress').getAttribute('max')).toBe('10');
      await cleanAtBothWidths(portal);
      await portal.fill('textarea[name=urls]', 'https://maya.blog.test/tally-review');
      await portal.fill('textarea[name=text]', 'A long review with screenshots.');
      await press(portal, 'Submit');
      await waitForText(portal, 'Sent: the company will review it.');
      await waitForText(portal, 'Waiting for review');
      await cleanAtBothWidths(portal);
      expect(portalProblems).toEqual([]);

      const [bounty] = (await api('GET', '/v1/bounties?kind_eq=submission')).data;
      await owner.goto(`${url}/dashboard/bounties`);
      await press(owner, 'Review us on your blog');
      await waitForText(owner, 'https://maya.blog.test/tally-review');
      await waitForText(owner, 'Maya');
      await cleanAtBothWidths(owner);
      await press(owner, 'Approve');
      await waitForText(owner, 'Approved');
      // 'Approved' is also a word of the page before the answer: wait for the commission the approval makes.
      const mine = async () => (await api('GET', `/v1/commissions?partner_id_eq=${maya.id}`)).data.length;
      await expect.poll(mine).toBe(1);
      const commissions = (await api('GET', `/v1/commissions?partner_id_eq=${maya.id}`)).data;
      expect(commissions.map((c: any) => [c.attributes.amount, c.attributes.currency, c.attributes.reward_description])).toEqual([
        [2500, 'EUR', 'Bounty: Review us on your blog'],
      ]);
      const [submission] = (await api('GET', `/v1/bounties/${bounty.id}/submissions`)).data;
      expect(submission.attributes).toMatchObject({ state: 'approved', commission_id: commissions[0].id });
      await portal.reload();
      await waitForText(portal, 'Approved');
      expect(ownerProblems).toEqual([]);
    } finally {
      await portal.context().close();
    }
  });
});
