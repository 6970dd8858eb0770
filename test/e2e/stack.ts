// The whole system for browser tests: a real collector (its own SQLite file), a separate
// static site on another origin that serves the pages a company would, and Debian's
// Chromium driven by playwright-core. Host names under shop.test and other.test resolve
// to 127.0.0.1, so subdomains of one site, and a second site, can be tested on one machine.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser as PlaywrightBrowser, type BrowserContext as PlaywrightContext } from 'playwright-core';
import type { Browser, BrowserContext, Page } from './driver.js';
import { createProgram } from '../../packages/collector/src/flows/program.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import type { Config } from '../../packages/collector/src/platform/config.js';
import { startServer, type RunningServer, type ServerOptions } from '../../packages/collector/src/server.js';
import { TEST_PASSWORD_COST } from '../collector/harness.js';

export const CHROMIUM = '/usr/bin/chromium';
const BUNDLE = readFileSync(fileURLToPath(new URL('../../packages/tracker/dist/tracker.js', import.meta.url)));

/** This worker's Chromium: the files of a worker share one registry, so they share it too (its start is half a second). */
let shared: Promise<PlaywrightBrowser> | undefined;

/**
 * Chromium for one test file: the worker's one browser, behind a handle whose close() closes
 * only the contexts this file opened (each context is a profile of its own: cookies,
 * storage, cache). A browser that died, or did not start, is started anew for the next file.
 */
export async function launchChromium(): Promise<PlaywrightBrowser> {
  const start = () => {
    shared = startChromium();
    shared.catch(() => (shared = undefined));
    return shared;
  };
  let browser = await (shared ?? start());
  if (!browser.isConnected()) browser = await start();
  const opened: PlaywrightContext[] = [];
  const newContext = async (...args: Parameters<PlaywrightBrowser['newContext']>) => {
    const context = await browser.newContext(...args);
    opened.push(context);
    return context;
  };
  const close = async () => {
    await Promise.all(opened.splice(0).map((c) => c.close().catch(() => undefined)));
  };
  // What would reach past the handle (a context of its own, every file's contexts, the browser's own close) goes through it.
  const own: Partial<Record<string | symbol, unknown>> = {
    newContext,
    newPage: async (...args: Parameters<PlaywrightBrowser['newPage']>) => (await newContext(...args)).newPage(),
    contexts: () => [...opened],
    close,
    [Symbol.asyncDispose]: close,
  };
  return new Proxy(browser, {
    get(target, key) {
      if (key in own) return own[key];
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function startChromium(): Promise<PlaywrightBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}. Install it with: apt-get install -y chromium`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--host-resolver-rules=MAP *.shop.test 127.0.0.1, MAP *.other.test 127.0.0.1',
    ],
  });
}

/** A static site: pages registered by path, served on every host name that reaches it. */
export class Site {
  private pages = new Map<string, string>();
  server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/tracker.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(BUNDLE);
      return;
    }
    const html = this.pages.get(path);
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found');
  });
  port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }
  /** The site's address on a host name: www.shop.test, app.shop.test, app.other.test. */
  origin(host = 'www.shop.test'): string {
    return `http://${host}:${this.port}`;
  }
  set(path: string, html: string): void {
    this.pages.set(path, html);
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export const STUB = `<script>window.gr=window.gr||function(){(gr.q=gr.q||[]).push(arguments)};</script>`;

export interface Captured {
  url: string;
  body: Record<string, unknown>;
}

export class Stack {
  dir = mkdtempSync(join(tmpdir(), 'tally-e2e-'));
  collector!: RunningServer;
  collectorPort = 0;
  site = new Site();
  browser!: Browser;
  secret = '';
  publishable = '';

  async start(browser: Browser): Promise<void> {
    this.browser = browser;
    await this.site.start();
    await this.startCollector(0);
    const program = await createProgram(
      this.collector.db,
      {
        name: 'Shop',
        siteUrl: `${this.site.origin()}/`,
        allowedOrigins: [this.site.origin(), this.site.origin('app.shop.test'), this.site.origin('app.other.test')],
      },
      Math.floor(Date.now() / 1000),
    );
    this.secret = program.tokens.secret;
    this.publishable = program.tokens.publishable;
  }

  /** Starts the collector; port 0 picks one, and a restart reuses it. */
  async startCollector(port: number): Promise<void> {
    this.collector = await startServer(
      {
        port,
        host: '127.0.0.1',
        databaseUrl: join(this.dir, 'tally.db'),
        logLevel: 'silent',
        publicUrl: 'http://127.0.0.1',
        passwordCost: TEST_PASSWORD_COST,
      },
      createLogger('silent'),
    );
    this.collectorPort = Number(new URL(this.collector.url).port);
  }

  get collectorUrl(): string {
    return `http://127.0.0.1:${this.collectorPort}`;
  }

  /** The snippet as docs/tracker.md §1 installs it, loading tracker.js from the collector. */
  tag(attrs = ''): string {
    return `${STUB}<script async src="${this.collectorUrl}/tracker.js" data-key="${this.publishable}" ${attrs}></script>`;
  }

  /** Calls the collector's API with the secret token. */
  async api(method: string, path: string, body?: unknown): Promise<any> {
    const res = await fetch(this.collectorUrl + path, {
      method,
      headers: { authorization: `Bearer ${this.secret}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return res.status === 204 ? undefined : res.json();
  }

  /** A partner with an accepted partnership; returns its key and partnership id. */
  async partner(name: string): Promise<{ key: string; partnershipId: string }> {
    const partner = await this.api('POST', '/v1/partners', { name, email: `${name.toLowerCase()}@partners.test` });
    const ps = await this.api('POST', '/v1/partnerships', { partner_id: partner.data.id, state: 'accepted' });
    return { key: ps.data.attributes.key, partnershipId: ps.data.id };
  }

  /** A fresh browser profile, recording every request the pages send to /v1/tracking. */
  async context(): Promise<{ context: BrowserContext; page: Page; sent: Captured[] }> {
    const context = await this.browser.newContext();
    const sent: Captured[] = [];
    context.on('request', (req) => {
      if (req.url().includes('/v1/tracking/') && req.method() === 'POST') {
        sent.push({ url: req.url(), body: JSON.parse(req.postData() ?? '{}') });
      }
    });
    return { context, page: await context.newPage(), sent };
  }

  /** Waits until the API lists a referral for this email, or gives up. */
  async referralFor(email: string, timeoutMs = 8000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const list = await this.api('GET', `/v1/referrals?email_eq=${encodeURIComponent(email)}`).catch(() => undefined);
      if (list?.data?.length) return list.data[0];
      await new Promise((r) => setTimeout(r, 100));
    }
    return undefined;
  }

  async close(): Promise<void> {
    await this.collector.close().catch(() => undefined);
    await this.site.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Waits until the loaded tracker has replaced the stub. */
export const trackerReady = (page: Page) => page.waitForFunction(() => typeof window.gr?.track === 'function');

/**
 * A collector as `npm start` runs it (first program, demo on), on its own database in a temp folder;
 * `options` as startServer takes them (webhooks to this machine: `outbound`).
 */
export async function startDemoCollector(
  extra: Partial<Pick<Config, 'smtpUrl' | 'taxFormKeys' | 'paypalApiUrl' | 'stripeApiUrl' | 'wiseApiUrl' | 'port' | 'publicUrl'>> = {},
  options: ServerOptions = {},
): Promise<{ server: RunningServer; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-demo-'));
  const server = await startServer(
    { port: 0, host: '127.0.0.1', databaseUrl: join(dir, 'tally.db'), logLevel: 'silent', passwordCost: TEST_PASSWORD_COST, ...extra },
    createLogger('silent'),
    options,
  );
  return {
    server,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
