// E-mail preferences in Chromium (docs/notifications.md). The owner's: reached from the
// dashboard's navigation, a kind turned off with the keyboard and saved, still off after a
// reload and in the API, the page clean under axe-core. The partner's panel
// (portal/notifications.tsx), in German, mounted alone on a page of the collector's origin
// (bundled here with esbuild, served by the browser's request routing) with a signed-in
// partner's session: the same, through /v1/portal/notifications.

import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedPartner, apiWith, axeFindings, press, redeemLink, signInFirst, waitForText } from './dashboard.js';
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

/** The portal's panel alone, as settings.tsx would show it, the portal speaking `locale`: one script. */
async function panelScript(locale: string): Promise<string> {
  const built = await build({
    stdin: {
      contents: `import { h, render } from 'preact';
        import { speak } from './packages/web/src/portal/language.js';
        import { NotificationPreferences } from './packages/web/src/portal/notifications.js';
        speak('${locale}').then(() => render(h('main', { id: 'main' }, h(NotificationPreferences, {})), document.body));`,
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'silent',
  });
  return built.outputFiles[0]!.text;
}

describe("the partner's e-mail preferences (the portal's panel) in Chromium", () => {
  it('in German: first referral turned off and saved; off after a reload and in the API; clean under axe-core', async () => {
    const server = collector.server;
    const api = apiWith(server.url, server.firstProgram!.tokens.secret);
    const partner = await acceptedPartner(api, 'Greta');
    const portal = await (await browser.newContext()).newPage();
    const seen = consoleProblems(portal);
    await redeemLink(portal, (await api('POST', `/v1/partners/${partner.id}/invitation`)).meta.link);
    const css = ['dashboard/style.css', 'portal/style.css'].map((f) => readFileSync(`packages/web/src/${f}`, 'utf8')).join('\n');
    const script = await panelScript('de');
    // A page of the collector's origin (its session cookie, its API) that the browser is served without the collector.
    await portal.route(`${server.url}/mount/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path.endsWith('.js')) return route.fulfill({ contentType: 'text/javascript', body: script });
      if (path.endsWith('.css')) return route.fulfill({ contentType: 'text/css', body: css });
      return route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>E-Mails</title><link rel="stylesheet" href="/mount/panel.css"></head><body><script src="/mount/panel.js"></script></body></html>',
      });
    });
    const open = async () => {
      await portal.goto(`${server.url}/mount/`);
      await waitForText(portal, 'Eine E-Mail an mich, wenn');
    };
    await open();
    const first = portal.getByRole('checkbox', { name: /Ihre erste Empfehlung eingeht/ });
    expect(await first.isChecked()).toBe(true);
    expect(await portal.getByRole('checkbox').count()).toBe(8);
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
