// How a partner is paid, set inside the embed in Chromium (issue 44, docs/embed.md): in the
// frame on the company's page (another origin), the partner starts Stripe's onboarding, which
// opens in a window of its own and comes back to the embed's page there, then reads the
// account again in the frame; chooses Wise and fills the bank details Wise asks for; and gives
// a W-8BEN from the keyboard, seen valid with the taxpayer id masked. Stripe and Wise are the
// fakes of test/collector; Stripe's pages are answered locally. Clean under axe-core, also at
// 360 px.

import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyring } from '../../packages/collector/src/platform/keyring.js';
import { startStripeApi, type StripeApi } from '../collector/stripe-api.js';
import { startWiseApi, type WiseApi } from '../collector/wise-api.js';
import { type Api, apiWith, axeFindings, bodyText, press, typeW8ben, waitForText } from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, Site, startDemoCollector } from './stack.js';

const STRIPE_KEY = 'sk_test_embedpay0123456789';
const WISE_TOKEN = 'wise-embed-token-0123';
const WISE_PROFILE = 4343;
const IBAN = 'DE89370400440532013000';
const TIN = 'DE 1234 567 8901';

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let api: Api;
let stripe: StripeApi;
let wise: WiseApi;
const site = new Site();
let context: BrowserContext;
let page: Page;
let embed: Page;
let problems: string[];
let partnerId: string;

beforeAll(async () => {
  browser = await launchChromium();
  [stripe, wise] = await Promise.all([startStripeApi(STRIPE_KEY), startWiseApi(WISE_TOKEN, WISE_PROFILE)]);
  collector = await startDemoCollector({
    taxFormKeys: keyring(randomBytes(32).toString('base64')),
    stripeApiUrl: stripe.url,
    wiseApiUrl: wise.url,
  });
  api = apiWith(collector.server.url, collector.server.firstProgram!.tokens.secret);
  await site.start();
  await api('PATCH', '/v1/program', { allowed_origins: [site.origin('app.shop.test')], stripe_api_key: STRIPE_KEY });
  await api('PATCH', '/v1/program/payout_settings', {
    offered: ['paypal', 'stripe_connect', 'wise'],
    wise_api_token: WISE_TOKEN,
    wise_profile_id: WISE_PROFILE,
  });
  const made = await api('POST', '/v1/embed_tokens', { user_id: 'acme-payee', name: 'Pia Example', email: 'pia@acme.test' });
  partnerId = made.data.relationships.partner.data.id;
  site.set(
    '/account/payouts',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>Acme: payouts</title><style>body{margin:0;font:15px system-ui,sans-serif}iframe{width:100%;height:1400px;border:0}</style></head>
<body><main><h1>Referrals</h1><iframe src="${made.data.attributes.url}" title="Your referral link and earnings" onload="window.framed=true"></iframe></main></body></html>`,
  );
  context = await browser.newContext({ locale: 'en-US' });
  page = await context.newPage();
  problems = consoleProblems(page);
  await page.goto(`${site.origin('app.shop.test')}/account/payouts`);
  await page.waitForFunction(() => (window as unknown as { framed?: boolean }).framed === true);
  // The helpers take a page; a frame answers the same calls.
  embed = page.frames().find((f: Frame) => f !== page.mainFrame()) as unknown as Page;
  await embed.waitForSelector('#payout-method');
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
  await site.close();
  await Promise.all([stripe?.close(), wise?.close()]);
});

const owners = async (path: string) => (await api('GET', `/v1/partners/${partnerId}/${path}`)).data.attributes;

describe('how a partner is paid, inside the embed', () => {
  it('starts Stripe onboarding in a window of its own, which comes back to the embed page; the frame then reads the account', async () => {
    await embed.check('input[name=method][value=stripe_connect]');
    await embed.fill('section[aria-labelledby=payout-method] input[name=country]', 'US');
    await press(embed, 'Save payout method');
    await waitForText(embed, 'Not ready yet: finish setting up your account with Stripe.');
    expect(await bodyText(embed)).toContain('Stripe opens in a new window.');
    // Stripe's pages are not reachable here: the window's visit to them is answered locally.
    await context.route('https://connect.stripe.com/**', (r) =>
      r.fulfill({ contentType: 'text/html', body: '<!doctype html><html lang="en"><title>Stripe</title><main>Stripe</main></html>' }),
    );
    const opened = context.waitForEvent('page');
    await embed.click('button:text-is("Continue to Stripe")');
    const stripeWindow = await opened;
    await stripeWindow.waitForURL(/^https:\/\/connect\.stripe\.com\/setup\/e\/acct_/);
    // The company's page stayed where it was, with the embed in it.
    expect(page.url()).toBe(`${site.origin('app.shop.test')}/account/payouts`);
    const link = stripe.calls.filter((c) => c.path === '/v1/account_links').at(-1)!.form;
    expect(link.return_url).toBe(`${collector.server.url}/embed/?stripe=return`);

    const account = stripe.accounts.get(link.account!)!;
    account.details_submitted = true;
    account.payouts_enabled = true;
    account.requirements = { ...account.requirements, currently_due: [] };
    await stripeWindow.goto(link.return_url!);
    await waitForText(stripeWindow, 'Back from Stripe');
    expect(await bodyText(stripeWindow)).toContain('You can close this window and go back to the page you came from');
    expect(await axeFindings(stripeWindow)).toEqual([]);
    await stripeWindow.goto(link.refresh_url!);
    await waitForText(stripeWindow, 'This Stripe link has expired');
    await stripeWindow.close();

    await press(embed, 'I have finished at Stripe: check again');
    await waitForText(embed, 'Stripe has enabled payouts to your account.');
    await waitForText(embed, 'Ready: the next payout can pay you.');
    expect(await owners('payout_method')).toMatchObject({ method: 'stripe_connect', ready: true, payouts_enabled: true });
  });

  it('chooses Wise and fills the bank details Wise asks for, from the keyboard', async () => {
    await embed.focus('input[name=method][value=wise]');
    await page.keyboard.press('Space');
    await embed.focus('section[aria-labelledby=payout-method] input[name=country]');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('DE');
    await embed.focus('input[name=currency]');
    await page.keyboard.type('EUR');
    await waitForText(embed, 'Bank details: IBAN');
    await embed.focus('input[name="wise.accountHolderName"]');
    await page.keyboard.type('Pia Example');
    await embed.focus('input[name="wise.iban"]');
    await page.keyboard.type(IBAN);
    await page.keyboard.press('Enter');
    await waitForText(embed, 'Bank account through Wise: iban •••• 3000 (EUR).');
    await waitForText(embed, 'Ready: the next payout can pay you.');
    const [recipient] = [...wise.recipients.values()].filter((r) => (r.details as Record<string, unknown>).iban === IBAN);
    expect(recipient).toMatchObject({ accountHolderName: 'Pia Example', currency: 'EUR', profile: WISE_PROFILE });
    expect(await owners('payout_method')).toMatchObject({ method: 'wise', ready: true, wise_account: 'iban •••• 3000' });
  });

  it('gives a W-8BEN from the keyboard and sees it valid, the taxpayer id masked; clean under axe-core, also at 360 px', async () => {
    await waitForText(embed, 'Your tax form: missing');
    await typeW8ben(embed, page, 'Pia Example', TIN);
    // The form's status is read again after the answer: waited for with it, not read at once.
    await waitForText(embed, 'Tax form received.', 'Your tax form: valid');
    const text = await bodyText(embed);
    expect(text).toContain('W-8BEN, taxpayer id •••••8901');
    expect(text).not.toContain('1234 567');
    expect(await owners('tax_form')).toMatchObject({ status: 'valid', form: { kind: 'w8ben', tin: '•••••8901' } });
    expect(await axeFindings(embed)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await embed.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    expect(await axeFindings(embed)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
