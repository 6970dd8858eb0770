// What the dashboard's browser tests share: a collector as `npm start` runs it, the API
// beside the browser (to make records a test then looks for), and waiting for what a
// person would read on the page.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import { consoleProblems, type Page } from './driver.js';
import { launchChromium, startDemoCollector } from './stack.js';

export type Api = (method: string, path: string, body?: unknown) => Promise<any>;

/** The /v1 API with a secret token, as a company's server would call it. */
export function apiWith(base: string, secret: string): Api {
  return async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : res.json();
  };
}

/** The page's visible text. */
export const bodyText = (page: Page) => page.evaluate(() => document.body.innerText);

/** Waits until the page shows every one of `texts` (or matches it): parts of a page that load on their own show in any order. */
export async function waitForText(page: Page, ...texts: Array<string | RegExp>): Promise<void> {
  await expect
    .poll(
      async () => {
        const body = await bodyText(page);
        return texts.every((text) => (typeof text === 'string' ? body.includes(text) : text.test(body)));
      },
      { timeout: 10_000 },
    )
    .toBe(true);
}

/** Clicks the button or link whose whole text is `label` (the first such one), once the page shows it. */
export async function press(page: Page, label: string, within = 'body'): Promise<void> {
  const click = () =>
    page.evaluate(
      ([label, within]) => {
        const scope = [...document.querySelectorAll(within)].at(-1) ?? document.body;
        const el = [...scope.querySelectorAll<HTMLElement>('button, a')].find(
          (e) => e.innerText.trim() === label && !(e as HTMLButtonElement).disabled,
        );
        el?.click();
        return el !== undefined;
      },
      [label, within] as const,
    );
  const deadline = Date.now() + 10_000;
  while (!(await click())) {
    if (Date.now() > deadline) throw new Error(`no button or link "${label}" in ${within}: ${(await bodyText(page)).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Picks an option of the select labelled by `label`'s text, as a person would. */
export async function choose(page: Page, label: string, value: string): Promise<void> {
  const ok = await page.evaluate(
    ([label, value]) => {
      const l = [...document.querySelectorAll('label')].find((x) => x.innerText.trim().startsWith(label));
      const select = l?.querySelector('select');
      if (!select) return false;
      select.value = value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
      return true;
    },
    [label, value] as const,
  );
  if (!ok) throw new Error(`no select labelled ${label}`);
}

/** Wider than the viewport anywhere means a reader at 360 px scrolls sideways. */
export const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

export const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page as it is now. */
export async function axeFindings(p: import('playwright-core').Page): Promise<string[]> {
  // Evaluated as a string, which the page's CSP does not govern: the apps allow no inline script.
  // Once a document: the source is half a megabyte to send and compile, and the apps route in place.
  if (!(await p.evaluate(() => 'axe' in window))) await p.evaluate(AXE_SOURCE);
  return p.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(options: { resultTypes: string[] }): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> };
      }
    ).axe;
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
  });
}

/** Clean under axe-core at the desktop width and at 360 px, where nothing scrolls sideways; back to 1280 px after. */
export async function cleanAtBothWidths(page: import('playwright-core').Page): Promise<void> {
  expect(await axeFindings(page)).toEqual([]);
  await page.setViewportSize({ width: 360, height: 740 });
  try {
    // A chart (uPlot) takes its new width from its ResizeObserver, a frame after the viewport's.
    await expect.poll(() => overflowsSideways(page)).toBe(false);
    expect(await axeFindings(page)).toEqual([]);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
}

/** A partner with an accepted partnership, made as a company's server would. */
export async function acceptedPartner(api: Api, name: string): Promise<{ id: string; partnershipId: string; key: string }> {
  const made = await api('POST', '/v1/partners', { name, email: `${name.toLowerCase()}@partners.test` });
  const ship = await api('POST', '/v1/partnerships', { partner_id: made.data.id, state: 'accepted' });
  return { id: made.data.id, partnershipId: ship.data.id, key: ship.data.attributes.key };
}

/** Signs a partner in to the portal on `portal` with a one-time link an owner handed over, setting `password`. */
/** The owner the demo stack's first sign-in link makes. */
export const OWNER = { email: 'owner@company.test', password: 'a long owner password' };

/** Follows the first sign-in link as the owner, and lands on the dashboard's overview. */
export async function signInFirst(page: Page, link: string): Promise<void> {
  await page.goto(link);
  // Polled by hand, not with expect.poll: a file's beforeAll signs in too.
  for (const deadline = Date.now() + 10_000; !(await bodyText(page)).includes('Welcome to Tally'); ) {
    if (Date.now() > deadline) throw new Error(`no welcome page at ${link}: ${(await bodyText(page)).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await page.fill('input[name=email]', OWNER.email);
  await page.fill('input[name=password]', OWNER.password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/dashboard/');
}

export async function redeemLink(portal: Page, link: string, password = 'a long partner password'): Promise<void> {
  await portal.goto(link);
  await waitForText(portal, 'Choose your password');
  await portal.fill('input[name=password]', password);
  await press(portal, 'Set password and sign in');
  await portal.waitForURL('**/portal/');
}

/**
 * Chromium and a collector as `npm start` runs it (demo on), the API with the first
 * program's secret token, and a page whose console problems are kept; `close` ends both.
 */
export async function dashboardStack(extra: Parameters<typeof startDemoCollector>[0] = {}) {
  const browser = await launchChromium();
  const collector = await startDemoCollector(extra);
  const url = collector.server.url;
  const page = await (await browser.newContext()).newPage();
  const close = async () => {
    await browser.close();
    await collector.close();
  };
  return {
    browser,
    collector,
    url,
    api: apiWith(url, collector.server.firstProgram!.tokens.secret),
    page,
    problems: consoleProblems(page),
    close,
  };
}

/**
 * Types a W-8BEN into the tax-form panel from the keyboard and sends it (Enter). `where` is the
 * page or the frame that shows it; `keys`, the page whose keyboard types (a frame has none).
 */
export async function typeW8ben(
  where: import('playwright-core').Page,
  keys: import('playwright-core').Page,
  name: string,
  tin: string,
): Promise<void> {
  const fields: [string, string][] = [
    ['name', name],
    ['country', 'DE'],
    ['line1', 'Hauptstraße 1'],
    ['city', 'Berlin'],
    ['postal_code', '10115'],
    ['address_country', 'DE'],
    ['tin', tin],
  ];
  for (const [field, value] of fields) {
    await where.focus(`section[aria-labelledby=tax-form] input[name=${field}]`);
    await keys.keyboard.type(value);
  }
  await where.fill('input[name=date_of_birth]', '1990-04-01');
  await where.focus('input[name=signature]');
  await keys.keyboard.type(name);
  await keys.keyboard.press('Enter');
}
