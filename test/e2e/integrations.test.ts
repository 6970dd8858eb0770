// Billing platforms in Chromium, as an owner connects and watches them: Settings →
// Integrations showing Stripe, Paddle and Lemon Squeezy, each with where to go, its webhook
// URL and the events to select; a Paddle secret refused in the API's words, then added; a
// Lemon Squeezy secret added and removed by keyboard alone, behind its confirmation; the
// Lemon Squeezy API key on its card alone, one refused in the API's words, set (a password
// field, then only its end shown) and removed after asking; the billing events of two
// platforms in one log, filtered by platform and type, one processed again (its id, with a
// ':', encoded in the path), and the old /stripe address leading there; the Stripe API key
// set (a password field, then only its ends shown) and removed; a code linked to a Stripe
// promotion code, one taken by another code refused in the dialog, and unlinked. Each page
// clean under axe-core and readable at 360 px.

import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptedPartner,
  apiWith,
  axeFindings,
  bodyText,
  choose,
  overflowsSideways,
  press,
  waitForText,
  type Api,
  signInFirst,
} from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';
import { invoice, newSecret, postEvent, stripeEvent } from '../collector/stripe-fixtures.js';
import { customer, newPaddleSecret, paddleEvent, paddleSignature, postPaddle } from '../collector/paddle-fixtures.js';
import { newLsSecret } from '../collector/lemonsqueezy-fixtures.js';

const PLATFORMS = [
  ['stripe', 'Stripe'],
  ['paddle', 'Paddle'],
  ['lemonsqueezy', 'Lemon Squeezy'],
  ['chargebee', 'Chargebee'],
  ['recurly', 'Recurly'],
  ['shopify', 'Shopify'],
] as const;
/** What each platform calls the secret it shows. */
const SECRET_NAMES = {
  stripe: 'Signing secret',
  paddle: 'Secret key',
  lemonsqueezy: 'Signing secret',
  chargebee: 'Basic auth username:password',
  recurly: 'Secret key',
  shopify: 'Signing key',
};

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let url: string;
let api: Api;
let page: Page;
let problems: string[];
/** Each platform's webhook URL as Settings shows it. */
const webhooks: Record<string, string> = {};
let paddleSecret: string;
let maya: { id: string; partnershipId: string };

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  url = collector.server.url;
  api = apiWith(url, collector.server.firstProgram!.tokens.secret);
  page = await (await browser.newContext()).newPage();
  problems = consoleProblems(page);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

const at = (path: string) => `${url}/dashboard${path}`;
const textOf = (selector: string) => page.locator(selector).innerText();
/** The rows of the page's table, as text. */
const rows = () => page.locator('.table tbody tr').allInnerTexts();

describe('billing platforms in Chromium', () => {
  it('Settings → Integrations shows Stripe, Paddle and Lemon Squeezy: where to go, the URL to paste, the events to select', async () => {
    await signInFirst(page, collector.server.firstSignInLink!);
    await page.goto(at('/settings#integrations'));
    await waitForText(page, 'Integrations');
    for (const [platform, title] of PLATFORMS) {
      const connection = (await api('GET', `/v1/integrations/${platform}`)).data.attributes;
      await page.waitForSelector(`#${platform} .steps`);
      expect(await textOf(`#${platform} h3`)).toBe(title);
      expect(await textOf(`#${platform} .panel-head`)).toContain('Not connected');
      const steps = await textOf(`#${platform} .steps`);
      expect(steps).toContain(`Go to ${connection.setup}.`);
      const shown = await textOf(`#${platform} .steps code.secret`);
      expect(shown).toBe(connection.endpoint_url);
      expect(new URL(shown).pathname).toMatch(new RegExp(`^/v1/integrations/${platform}/webhook/we_[\\w-]{16}$`));
      webhooks[platform] = shown;
      expect(await page.locator(`#${platform} .events li`).allInnerTexts()).toEqual(connection.events);
      expect(connection.events.length).toBeGreaterThan(2);
      // Labelled inputs: the secret's field is named by what the platform calls it.
      expect(await page.locator(`#${platform}`).getByLabel(SECRET_NAMES[platform]).getAttribute('name')).toBe('secret');
      expect(await page.locator(`#${platform}`).getByLabel('Label').getAttribute('name')).toBe('label');
    }
    expect(await textOf('#paddle .steps')).toContain('transaction.completed');
    expect(await textOf('#lemonsqueezy .steps')).toContain('order_created');
    expect(await textOf('#chargebee .steps')).toContain('payment_succeeded');
    expect(await textOf('#shopify .steps')).toContain('orders/paid');
    expect(await axeFindings(page)).toEqual([]);
  });

  it("adds a Paddle secret key: one of another platform is refused in the API's words, Paddle's is shown by its end", async () => {
    await page.fill('#paddle input[name=secret]', newSecret());
    await press(page, 'Connect', '#paddle');
    await waitForText(page, "The secret key must be Paddle's, as the notification destination shows it");
    expect(await textOf('#paddle [role=alert]')).toContain('pdl_ntfset_');
    expect((await api('GET', '/v1/integrations/paddle')).data.attributes.secrets).toEqual([]);

    paddleSecret = newPaddleSecret();
    expect(paddleSecret).toMatch(/^pdl_ntfset_[a-z0-9]{26}_[A-Za-z0-9+/]{32}$/);
    await page.fill('#paddle input[name=secret]', `  ${paddleSecret} `);
    await page.fill('#paddle input[name=label]', 'live');
    await press(page, 'Connect', '#paddle');
    await waitForText(page, `pdl_ntfset_…${paddleSecret.slice(-4)}`);
    expect(await textOf('#paddle [role=status]')).toBe('Saved.');
    expect(await page.locator('#paddle [role=alert]').count()).toBe(0);
    expect(await textOf('#paddle .panel-head')).toContain('Connected: 1 secret');
    expect(await textOf('#paddle .table')).toContain('live');
    // Shown by its end only, and the form emptied.
    expect(await bodyText(page)).not.toContain(paddleSecret.slice(11, 30));
    expect(await page.inputValue('#paddle input[name=secret]')).toBe('');
    // Connected, the form adds another (a rotation, test mode).
    expect(await textOf('#paddle form button[type=submit]')).toBe('Add secret');
    expect(await textOf('#stripe .panel-head')).toContain('Not connected');
  });

  it('adds a Lemon Squeezy signing secret and removes it behind its confirmation, by keyboard alone', async () => {
    const secret = newLsSecret();
    await page.focus('#lemonsqueezy input[name=secret]');
    await page.keyboard.type(secret);
    await page.keyboard.press('Tab');
    await page.keyboard.type('test mode');
    await page.keyboard.press('Enter');
    await waitForText(page, `…${secret.slice(-4)}`);
    expect(await textOf('#lemonsqueezy .panel-head')).toContain('Connected: 1 secret');
    expect(await textOf('#lemonsqueezy .table')).toContain('test mode');
    const [made] = (await api('GET', '/v1/integrations/lemonsqueezy')).data.attributes.secrets;
    expect(made.attributes).toMatchObject({ label: 'test mode', hint: `…${secret.slice(-4)}` });
    expect(await axeFindings(page)).toEqual([]);

    await page.focus('#lemonsqueezy .table button');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Remove test mode (…${secret.slice(-4)})`);
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog[open]');
    await waitForText(page, 'It is the last one: Lemon Squeezy is no longer connected');
    expect(await axeFindings(page)).toEqual([]); // the dialog open
    // Escape keeps it.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('dialog').count()).toBe(0);
    expect((await api('GET', '/v1/integrations/lemonsqueezy')).data.attributes.secrets).toHaveLength(1);
    await page.focus('#lemonsqueezy .table button');
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog[open]');
    // The dialog's first button is Cancel; the next one removes.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).innerText)).toBe('Remove');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('dialog').count()).toBe(0);
    await expect.poll(() => textOf('#lemonsqueezy .panel-head')).toContain('Not connected');
    expect(await page.locator('#lemonsqueezy .table').count()).toBe(0);
    expect((await api('GET', '/v1/integrations/lemonsqueezy')).data.attributes.secrets).toEqual([]);
    // The Paddle one stays.
    expect(await textOf('#paddle .panel-head')).toContain('Connected: 1 secret');
  });

  it("sets Lemon Squeezy's API key on its card (a password field, then its end only), refuses one in the API's words, and removes it after asking", async () => {
    const section = '#lemonsqueezy section.lemonsqueezy-key';
    await page.waitForSelector(section);
    expect(await textOf('#lemonsqueezy-key-title')).toBe('Lemon Squeezy API key');
    expect(await textOf(section)).toContain(
      'Optional: an API key lets Tally see which discount code an order used; without it, orders credit by link and e-mail only',
    );
    expect(await textOf(section)).toContain('No key is set.');
    // On Lemon Squeezy's card alone.
    expect(await page.locator('#stripe section.api-key, #paddle section.api-key').count()).toBe(0);
    expect(
      await page
        .locator(section)
        .getByRole('textbox', { name: /^API key/ })
        .getAttribute('name'),
    ).toBe('lemonsqueezy_api_key');
    const field = page.locator(`${section} input[name=lemonsqueezy_api_key]`);
    expect(await field.getAttribute('type')).toBe('password');

    // Not a token: refused in the API's words, nothing kept.
    await field.fill('not a key: it has spaces');
    await press(page, 'Save key', section);
    await waitForText(page, 'must be a Lemon Squeezy API key, as Settings → API shows it once');
    expect(await textOf(`${section} [role=alert]`)).toContain('must be a Lemon Squeezy API key');
    expect((await api('GET', '/v1/program')).data.attributes.lemonsqueezy_api_key_hint).toBeNull();

    // A token of letters, digits and dots, as Lemon Squeezy's are (a JWT).
    const key = [token(24), token(20), token(14)].join('.');
    expect(key).toMatch(/^[A-Za-z0-9.]{60}$/);
    await field.fill(key);
    await press(page, 'Save key', section);
    await waitForText(page, `A key is set: …${key.slice(-4)}`);
    expect(await textOf(`${section} [role=status]`)).toBe('Saved.');
    expect(
      await page
        .locator(section)
        .getByRole('textbox', { name: /^Replace it with another API key/ })
        .count(),
    ).toBe(1);
    expect(await page.locator(`${section} [role=alert]`).count()).toBe(0);
    expect(await field.inputValue()).toBe('');
    expect(await bodyText(page)).not.toContain(key.slice(0, 20));
    expect((await api('GET', '/v1/program')).data.attributes.lemonsqueezy_api_key_hint).toBe(`…${key.slice(-4)}`);
    // The Stripe key is another field: still none.
    expect((await api('GET', '/v1/program')).data.attributes.stripe_api_key_hint).toBeNull();
    expect(await axeFindings(page)).toEqual([]);

    // Cancel keeps it; the dialog's Remove key takes it.
    await press(page, 'Remove key', section);
    await waitForText(page, 'Remove the Lemon Squeezy API key?');
    expect(await textOf('dialog')).toContain('orders credit by link and e-mail only');
    expect(await axeFindings(page)).toEqual([]); // the dialog open
    await press(page, 'Cancel', 'dialog');
    await expect.poll(() => page.locator('dialog').count()).toBe(0);
    expect((await api('GET', '/v1/program')).data.attributes.lemonsqueezy_api_key_hint).toBe(`…${key.slice(-4)}`);
    await press(page, 'Remove key', section);
    await page.waitForSelector('dialog[open]');
    await press(page, 'Remove key', 'dialog');
    await expect.poll(() => page.locator('dialog').count()).toBe(0);
    await waitForText(page, 'Removed. Orders credit by link and e-mail only.');
    // Once the program is loaded again.
    await expect.poll(() => textOf(section)).toContain('No key is set.');
    expect(await page.locator(`${section} button:text-is("Remove key")`).count()).toBe(0);
    expect((await api('GET', '/v1/program')).data.attributes.lemonsqueezy_api_key_hint).toBeNull();
    expect(await axeFindings(page)).toEqual([]);
  });

  it('lists the events of two platforms in one log, filters it by platform and type, and processes one again', async () => {
    // Stripe connected over the API; an invoice of Bob's arrives, signed now.
    const stripeSecret = newSecret();
    await api('POST', '/v1/integrations/stripe/secrets', { secret: stripeSecret });
    const now = Math.floor(Date.now() / 1000);
    const invoicePaid = stripeEvent('invoice.paid', invoice({ customer: 'cus_e2eBob', amountPaid: 5_000, email: 'bob@customer.test' }), {
      created: now,
    });
    expect((await postEvent(webhooks.stripe!, invoicePaid, stripeSecret, { timestamp: now })).status).toBe(200);
    // Paddle tells of a customer, signed by the real clock (its library allows 5 seconds).
    const body = JSON.stringify(paddleEvent('customer.created', customer({ email: 'ann@customer.test' })));
    const endpoint = webhooks.paddle!.split('/').at(-1)!;
    const posted = await postPaddle({ url }, endpoint, body, paddleSignature(body, paddleSecret, Math.floor(Date.now() / 1000)));
    expect(posted.status).toBe(200);
    const paddleId: string = posted.body.data.id;
    expect(paddleId).toContain(':');

    await page.click('nav.side a:text-is("Billing events")');
    await page.waitForURL('**/dashboard/billing-events');
    // Polled by rows: until the log's chunk arrives, the Integrations page still shows, and names both events too.
    await expect.poll(rows).toHaveLength(2);
    expect(await page.getAttribute('nav.side a[aria-current=page]', 'href')).toBe('/dashboard/billing-events');
    const all = await rows();
    expect(all).toHaveLength(2);
    expect(all.find((r) => r.includes('invoice.paid'))).toContain('Stripe');
    expect(all.find((r) => r.includes('customer.created'))).toContain('Paddle');
    expect(await axeFindings(page)).toEqual([]);

    await choose(page, 'Platform', 'paddle');
    await page.waitForURL('**/billing-events?*platform_eq=paddle*');
    await expect.poll(rows).toEqual([expect.stringContaining('customer.created')]);
    expect((await rows())[0]).toContain('Paddle');
    expect(await page.inputValue('main select >> nth=0')).toBe('paddle');

    // Processed again by hand: the id's ':' is sent encoded.
    const sent: string[] = [];
    page.on('request', (r) => void (r.method() === 'POST' && sent.push(new URL(r.url()).pathname)));
    const attempts = async () => (await api('GET', `/v1/billing_events/${encodeURIComponent(paddleId)}`)).data.attributes.attempts;
    const before = await attempts();
    await press(page, 'Process again');
    await waitForText(page, `Process Paddle customer.created ${paddleId} again?`);
    await press(page, 'Cancel', 'dialog');
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    expect(await attempts()).toBe(before);
    expect(sent).toEqual([]);
    await press(page, 'Process again');
    await press(page, 'Process again', 'dialog');
    await waitForText(page, new RegExp(`Paddle customer\\.created ${paddleId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\w+`));
    expect(sent).toContain(`/v1/billing_events/${encodeURIComponent(paddleId)}/process`);
    expect(sent.at(-1)).toContain('%3A');
    expect(await attempts()).toBe(before + 1);

    // Another platform, none of its events: said so, with the way back.
    await choose(page, 'Platform', 'lemonsqueezy');
    await waitForText(page, 'No Lemon Squeezy events match these filters');
    await press(page, 'Show every event');
    await expect.poll(async () => (await rows()).length).toBe(2);

    // By type: typed, then Enter.
    await page.fill('input[name=type_eq]', 'invoice.paid');
    await page.press('input[name=type_eq]', 'Enter');
    await page.waitForURL('**/billing-events?*type_eq=invoice.paid*');
    await expect.poll(rows).toEqual([expect.stringContaining('invoice.paid')]);

    // The Stripe page's old address leads here, Stripe chosen.
    await page.goto(at('/stripe'));
    await page.waitForURL('**/dashboard/billing-events?platform_eq=stripe');
    await expect.poll(rows).toEqual([expect.stringContaining('invoice.paid')]);
    expect(await page.inputValue('main select >> nth=0')).toBe('stripe');
    expect(await axeFindings(page)).toEqual([]);
  });

  it('sets the Stripe API key in a password field, shows only its ends, and removes it', async () => {
    await page.goto(at('/settings#promotion-codes'));
    await waitForText(page, 'Stripe API key');
    // Lemon Squeezy's card says the same of its key: this one's section.
    await expect.poll(() => textOf('section.stripe-key')).toContain('No key is set.');
    await waitForText(page, 'Tally makes a code that has a discount in Stripe itself');
    expect(await page.getAttribute('input[name=stripe_api_key]', 'type')).toBe('password');

    await page.fill('input[name=stripe_api_key]', 'pk_test_notASecretKey123');
    await press(page, 'Save key');
    await waitForText(page, 'must be a Stripe API key: rk_test_…, rk_live_…');
    expect((await api('GET', '/v1/program')).data.attributes.stripe_api_key_hint).toBeNull();

    const key = 'rk_test_51TallyE2eRestrictedKey9z';
    await page.fill('input[name=stripe_api_key]', key);
    await press(page, 'Save key');
    await waitForText(page, `A key is set: rk_test_…${key.slice(-4)}`);
    expect(await textOf('section.stripe-key [role=status]')).toBe('Saved.');
    expect(await page.inputValue('input[name=stripe_api_key]')).toBe('');
    expect(await bodyText(page)).not.toContain(key);
    expect((await api('GET', '/v1/program')).data.attributes.stripe_api_key_hint).toBe(`rk_test_…${key.slice(-4)}`);
    expect(await axeFindings(page)).toEqual([]);

    await press(page, 'Remove key');
    await waitForText(page, 'Remove the Stripe API key?');
    await press(page, 'Remove key', 'dialog');
    await waitForText(page, 'Removed. Tally makes no more codes in Stripe.');
    await expect.poll(() => textOf('section.stripe-key')).toContain('No key is set.');
    expect(await page.locator('section.stripe-key button:text-is("Remove key")').count()).toBe(0);
    expect((await api('GET', '/v1/program')).data.attributes.stripe_api_key_hint).toBeNull();
  });

  it("links a partner's code to a Stripe promotion code; one another code has is refused in the dialog; then unlinks it", async () => {
    maya = await acceptedPartner(api, 'Maya');
    const codeIds: Record<string, string> = {};
    for (const code of ['MAYA20', 'MAYA10'])
      codeIds[code] = (await api('POST', '/v1/discount_codes', { partnership_id: maya.partnershipId, code })).data.id;
    const promoOf = async (code: string) =>
      (await api('GET', `/v1/discount_codes/${codeIds[code]}`)).data.attributes.stripe_promotion_code_id;
    const rowOf = (code: string) => page.locator('tr', { has: page.locator(`code:text-is("${code}")`) }).innerText();

    await page.goto(at(`/partners/${maya.id}`));
    await waitForText(page, 'MAYA10');
    await page.click('button[aria-label="Link MAYA20 to a Stripe promotion code"]');
    await page.waitForSelector('dialog[open]');
    // The dialog is its one field, focused.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('stripe_promotion_code_id');
    await page.keyboard.type('promo_1Maya20');
    await press(page, 'Link', 'dialog');
    await expect.poll(() => page.locator('dialog').count()).toBe(0);
    await expect.poll(() => rowOf('MAYA20')).toContain('promo_1Maya20');
    expect(await promoOf('MAYA20')).toBe('promo_1Maya20');

    await page.click('button[aria-label="Link MAYA10 to a Stripe promotion code"]');
    await page.fill('dialog input[name=stripe_promotion_code_id]', 'promo_1Maya20');
    await press(page, 'Link', 'dialog');
    await waitForText(page, 'Another code of this program is this Stripe promotion code');
    expect(await textOf('dialog [role=alert]')).toContain('Another code of this program is this Stripe promotion code');
    expect(await axeFindings(page)).toEqual([]); // the dialog open, with its error
    await press(page, 'Cancel', 'dialog');
    await expect.poll(() => page.locator('dialog').count()).toBe(0);
    expect(await promoOf('MAYA10')).toBeNull();

    await page.click('button[aria-label="Unlink MAYA20 from promo_1Maya20"]');
    await waitForText(page, 'Unlink MAYA20 from promo_1Maya20?');
    await press(page, 'Unlink', 'dialog');
    await page.waitForSelector('button[aria-label="Link MAYA20 to a Stripe promotion code"]');
    expect(await rowOf('MAYA20')).not.toContain('promo_1Maya20');
    expect(await promoOf('MAYA20')).toBeNull();
    expect(await axeFindings(page)).toEqual([]);
  });

  it("Settings, the billing events and the partner's page are readable at 360 px", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      for (const [path, shows] of [
        ['/settings/integrations', 'Lemon Squeezy'],
        ['/billing-events', 'customer.created'],
        [`/partners/${maya.id}`, 'MAYA10'],
      ] as const) {
        await page.goto(at(path));
        await waitForText(page, shows);
        expect(await overflowsSideways(page), path).toBe(false);
      }
      await page.goto(at('/settings/integrations'));
      await page.waitForSelector('#paddle .steps');
      await page.locator('#integrations').screenshot({ path: join(shots(), 'dashboard-integrations-360.png') });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('left nothing in the console but the refusals it asked for', () => {
    // The 422 and 409 answers the tests provoked are logged by the browser as resources that failed to load.
    expect(problems.filter((p) => !/Failed to load resource/.test(p))).toEqual([]);
  });
});

/** n random letters and digits. */
function token(n: number): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(n), (b) => letters[b % letters.length]).join('');
}

function shots(): string {
  const dir = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tally-shots');
  mkdirSync(dir, { recursive: true });
  return dir;
}
