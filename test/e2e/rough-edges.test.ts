// The rough edges a review found by driving the dashboard and the portal in Chromium:
// a CSV download a spreadsheet would run as a formula, a signed-out check that logs an
// error, a new token missing until a reload, a paid file still offered, commissions whose
// partner has no name, a pending application that looks like any partner, a conversion
// rate above 100 %, menus cut at 360 px, error sentences starting lower-case, and the
// demo's unlabelled e-mail field.

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../packages/collector/src/platform/csv.js';
import type { RunningServer } from '../../packages/collector/src/server.js';
import { apiWith, bodyText, overflowsSideways, press, waitForText, type Api } from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

const OWNER = { email: 'owner@company.test', password: 'a long owner password' };
const APPLICANT = { name: 'Penny Applicant', email: 'penny@partners.test', password: 'a long password of penny' };
/** Names a spreadsheet would split at the carriage return, leaving a cell that starts with "=". */
const EVIL = ['x\r=2+3', 'x\r=HYPERLINK("http://evil.test","open")'];

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let server: RunningServer;
let api: Api;
let owner: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  server = collector.server;
  api = apiWith(server.url, server.firstProgram!.tokens.secret);
  await api('PATCH', '/v1/program', { slug: 'acme', page_enabled: true, hold_days: 0 });
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
});

const at = (path: string) => `${server.url}/dashboard${path}`;

/** Records what the page's next "Download CSV" puts in its file. */
async function nextDownload(p: Page): Promise<() => Promise<string>> {
  await p.evaluate(() => {
    const w = window as unknown as { csv: string[] };
    w.csv = [];
    const original = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob: Blob) => {
      void blob.text().then((t) => w.csv.push(t));
      return original(blob);
    };
  });
  return async () => {
    await expect.poll(() => p.evaluate(() => (window as unknown as { csv: string[] }).csv.length)).toBe(1);
    return p.evaluate(() => (window as unknown as { csv: string[] }).csv[0]!);
  };
}

/** A conversion as a company's server records it, without any click (the secret token, a partner's key). */
async function serverConversion(email: string, key: string): Promise<any> {
  const res = await fetch(`${server.url}/v1/tracking/conversion`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.firstProgram!.tokens.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, gr_id: `server-${email}`, pk: key }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).data;
}

/** "Sign out" sits in the header's first row, at its right end beside the brand, not pushed below the program's name. */
function signOutBesideBrand(p: Page): Promise<boolean> {
  return p.evaluate(() => {
    const brand = document.querySelector('.top .brand')!.getBoundingClientRect();
    const out = [...document.querySelectorAll<HTMLElement>('.top button')]
      .find((b) => b.innerText.trim() === 'Sign out')!
      .getBoundingClientRect();
    return Math.abs(brand.top + brand.bottom - out.top - out.bottom) / 2 < 8 && out.right > window.innerWidth - 40;
  });
}

/**
 * What a reader at this width cannot read whole: an element of `selector` wider than its
 * box, outside the viewport or cut by an ancestor that clips or scrolls, or its text
 * broken over more than one line.
 */
function unreadable(p: Page, selector: string): Promise<string[]> {
  return p.evaluate((selector) => {
    const found: string[] = [];
    const els = [...document.querySelectorAll<HTMLElement>(selector)];
    if (els.length === 0) found.push(`nothing matches ${selector}`);
    for (const el of els) {
      const text = el.innerText.trim();
      const box = el.getBoundingClientRect();
      if (el.scrollWidth > el.clientWidth + 1) found.push(`"${text}" is wider than its box`);
      if (box.left < -1 || box.right > window.innerWidth + 1) found.push(`"${text}" reaches outside the viewport`);
      for (let up = el.parentElement; up; up = up.parentElement) {
        if (getComputedStyle(up).overflowX === 'visible') continue;
        const outer = up.getBoundingClientRect();
        if (box.left < outer.left - 1 || box.right > outer.right + 1)
          found.push(`"${text}" is cut by ${up.tagName.toLowerCase()}.${up.className}`);
        if (up.scrollWidth > up.clientWidth + 1) found.push(`${up.tagName.toLowerCase()}.${up.className} scrolls sideways`);
      }
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) found.push(`"${text}" breaks over ${lines.size} lines`);
    }
    return [...new Set(found)];
  }, selector);
}

describe('signed out', () => {
  it('the dashboard and the portal open on their sign-in pages with nothing in the console', async () => {
    const context = await browser.newContext();
    try {
      const p = await context.newPage();
      const problems = consoleProblems(p);
      await p.goto(at('/'));
      await p.waitForURL('**/dashboard/sign-in?next=*');
      await waitForText(p, 'Sign in');
      await p.goto(`${server.url}/portal/`);
      await p.waitForURL('**/portal/sign-in?next=*');
      await waitForText(p, 'Partner sign-in');
      await p.waitForTimeout(300); // a late request's error would land here
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('an error sentence from the API is shown with a capital letter', async () => {
    const context = await browser.newContext();
    try {
      const p = await context.newPage();
      await p.goto(at('/sign-in'));
      await p.fill('input[name=email]', 'nobody@company.test');
      await p.fill('input[name=password]', 'not the password');
      await p.click('button[type=submit]');
      await expect.poll(() => p.textContent('[role=alert]')).toMatch(/e-mail address or the password is wrong/);
      expect((await p.textContent('[role=alert]'))!.trim()).toMatch(/^The e-mail address or the password is wrong/);
    } finally {
      await context.close();
    }
  });

  it("the demo's e-mail field has a label", async () => {
    const context = await browser.newContext();
    try {
      const p = await context.newPage();
      await p.goto(`${server.url}/demo/signup`);
      const labels = await p.evaluate(() =>
        [...(document.querySelector<HTMLInputElement>('input[name=email]')!.labels ?? [])].map((l) => l.innerText.trim()),
      );
      expect(labels).toHaveLength(1);
      expect(labels[0]).toMatch(/^E-mail/);
    } finally {
      await context.close();
    }
  });
});

describe('signed in as the owner', () => {
  beforeAll(async () => {
    owner = await browser.newContext();
    page = await owner.newPage();
    await page.goto(server.firstSignInLink!);
    await page.waitForSelector('text=Welcome to Tally');
    await page.fill('input[name=email]', OWNER.email);
    await page.fill('input[name=password]', OWNER.password);
    await page.click('button[type=submit]');
    await page.waitForURL('**/dashboard/');
  });

  it('downloads no CSV cell a spreadsheet would run: a carriage return in a name, a tab before a landing page', async () => {
    const keys: string[] = [];
    for (const [i, name] of EVIL.entries()) {
      const partner = await api('POST', '/v1/partners', { name, email: `evil${i}@partners.test` });
      const ship = await api('POST', '/v1/partnerships', { partner_id: partner.data.id, state: 'accepted' });
      keys.push(ship.data.attributes.key);
    }
    const click = await fetch(`${server.url}/v1/tracking/click`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.firstProgram!.tokens.publishable}`, 'content-type': 'application/json' },
      body: JSON.stringify({ gr_id: 'tab-visitor', pk: keys[0], url: '\t=1+2', referrer: '\n=3+4' }),
    });
    expect(click.status).toBe(202);

    await page.goto(at('/partners'));
    await waitForText(page, 'HYPERLINK');
    let file = await nextDownload(page);
    await press(page, 'Download CSV');
    const partners = parseCsv(await file());
    await page.goto(at('/clicks'));
    await waitForText(page, 'tab-visitor');
    file = await nextDownload(page);
    await press(page, 'Download CSV');
    const clicks = parseCsv(await file());

    for (const cell of [...partners, ...clicks].flat()) expect(cell, JSON.stringify(cell)).not.toMatch(/^\s*[=+\-@]|^[\t\r\n]/);
    // Each name stays one cell of one row, as a text.
    expect(partners.map((r) => r[0])).toEqual(expect.arrayContaining(EVIL));
    expect(partners).toHaveLength(1 + EVIL.length);
    expect(clicks[1]).toEqual(expect.arrayContaining(["'\t=1+2", "'\n=3+4"]));
  });

  it('shows a new API token in Settings at once', async () => {
    await page.goto(at('/settings/api-tokens'));
    await waitForText(page, 'API tokens');
    const tokenRows = () =>
      page.evaluate(
        () => [...document.querySelectorAll('table')].find((t) => t.caption?.textContent === 'API tokens')?.tBodies[0]?.rows.length ?? 0,
      );
    await expect.poll(tokenRows).toBeGreaterThan(0);
    const before = await tokenRows();
    await press(page, 'New secret token');
    await press(page, 'Make token', 'dialog');
    await waitForText(page, 'Your new secret token, shown only now');
    await expect.poll(tokenRows).toBe(before + 1);
  });

  it('says which partner each commission is for, by name', async () => {
    const alice = await api('POST', '/v1/partners', {
      name: 'Alice Example',
      email: 'alice@partners.test',
      paypal_email: 'pay@alice.test',
    });
    const ship = await api('POST', '/v1/partnerships', { partner_id: alice.data.id, state: 'accepted' });
    const referral = await serverConversion('bob@customer.test', ship.data.attributes.key);
    await api('POST', '/v1/payments', { amount: 10_000, currency: 'USD', referral_id: referral.id, idempotency_key: 'inv-alice-1' });
    await page.goto(at('/commissions'));
    await waitForText(page, '$20.00');
    await expect
      .poll(() => page.evaluate(() => [...document.querySelectorAll('td a[href*="/dashboard/partners/"]')].map((a) => a.textContent)))
      .toEqual(['Alice Example']);
  });

  it('stops offering the file of a batch once it is marked paid', async () => {
    await page.goto(at('/payouts'));
    await waitForText(page, 'Owed now');
    await press(page, 'Export PayPal file');
    await press(page, 'Export', 'dialog');
    await waitForText(page, 'Exported 1 batch');
    expect(await page.evaluate(() => document.querySelectorAll('.notice a[download]').length)).toBe(1);
    await press(page, 'Mark paid');
    await press(page, 'Mark paid', 'dialog');
    await expect.poll(async () => (await api('GET', '/v1/payout_batches')).data[0].attributes.state).toBe('paid');
    await expect.poll(() => page.evaluate(() => document.querySelectorAll('.notice a[download], a[href$="/file"]').length)).toBe(0);
    expect(await bodyText(page)).not.toContain('upload it to PayPal Payouts, then mark it paid');
  });

  it("shows each partner's state in the partners table, a pending application marked as one", async () => {
    const apply = await (await browser.newContext()).newPage();
    try {
      await apply.goto(`${server.url}/p/acme/`);
      await apply.fill('input[name=name]', APPLICANT.name);
      await apply.fill('input[name=email]', APPLICANT.email);
      await apply.fill('input[name=password]', APPLICANT.password);
      await press(apply, 'Apply');
      await apply.waitForURL('**/portal/');
    } finally {
      await apply.context().close();
    }
    await page.goto(at('/partners'));
    await waitForText(page, APPLICANT.name);
    const table = () =>
      page.evaluate(() => {
        const t = [...document.querySelectorAll('table')].find((x) => x.caption?.textContent === 'Partners')!;
        const head = [...t.tHead!.rows[0]!.cells].map((c) => c.textContent);
        return Object.fromEntries(
          [...t.tBodies[0]!.rows].map((r) => [
            r.cells[0]!.textContent,
            Object.fromEntries(head.map((h, i) => [h, r.cells[i]!.textContent])),
          ]),
        );
      });
    await expect.poll(async () => (await table())[APPLICANT.name]?.State).toMatch(/pending/i);
    const rows = await table();
    expect(rows[APPLICANT.name]!.State).toMatch(/application/i);
    expect(rows['Alice Example']!.State).toBe('accepted');
    expect(await page.evaluate(() => document.querySelector('td .state.pending') !== null)).toBe(true);
  });

  it('says what its conversion rate is a rate of: referrals recorded by a server without a click are not "over 100 %"', async () => {
    const [alice] = (await api('GET', '/v1/partners?email_eq=alice@partners.test')).data;
    const [ship] = (await api('GET', `/v1/partnerships?partner_id_eq=${alice.id}`)).data;
    await serverConversion('carol@customer.test', ship.attributes.key);
    await page.goto(at('/'));
    await waitForText(page, 'Top partners');
    const figures = await page.evaluate(() =>
      Object.fromEntries(
        [...document.querySelectorAll('.figure')].map((f) => [f.querySelector('dt')!.textContent, f.querySelector('.value')!.textContent]),
      ),
    );
    // One click (the tab's), two referrals recorded by the server: two referrals per click, not "200 %".
    expect(figures).toMatchObject({ Clicks: '1', Referrals: '2', 'Referrals per click': '2' });
    expect(Object.values(figures).join(' ')).not.toMatch(/\d{3,}\s?%/);
    await page.goto(at('/partners'));
    await waitForText(page, 'Alice Example');
    expect(await page.evaluate(() => [...document.querySelectorAll('th')].map((t) => t.textContent))).toContain('Referrals per click');
  });

  it("at 360 px, the dashboard's menu and header are readable whole", async () => {
    // A program's name as long as real ones get: it takes a row of its own.
    await api('PATCH', '/v1/program', { name: 'Acme Analytics Partner Programme' });
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      for (const path of ['/', '/partners', '/settings']) {
        await page.goto(at(path));
        await waitForText(page, /Top partners|Alice Example|API tokens/);
        // The menu is folded behind its button at this width: opened, each entry reads whole.
        await press(page, 'Menu', '.top');
        await expect.poll(() => page.evaluate(() => document.querySelector('nav.side')!.getBoundingClientRect().height)).toBeGreaterThan(0);
        expect(await unreadable(page, 'nav.side a, .top .brand, .top button'), path).toEqual([]);
        expect(await signOutBesideBrand(page), path).toBe(true);
        expect(await overflowsSideways(page), path).toBe(false);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it("at 360 px, the portal's menu and header are readable whole, Sign out beside the brand", async () => {
    const partner = await browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      const p = await partner.newPage();
      await p.goto(`${server.url}/portal/sign-in`);
      await p.fill('input[name=email]', APPLICANT.email);
      await p.fill('input[name=password]', APPLICANT.password);
      await press(p, 'Sign in');
      await p.waitForURL('**/portal/');
      for (const path of ['/portal/', '/portal/earnings', '/portal/settings']) {
        await p.goto(server.url + path);
        await waitForText(p, /It is waiting for|Payouts|Billing details/);
        expect(await unreadable(p, 'nav.side a, .top .brand, .top button'), path).toEqual([]);
        expect(await signOutBesideBrand(p), path).toBe(true);
        expect(await overflowsSideways(p), path).toBe(false);
      }
    } finally {
      await partner.close();
    }
  });
});
