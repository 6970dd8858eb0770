// Brand resources and branding in Chromium (docs/resources.md, docs/branding.md): the owner
// uploads a logo and adds copy on the dashboard's Resources page and sets the program's
// colour; the partner sees the logo and the colour in the portal's header, downloads the
// logo and copies the text; the public page shows them too. axe-clean, and readable at 360 px.

import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from '../collector/brand-files.js';
import {
  acceptedPartner,
  axeFindings,
  dashboardStack,
  overflowsSideways,
  press,
  redeemLink,
  signInFirst,
  waitForText,
  type Api,
} from './dashboard.js';

let stack: Awaited<ReturnType<typeof dashboardStack>>;
let url: string;
let api: Api;
let page: Page;
let problems: string[];

beforeAll(async () => {
  stack = await dashboardStack();
  ({ url, api, page, problems } = stack);
  await signInFirst(page, stack.collector.server.firstSignInLink!);
});
afterAll(async () => {
  await stack?.close();
});

const ACCENT = '#6d28d9';

/** The accent colour the page's stylesheet uses now. */
const accentOf = (p: Page) => p.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim());

describe('the dashboard’s Resources page', () => {
  it('uploads a logo, adds copy, refuses a pale accent with its ratio, and saves the brand', async () => {
    await page.goto(`${url}/dashboard/resources`);
    await waitForText(page, 'Upload a file');
    const upload = page.locator('form[aria-labelledby=upload-title]');
    await upload.getByLabel('Title').fill('Logo');
    await upload.getByLabel('File').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await press(page, 'Upload');
    await waitForText(page, 'Uploaded.');
    const copy = page.locator('form[aria-labelledby=copy-title]');
    await copy.getByLabel('Title').fill('Tweet');
    await copy.getByLabel('Text partners copy').fill('Try Acme: the widgets that ship themselves.');
    await press(page, 'Add copy');
    await waitForText(page, 'PNG image');

    const branding = page.locator('form[aria-labelledby=branding-title]');
    await branding.getByLabel('Logo').selectOption({ label: 'Logo' });
    await branding.getByLabel('Accent colour').fill('#ffcc00');
    await press(page, 'Save branding');
    await waitForText(page, /contrast of 1\.41:1/);
    await branding.getByLabel('Accent colour').fill(ACCENT);
    await press(page, 'Save branding');
    await waitForText(page, 'Saved.');
    expect((await api('GET', '/v1/program/branding')).data.attributes).toMatchObject({ accent: ACCENT, logo_id: expect.any(String) });
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await overflowsSideways(page)).toBe(false);
    await page.setViewportSize({ width: 1280, height: 800 });
    // The refused save's 422 is the browser's console line; nothing else went wrong.
    expect(problems.filter((p) => !p.includes('422'))).toEqual([]);
  });
});

describe('the partner’s view', () => {
  it('shows the logo and the colour in the portal; the partner downloads the logo and copies the text', async () => {
    const pat = await acceptedPartner(api, 'Pat');
    const link = (await api('POST', `/v1/partners/${pat.id}/invitation`)).meta.link as string;
    const context = await stack.browser.newContext({ acceptDownloads: true, permissions: ['clipboard-read', 'clipboard-write'] });
    const portal = await context.newPage();
    await redeemLink(portal, link);
    const logo = portal.locator('header .brand img');
    await logo.waitFor();
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    expect(await accentOf(portal)).toBe(ACCENT);

    await portal.getByRole('link', { name: 'Brand resources' }).click();
    await waitForText(portal, 'Try Acme: the widgets that ship themselves.');
    const [download] = await Promise.all([portal.waitForEvent('download'), portal.getByRole('link', { name: 'Download Logo' }).click()]);
    expect(download.suggestedFilename()).toBe('logo.png');
    expect(readFileSync((await download.path())!).equals(PNG)).toBe(true);
    await portal.getByRole('button', { name: 'Copy text' }).click();
    await waitForText(portal, 'Copied');
    expect(await portal.evaluate(() => navigator.clipboard.readText())).toBe('Try Acme: the widgets that ship themselves.');
    expect(await axeFindings(portal)).toEqual([]);
    await portal.setViewportSize({ width: 360, height: 800 });
    expect(await overflowsSideways(portal)).toBe(false);
    await context.close();
  });

  it('the public page shows the program’s logo and colour instead of Tally', async () => {
    await api('PATCH', '/v1/program', { slug: 'brand', page_enabled: true });
    const visitor = await (await stack.browser.newContext()).newPage();
    await visitor.goto(`${url}/p/brand/`);
    const logo = visitor.locator('.card .brand img');
    await logo.waitFor();
    expect(await visitor.locator('.card .brand').innerText()).not.toContain('Tally');
    expect(await accentOf(visitor)).toBe(ACCENT);
    expect(await axeFindings(visitor)).toEqual([]);
    await visitor.setViewportSize({ width: 360, height: 800 });
    expect(await overflowsSideways(visitor)).toBe(false);
  });
});
