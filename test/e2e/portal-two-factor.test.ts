// Two-step sign-in in the partner portal, in Chromium (docs/security.md): a partner enrols an
// authenticator app under Settings → Security (the codes computed here with otplib, as the
// phone would), keeps the recovery codes (copied, downloaded), signs out and in with a code,
// then with a recovery code (which fails the second time), takes another program's
// invitation with the password and a code, makes new codes and removes the app. A partner
// whose portal speaks German is locked out by wrong codes. Clean under axe-core at 1280 and 360 px.

import { readFileSync } from 'node:fs';
import { generateSync } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../../packages/collector/src/flows/program.js';
import { acceptedPartner, apiWith, bodyText, cleanAtBothWidths, press, redeemLink, waitForText, type Api } from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

const PASSWORD = 'a long partner password';

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let url: string;
let api: Api;
let portal: Page;
let problems: string[];
let recovery: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  url = collector.server.url;
  api = apiWith(url, collector.server.firstProgram!.tokens.secret);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

/** The phone's authenticator for `secret`: each code of the step after the last one taken (a step is never taken twice; one step of drift is accepted). */
function authenticator() {
  let secret = '';
  let step = 0;
  return {
    learn: (s: string) => {
      secret = s;
    },
    next: () => {
      step = Math.max(step + 1, Math.floor(Date.now() / 1000 / 30));
      return generateSync({ secret, epoch: step * 30 });
    },
  };
}
const phone = authenticator();

/** Types `code` into the second step and sends it: the status the API answered. */
async function sendCode(page: Page, code: string): Promise<number> {
  await page.fill('input[name=code]', code);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/v1/portal/auth/sign_in/second_factor')),
    page.click('button[type=submit]'),
  ]);
  return answer.status();
}

/** A fresh browser at the portal's sign-in, past the password: the second step (titled `title`) is shown. */
async function toSecondStep(email: string, title = 'Two-step sign-in', locale?: string): Promise<Page> {
  const page = await (await browser.newContext(locale ? { locale } : {})).newPage();
  await page.goto(`${url}/portal/sign-in`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', PASSWORD);
  await page.click('button[type=submit]');
  await waitForText(page, title);
  return page;
}

describe('two-step sign-in in the partner portal', () => {
  it('enrols an authenticator app from Settings → Security, and keeps the ten recovery codes shown once', async () => {
    const ana = await acceptedPartner(api, 'Ana');
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    portal = await context.newPage();
    problems = consoleProblems(portal);
    await redeemLink(portal, (await api('POST', `/v1/partners/${ana.id}/invitation`)).meta.link);
    await portal.goto(`${url}/portal/settings`);
    await waitForText(portal, 'Two-step sign-in is off');
    await press(portal, 'Two-step sign-in');
    await portal.waitForURL('**/portal/settings/security*');
    await waitForText(portal, 'so that a stolen password is not enough');
    expect(await portal.getAttribute('nav a[aria-current=page]', 'href')).toMatch(/\/portal\/settings/);
    await cleanAtBothWidths(portal);

    await press(portal, 'Add an authenticator app');
    await waitForText(portal, 'Scan this QR code');
    expect(await portal.locator('.qr[role=img] svg').count()).toBe(1);
    expect(await portal.getAttribute('.qr', 'aria-label')).toBe('QR code of the key, for your authenticator app');
    // The focus is in the code's field, where the keyboard types next.
    expect(await portal.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('code');
    phone.learn((await portal.locator('.totp-secret').innerText()).trim());
    await cleanAtBothWidths(portal);
    await portal.fill('input[name=code]', '000000');
    await press(portal, 'Confirm the app');
    await waitForText(portal, 'The code is wrong or was used already');
    await portal.fill('input[name=code]', phone.next());
    await press(portal, 'Confirm the app');
    await waitForText(portal, 'Your recovery codes');
    recovery = await portal.locator('.recovery-codes code').allInnerTexts();
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    // Focus moves to the heading once it is rendered, a tick after its words appear (failed once under load).
    await expect.poll(() => portal.evaluate(() => document.activeElement?.textContent)).toBe('Your recovery codes');
    await waitForText(portal, 'Authenticator app');
    await waitForText(portal, '10 recovery codes left');
    await cleanAtBothWidths(portal);

    await press(portal, 'Copy the codes');
    expect(await portal.evaluate(() => navigator.clipboard.readText())).toBe(`${recovery.join('\n')}\n`);
    const [download] = await Promise.all([portal.waitForEvent('download'), press(portal, 'Download the codes')]);
    expect(download.suggestedFilename()).toBe('recovery-codes.txt');
    expect(
      readFileSync((await download.path())!, 'utf8')
        .trim()
        .split('\n'),
    ).toEqual(recovery);

    // Shown once: the page opened again lists the app, not the codes.
    await portal.reload();
    await waitForText(portal, '10 recovery codes left');
    expect(await portal.locator('.recovery-codes').count()).toBe(0);
    await portal.goto(`${url}/portal/settings`);
    await waitForText(portal, 'Two-step sign-in is on');
  });

  it('signs out, then in with a code from the app, a wrong code answered as the API says', async () => {
    await press(portal, 'Sign out');
    await portal.waitForURL('**/portal/sign-in');
    const page = await toSecondStep('ana@partners.test');
    expect(await bodyText(page)).toContain('Enter the code from your authenticator app, or a recovery code.');
    await cleanAtBothWidths(page);
    expect(await sendCode(page, '000000')).toBe(401);
    await waitForText(page, 'The code is wrong or was used already');
    // The same second step takes the right code: a wrong one does not use it up.
    expect(await sendCode(page, phone.next())).toBe(200);
    await page.waitForURL('**/portal/');
    await waitForText(page, 'Your link');
    await page.context().close();
  });

  it('signs in with a recovery code, which fails the second time', async () => {
    const page = await toSecondStep('ana@partners.test');
    expect(await sendCode(page, recovery[0]!)).toBe(200);
    await page.waitForURL('**/portal/');
    await page.context().close();
    const again = await toSecondStep('ana@partners.test');
    expect(await sendCode(again, recovery[0]!)).toBe(401);
    await waitForText(again, 'The code is wrong or was used already');
    expect(again.url()).toContain('/portal/sign-in');
    await again.context().close();
  });

  it("takes another program's invitation with the password, then a code", async () => {
    const now = Math.floor(Date.now() / 1000);
    const other = await createProgram(collector.server.db, { name: 'Second program', siteUrl: 'https://second.example/' }, now);
    const second = apiWith(url, other.tokens.secret);
    const made = await second('POST', '/v1/partners', { name: 'Ana', email: 'ana@partners.test' });
    await second('POST', '/v1/partnerships', { partner_id: made.data.id, state: 'accepted' });
    const link = (await second('POST', `/v1/partners/${made.data.id}/invitation`)).meta.link as string;
    const page = await (await browser.newContext()).newPage();
    await page.goto(link);
    await page.fill('input[name=password]', PASSWORD);
    await page.click('button[type=submit]');
    await waitForText(page, 'Enter the code from your authenticator app');
    expect(await sendCode(page, recovery[1]!)).toBe(200);
    await page.waitForURL('**/portal/');
    await expect.poll(() => page.locator('.program-switcher option').allInnerTexts()).toContain('Second program');
    await page.context().close();
  });

  it('makes new recovery codes for a code, and the old ones stop working', async () => {
    await portal.goto(`${url}/portal/sign-in`);
    await portal.fill('input[name=email]', 'ana@partners.test');
    await portal.fill('input[name=password]', PASSWORD);
    await portal.click('button[type=submit]');
    expect(await sendCode(portal, recovery[2]!)).toBe(200);
    await portal.goto(`${url}/portal/settings/security`);
    await waitForText(portal, '7 recovery codes left');
    await press(portal, 'New recovery codes');
    await waitForText(portal, 'the old ones stop working');
    await cleanAtBothWidths(portal);
    await portal.fill('dialog input[name=code]', '000000');
    await press(portal, 'Make new codes', 'dialog');
    await waitForText(portal, 'The code is wrong or was used already');
    await portal.fill('dialog input[name=code]', recovery[3]!);
    await press(portal, 'Make new codes', 'dialog');
    await waitForText(portal, 'Your recovery codes');
    const renewed = await portal.locator('.recovery-codes code').allInnerTexts();
    expect(renewed).toHaveLength(10);
    expect(renewed.filter((c) => recovery.includes(c))).toEqual([]);
    await waitForText(portal, '10 recovery codes left');
    const old = await toSecondStep('ana@partners.test');
    expect(await sendCode(old, recovery[4]!)).toBe(401);
    await old.context().close();
    recovery = renewed;
  });

  it('removes the app for the password and a code; the password alone signs in again', async () => {
    await press(portal, 'Remove');
    await waitForText(portal, 'Remove the authenticator app');
    await cleanAtBothWidths(portal);
    await portal.fill('dialog input[name=password]', 'not the password at all');
    await portal.fill('dialog input[name=code]', recovery[0]!);
    await press(portal, 'Remove', 'dialog');
    await waitForText(portal, 'The password is wrong');
    await portal.fill('dialog input[name=password]', PASSWORD);
    await press(portal, 'Remove', 'dialog');
    await waitForText(portal, 'The authenticator app is removed');
    await waitForText(portal, 'Add an authenticator app');
    await cleanAtBothWidths(portal);
    expect(await portal.evaluate(() => document.activeElement?.textContent)).toContain('The authenticator app is removed');
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${url}/portal/sign-in`);
    await page.fill('input[name=email]', 'ana@partners.test');
    await page.fill('input[name=password]', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL('**/portal/');
    await page.context().close();
    // The wrong codes and password above were answered 401, which the console reports; nothing else.
    expect(problems.filter((p) => !/Failed to load resource: .* 401 /.test(p))).toEqual([]);
  });

  it('enrols again from the keyboard alone', async () => {
    for (let i = 0; (await portal.evaluate(() => document.activeElement?.textContent)) !== 'Add an authenticator app'; i++) {
      if (i > 40) throw new Error('Tab never reached "Add an authenticator app"');
      await portal.keyboard.press('Tab');
    }
    await portal.keyboard.press('Enter');
    await waitForText(portal, 'Scan this QR code');
    // A new app, a new secret: its own steps.
    const again = authenticator();
    again.learn((await portal.locator('.totp-secret').innerText()).trim());
    expect(await portal.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('code');
    await portal.keyboard.type(again.next());
    await portal.keyboard.press('Enter');
    await waitForText(portal, 'Your recovery codes');
    // Focus moves to the heading once it is rendered, a tick after its words appear (failed once under load).
    await expect.poll(() => portal.evaluate(() => document.activeElement?.textContent)).toBe('Your recovery codes');
  });

  it('speaks German to a German browser, and says the lockout after wrong codes', async () => {
    const bo = await acceptedPartner(api, 'Bo');
    const page = await (await browser.newContext({ locale: 'de-DE' })).newPage();
    await page.goto((await api('POST', `/v1/partners/${bo.id}/invitation`)).meta.link);
    await page.fill('input[name=password]', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL('**/portal/');
    const de = authenticator();
    await page.goto(`${url}/portal/settings`);
    await waitForText(page, 'Die Anmeldung in zwei Schritten ist aus');
    await press(page, 'Anmeldung in zwei Schritten');
    await press(page, 'Authenticator-App hinzufügen');
    await waitForText(page, 'Scannen Sie diesen QR-Code');
    de.learn((await page.locator('.totp-secret').innerText()).trim());
    await page.fill('input[name=code]', de.next());
    await press(page, 'App bestätigen');
    await waitForText(page, 'Ihre Wiederherstellungscodes');
    await waitForText(page, 'noch 10 Wiederherstellungscodes');
    await cleanAtBothWidths(page);
    await page.context().close();

    const signIn = await toSecondStep('bo@partners.test', 'Anmeldung in zwei Schritten', 'de-DE');
    // Five wrong guesses in a row lock the account: four answered 401, the fifth 429, and then even the right code waits.
    for (let i = 0; i < 4; i++) expect(await sendCode(signIn, '000000')).toBe(401);
    expect(await sendCode(signIn, '000000')).toBe(429);
    await waitForText(signIn, 'Zu oft hintereinander ein falsches Passwort. Versuchen Sie es in 1 Minute erneut.');
    expect(await sendCode(signIn, de.next())).toBe(429);
    expect(signIn.url()).toContain('/portal/sign-in');
    await signIn.context().close();
  });
});
