// The audit log's page in Chromium (docs/audit.md): the owner renames a partner in the
// dashboard, opens the Audit log, filters it by who and by action from the keyboard, reads
// the rename's before and after, and sees the times in their own zone (Asia/Kolkata here);
// clean under axe-core and readable at 360 px, with an empty state for a filter that
// matches nothing and the CSV link carrying the filters.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedPartner, bodyText, choose, cleanAtBothWidths, dashboardStack, signInFirst, waitForText } from './dashboard.js';
import { consoleProblems } from './driver.js';

let stack: Awaited<ReturnType<typeof dashboardStack>>;
let page: Page;
let problems: string[];
let maya: { id: string };

beforeAll(async () => {
  stack = await dashboardStack();
  maya = await acceptedPartner(stack.api, 'Maya');
  page = await (await stack.browser.newContext({ timezoneId: 'Asia/Kolkata' })).newPage();
  problems = consoleProblems(page);
  await signInFirst(page, stack.collector.server.firstSignInLink!);
});
afterAll(() => stack?.close());

const rows = () => page.locator('.scroll > table > tbody > tr');

describe('the audit log page', () => {
  it("shows the owner's change with who made it, and its before and after", async () => {
    // A change made in the signed-in browser, as the partner's page makes it.
    const status = await page.evaluate(async (id) => {
      const res = await fetch(`/v1/partners/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Maya Lopez' }),
      });
      return res.status;
    }, maya.id);
    expect(status).toBe(200);
    await page.goto(`${stack.url}/dashboard/audit`);
    await waitForText(page, 'partner.update');
    const text = await bodyText(page);
    expect(text).toContain('owner@company.test');
    expect(text).toContain('partner.create'); // the API token's, before it
    await cleanAtBothWidths(page);

    // Only the team's changes: the token's creations go.
    await choose(page, 'Who', 'user');
    await expect.poll(async () => (await bodyText(page)).includes('partner.create')).toBe(false);
    expect(page.url()).toContain('actor_kind_eq=user');

    // By action, from the keyboard.
    await page.focus('input[name=action_eq]');
    await page.keyboard.type('partner.update');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toContain('action_eq=partner.update');
    await waitForText(page, /\d fields?/);
    const summary = page.locator('.audit-diff summary').first();
    await summary.focus();
    await page.keyboard.press('Enter');
    const diff = page.locator('.audit-diff table').first();
    await expect.poll(() => diff.isVisible()).toBe(true);
    expect(await diff.innerText()).toMatch(/name\s+"Maya"\s+"Maya Lopez"/);
    await cleanAtBothWidths(page);

    // The time as the viewer's zone writes it (10:00 UTC is 15:30 in Kolkata).
    const [entry] = (await stack.api('GET', '/v1/audit_events?action_eq=partner.update')).data;
    const shown = await page.evaluate(
      (t) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(t * 1000)),
      entry.attributes.created_at as number,
    );
    expect(await rows().first().innerText()).toContain(shown);
    const csv = await page.locator('a', { hasText: 'Download CSV' }).getAttribute('href');
    expect(csv).toBe('/v1/audit_events.csv?action_eq=partner.update&actor_kind_eq=user');
    const download = await page.evaluate(async (href) => (await fetch(href)).text(), csv!);
    expect(download.split('\r\n')[1]).toContain('partner.update');
  });

  it('says so when nothing matches, with a way back to every change', async () => {
    await page.goto(`${stack.url}/dashboard/audit?action_eq=payout_run.approve`);
    await waitForText(page, 'No changes match these filters');
    await cleanAtBothWidths(page);
    await page.locator('a', { hasText: 'Show every change' }).click();
    await waitForText(page, 'partner.update');
    expect(problems).toEqual([]);
  });
});
