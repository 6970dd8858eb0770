// Two-factor sign-in in Chromium (docs/security.md): an owner enrols an authenticator app
// under Settings → Security (the codes computed here with otplib, as the phone would), signs
// in with a code and with a recovery code (which fails the second time), and is asked for a
// code again before making a secret token once the session's proof is old.

import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText, dashboardStack, OWNER, press, signInFirst, waitForText } from './dashboard.js';

let stack: Awaited<ReturnType<typeof dashboardStack>>;
let secret = '';
let recovery: string[] = [];

beforeAll(async () => {
  stack = await dashboardStack();
  await signInFirst(stack.page, stack.collector.server.firstSignInLink!);
});
afterAll(async () => {
  await stack?.close();
});

const at = (path: string) => `${stack.url}/dashboard${path}`;
/** The code of the step after the last one taken: a step is never taken twice, and one step of drift is accepted. */
let step = 0;
const nextCode = () => {
  step = Math.max(step + 1, Math.floor(Date.now() / 1000 / 30));
  return generateSync({ secret, epoch: step * 30 });
};

async function signInWith(code: string): Promise<Page> {
  const page = await (await stack.browser.newContext()).newPage();
  await page.goto(at('/sign-in'));
  await page.fill('input[name=email]', OWNER.email);
  await page.fill('input[name=password]', OWNER.password);
  await page.click('button[type=submit]');
  await waitForText(page, 'Two-step sign-in');
  await page.fill('input[name=code]', code);
  await page.click('button[type=submit]');
  return page;
}

describe('two-factor sign-in in Chromium', () => {
  it('enrols an authenticator app from its QR code page and shows ten recovery codes once', async () => {
    const { page } = stack;
    await page.goto(at('/settings/security'));
    await press(page, 'Add an authenticator app');
    await waitForText(page, 'Scan this code');
    expect(await page.locator('.qr svg').count()).toBe(1);
    secret = (await page.locator('.totp-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.fill('input[name=code]', nextCode());
    await press(page, 'Confirm the app');
    await waitForText(page, 'Your recovery codes');
    recovery = await page.locator('.recovery-codes code').allInnerTexts();
    expect(recovery).toHaveLength(10);
    await waitForText(page, 'Authenticator app');
  });

  it('signs in with a code from the app', async () => {
    const page = await signInWith(nextCode());
    await page.waitForURL('**/dashboard/');
    // The overview itself, not the second step still on screen at the new address.
    await waitForText(page, 'No partners yet');
    await page.context().close();
  });

  it('signs in with a recovery code, which fails the second time', async () => {
    const page = await signInWith(recovery[0]!);
    await page.waitForURL('**/dashboard/');
    await page.context().close();
    const again = await signInWith(recovery[0]!);
    await waitForText(again, /the code is wrong or was used already/i);
    expect(again.url()).toContain('/dashboard/sign-in');
    await again.context().close();
  });

  it('asks for a code (here a recovery code) before a secret token once the proof is old, then makes it', async () => {
    const { page } = stack;
    // The session's proof as it would be ten minutes on: the clock is the machine's here.
    await stack.collector.server.db.transaction((tx) => tx.run('UPDATE sessions SET verified_at = 0'));
    await page.goto(at('/settings/api-tokens'));
    await press(page, 'New secret token');
    await press(page, 'Make token', 'dialog');
    await waitForText(page, 'Confirm it is you');
    expect(await bodyText(page)).not.toContain('Your new secret token');
    // A recovery code: the app's next step may be more than the one step ahead the server accepts.
    await page.fill('dialog input[name=code]', recovery[1]!);
    await press(page, 'Continue', 'dialog');
    await waitForText(page, 'Your new secret token, shown only now');
    expect(await bodyText(page)).toContain('tly_sec_');
  });
});
