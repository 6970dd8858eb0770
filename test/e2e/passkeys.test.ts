// Passkeys in Chromium (docs/security.md), with its virtual authenticator (the DevTools
// protocol's WebAuthn domain: a platform authenticator that verifies its user): an owner adds
// a passkey under Settings → Security, signs in with it and no password, uses it as the second
// step after the password, and proves it is them again before making a secret token; a
// partner adds one in the portal and signs in with it alone.
//
// WebAuthn names sites by domain, never by IP address: this collector's public address is
// http://localhost:<port>, which is also a secure context without TLS.

import { createServer } from 'node:net';
import type { CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptedPartner,
  cleanAtBothWidths,
  dashboardStack,
  OWNER,
  press,
  redeemLink,
  signInFirst,
  waitForText,
  bodyText,
} from './dashboard.js';

let stack: Awaited<ReturnType<typeof dashboardStack>>;

/** Chromium's virtual platform authenticator on `page`, which verifies its user: a phone's or a laptop's. */
async function withAuthenticator(page: import('playwright-core').Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
let cdp: CDPSession;
let authenticatorId = '';
let base = '';

/** A port free now, for a collector whose public address must name it before it listens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  stack = await dashboardStack({ port, publicUrl: base });
  ({ cdp, authenticatorId } = await withAuthenticator(stack.page));
  await signInFirst(stack.page, stack.collector.server.firstSignInLink!);
});
afterAll(async () => {
  await stack?.close();
});

const at = (path: string) => `${base}/dashboard${path}`;

async function signOut(): Promise<void> {
  await press(stack.page, 'Sign out');
  await stack.page.waitForURL('**/dashboard/sign-in**');
}

describe('passkeys in Chromium', () => {
  it('adds a passkey from Settings → Security, with the recovery codes once, the page clean under axe', async () => {
    const { page } = stack;
    expect(stack.collector.server.firstSignInLink).toContain(base);
    await page.goto(at('/settings/security'));
    await press(page, 'Add a passkey');
    await waitForText(page, 'Your recovery codes');
    expect(await page.locator('.recovery-codes code').count()).toBe(10);
    await waitForText(page, /Passkey \(10 recovery codes left\)/);
    // The device holds one discoverable credential, for this site: what signs in without an address.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials.map((c) => [c.isResidentCredential, c.rpId])).toEqual([[true, 'localhost']]);
    await cleanAtBothWidths(page);
  });

  it('signs in with the passkey alone: no address, no password', async () => {
    const { page } = stack;
    await signOut();
    await press(page, 'Sign in with a passkey');
    await page.waitForURL('**/dashboard/');
    await waitForText(page, OWNER.email);
  });

  it('offers the passkey as the second step after the password', async () => {
    const { page } = stack;
    await signOut();
    await page.fill('input[name=email]', OWNER.email);
    await page.fill('input[name=password]', OWNER.password);
    await page.click('button[type=submit]');
    await waitForText(page, 'Two-step sign-in');
    await press(page, 'Use a passkey');
    await page.waitForURL('**/dashboard/');
  });

  it('proves it is the owner again with the passkey before making a secret token', async () => {
    const { page } = stack;
    await stack.collector.server.db.transaction((tx) => tx.run('UPDATE sessions SET verified_at = 0'));
    await page.goto(at('/settings/api-tokens'));
    await press(page, 'New secret token');
    await press(page, 'Make token', 'dialog');
    await waitForText(page, 'Confirm it is you');
    await press(page, 'Use a passkey', 'dialog');
    await waitForText(page, 'Your new secret token, shown only now');
    expect(await bodyText(page)).toContain('tly_sec_');
    // Only the refusal that asked for the proof: no page error (a part suspending with nobody to catch it).
    expect(stack.problems.filter((p) => !/Failed to load resource: .* 40[13]/.test(p))).toEqual([]);
  });

  it('lets a partner add a passkey in the portal and sign in with it alone', async () => {
    const kim = await acceptedPartner(stack.api, 'Kim');
    const context = await stack.browser.newContext();
    const portal = await context.newPage();
    try {
      await withAuthenticator(portal);
      await redeemLink(portal, (await stack.api('POST', `/v1/partners/${kim.id}/invitation`)).meta.link);
      await portal.goto(`${base}/portal/settings/security`);
      await press(portal, 'Add a passkey');
      await waitForText(portal, 'Your recovery codes');
      await waitForText(portal, /Passkey\s+added/);
      await cleanAtBothWidths(portal);
      await press(portal, 'Sign out');
      await portal.waitForURL('**/portal/sign-in**');
      await press(portal, 'Sign in with a passkey');
      await portal.waitForURL('**/portal/');
      const account = await portal.evaluate(async () => (await (await fetch('/v1/portal/account')).json()).data.attributes.email);
      expect(account).toBe('kim@partners.test');
    } finally {
      await context.close();
    }
  });
});
