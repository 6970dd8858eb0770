// How a partner is paid and their tax form, in the portal in Chromium (issue 44): on the
// Earnings page a partner chooses PayPal at their own sign-in address, ready at once (the
// owner's API says so too), and gives a W-8BEN from the keyboard, then sees it valid with
// the taxpayer id masked, never whole. The page is clean under axe-core.

import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyring } from '../../packages/collector/src/platform/keyring.js';
import { acceptedPartner, apiWith, axeFindings, bodyText, press, redeemLink, waitForText, type Api } from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

const TIN = 'DE 1234 567 8901';

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let api: Api;
let portal: Page;
let problems: string[];
let rosa: Awaited<ReturnType<typeof acceptedPartner>>;

beforeAll(async () => {
  browser = await launchChromium();
  // Tax forms are refused without TAX_FORM_KEY: the stack has one, as an instance that takes them.
  collector = await startDemoCollector({ taxFormKeys: keyring(randomBytes(32).toString('base64')) });
  api = apiWith(collector.server.url, collector.server.firstProgram!.tokens.secret);
  rosa = await acceptedPartner(api, 'Rosa');
  portal = await (await browser.newContext()).newPage();
  problems = consoleProblems(portal);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

describe('how a partner is paid, and their tax form, in the portal', () => {
  it('chooses PayPal at the sign-in address: ready at once', async () => {
    await redeemLink(portal, (await api('POST', `/v1/partners/${rosa.id}/invitation`)).meta.link as string);
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
    const fields: [string, string][] = [
      ['name', 'Rosa Example'],
      ['country', 'DE'],
      ['line1', 'Hauptstraße 1'],
      ['city', 'Berlin'],
      ['postal_code', '10115'],
      ['address_country', 'DE'],
      ['tin', TIN],
    ];
    for (const [name, value] of fields) {
      await portal.focus(`input[name=${name}]`);
      await portal.keyboard.type(value);
    }
    await portal.fill('input[name=date_of_birth]', '1990-04-01');
    await portal.focus('input[name=signature]');
    await portal.keyboard.type('Rosa Example');
    await portal.keyboard.press('Enter');
    await waitForText(portal, 'Tax form received.');
    const text = await bodyText(portal);
    expect(text).toContain('Your tax form: valid');
    expect(text).toContain('W-8BEN, taxpayer id •••••8901');
    expect(text).toMatch(/Valid until Dec(ember)? 31, \d{4}\./);
    expect(text).not.toContain('1234 567');
    expect(await portal.inputValue('input[name=tin]')).toBe('');
    const owners = await api('GET', `/v1/partners/${rosa.id}/tax_form`);
    expect(owners.data.attributes).toMatchObject({ status: 'valid', form: { kind: 'w8ben', tin: '•••••8901', country: 'DE' } });
    expect(await axeFindings(portal)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
