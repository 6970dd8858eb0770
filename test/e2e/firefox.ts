// Debian's Firefox ESR for the browser tests, driven by puppeteer-core over WebDriver BiDi
// behind the Playwright-shaped methods of driver.ts. puppeteer-core downloads no browser:
// it starts the one installed here.

import { existsSync } from 'node:fs';
import puppeteer, { type BrowserContext as PuppeteerContext, type HTTPRequest, type Page as PuppeteerPage } from 'puppeteer-core';
import type { Browser, BrowserContext, ConsoleMessage, Cookie, Page, SentRequest } from './driver.js';

export const FIREFOX = '/usr/bin/firefox-esr';

export async function launchFirefox(): Promise<Browser> {
  if (!existsSync(FIREFOX)) {
    throw new Error(`Firefox is missing at ${FIREFOX}. Install it with: apt-get install -y firefox-esr`);
  }
  const browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: FIREFOX,
    headless: true,
    // A fresh machine's first start, beside other browsers on two cores, took over puppeteer's 30 s.
    timeout: 110_000,
    extraPrefsFirefox: {
      // Chromium's --host-resolver-rules maps *.shop.test and *.other.test to this machine;
      // Firefox has no wildcard rule, so every name resolves here (the tests reach nothing else).
      'network.dns.forceResolve': '127.0.0.1',
    },
  });
  return {
    newContext: async () => new FirefoxContext(await browser.createBrowserContext()),
    close: () => browser.close(),
  };
}

type RequestEvent = 'request' | 'requestfailed';

class FirefoxContext implements BrowserContext {
  private listeners = { request: [] as ((request: SentRequest) => void)[], requestfailed: [] as ((request: SentRequest) => void)[] };
  /** Requests whose bodies are still being fetched. */
  private pending = new Set<Promise<void>>();
  constructor(private context: PuppeteerContext) {}

  async newPage(): Promise<Page> {
    const page = await this.context.newPage();
    for (const event of ['request', 'requestfailed'] as const) {
      page.on(event, (req) => {
        const told = this.emit(event, req).finally(() => this.pending.delete(told));
        this.pending.add(told);
      });
    }
    return new FirefoxPage(page, () => this.settled());
  }

  /**
   * BiDi gives a request's body only on asking, so a POST is told once its body is in;
   * a page's methods wait for that (settled), so a request is told before they return, as
   * Playwright's are.
   */
  private async emit(event: RequestEvent, req: HTTPRequest): Promise<void> {
    if (!this.listeners[event].length) return;
    const body = req.method() === 'POST' ? ((await req.fetchPostData().catch(() => undefined)) ?? null) : null;
    const request: SentRequest = { url: () => req.url(), method: () => req.method(), postData: () => body };
    for (const listener of this.listeners[event]) listener(request);
  }

  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all(this.pending);
  }

  async cookies(url?: string): Promise<Cookie[]> {
    const all = (await this.context.cookies()).map((c) => ({ name: c.name, value: c.value, domain: c.domain, expires: c.expires }));
    if (!url) return all;
    // The cookies a request to the URL carries: its host's own, and those of its parent domains.
    const host = new URL(url).hostname;
    return all.filter((c) => (c.domain.startsWith('.') ? `.${host}`.endsWith(c.domain) : host === c.domain));
  }

  on(event: RequestEvent, listener: (request: SentRequest) => void): void {
    this.listeners[event].push(listener);
  }

  close(): Promise<void> {
    return this.context.close();
  }
}

/** Playwright's glob: `**` any characters, `*` any but `/`; the rest is literal. */
function globToRegExp(glob: string): RegExp {
  const source = glob
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${source}$`);
}

/** Playwright's `text=…` selector is puppeteer's `::-p-text(…)`. */
const selector = (s: string) => (s.startsWith('text=') ? `::-p-text(${s.slice(5)})` : s);

class FirefoxPage implements Page {
  constructor(
    private page: PuppeteerPage,
    private settled: () => Promise<void>,
  ) {}

  async goto(url: string): Promise<unknown> {
    const response = await this.page.goto(url);
    await this.settled();
    return response;
  }
  async evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    const result = (await this.page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg)) as R;
    await this.settled();
    return result;
  }
  waitForFunction(fn: () => unknown): Promise<unknown> {
    return this.page.waitForFunction(fn, { polling: 50 });
  }
  async waitForURL(glob: string): Promise<void> {
    const pattern = globToRegExp(glob);
    await this.until(async () => pattern.test(await this.href()), `${glob} never came`);
    await this.loaded();
    await this.settled();
  }
  goBack(): Promise<void> {
    return this.traverse(-1);
  }
  goForward(): Promise<void> {
    return this.traverse(1);
  }
  click(s: string): Promise<void> {
    return this.page.locator(selector(s)).click();
  }
  fill(s: string, value: string): Promise<void> {
    return this.page.locator(selector(s)).fill(value);
  }
  async textContent(s: string): Promise<string | null> {
    return (await this.page.waitForSelector(selector(s)))!.evaluate((el) => el.textContent);
  }
  async getAttribute(s: string, name: string): Promise<string | null> {
    return (await this.page.waitForSelector(selector(s)))!.evaluate((el, n) => el.getAttribute(n), name);
  }
  waitForTimeout(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
  screenshot(options: { path: string }): Promise<unknown> {
    return this.page.screenshot({ path: options.path as `${string}.png` });
  }
  on(event: 'console', listener: (message: ConsoleMessage) => void): void;
  on(event: 'pageerror', listener: (error: Error) => void): void;
  on(event: 'console' | 'pageerror', listener: (value: never) => void): void {
    if (event === 'console') {
      // Playwright's names: puppeteer says 'warn' where Playwright says 'warning'.
      this.page.on('console', (m) =>
        (listener as (message: ConsoleMessage) => void)({
          type: () => (m.type() === 'warn' ? 'warning' : m.type()),
          text: () => m.text(),
          location: () => m.location(),
        }),
      );
    } else {
      this.page.on('pageerror', (e) => (listener as (error: Error) => void)(e as Error));
    }
  }

  /**
   * Moves through the tab's history. Puppeteer's goBack waits for a load event, and its
   * url() for a navigation event, neither of which comes for a page restored from
   * Firefox's back-forward cache; so the page itself is asked for its address.
   */
  private async traverse(delta: number): Promise<void> {
    const before = await this.href();
    // Later, so the call returns before a cross-document move tears down its context.
    await this.page.evaluate((d) => void setTimeout(() => history.go(d)), delta);
    await this.until(async () => ![before, ''].includes(await this.href()), `history.go(${delta}) left ${before} as it was`);
    await this.loaded();
    await this.settled();
  }

  /** The page's own address ('' while a navigation has no document to ask). */
  private href(): Promise<string> {
    return this.page.evaluate(() => location.href).catch(() => '');
  }

  private async loaded(): Promise<void> {
    await this.page.waitForFunction(() => document.readyState === 'complete', { polling: 50 });
  }

  private async until(done: () => Promise<boolean>, failure: string): Promise<void> {
    for (const deadline = Date.now() + 10_000; !(await done()); await this.waitForTimeout(25)) {
      if (Date.now() > deadline) throw new Error(`${failure} (at ${await this.href()})`);
    }
  }
}
