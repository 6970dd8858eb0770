// A payout run from the dashboard in Chromium (issue 44), against a local PayPal answering as
// its Payouts reference documents (test/collector/paypal-api.ts): the owner connects the
// PayPal app in Settings → Integrations (the secret then shown only by its end), sets the
// payout methods and, by keyboard, the payout schedule; the partner pages say who is ready;
// on Payouts the owner makes a run (one payout, one partner skipped with the reason), an
// admin is told it waits for an owner, the owner approves it by keyboard alone behind its
// question and sends it; PayPal's signed webhook marks one payout paid and a refresh the
// other; a payout PayPal failed shows its reason and is retried alone; each payout shows
// PayPal's fee apart and its invoice, and one returned after it was paid its credit note,
// there and in the partner's portal; once the owner's proof is old, approving asks for it again
// first (step-up). Each page is clean under axe-core and readable at 360 px.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiWith,
  axeFindings,
  bodyText,
  OWNER,
  overflowsSideways,
  press,
  redeemLink,
  signInFirst,
  waitForText,
  type Api,
} from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';
import { CLIENT, FakePaypal, WEBHOOK_ID } from '../collector/paypal-api.js';

let dir: string;
let paypal: FakePaypal;
let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let url: string;
let api: Api;
let page: Page;
let problems: string[];
const partners: Record<string, string> = {};

/**
 * A partner owed `amount` USD cents; `paypal`: their sign-in address is their PayPal address
 * on the record, so they are ready at once (another address waits for their confirmation).
 */
async function owedPartner(name: string, amount: number, paypal: boolean): Promise<string> {
  const email = `${name.toLowerCase()}@partners.test`;
  const made = await api('POST', '/v1/partners', { name, email, ...(paypal ? { paypal_email: email } : {}) });
  await api('POST', '/v1/partnerships', { partner_id: made.data.id, state: 'accepted' });
  await api('POST', '/v1/commissions', { partner_id: made.data.id, amount, currency: 'USD' });
  return made.data.id;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tally-dash-paypal-'));
  paypal = new FakePaypal(dir);
  await paypal.start();
  browser = await launchChromium();
  collector = await startDemoCollector({ paypalApiUrl: paypal.url });
  url = collector.server.url;
  api = apiWith(url, collector.server.firstProgram!.tokens.secret);
  partners.ana = await owedPartner('Ana', 2500, true);
  partners.ben = await owedPartner('Ben', 1200, true);
  partners.cleo = await owedPartner('Cleo', 700, false);
  page = await (await browser.newContext()).newPage();
  problems = consoleProblems(page);
  await signInFirst(page, collector.server.firstSignInLink!);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
  await paypal?.close();
  rmSync(dir, { recursive: true, force: true });
});

const at = (path: string) => `${url}/dashboard${path}`;
/** The rows of the run's payouts, as text. */
const payoutRows = () => page.locator('.payout-run tbody tr').allInnerTexts();

/** Checks the page against axe-core, and at 360 px for sideways scrolling. */
async function clean(): Promise<void> {
  expect(await axeFindings(page)).toEqual([]);
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await overflowsSideways(page)).toBe(false);
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('a payout run from the dashboard', () => {
  it('connects PayPal in Settings → Integrations: the webhook URL to copy, the secret write-only', async () => {
    await page.goto(at('/settings/integrations'));
    await waitForText(page, 'PayPal Payouts');
    const shown = (await api('GET', '/v1/integrations/paypal')).data;
    expect(shown).toMatchObject({ client_id: null, environment: 'other', api_url: paypal.url });
    expect(await page.locator('#paypal code.secret').innerText()).toBe(shown.webhook_url);
    expect(await page.locator('#paypal .state').innerText()).toBe('Not connected');
    await page.fill('input[name=client_id]', CLIENT.id);
    await page.fill('input[name=client_secret]', CLIENT.secret);
    await page.fill('input[name=webhook_id]', WEBHOOK_ID);
    await press(page, 'Save PayPal app');
    await waitForText(page, `set: …${CLIENT.secret.slice(-4)}`);
    expect(await page.locator('#paypal .state').innerText()).toBe('Connected');
    expect(await page.inputValue('input[name=client_secret]')).toBe('');
    expect(await bodyText(page)).not.toContain(CLIENT.secret);
    expect((await api('GET', '/v1/integrations/paypal')).data).toMatchObject({ client_id: CLIENT.id, webhook_id: WEBHOOK_ID });
  });

  it('sets the payout methods: Wise offered too, only in two countries; a tax form not required', async () => {
    expect(await page.isChecked('input[name=offered][value=paypal]')).toBe(true);
    await page.check('input[name=offered][value=wise]');
    await page.fill('input[name=countries_wise]', 'de, at');
    await press(page, 'Save payout methods');
    await page.waitForSelector('#payout-settings .ok');
    const s = (await api('GET', '/v1/program/payout_settings')).data.attributes;
    expect(s.offered).toEqual(['paypal', 'wise']);
    expect(s.countries).toEqual({ wise: ['DE', 'AT'] });
    expect((await api('GET', '/v1/tax_forms/settings')).data.tax_form_required).toBe(false);
    await clean();
  });

  it('sets the payout schedule by keyboard: monthly on the 15th, in Paris, shown in words', async () => {
    expect(await page.locator('#schedule-now').innerText()).toBe('No run is made by itself: an admin makes each one.');
    await page.focus('select[name=schedule_every]');
    // Off → Weekly → Monthly.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.inputValue('select[name=schedule_every]')).toBe('monthly');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLSelectElement | null)?.name)).toBe('schedule_day');
    await page.keyboard.type('15');
    expect(await page.inputValue('select[name=schedule_day]')).toBe('15');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Europe/Paris');
    await page.keyboard.press('Enter');
    await waitForText(
      page,
      'A draft run is made on day 15 of every month at midnight (Europe/Paris), and waits for an owner to approve it.',
    );
    const s = (await api('GET', '/v1/program/payout_settings')).data.attributes;
    expect(s.schedule).toEqual({ every: 'monthly', day: 15, time_zone: 'Europe/Paris' });
    // The methods saved before stay as they were.
    expect(s.offered).toEqual(['paypal', 'wise']);
    await clean();
  });

  it("shows on a partner's page how they are paid and whether they are ready", async () => {
    await page.goto(at(`/partners/${partners.ana}`));
    await waitForText(page, 'How they are paid');
    await waitForText(page, 'Ready: the next payout run pays them');
    expect(await bodyText(page)).toContain('PayPal, ana@partners.test');
    expect(await bodyText(page)).toMatch(/Tax form\s+missing/);
    await page.goto(at(`/partners/${partners.cleo}`));
    await waitForText(page, 'Not ready: they have chosen no payout method yet');
  });

  it('makes a run: the payouts it holds, and the partner skipped with the reason', async () => {
    await page.goto(at('/payouts'));
    await waitForText(page, 'No payout runs yet');
    await press(page, 'Make a payout run');
    await press(page, 'Make run', 'dialog');
    await waitForText(page, 'Not in the run: one partner cannot be paid yet.');
    const skipped = await page.locator('.notice tbody tr').allInnerTexts();
    expect(skipped).toHaveLength(1);
    // What they are owed in the dashboard's locale, as every amount is.
    expect(skipped[0]).toMatch(/^Cleo\s+\$7\.00\s+\S/);
    await waitForText(page, '2 pending');
    const rows = await payoutRows();
    // No provider fee is known before PayPal states it.
    expect(rows.map((r) => r.split('\t').slice(0, 5))).toEqual(
      expect.arrayContaining([
        ['ana@partners.test', 'PayPal', '$25.00', '—', 'pending'],
        ['ben@partners.test', 'PayPal', '$12.00', '—', 'pending'],
      ]),
    );
    expect(rows).toHaveLength(2);
    await clean();
  });

  it('tells an admin the run waits for an owner, and offers them no Approve', async () => {
    const invited = await api('POST', '/v1/members', { email: 'ada@company.test', role: 'admin' });
    const admin = await (await browser.newContext()).newPage();
    await admin.goto(invited.meta.sign_in_link);
    await waitForText(admin, 'Welcome to Tally');
    await admin.fill('input[name=email]', 'ada@company.test');
    await admin.fill('input[name=password]', 'a long admin password');
    await admin.click('button[type=submit]');
    await admin.waitForURL('**/dashboard/');
    await admin.goto(at('/payouts'));
    await waitForText(admin, "Waiting for an owner's approval: only an owner approves a run.");
    expect(await admin.locator('.payout-run button', { hasText: /^Approve$/ }).count()).toBe(0);
    await admin.context().close();
  });

  it('approves it by keyboard alone, behind its question', async () => {
    await page.focus('.payout-run .buttons button');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Approve');
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog[open]');
    expect(await page.locator('dialog[open] h2').innerText()).toBe('Approve this payout run?');
    expect(await axeFindings(page)).toEqual([]);
    // Focus starts in the dialog (on Cancel); the next Tab reaches its Approve.
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Approve');
    await page.keyboard.press('Enter');
    await waitForText(page, /approved \S.* by user /);
    expect(await page.locator('.payout-run .panel-head .state').innerText()).toBe('approved');
    expect(await page.locator('dialog[open]').count()).toBe(0);
  });

  it('sends it; a signed webhook marks one payout paid, a refresh the other', async () => {
    // PayPal takes both and answers them pending: their outcome comes later.
    paypal.outcome.set('ana@partners.test', 'PENDING');
    paypal.outcome.set('ben@partners.test', 'PENDING');
    // PayPal's fee per item, which the run shows apart from the partner's amount.
    paypal.itemFee = '0.25';
    await press(page, 'Send', '.payout-run');
    await press(page, 'Send', 'dialog');
    await waitForText(page, '2 processing');
    expect(paypal.posts.filter((p) => p.status === 201)).toHaveLength(1);

    const run = (await api('GET', '/v1/payout_runs')).data[0];
    const items = (await api('GET', `/v1/payout_runs/${run.id}`)).included;
    const anaItem = paypal.item(items.find((i: any) => i.attributes.address === 'ana@partners.test').id);
    anaItem.transaction_status = 'SUCCESS';
    const hook = paypal.webhook('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', anaItem);
    const webhookUrl = (await api('GET', '/v1/integrations/paypal')).data.webhook_url;
    const posted = await fetch(webhookUrl, { method: 'POST', headers: hook.headers, body: hook.raw });
    expect(posted.status).toBe(200);
    expect((await posted.json()).data).toEqual({ duplicate: false, applied: true });
    await page.reload();
    await waitForText(page, /1 paid/);
    const anaRow = (await payoutRows()).find((r) => r.startsWith('ana@partners.test'));
    // Its fee apart from its amount, and its self-billing invoice linked.
    expect(anaRow).toMatch(/^ana@partners\.test\tPayPal\t\$25\.00\t\$0\.25\tpaid\tINV-\d{4}-\d{6}\t/);

    const benItem = paypal.item(items.find((i: any) => i.attributes.address === 'ben@partners.test').id);
    benItem.transaction_status = 'SUCCESS';
    await press(page, 'Refresh states', '.payout-run');
    await press(page, 'Refresh', 'dialog');
    await waitForText(page, '2 paid');
    expect((await payoutRows()).every((r) => /\tpaid\t/.test(r))).toBe(true);
    expect((await api('GET', `/v1/payout_runs/${run.id}`)).data.attributes.items).toMatchObject({ paid: 2 });
    // Nothing left to refresh or retry.
    expect(await page.locator('.payout-run .buttons button').count()).toBe(0);
    await clean();
  });

  it('shows a payout PayPal failed with its reason, and retries only it', async () => {
    partners.dora = await owedPartner('Dora', 900, true);
    paypal.outcome.set('dora@partners.test', 'FAILED');
    await press(page, 'Make a payout run');
    await press(page, 'Make run', 'dialog');
    await waitForText(page, '1 pending');
    for (const [button, confirm] of [
      ['Approve', 'Approve'],
      ['Send', 'Send'],
    ]) {
      await press(page, button!, '.payout-run');
      await press(page, confirm!, 'dialog');
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
    }
    await waitForText(page, '1 failed');
    const [failed] = await payoutRows();
    expect(failed).toMatch(/^dora@partners\.test\tPayPal\t\$9\.00\t\S+\tfailed: .*locked/i);
    paypal.outcome.delete('dora@partners.test');
    const before = paypal.posts.length;
    await press(page, 'Retry failed', '.payout-run');
    await press(page, 'Retry failed', 'dialog');
    await waitForText(page, '1 paid');
    expect((await payoutRows())[0]).toMatch(/\tpaid\t/);
    // One new batch, holding Dora's payout alone.
    expect(paypal.posts.slice(before).map((p) => [p.status, p.receivers])).toEqual([[201, ['dora@partners.test']]]);
    expect(problems).toEqual([]);
  });

  it('a paid payout PayPal returns shows its credit note beside its invoice, and the partner finds it in the portal', async () => {
    const run = (await api('GET', '/v1/payout_runs')).data.find((r: any) => r.attributes.items.paid === 2);
    const shown = await api('GET', `/v1/payout_runs/${run.id}`);
    const ana = shown.included.find((i: any) => i.attributes.address === 'ana@partners.test');
    const hook = paypal.webhook('PAYMENT.PAYOUTS-ITEM.RETURNED', { ...paypal.item(ana.id), transaction_status: 'RETURNED' });
    const webhookUrl = (await api('GET', '/v1/integrations/paypal')).data.webhook_url;
    expect((await fetch(webhookUrl, { method: 'POST', headers: hook.headers, body: hook.raw })).status).toBe(200);

    await page.goto(at('/payouts'));
    // The latest run (Dora's) is shown first: open the one that paid Ana.
    await waitForText(page, '1 returned');
    await page
      .locator('tr', { hasText: '1 returned' })
      .getByRole('button', { name: /^Open the run of/ })
      .click();
    // Her row in the run's table, not her address elsewhere on the page while the run loads.
    await page.locator('.payout-run tbody tr', { hasText: 'ana@partners.test' }).waitFor();
    const row = (await payoutRows()).find((r) => r.startsWith('ana@partners.test'));
    expect(row).toMatch(/\treturned\S*[^\t]*\tINV-\d{4}-\d{6} · CN-\d{4}-000001\t/);
    const link = page.locator('.payout-run a', { hasText: /^CN-/ });
    expect(await link.getAttribute('aria-label')).toMatch(/^Credit note CN-\d{4}-000001 \(PDF\)$/);
    // The owner's session downloads it.
    const pdf = await page.request.get(new URL((await link.getAttribute('href'))!, url).href);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await clean();

    const portal = await (await browser.newContext()).newPage();
    await redeemLink(portal, (await api('POST', `/v1/partners/${partners.ana}/invitation`)).meta.link as string);
    await portal.goto(`${url}/portal/earnings`);
    await waitForText(portal, 'Your credit notes');
    const notes = await portal.evaluate(
      () => [...document.querySelectorAll('table')].find((t) => t.caption?.textContent === 'Your credit notes')?.innerText ?? '',
    );
    expect(notes).toMatch(/CN-\d{4}-000001[\s\S]*-\$25\.00[\s\S]*INV-\d{4}-\d{6}/);
    const [download] = await Promise.all([
      portal.waitForEvent('download'),
      portal
        .locator('table', { has: portal.locator('caption', { hasText: 'Your credit notes' }) })
        .locator('a')
        .click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^CN-\d{4}-000001\.pdf$/);
    expect(await axeFindings(portal)).toEqual([]);
    await portal.setViewportSize({ width: 360, height: 800 });
    expect(await overflowsSideways(portal)).toBe(false);
    await portal.context().close();
    expect(problems).toEqual([]);
  });

  it('asks the owner to prove it again before approving once their proof is old, then approves the run', async () => {
    partners.eli = await owedPartner('Eli', 800, true);
    await page.goto(at('/payouts'));
    await press(page, 'Make a payout run');
    await press(page, 'Make run', 'dialog');
    await page.locator('.payout-run tbody tr', { hasText: 'eli@partners.test' }).waitFor();
    // The session's proof as it would be ten minutes on: the clock is the machine's here.
    await collector.server.db.transaction((tx) => tx.run('UPDATE sessions SET verified_at = 0'));
    await press(page, 'Approve', '.payout-run');
    await press(page, 'Approve', 'dialog');
    await waitForText(page, 'Confirm it is you');
    expect(await page.locator('.payout-run .panel-head .state').innerText()).toBe('draft');
    await page.fill('dialog input[name=password]', OWNER.password);
    await press(page, 'Continue', 'dialog');
    await expect.poll(() => page.locator('.payout-run .panel-head .state').innerText()).toBe('approved');
    expect(await page.locator('dialog[open]').count()).toBe(0);
    expect((await api('GET', '/v1/payout_runs')).data[0].attributes).toMatchObject({
      state: 'approved',
      approved_by: expect.stringMatching(/^user /),
    });
  });
});
