// Two-tier referrals in Chromium (docs/two-tier.md): the owner turns them on in Settings, a
// recruit applies through the recruiter's link on the program's page, and the recruiter sees
// their recruit and second-tier earnings in the portal; the recruit sees who recruited them,
// and the owner both on the partner's page. Clean under axe-core, also at 360 px.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedPartner, cleanAtBothWidths, dashboardStack, press, redeemLink, signInFirst, waitForText, type Api } from './dashboard.js';

let stack: Awaited<ReturnType<typeof dashboardStack>>;
let url: string;
let api: Api;
let owner: Page;
let problems: string[];

beforeAll(async () => {
  stack = await dashboardStack();
  ({ url, api, page: owner, problems } = stack);
  await api('PATCH', '/v1/program', { slug: 'acme', page_enabled: true, auto_accept: true });
});
afterAll(() => stack?.close());

describe('two-tier referrals', () => {
  let rita: Awaited<ReturnType<typeof acceptedPartner>>;
  let recruiter: Page;

  it('the owner turns them on in Settings → Two-tier referrals, from the keyboard', async () => {
    await signInFirst(owner, stack.collector.server.firstSignInLink!);
    await owner.goto(`${url}/dashboard/settings/two-tier`);
    await waitForText(owner, 'Pay recruiters a share');
    await owner.check('input[name=enabled]');
    await owner.fill('input[name=share]', '12.5');
    await owner.fill('input[name=duration_months]', '12');
    await owner.fill('textarea[name=caps]', 'USD 100.00');
    await owner.focus('input[name=share]');
    await owner.keyboard.press('Enter');
    await waitForText(owner, 'Saved');
    expect((await api('GET', '/v1/program/two_tier')).data.attributes).toEqual({
      enabled: true,
      share_bps: 1250,
      duration_months: 12,
      caps: { USD: 10000 },
    });
    await cleanAtBothWidths(owner);
  });

  it('the recruiter finds their recruitment link under Recruits, with no recruit yet', async () => {
    rita = await acceptedPartner(api, 'Rita');
    const link = (await api('POST', `/v1/partners/${rita.id}/invitation`)).meta.link as string;
    recruiter = await (await stack.browser.newContext()).newPage();
    await redeemLink(recruiter, link);
    await press(recruiter, 'Recruits', 'nav');
    await waitForText(recruiter, 'Your recruitment link');
    await waitForText(recruiter, `/p/acme/?via=${rita.key}`);
    await waitForText(recruiter, 'No recruits yet');
  });

  it('a recruit applies through the link and sees who recruited them', async () => {
    const recruit = await (await stack.browser.newContext()).newPage();
    try {
      await recruit.goto(`${url}/p/acme/?via=${rita.key}`);
      await recruit.fill('input[name=name]', 'Sam Recruit');
      await recruit.fill('input[name=email]', 'sam@recruits.test');
      await recruit.fill('input[name=password]', 'a long recruit password');
      await recruit.focus('input[name=password]');
      await recruit.keyboard.press('Enter');
      await recruit.waitForURL('**/portal/');
      await press(recruit, 'Recruits', 'nav');
      await waitForText(recruit, 'You were recruited by Rita.');
      await cleanAtBothWidths(recruit);
    } finally {
      await recruit.context().close();
    }
  });

  it('the recruiter sees the recruit and what their commission paid', async () => {
    const sam = (await api('GET', '/v1/partners?email_eq=sam@recruits.test')).data[0];
    // 12.5 % of 40.04 is 5.005: 5.01, rounded half up.
    await api('POST', '/v1/commissions', { partner_id: sam.id, amount: 4004, currency: 'USD' });
    await recruiter.reload();
    await waitForText(recruiter, 'Sam Recruit');
    await waitForText(recruiter, '$5.01');
    expect(await recruiter.locator('table').innerText()).toContain('$5.01');
    await cleanAtBothWidths(recruiter);
  });

  it("the owner sees Rita's recruit on her page, and the share as tier 2 in Commissions", async () => {
    await owner.goto(`${url}/dashboard/partners/${rita.id}`);
    await waitForText(owner, 'Two-tier referrals');
    await waitForText(owner, 'Sam Recruit');
    await waitForText(owner, 'Second-tier earnings: $5.01');
    await cleanAtBothWidths(owner);
    await owner.goto(`${url}/dashboard/commissions`);
    await waitForText(owner, 'tier 2');
    expect(problems).toEqual([]);
  });
});
