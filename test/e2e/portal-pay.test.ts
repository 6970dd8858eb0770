// How a partner is paid and their tax form, in the portal in Chromium (issue 44): on the
// Earnings page a partner chooses PayPal at their own sign-in address, ready at once (the
// owner's API says so too), and gives a W-8BEN from the keyboard, then sees it valid with
// the taxpayer id masked, never whole. Then Stripe Connect's return and refresh URLs, Wise
// bank details from Wise's requirements (the fakes of test/collector), and the PayPal
// confirmation link's page, which confirms on the button only, once. Clean under axe-core,
// also at 360 px.

import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyring } from '../../packages/collector/src/platform/keyring.js';
import { portalLinkIn, startSmtp, type Inbox } from '../collector/smtp.js';
import { startStripeApi, type StripeApi } from '../collector/stripe-api.js';
import { startWiseApi, type WiseApi } from '../collector/wise-api.js';
import {
  acceptedPartner,
  apiWith,
  axeFindings,
  bodyText,
  overflowsSideways,
  press,
  redeemLink,
  typeW8ben,
  waitForText,
  type Api,
} from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

const TIN = 'DE 1234 567 8901';
const STRIPE_KEY = 'sk_test_portalpay0123456789';
const WISE_TOKEN = 'wise-portal-token-0123';
const WISE_PROFILE = 4242;
const IBAN = 'DE89370400440532013000';

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let api: Api;
let portal: Page;
let problems: string[];
let rosa: Awaited<ReturnType<typeof acceptedPartner>>;
let stripe: StripeApi;
let wise: WiseApi;
let inbox: Inbox;

beforeAll(async () => {
  browser = await launchChromium();
  // Tax forms are refused without TAX_FORM_KEY: the stack has one, as an instance that takes them.
  [stripe, wise, inbox] = await Promise.all([startStripeApi(STRIPE_KEY), startWiseApi(WISE_TOKEN, WISE_PROFILE), startSmtp()]);
  collector = await startDemoCollector({
    taxFormKeys: keyring(randomBytes(32).toString('base64')),
    stripeApiUrl: stripe.url,
    wiseApiUrl: wise.url,
    smtpUrl: inbox.url,
  });
  api = apiWith(collector.server.url, collector.server.firstProgram!.tokens.secret);
  rosa = await acceptedPartner(api, 'Rosa');
  portal = await (await browser.newContext()).newPage();
  problems = consoleProblems(portal);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
  await Promise.all([stripe?.close(), wise?.close(), inbox?.close()]);
});

describe('how a partner is paid, and their tax form, in the portal', () => {
  it('chooses PayPal at the sign-in address: ready at once', async () => {
    await api('POST', `/v1/partners/${rosa.id}/invitation`);
    // With mail configured (for the PayPal confirmation below), the invitation's link is e-mailed.
    await redeemLink(portal, portalLinkIn((await inbox.waitFor('rosa@partners.test', (raw) => portalLinkIn(raw) !== undefined)).raw)!);
    await portal.goto(`${collector.server.url}/portal/earnings`);
    await waitForText(portal, 'How you are paid');
    await waitForText(portal, 'Not ready yet: choose a method.');
    expect(await portal.isChecked('input[name=method][value=paypal]')).toBe(true);
    expect(await portal.inputValue('input[name=paypal_email]')).toBe('rosa@partners.test');
    await press(portal, 'Save payout method');
    await waitForText(portal, 'Ready: the next payout can pay you.');
    expect(await bodyText(portal)).toContain('You are paid through PayPal.');
    const owners = await api('GET', `/v1/partners/${rosa.id}/payout_method`);
    expect(owners.data.attributes).toMatchObject({ method: 'paypal', ready: true, paypal_email: 'rosa@partners.test' });
  });

  it('gives a W-8BEN from the keyboard and sees it valid, the taxpayer id masked', async () => {
    await waitForText(portal, 'Your tax form: missing');
    await typeW8ben(portal, portal, 'Rosa Example', TIN);
    // The form's status is read again after the answer: waited for with it, not read at once.
    await waitForText(portal, 'Tax form received.', 'Your tax form: valid');
    const text = await bodyText(portal);
    expect(text).toContain('W-8BEN, taxpayer id •••••8901');
    expect(text).toMatch(/Valid until Dec(ember)? 31, \d{4}\./);
    expect(text).not.toContain('1234 567');
    expect(await portal.inputValue('input[name=tin]')).toBe('');
    const owners = await api('GET', `/v1/partners/${rosa.id}/tax_form`);
    expect(owners.data.attributes).toMatchObject({ status: 'valid', form: { kind: 'w8ben', tin: '•••••8901', country: 'DE' } });
    expect(await axeFindings(portal)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('comes back from Stripe: the return URL reads the account, the refresh URL opens a fresh link', async () => {
    await api('PATCH', '/v1/program', { stripe_api_key: STRIPE_KEY });
    await api('PATCH', '/v1/program/payout_settings', { offered: ['paypal', 'stripe_connect'] });
    // Stripe's pages are not reachable here: the browser's visit to them is answered locally.
    const visited: string[] = [];
    // The page leaves for Stripe by itself: wait until it has loaded there, or the next visit is cut short.
    const leftForStripe = () => portal.waitForURL(/^https:\/\/connect\.stripe\.com\//);
    await portal.route('https://connect.stripe.com/**', (r) => {
      visited.push(r.request().url());
      return r.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><title>Stripe</title><main>Stripe</main></html>',
      });
    });
    await portal.goto(`${collector.server.url}/portal/earnings`);
    await portal.check('input[name=method][value=stripe_connect]');
    await portal.fill('section[aria-labelledby=payout-method] input[name=country]', 'US');
    await press(portal, 'Save payout method');
    await waitForText(portal, 'Not ready yet: finish setting up your account with Stripe.');
    await press(portal, 'Continue to Stripe');
    await leftForStripe();
    await expect.poll(() => visited.length).toBe(1);
    const link = stripe.calls.filter((c) => c.path === '/v1/account_links').at(-1)!.form;
    const account = stripe.accounts.get(link.account!)!;
    account.details_submitted = true;
    account.requirements = { ...account.requirements, currently_due: ['external_account'] };

    await portal.goto(link.return_url!);
    await waitForText(portal, 'Stripe still asks for: external_account.');
    expect(await bodyText(portal)).toContain('Stripe has not enabled payouts to your account yet.');
    expect(new URL(portal.url()).searchParams.get('stripe')).toBeNull();

    await portal.goto(link.refresh_url!);
    await leftForStripe();
    await expect.poll(() => visited.length).toBe(2);
    expect(stripe.calls.filter((c) => c.path === '/v1/account_links')).toHaveLength(2);

    account.payouts_enabled = true;
    account.requirements = { ...account.requirements, currently_due: [] };
    await portal.goto(link.return_url!);
    await waitForText(portal, 'Stripe has enabled payouts to your account.');
    await waitForText(portal, 'Ready: the next payout can pay you.');
    expect((await api('GET', `/v1/partners/${rosa.id}/payout_method`)).data.attributes).toMatchObject({
      method: 'stripe_connect',
      ready: true,
      payouts_enabled: true,
    });
  });

  it('fills the bank details Wise asks for the currency, and sees the bank account ready', async () => {
    await api('PATCH', '/v1/program/payout_settings', {
      offered: ['paypal', 'stripe_connect', 'wise'],
      wise_api_token: WISE_TOKEN,
      wise_profile_id: WISE_PROFILE,
    });
    await portal.goto(`${collector.server.url}/portal/earnings`);
    await waitForText(portal, 'How you are paid');
    await portal.focus('input[name=method][value=wise]');
    await portal.keyboard.press('Space');
    await portal.focus('section[aria-labelledby=payout-method] input[name=country]');
    await portal.keyboard.press('ControlOrMeta+a');
    await portal.keyboard.type('DE');
    await portal.focus('input[name=currency]');
    await portal.keyboard.type('GBP');
    // Two account types for pounds: a choice, each with its own fields.
    await waitForText(portal, 'Kind of bank account');
    expect(await bodyText(portal)).toContain('Bank details: Local bank account');
    expect(await portal.getAttribute('input[name="wise.sortCode"]', 'pattern')).toBe('^[0-9]{6}$');
    await portal.check('input[name=wise_type][value=iban]');
    await waitForText(portal, 'Bank details: IBAN');
    expect(await portal.$('input[name="wise.sortCode"]')).toBeNull();
    await portal.fill('input[name=currency]', '');
    await portal.focus('input[name=currency]');
    await portal.keyboard.type('EUR');
    await expect.poll(() => portal.$('input[name=wise_type][type=radio]')).toBeNull();
    // The fields are Wise's, under Wise's names, with its validation.
    await waitForText(portal, 'Bank details: IBAN');
    expect(await bodyText(portal)).toContain('Full name of the account holder');
    expect(await portal.getAttribute('input[name="wise.iban"]', 'pattern')).toBe('^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$');
    await portal.focus('input[name="wise.accountHolderName"]');
    await portal.keyboard.type('Rosa Example');
    await portal.focus('input[name="wise.iban"]');
    await portal.keyboard.type('DE00');
    expect(await portal.$eval('input[name="wise.iban"]', (e) => (e as HTMLInputElement).validity.patternMismatch)).toBe(true);
    await portal.fill('input[name="wise.iban"]', IBAN);
    await portal.focus('input[name="wise.iban"]');
    await portal.keyboard.press('Enter');
    await waitForText(portal, 'Bank account through Wise: iban •••• 3000 (EUR).');
    await waitForText(portal, 'Ready: the next payout can pay you.');
    const [recipient] = [...wise.recipients.values()].filter((r) => (r.details as Record<string, unknown>).iban === IBAN);
    expect(recipient).toMatchObject({ accountHolderName: 'Rosa Example', currency: 'EUR', profile: WISE_PROFILE });
    expect((await api('GET', `/v1/partners/${rosa.id}/payout_method`)).data.attributes).toMatchObject({
      method: 'wise',
      ready: true,
      wise_account: 'iban •••• 3000',
    });
    await portal.setViewportSize({ width: 360, height: 740 });
    try {
      expect(await overflowsSideways(portal)).toBe(false);
      expect(await axeFindings(portal)).toEqual([]);
    } finally {
      await portal.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('confirms a PayPal address on the button of the e-mailed link, once: a second use has expired', async () => {
    const address = 'rosa.wallet@paypal.test';
    await portal.goto(`${collector.server.url}/portal/earnings`);
    await portal.check('input[name=method][value=paypal]');
    await portal.fill('input[name=paypal_email]', address);
    await press(portal, 'Save payout method');
    await waitForText(portal, 'Not ready yet: check your inbox and open the link we sent to the PayPal address.');
    const message = await inbox.waitFor(address);
    const link = /https?:\/\/\S+\/portal\/payout-confirm#[\w-]+/.exec(message.raw.replace(/=\r?\n/g, ''))?.[0];
    expect(link).toBeDefined();

    // Opened where nobody is signed in, as from a mail client; small, as on a phone.
    const page = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
    const seen = consoleProblems(page);
    await page.goto(link!);
    await waitForText(page, 'Press the button to confirm that payouts go to this PayPal address.');
    // Opening the link (what a mail scanner does) confirmed nothing.
    expect((await api('GET', `/v1/partners/${rosa.id}/payout_method`)).data.attributes).toMatchObject({
      ready: false,
      reason: 'unconfirmed',
    });
    expect(await overflowsSideways(page)).toBe(false);
    expect(await axeFindings(page)).toEqual([]);
    await press(page, 'Confirm PayPal address');
    await waitForText(page, 'Your PayPal address is confirmed: payouts can go to it.');
    expect(page.url()).not.toContain('#');
    expect((await api('GET', `/v1/partners/${rosa.id}/payout_method`)).data.attributes).toMatchObject({
      method: 'paypal',
      ready: true,
      paypal_email: address,
    });

    expect(seen).toEqual([]);
    await page.context().close();

    // The link opened again, from the mail, in a new tab.
    const again = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
    const seenAgain = consoleProblems(again);
    await again.goto(link!);
    await press(again, 'Confirm PayPal address');
    await waitForText(again, 'This link has expired or was already used.');
    expect(await axeFindings(again)).toEqual([]);
    // The 404 of a spent token is the page's own sentence; the browser logs the failed request alone.
    expect(seenAgain.filter((p) => !p.includes('404'))).toEqual([]);
    await again.context().close();
    expect(problems).toEqual([]);
  });
});
