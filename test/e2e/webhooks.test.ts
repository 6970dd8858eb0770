// Outgoing webhooks in the dashboard, in Chromium, against a real receiving server: an
// endpoint added in the settings (a refused URL said beside its field), its secret seen
// once and copied; a test event that arrives signed by that secret and shows as succeeded
// with its attempt; an answer of 500 that leaves a delivery pending with the error, sent
// again with Resend; the secret rotated, the endpoint disabled and deleted, each after
// asking; an endpoint added from the keyboard alone. Both pages clean under axe-core and
// at 360 px. The collector may send to http://127.0.0.1 here, as WEBHOOK_ALLOW_HTTP=1 and
// WEBHOOK_ALLOW_PRIVATE=1 allow.

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedBy, startReceiver, type Receiver } from '../collector/receiver.js';
import { apiWith, axeFindings, bodyText, choose, overflowsSideways, press, waitForText, type Api } from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

const OWNER = { email: 'owner@company.test', password: 'a long owner password' };

let browser: Browser;
let receiver: Receiver;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let api: Api;
let context: BrowserContext;
let page: Page;
let problems: string[];
/** What the test read from the page: the endpoint's id, and the secret as copied. */
let endpointId: string;
let secret: string;

beforeAll(async () => {
  browser = await launchChromium();
  receiver = await startReceiver();
  collector = await startDemoCollector({}, { outbound: { allowHttp: true, allowPrivate: true } });
  api = apiWith(collector.server.url, collector.server.firstProgram!.tokens.secret);
  context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  problems = consoleProblems(page);
  await page.goto(collector.server.firstSignInLink!);
  await page.fill('input[name=email]', OWNER.email);
  await page.fill('input[name=password]', OWNER.password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/dashboard/');
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
  await receiver?.close();
});

const at = (path: string) => `${collector.server.url}/dashboard${path}`;
const hook = () => `${receiver.url}/hooks`;

/** The deliveries table's rows as a person reads them, newest first. */
const deliveryRows = () =>
  page.evaluate(() =>
    [...document.querySelectorAll('[aria-label="Webhook deliveries"] tbody tr')].map((tr) => {
      const [created, event, state, attempts, answer, next] = [...tr.querySelectorAll('td')].map((td) => td.innerText.trim());
      return { created, event, state, attempts, answer, next };
    }),
  );

/** The opened delivery's attempts, oldest first. */
const attemptRows = () =>
  page.evaluate(() =>
    [...document.querySelectorAll('[aria-label="Attempts"] tbody tr')].map((tr) => {
      const [time, status, duration, error, answer] = [...tr.querySelectorAll('td')].map((td) => td.innerText.trim());
      return { time, status, duration, error, answer };
    }),
  );

describe('webhooks in the dashboard, in Chromium', () => {
  it('says what webhooks are for while there are none, clean under axe-core', async () => {
    await page.goto(at('/settings/webhooks'));
    await waitForText(page, 'No webhook endpoints yet');
    expect(await bodyText(page)).toContain('has a receiver that verifies it in a few lines');
    // The guide it links is served by the collector itself.
    const guide = await page.getAttribute('a:has-text("The webhooks guide")', 'href');
    expect((await fetch(new URL(guide!, page.url()))).status).toBe(200);
    expect(await page.getAttribute('#webhooks a', 'href')).toBe('https://www.standardwebhooks.com/');
    expect(await axeFindings(page)).toEqual([]);
  });

  it('says beside the URL field why a URL is refused, and adds nothing', async () => {
    await press(page, 'Add endpoint');
    await page.fill('#webhooks input[name=url]', 'ftp://files.example/hooks');
    await press(page, 'Add endpoint', '#webhooks form');
    await waitForText(page, 'The webhook URL must be https:// or http://');
    const described = await page.evaluate(() => {
      const input = document.querySelector<HTMLInputElement>('#webhooks input[name=url]')!;
      return {
        invalid: input.getAttribute('aria-invalid'),
        says: document.getElementById(input.getAttribute('aria-describedby')!)?.innerText,
      };
    });
    expect(described).toEqual({ invalid: 'true', says: expect.stringContaining('must be https:// or http://') });
    expect((await api('GET', '/v1/webhook_endpoints')).data).toEqual([]);
  });

  it('adds an endpoint for the receiver, shows its secret once with a copy button, and never again', async () => {
    await page.fill('#webhooks input[name=url]', hook());
    await page.fill('#webhooks input[name=description]', 'our CRM');
    await press(page, 'Add endpoint', '#webhooks form');
    await waitForText(page, 'it will not be shown again');
    const shown = (await page.textContent('#webhooks .notice p:nth-child(2) code.secret'))!;
    expect(shown).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    await press(page, 'Copy', '#webhooks .notice');
    await waitForText(page, 'Copied');
    secret = await page.evaluate(() => navigator.clipboard.readText());
    expect(secret).toBe(shown);
    // The table shows it by its last letters, with all events and enabled.
    await waitForText(page, 'our CRM');
    const [endpoint] = (await api('GET', '/v1/webhook_endpoints')).data;
    endpointId = endpoint.id;
    expect(endpoint.attributes).toMatchObject({ url: hook(), event_types: [], enabled: true, secret_hint: `whsec_…${secret.slice(-4)}` });
    expect(endpoint.attributes.secret).toBeUndefined();
    const body = await bodyText(page);
    expect(body).toContain('all events');
    expect(body).toContain(`whsec_…${secret.slice(-4)}`);
    // Reloaded, the page has only the hint.
    await page.goto(at('/settings/webhooks'));
    await waitForText(page, 'our CRM');
    expect(await bodyText(page)).not.toContain(secret.slice(6, 30));
  });

  it('asks before sending a test event (Cancel sends none), then sends one that the receiver gets, signed with the copied secret, and its page shows it succeeded with its attempt', async () => {
    await press(page, 'Send test event', '#webhooks');
    await waitForText(page, `Send a test event to ${hook()}?`);
    await press(page, 'Cancel', 'dialog');
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    expect((await api('GET', `/v1/webhook_endpoints/${endpointId}/deliveries`)).data).toEqual([]);
    await press(page, 'Send test event', '#webhooks');
    await press(page, 'Send', 'dialog');
    await waitForText(page, 'A test event is on its way');
    const [got] = await receiver.waitFor(1, '/hooks');
    expect(got!.json).toMatchObject({ type: 'webhook.test', data: { id: endpointId, type: 'webhook_endpoint' } });
    expect(signedBy(secret, got!)).toBe(true);
    expect(signedBy(`whsec_${Buffer.alloc(24).toString('base64')}`, got!)).toBe(false);

    await press(page, 'Deliveries', '#webhooks');
    await page.waitForURL(`**/dashboard/settings/webhooks/${endpointId}`);
    await waitForText(page, 'Webhook deliveries');
    // The page asks again by itself while the delivery is due: no reload needed.
    await expect
      .poll(deliveryRows, { timeout: 10_000 })
      .toMatchObject([{ event: 'webhook.test', state: 'succeeded', attempts: '1', answer: '200', next: '—' }]);
    await press(page, 'Open');
    await waitForText(page, 'Delivery of webhook.test');
    expect(await page.textContent('section[aria-labelledby=delivery-title] dd code')).toBe(got!.json.id);
    const attempts = await attemptRows();
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ status: '200', error: '—', answer: 'ok' });
    expect(attempts[0]!.duration).toMatch(/^\d[\d,.\s]* ms$/);
    expect(await axeFindings(page)).toEqual([]);
  });

  it('shows an answer of 500 as pending with the error and the next attempt, and Resend sends the event again', async () => {
    // An hour's Retry-After keeps the failed delivery pending while the test looks at it.
    receiver.answer.set('/hooks', () => ({ status: 500, headers: { 'retry-after': '3600' } }));
    await press(page, 'Close');
    await press(page, 'Send test event');
    await waitForText(page, 'Send a test event to this endpoint?');
    await press(page, 'Send', 'dialog');
    await waitForText(page, 'A test event is on its way: it appears below.');
    await receiver.waitFor(2, '/hooks');
    await expect
      .poll(async () => (await deliveryRows())[0], { timeout: 10_000 })
      .toMatchObject({ event: 'webhook.test', state: 'pending', attempts: '1', answer: 'HTTP 500' });
    const [failing] = await deliveryRows();
    expect(failing!.next).not.toBe('—');
    // The endpoint says it has been failing since then.
    await waitForText(page, 'failing since');

    await choose(page, 'State', 'pending');
    await expect.poll(deliveryRows).toHaveLength(1);
    await press(page, 'Open');
    await waitForText(page, 'next attempt');
    await expect.poll(attemptRows).toMatchObject([{ status: '500', error: 'HTTP 500', answer: 'ok' }]);
    expect(await axeFindings(page)).toEqual([]);

    receiver.answer.delete('/hooks');
    await press(page, 'Resend');
    await waitForText(page, 'Sent again, as a new delivery');
    const again = await receiver.waitFor(3, '/hooks');
    expect(again[2]!.json.id).toBe(again[1]!.json.id); // the same event: a receiver drops repeats by its id
    expect(signedBy(secret, again[2]!)).toBe(true);
    // The new delivery is the one opened, and it succeeded.
    await expect.poll(attemptRows, { timeout: 10_000 }).toMatchObject([{ status: '200', error: '—' }]);
    await choose(page, 'State', '');
    await expect
      .poll(async () => (await deliveryRows()).map((r) => r.state), { timeout: 10_000 })
      .toEqual(['succeeded', 'pending', 'succeeded']);
    // Its success ended the endpoint's run of failures.
    await expect.poll(async () => (await api('GET', `/v1/webhook_endpoints/${endpointId}`)).data.attributes.failing_since).toBeUndefined();
  });

  it('rotates the secret only after asking, shows the new one once, and both sign for the day after', async () => {
    await page.goto(at('/settings/webhooks'));
    await waitForText(page, 'our CRM');
    await press(page, 'Rotate secret', '#webhooks');
    await waitForText(page, 'Rotate its signing secret?');
    await press(page, 'Cancel', 'dialog');
    await expect.poll(() => page.evaluate(() => document.querySelector('dialog') === null)).toBe(true);
    expect((await api('GET', `/v1/webhook_endpoints/${endpointId}`)).data.attributes.secret_hint).toBe(`whsec_…${secret.slice(-4)}`);
    await press(page, 'Rotate secret', '#webhooks');
    await waitForText(page, 'Rotate its signing secret?');
    await press(page, 'Rotate secret', 'dialog');
    await waitForText(page, 'The new signing secret');
    await waitForText(page, 'The old secret also signs every webhook until');
    const rotated = (await page.textContent('#webhooks .notice p:nth-child(2) code.secret'))!;
    expect(rotated).not.toBe(secret);
    await press(page, 'Send test event', '#webhooks');
    await press(page, 'Send', 'dialog');
    const [, , , got] = await receiver.waitFor(4, '/hooks');
    expect(signedBy(rotated, got!)).toBe(true);
    expect(signedBy(secret, got!)).toBe(true);
    secret = rotated;
  });

  it('disables the endpoint after asking, says so on both pages, and enables it again', async () => {
    await press(page, 'Disable', '#webhooks');
    await waitForText(page, 'Disable this endpoint?');
    await press(page, 'Disable', 'dialog');
    await waitForText(page, 'disabled: by its owner');
    expect((await api('GET', `/v1/webhook_endpoints/${endpointId}`)).data.attributes.enabled).toBe(false);
    await page.goto(at(`/settings/webhooks/${endpointId}`));
    await waitForText(page, 'disabled: by its owner');
    await waitForText(page, 'Enable it in the settings');
    await press(page, 'Enable it in the settings');
    await waitForText(page, 'our CRM');
    await press(page, 'Enable', '#webhooks');
    await waitForText(page, 'Enable this endpoint?');
    await press(page, 'Enable', 'dialog');
    await expect.poll(async () => (await api('GET', `/v1/webhook_endpoints/${endpointId}`)).data.attributes.enabled).toBe(true);
    await waitForText(page, 'enabled');
  });

  it('adds an endpoint for some events from the keyboard alone', async () => {
    await page.goto(at('/settings/webhooks'));
    await waitForText(page, 'our CRM');
    const focused = () =>
      page.evaluate(
        () => (document.activeElement as HTMLElement | null)?.innerText?.trim() || document.activeElement?.getAttribute('name'),
      );
    for (let i = 0; i < 80 && (await focused()) !== 'Add endpoint'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('url'); // the form opened with the URL field focused
    await page.keyboard.type(`${receiver.url}/payouts`);
    await page.keyboard.press('Tab'); // description
    await page.keyboard.press('Tab'); // "All events", the group's chosen radio
    await page.keyboard.press('ArrowDown'); // "Only these"
    await waitForText(page, 'payout.paid');
    await page.keyboard.press('Tab'); // the first type
    await page.keyboard.press('Space');
    for (let i = 0; i < 20 && (await focused()) !== 'Add endpoint'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await waitForText(page, 'it will not be shown again');
    // Focus went to the secret, so the next Tab is its copy button.
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('notice'))).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Copy');
    const made = (await api('GET', '/v1/webhook_endpoints')).data.find((e: any) => e.attributes.url.endsWith('/payouts'));
    expect(made.attributes.event_types).toEqual(['referral.created']);
    await waitForText(page, 'referral.created');
  });

  it('shows both pages clean under axe-core and readable at 360 px', async () => {
    await page.goto(at('/settings/webhooks'));
    await waitForText(page, 'our CRM');
    await press(page, 'Add endpoint');
    await page.click('#webhooks input[type=radio]:not(:checked)');
    await waitForText(page, 'payout.paid');
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      expect(await overflowsSideways(page), 'settings').toBe(false);
      await page.goto(at(`/settings/webhooks/${endpointId}`));
      await waitForText(page, 'Webhook deliveries');
      await expect.poll(deliveryRows).toHaveLength(4);
      await press(page, 'Open');
      await waitForText(page, 'Delivery of webhook.test');
      expect(await overflowsSideways(page), 'deliveries').toBe(false);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('opens a delivery from the keyboard, and deletes an endpoint only after asking', async () => {
    await page.goto(at(`/settings/webhooks/${endpointId}`));
    await expect.poll(deliveryRows).toHaveLength(4);
    const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText?.trim());
    for (let i = 0; i < 80 && (await focused()) !== 'Open'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await waitForText(page, 'Delivery of webhook.test');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('delivery-title');

    await page.goto(at('/settings/webhooks'));
    await waitForText(page, 'our CRM');
    // The first endpoint is the second row: newest first.
    const row = '#webhooks tbody tr:nth-child(2)';
    expect(await page.textContent(`${row} code`)).toBe(hook());
    await press(page, 'Delete', row);
    await waitForText(page, 'Delete this endpoint?');
    await press(page, 'Cancel', 'dialog');
    await expect.poll(() => page.evaluate(() => document.querySelector('dialog') === null)).toBe(true);
    expect((await api('GET', '/v1/webhook_endpoints')).data).toHaveLength(2);
    await press(page, 'Delete', row);
    await waitForText(page, 'Delete this endpoint?');
    await press(page, 'Delete', 'dialog');
    await expect.poll(async () => (await api('GET', '/v1/webhook_endpoints')).data.map((e: any) => e.id)).not.toContain(endpointId);
    await page.goto(at(`/settings/webhooks/${endpointId}`));
    await waitForText(page, 'No webhook endpoint');
    expect(problems.filter((p) => !/404|422|Failed to load resource/.test(p))).toEqual([]);
  });
});
