// What a new user found on the dashboard's records and overview (issue 42): referrals and
// clicks that named no partner, a commission in an open payout batch that still offered
// "Mark paid", a funnel whose equal figures drew unequal bars, a clicks chart counting in
// fifths, an export that did not ask first, applications nowhere on the overview, and, at
// 360 px, a menu before any content and the columns that matter scrolled off.

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../packages/collector/src/server.js';
import { apiWith, bodyText, overflowsSideways, press, signInFirst, waitForText, type Api } from './dashboard.js';
import { launchChromium, startDemoCollector } from './stack.js';

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let server: RunningServer;
let api: Api;
let owner: BrowserContext;
let page: Page;
let alice: { id: string; partnershipId: string; key: string };

const at = (path: string) => `${server.url}/dashboard${path}`;

/** A click through Alice's link, then its visitor's signup, as the snippet sends them. */
async function clickThenSignup(visitor: string, email: string): Promise<void> {
  const headers = { authorization: `Bearer ${server.firstProgram!.tokens.publishable}`, 'content-type': 'application/json' };
  const click = await fetch(`${server.url}/v1/tracking/click`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ gr_id: visitor, pk: alice.key, url: 'https://shop.test/pricing' }),
  });
  expect(click.status).toBe(202);
  const signup = await fetch(`${server.url}/v1/tracking/conversion`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ gr_id: visitor, email, pk: alice.key }),
  });
  expect(signup.status).toBe(201);
}

/** The cells of the table captioned `caption`, by column label, one object per row. */
function tableRows(p: Page, caption: string): Promise<Array<Record<string, string>>> {
  return p.evaluate((caption) => {
    const t = [...document.querySelectorAll('table')].find((x) => x.caption?.textContent === caption);
    if (!t) return [];
    const head = [...t.tHead!.rows[0]!.cells].map((c) => c.textContent ?? '');
    return [...t.tBodies[0]!.rows].map((r) => Object.fromEntries(head.map((h, i) => [h, r.cells[i]!.textContent ?? ''])));
  }, caption);
}

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  server = collector.server;
  api = apiWith(server.url, server.firstProgram!.tokens.secret);
  await api('PATCH', '/v1/program', { slug: 'acme', page_enabled: true, hold_days: 0 });
  const made = await api('POST', '/v1/partners', { name: 'Alice Example', email: 'alice@partners.test', paypal_email: 'pay@alice.test' });
  const ship = await api('POST', '/v1/partnerships', { partner_id: made.data.id, state: 'accepted' });
  alice = { id: made.data.id, partnershipId: ship.data.id, key: ship.data.attributes.key };
  await clickThenSignup('visitor-1', 'bob@customer.test');
  owner = await browser.newContext();
  page = await owner.newPage();
  await signInFirst(page, server.firstSignInLink!);
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

describe('the records name their partner', () => {
  it('the referrals and the clicks tables have a Partner column, by name, linking to the partner', async () => {
    for (const [path, caption] of [
      ['/referrals', 'Referrals'],
      ['/clicks', 'Clicks'],
    ] as const) {
      await page.goto(at(path));
      await expect.poll(async () => (await tableRows(page, caption)).map((r) => r.Partner), { timeout: 10_000 }).toEqual(['Alice Example']);
      const link = await page.evaluate(() => document.querySelector<HTMLAnchorElement>('td a[href*="/dashboard/partners/"]')?.pathname);
      expect(link, path).toBe(`/dashboard/partners/${alice.id}`);
    }
  });
});

describe('a commission in an open payout batch', () => {
  it('says so, leads to its batch, and offers no Mark paid; a free one still does', async () => {
    await api('POST', '/v1/commissions', { partner_id: alice.id, amount: 1500, currency: 'USD' });
    const [batch] = (await api('POST', '/v1/payout_batches', {})).data;
    // One more, after the export: free, so Mark paid is still offered for it alone.
    await api('POST', '/v1/commissions', { partner_id: alice.id, amount: 700, currency: 'USD' });

    await page.goto(at('/commissions'));
    await waitForText(page, '$15.00');
    const rows = await tableRows(page, 'Commissions');
    const held = rows.find((r) => r.Amount === '$15.00')!;
    const free = rows.find((r) => r.Amount === '$7.00')!;
    expect(held.State).toMatch(/^pending.*in payout batch/i);
    expect(held.Actions).not.toContain('Mark paid');
    expect(free.State).not.toMatch(/batch/i);
    expect(free.Actions).toContain('Mark paid');

    await press(page, 'In payout batch');
    await page.waitForURL(`**/dashboard/payouts?batch=${batch.id}`);
    await waitForText(page, 'Payout batches');
    await expect.poll(() => page.evaluate(() => document.querySelectorAll('tr[aria-current]').length), { timeout: 10_000 }).toBe(1);
  });
});

describe('payouts ask first', () => {
  it('Export PayPal file opens a question; cancelled, it exports nothing', async () => {
    const before = (await api('GET', '/v1/payout_batches')).data.length;
    await page.goto(at('/payouts'));
    await waitForText(page, 'Owed now');
    await press(page, 'Export PayPal file');
    await expect.poll(() => page.evaluate(() => document.querySelector('dialog[open]')?.textContent ?? '')).toMatch(/Export a PayPal file/);
    await press(page, 'Cancel', 'dialog');
    await expect.poll(() => page.evaluate(() => document.querySelector('dialog[open]') === null)).toBe(true);
    expect((await api('GET', '/v1/payout_batches')).data).toHaveLength(before);
  });
});

describe('invoices', () => {
  it("the owner's billing details are saved from Settings → Program", async () => {
    await page.goto(at('/settings/program'));
    await waitForText(page, 'Billing details');
    await page.fill('input[name=billing_name]', 'Acme Widgets GmbH');
    await page.fill('input[name=billing_vat_id]', 'DE123456789');
    await press(page, 'Save billing details');
    await expect
      .poll(async () => (await api('GET', '/v1/program')).data.attributes, { timeout: 10_000 })
      .toMatchObject({ billing_name: 'Acme Widgets GmbH', billing_vat_id: 'DE123456789' });
  });

  it("a batch marked paid lists its partner's invoice, whose link downloads the PDF", async () => {
    await api('POST', '/v1/commissions', { partner_id: alice.id, amount: 2500, currency: 'EUR' });
    const [batch] = (await api('POST', '/v1/payout_batches', { currency: 'EUR' })).data;
    await api('POST', `/v1/payout_batches/${batch.id}/paid`);
    await page.goto(at('/payouts'));
    await waitForText(page, 'INV-');
    const [row] = await tableRows(page, 'Invoices');
    expect(row).toMatchObject({ Partner: 'Alice Example', Number: expect.stringMatching(/^INV-\d{4}-\d{6}$/) });
    expect(row!.Amount).toContain('25.00');
    // The link as the browser follows it, with the owner's session cookie.
    const answer = await page.evaluate(async () => {
      const link = document.querySelector<HTMLAnchorElement>('a[href*="/v1/invoices/"]')!;
      const res = await fetch(link.href);
      return { type: res.headers.get('content-type'), start: new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5)) };
    });
    expect(answer).toEqual({ type: 'application/pdf', start: '%PDF-' });
  });
});

describe('the overview', () => {
  it('draws equal bars for equal figures in the funnel', async () => {
    // One click and one referral from it: the funnel's first two figures are equal.
    await page.goto(at('/'));
    await waitForText(page, 'Funnel');
    const funnel = await page.evaluate(() =>
      [...document.querySelectorAll('.funnel li')].map((li) => ({
        n: li.querySelector('.num')!.textContent!.split(' ')[0],
        width: li.querySelector<HTMLElement>('.bar')!.getBoundingClientRect().width,
      })),
    );
    expect(funnel.slice(0, 2).map((s) => s.n)).toEqual(['1', '1']);
    expect(Math.abs(funnel[0]!.width - funnel[1]!.width)).toBeLessThan(1);
    expect(funnel[0]!.width).toBeGreaterThan(20);
  });

  it('counts clicks on the chart in whole numbers', async () => {
    // The chart's labels are drawn on a canvas: record what is written there.
    await page.addInitScript(() => {
      const w = window as unknown as { drawn: string[] };
      w.drawn = [];
      const fillText = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (text: string, x: number, y: number, max?: number) {
        w.drawn.push(String(text));
        return fillText.call(this, text, x, y, max);
      };
    });
    await page.goto(at('/'));
    await waitForText(page, 'Funnel');
    const numbers = () =>
      page.evaluate(() => (window as unknown as { drawn: string[] }).drawn.filter((t) => /^[\d.,]+$/.test(t)).map(Number));
    // The y axis's ticks: 0 and 1 at least, for a day of one click.
    await expect.poll(async () => (await numbers()).includes(1), { timeout: 10_000 }).toBe(true);
    const ticks = await numbers();
    expect(ticks.filter((n) => !Number.isInteger(n))).toEqual([]);
  });

  it('shows a new application, with a link to the partner to decide on it', async () => {
    const apply = await (await browser.newContext()).newPage();
    try {
      await apply.goto(`${server.url}/p/acme/`);
      await apply.fill('input[name=name]', 'Penny Applicant');
      await apply.fill('input[name=email]', 'penny@partners.test');
      await apply.fill('input[name=password]', 'a long password of penny');
      await press(apply, 'Apply');
      await apply.waitForURL('**/portal/');
    } finally {
      await apply.context().close();
    }
    const [penny] = (await api('GET', '/v1/partners?email_eq=penny@partners.test')).data;
    await page.goto(at('/'));
    await waitForText(page, /1 application to decide on/);
    const link = await page.evaluate(
      () => [...document.querySelectorAll<HTMLAnchorElement>('.applications a')].find((a) => a.textContent === 'Penny Applicant')?.pathname,
    );
    expect(link).toBe(`/dashboard/partners/${penny.id}`);
    await page.goto(server.url + link);
    await waitForText(page, 'Penny Applicant');
    expect(await bodyText(page)).toMatch(/Accept/);
  });
});

describe('at 360 px', () => {
  beforeAll(async () => {
    await page.setViewportSize({ width: 360, height: 740 });
  });
  afterAll(async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('the content starts in the top quarter of the screen; the menu opens from a button, by keyboard too', async () => {
    await page.goto(at('/commissions'));
    await waitForText(page, '$15.00');
    const top = await page.evaluate(() => document.querySelector('main h1')!.getBoundingClientRect().top);
    expect(top).toBeLessThan(740 / 4);
    const menu = () =>
      page.evaluate(() => {
        const button = document.querySelector<HTMLButtonElement>('.top button[aria-controls]')!;
        const nav = document.getElementById(button.getAttribute('aria-controls')!)!;
        return { expanded: button.getAttribute('aria-expanded'), shown: nav.getBoundingClientRect().height > 0, label: button.innerText };
      });
    expect(await menu()).toEqual({ expanded: 'false', shown: false, label: 'Menu' });
    await page.focus('.top button[aria-controls]');
    await page.keyboard.press('Enter');
    await expect.poll(menu).toMatchObject({ expanded: 'true', shown: true });
    // Escape folds it again and gives the focus back to the button.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await expect.poll(menu).toMatchObject({ expanded: 'false', shown: false });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-controls'))).toBe('dashboard-menu');
    // A page chosen from the menu folds it.
    await page.keyboard.press('Enter');
    await press(page, 'Referrals', 'nav.side');
    await page.waitForURL('**/dashboard/referrals');
    await expect.poll(menu).toMatchObject({ expanded: 'false', shown: false });
  });

  it('the partner, the amount and the state are visible without scrolling sideways', async () => {
    for (const [path, caption, labels] of [
      ['/commissions', 'Commissions', ['Partner', 'Amount', 'State']],
      ['/referrals', 'Referrals', ['Partner', 'Customer', 'State']],
      ['/clicks', 'Clicks', ['Partner', 'Landing page']],
    ] as const) {
      await page.goto(at(path));
      await expect.poll(async () => (await tableRows(page, caption)).length, { timeout: 10_000 }).toBeGreaterThan(0);
      await waitForText(page, 'Alice Example');
      const outside = await page.evaluate(
        ([caption, labels]) => {
          const table = [...document.querySelectorAll('table')].find((x) => x.caption?.textContent === caption)!;
          const scroller = table.closest<HTMLElement>('.scroll')!;
          const view = scroller.getBoundingClientRect();
          const head = [...table.tHead!.rows[0]!.cells];
          const found: string[] = [];
          for (const label of labels) {
            const i = head.findIndex((c) => c.textContent === label);
            if (i < 0) found.push(`no column ${label}`);
            for (const row of [table.tHead!.rows[0]!, ...table.tBodies[0]!.rows]) {
              const box = row.cells[i]!.getBoundingClientRect();
              if (box.width === 0 || box.left < view.left - 1 || box.right > Math.min(view.right, window.innerWidth) + 1)
                found.push(`${label} is outside the screen`);
            }
          }
          return [...new Set(found)];
        },
        [caption, labels] as const,
      );
      expect(outside, path).toEqual([]);
      expect(await overflowsSideways(page), path).toBe(false);
    }
  });
});
