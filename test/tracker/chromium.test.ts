// What the snippet costs a page, and what it keeps, in Debian's Chromium: a visitor who came
// through no link and has nothing waiting costs one read of document.cookie and no
// localStorage at all (docs/tracker.md §5.3), while the outbox and the stored copy of the
// referral still work behind the flag cookie `_gr_s`.
//
// An init script counts, on every page, each access to window.localStorage and each call
// of Storage.prototype's methods, and each read and write of document.cookie. The site and
// a stand-in collector are one local server; www.shop.test resolves to it.

import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
const BUNDLE = readFileSync(fileURLToPath(new URL('../../packages/tracker/dist/tracker.js', import.meta.url)));
const STUB = '<script>window.gr=window.gr||function(){(gr.q=gr.q||[]).push(arguments)};</script>';

/** Counts every way a script can reach localStorage or document.cookie; in `window.__seen`. */
const INSTRUMENT = `(() => {
  const seen = { storage: [], cookieReads: 0, cookieWrites: [] };
  Object.defineProperty(window, '__seen', { value: seen });
  const holder = Object.getOwnPropertyDescriptor(window, 'localStorage') ? window : Window.prototype;
  const storage = Object.getOwnPropertyDescriptor(holder, 'localStorage');
  Object.defineProperty(window, 'localStorage', {
    configurable: true,
    enumerable: true,
    get() {
      seen.storage.push('window.localStorage');
      return storage.get.call(window);
    },
  });
  for (const name of ['getItem', 'setItem', 'removeItem', 'key', 'clear']) {
    const real = Storage.prototype[name];
    Storage.prototype[name] = function (...args) {
      seen.storage.push('Storage.' + name);
      return real.apply(this, args);
    };
  }
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  Object.defineProperty(Document.prototype, 'cookie', {
    configurable: true,
    enumerable: true,
    get() {
      seen.cookieReads++;
      return cookie.get.call(this);
    },
    set(value) {
      seen.cookieWrites.push(value);
      cookie.set.call(this, value);
    },
  });
})();`;

interface Seen {
  storage: string[];
  cookieReads: number;
  cookieWrites: string[];
}

/** The company's site and the collector in one server: any page runs the snippet but /thanks. */
class Site {
  /** Conversions as the collector received them, and whether each was accepted. */
  conversions: Array<{ email: string; accepted: boolean }> = [];
  clicks = 0;
  /** The collector answers conversions with 503 while this is set. */
  down = false;
  port = 0;
  server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/tracker.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' }).end(BUNDLE);
    } else if (path === '/v1/tracking/click') {
      this.clicks++;
      // As the collector answers a click on www.shop.test: the site's registrable domain.
      res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { cookie_domain: 'shop.test' } }));
    } else if (path === '/v1/tracking/conversion') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        this.conversions.push({ email: JSON.parse(body).email, accepted: !this.down });
        if (this.down) res.writeHead(503).end();
        else
          res
            .writeHead(201, { 'content-type': 'application/json' })
            .end(JSON.stringify({ data: { id: 'ref-1', type: 'referral', attributes: { state: 'converted' } } }));
      });
    } else {
      const tag = path === '/thanks' ? '' : `${STUB}<script async src="/tracker.js" data-key="tly_pub_test"></script>`;
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html><head><link rel="icon" href="data:,">${tag}</head><body>${path}</body></html>`);
    }
  });

  url(path: string): string {
    return `http://www.shop.test:${this.port}${path}`;
  }
}

let browser: Browser;
let site: Site;
let context: BrowserContext;
let tab: Page;

const ready = () => tab.waitForFunction(() => typeof (window as { gr?: { track?: unknown } }).gr?.track === 'function');
/** Opens a page, waits for the snippet, and gives its work a moment to finish. */
async function open(path: string): Promise<void> {
  await tab.goto(site.url(path));
  await ready();
  await tab.waitForTimeout(100);
}
const seen = () => tab.evaluate(() => (window as unknown as { __seen: Seen }).__seen);
const cookieNames = async () => (await context.cookies()).map((c) => `${c.name}@${c.domain}`).sort();
const referral = () =>
  tab.evaluate(() => new Promise((done) => (window as unknown as { gr: (c: string, f: (r: unknown) => void) => void }).gr('ready', done)));

describe.skipIf(!existsSync(CHROMIUM))('in Chromium', () => {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP *.shop.test 127.0.0.1'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    site = new Site();
    await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
    site.port = (site.server.address() as AddressInfo).port;
    context = await browser.newContext();
    await context.addInitScript({ content: INSTRUMENT });
    tab = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
    await new Promise((resolve) => site.server.close(resolve));
  });

  it('a page without a referral, with nothing stored, reads document.cookie once and never touches localStorage', async () => {
    await open('/pricing');
    expect(await seen()).toEqual({ storage: [], cookieReads: 1, cookieWrites: [] });
    expect(await referral()).toBeNull();
    expect(await cookieNames()).toEqual([]);
  });

  it('a landing stores the copy and sets the flag; a later page of the visitor still has the referral', async () => {
    await open('/?red=alice');
    await expect.poll(cookieNames).toEqual(['_gr_id@.shop.test', '_gr_s@www.shop.test']);
    expect(await tab.evaluate(() => JSON.parse(localStorage.getItem('_gr_id')!).pk)).toBe('alice');
    await open('/signup');
    expect(await referral()).toMatchObject({ pk: 'alice' });
  });

  it('a conversion queued while the collector is down is delivered by the next page, even with no referral left; the flag then goes', async () => {
    await open('/?red=alice');
    await expect.poll(cookieNames).toEqual(['_gr_id@.shop.test', '_gr_s@www.shop.test']);
    site.down = true;
    await open('/signup');
    await tab.evaluate(() => {
      const gr = (window as unknown as { gr: { (c: string, a: unknown): void; track(e: string): Promise<unknown> } }).gr;
      void gr.track('outage@buyer.test');
      gr('consent', false); // the referral and its copy go; the queued conversion stays
    });
    await expect.poll(() => site.conversions.length).toBeGreaterThan(0);
    expect(await tab.evaluate(() => [localStorage.getItem('_gr_id'), JSON.parse(localStorage.getItem('_gr_outbox')!).length])).toEqual([
      null,
      1,
    ]);
    // Nothing but the flag says that something waits.
    expect(await cookieNames()).toEqual(['_gr_s@www.shop.test']);
    await tab.goto(site.url('/thanks')); // the page goes, most likely before its retries
    expect(site.conversions.filter((c) => c.accepted)).toEqual([]);

    site.down = false;
    await open('/pricing');
    const accepted = () => site.conversions.filter((c) => c.accepted).map((c) => c.email);
    await expect.poll(accepted).toEqual(['outage@buyer.test']);
    // Nothing is left: no item, and no flag.
    await expect.poll(cookieNames).toEqual([]);
    expect(await tab.evaluate(() => localStorage.length)).toBe(0);

    await open('/pricing');
    expect(await seen()).toEqual({ storage: [], cookieReads: 1, cookieWrites: [] });
    expect(accepted()).toEqual(['outage@buyer.test']);
  });

  it('a lost referral cookie is restored from the stored copy while the flag is kept', async () => {
    await open('/?red=alice');
    await expect.poll(cookieNames).toEqual(['_gr_id@.shop.test', '_gr_s@www.shop.test']);
    await context.clearCookies({ name: '_gr_id' });
    await open('/pricing');
    expect(await referral()).toMatchObject({ pk: 'alice' });
    expect(await cookieNames()).toEqual(['_gr_id@.shop.test', '_gr_s@www.shop.test']);
    expect(site.clicks).toBe(1);
  });

  it('all cookies cleared, storage kept: the page touches no storage, and the stored copy stays unread', async () => {
    await open('/?red=alice');
    await expect.poll(cookieNames).toEqual(['_gr_id@.shop.test', '_gr_s@www.shop.test']);
    await context.clearCookies();
    await open('/pricing');
    expect(await seen()).toEqual({ storage: [], cookieReads: 1, cookieWrites: [] });
    expect(await referral()).toBeNull();
    expect(await tab.evaluate(() => JSON.parse(localStorage.getItem('_gr_id')!).pk)).toBe('alice');
  });
});
