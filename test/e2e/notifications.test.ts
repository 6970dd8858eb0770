// The owner's e-mail preferences in Chromium (docs/notifications.md): reached from the
// dashboard's navigation, a kind turned off with the keyboard and saved, still off after a
// reload and in the API, the page clean under axe-core. (The partner's panel in the portal,
// portal/notifications.tsx, is covered here once the settings page shows it.)

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings, press, signInFirst, waitForText } from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let page: Page;
let problems: string[];

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  page = await (await browser.newContext()).newPage();
  problems = consoleProblems(page);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

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
    expect(await page.getByRole('checkbox').count()).toBe(5);
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
