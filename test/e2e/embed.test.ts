// The embedded partner portal in Chromium (docs/embed.md): a company's page on another
// origin (app.shop.test, an allowed origin) frames /embed/?token=… from the collector
// (127.0.0.1), and the frame shows the partner's link, code and figures, clean under
// axe-core and readable at 360 px, with the partner's message thread; a browser in German gets German. A page on an origin
// the program does not allow (app.other.test) gets the frame refused by Chromium itself:
// no embed renders, and its one-time token is still unused. An expired link says so.

import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiWith, axeFindings, waitForText } from './dashboard.js';
import { consoleProblems } from './driver.js';
import { launchChromium, Site, startDemoCollector } from './stack.js';

let browser: Browser;
let collector: Awaited<ReturnType<typeof startDemoCollector>>;
let api: Api;
const site = new Site();
let users = 0;

beforeAll(async () => {
  browser = await launchChromium();
  collector = await startDemoCollector();
  api = apiWith(collector.server.url, collector.server.firstProgram!.tokens.secret);
  await site.start();
  await api('PATCH', '/v1/program', { name: 'Acme', allowed_origins: [site.origin('app.shop.test')] });
});
afterAll(async () => {
  await browser?.close();
  await collector?.close();
  await site.close();
});

/** What the company's server does: an embed token for one of its users. */
async function embedToken(name: string) {
  const n = ++users;
  const made = await api('POST', '/v1/embed_tokens', { user_id: `acme-user-${n}`, name, email: `user${n}@acme.test` });
  return {
    url: made.data.attributes.url as string,
    token: made.data.attributes.token as string,
    partnershipId: made.data.relationships.partnership.data.id,
  };
}

/** A page of the company's app with the embed in an iframe, as docs/embed.md shows it. */
function hostPage(path: string, src: string): void {
  site.set(
    path,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>Acme: referrals</title><style>body{margin:0;font:15px system-ui,sans-serif;background:#eef1f5}header{background:#24324a;color:#fff;padding:12px 20px;font-weight:600}
main{max-width:720px;margin:16px auto;padding:0 12px}h1{font-size:20px}iframe{width:100%;height:1000px;border:1px solid #cfd5df;border-radius:8px;background:#fff}</style></head>
<body><header>Acme · Account</header><main><h1>Invite friends, earn rewards</h1>
<iframe src="${src}" title="Your referral link and earnings" onload="window.framed=true"></iframe></main></body></html>`,
  );
}

/** The embed's frame, once it has loaded (an error page when it was refused). */
async function framed(page: Page): Promise<Frame> {
  await page.waitForFunction(() => (window as unknown as { framed?: boolean }).framed === true);
  return page.frames().find((f) => f !== page.mainFrame())!;
}

describe('the embedded portal in Chromium', () => {
  it("shows the partner's link, code and figures inside a page of an allowed origin, clean under axe-core", async () => {
    const maya = await embedToken('Maya Example');
    await api('POST', '/v1/discount_codes', { partnership_id: maya.partnershipId, code: 'MAYA20' });
    const key = (await api('GET', `/v1/partnerships/${maya.partnershipId}`)).data.attributes.key;
    await api('POST', '/v1/tracking/click', { gr_id: 'visit-1', pk: key });
    await api('POST', '/v1/tracking/conversion', { email: 'bob@customer.test', gr_id: 'visit-1', pk: key });
    await api('POST', '/v1/payments', { amount: 4900, currency: 'USD', idempotency_key: 'ch_1', referral_email: 'bob@customer.test' });
    hostPage('/settings/referrals', maya.url);

    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const problems = consoleProblems(page);
    await page.goto(`${site.origin('app.shop.test')}/settings/referrals`);
    const embed = await framed(page);
    await embed.waitForSelector('.referral-link');
    expect(await embed.textContent('.referral-link')).toMatch(new RegExp(`\\?red=${key}$`));
    expect(await embed.textContent('.promo-code')).toBe('MAYA20');
    await embed.waitForSelector('dl.figures .value');
    const figures = await embed.evaluate(() => document.querySelector('main')!.innerText);
    expect(figures).toMatch(/Clicks\s+1/);
    expect(figures).toMatch(/Referrals\s+1/);
    expect(figures).toContain('$9.80'); // 20 % of $49.00, pending
    // The token left the frame's address, and the session is no cookie.
    expect(embed.url()).not.toContain('token=');
    expect(await context.cookies()).toEqual([]);
    expect(await axeFindings(embed as unknown as Page)).toEqual([]);

    await page.setViewportSize({ width: 360, height: 800 });
    expect(await embed.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await page.setViewportSize({ width: 760, height: 1000 });
    await page.screenshot({ path: join(shots(), 'embed.png'), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows the partner's thread with the team; the partner answers inside the frame (docs/messages.md)", async () => {
    const { url, partnershipId } = await embedToken('Tess Example');
    await api('POST', `/v1/message_threads/${partnershipId}/messages`, { body: 'Hello Tess, the guide: https://example.com/guide' });
    hostPage('/messages', url);
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const problems = consoleProblems(page);
    await page.goto(`${site.origin('app.shop.test')}/messages`);
    const embed = await framed(page);
    await embed.waitForSelector('.message');
    expect(await embed.textContent('.message .body')).toBe('Hello Tess, the guide: https://example.com/guide');
    expect(await embed.getAttribute('.message a', 'href')).toBe('https://example.com/guide');
    await embed.fill('textarea[name=body]', 'Thank you!');
    await embed.click('.reply button[type=submit]');
    await embed.waitForSelector('.message.mine');
    const thread = await api('GET', `/v1/message_threads/${partnershipId}`);
    expect(thread.data.attributes).toMatchObject({ unread: 1, other_read_at: expect.any(Number) });
    expect(await axeFindings(embed as unknown as Page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await embed.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows every code of a partner with more than one page of them (the API pages codes by 50)', async () => {
    const { url, partnershipId } = await embedToken('Cody Example');
    const codes = Array.from({ length: 52 }, (_, i) => `CODY${String(i + 1).padStart(2, '0')}`);
    for (const code of codes) await api('POST', '/v1/discount_codes', { partnership_id: partnershipId, code });
    hostPage('/codes', url);
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${site.origin('app.shop.test')}/codes`);
    const embed = await framed(page);
    await embed.waitForSelector('.promo-code');
    expect((await embed.$$eval('.promo-code', (els) => els.map((e) => e.textContent))).sort()).toEqual(codes);
    await context.close();
  });

  it("speaks the browser's language when the partner chose none", async () => {
    const { url } = await embedToken('Jonas Beispiel');
    hostPage('/de', url);
    const context = await browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto(`${site.origin('app.shop.test')}/de`);
    const embed = await framed(page);
    await embed.waitForSelector('.referral-link');
    expect(await embed.textContent('h2')).toBe('Ihr Empfehlungslink');
    expect(await embed.evaluate(() => document.documentElement.lang)).toBe('de');
    // The payout panels' chunk speaks German too, once loaded.
    await waitForText(embed as unknown as Page, 'Wie Sie bezahlt werden');
    expect(await embed.evaluate(() => document.querySelector('main')!.innerText)).toContain('Steuerformular');
    await context.close();
  });

  it('is refused inside a page of an origin the program does not allow, and its token stays unused', async () => {
    const { url, token } = await embedToken('Eve Example');
    hostPage('/elsewhere', url);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.origin('app.other.test')}/elsewhere`);
    const embed = await framed(page);
    expect(embed.url()).toMatch(/^chrome-error:/);
    expect(await embed.evaluate(() => document.querySelector('main.embed')).catch(() => null)).toBeNull();
    // The embed's script never ran: the one-time token is still there to use.
    const trade = await fetch(`${collector.server.url}/v1/embed/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(trade.status).toBe(201);
    await context.close();
  });

  it('says an expired or unknown link has expired', async () => {
    const context = await browser.newContext({ locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${collector.server.url}/embed/?token=emb_unknown`);
    await page.waitForSelector('main.expired');
    expect(await page.textContent('h1')).toBe('Ce lien a expiré');
    await context.close();
  });
});

function shots(): string {
  const dir = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tally-shots');
  mkdirSync(dir, { recursive: true });
  return dir;
}
