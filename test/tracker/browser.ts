// A small browser for unit tests: jsdom pages that load the built tracker.js through a
// script tag, one cookie jar and one localStorage per origin kept across page loads,
// and fakes only at the edge of the outside world: the network (fetch records each
// request and answers as the test says; a click is answered as the collector does) and
// the clock of retries (timers run at once, with the delays they asked for recorded).
// Every cookie a page writes is recorded too, to show which domains it tried.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CookieJar, JSDOM, requestInterceptor, VirtualConsole } from 'jsdom';
import { registrableDomain } from '../../packages/collector/src/modules/clicks/registrable-domain.js';

export const BUNDLE = readFileSync(fileURLToPath(new URL('../../packages/tracker/dist/tracker.js', import.meta.url)), 'utf8');
export const SCRIPT_SRC = 'https://collector.test/tracker.js';
export const KEY = 'tly_pub_test';

export interface Sent {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  keepalive: boolean;
}

/** What the network does with a request: a status (with a JSON body), or 'offline'. */
export type Answer = number | 'offline' | { status: number; body: unknown };

/** Serves the built bundle for any script under the collector's origin. */
const serveBundle = requestInterceptor((request: Request) =>
  request.url.startsWith('https://collector.test/')
    ? new Response(BUNDLE, { headers: { 'Content-Type': 'text/javascript' } })
    : new Response('', { status: 404 }),
);

export interface PageOptions {
  /** data-* attributes of the script tag, without the data- prefix; `key` defaults to KEY. */
  attrs?: Record<string, string | null>;
  /** Inline script before the tag (a stub, queued calls). */
  before?: string;
  /** Replace the script tag with this HTML (for the hosted service's own snippet). */
  html?: string;
}

export class Browser {
  jar = new CookieJar();
  storage = new Map<string, Record<string, string>>();
  sent: Sent[] = [];
  delays: number[] = [];
  logs: Array<[string, unknown[]]> = [];
  /** Answers for the next conversions, in order; then `fallback`. */
  answers: Answer[] = [];
  fallback: Answer = 201;
  /** How clicks are answered; by default as the collector does, naming the cookie's domain. */
  clickAnswer: Answer | undefined;
  /** Each `document.cookie = …` of every page, with the host of its page. */
  cookieWrites: Array<{ host: string; cookie: string }> = [];
  private open_: JSDOM[] = [];

  clicks() {
    return this.sent.filter((s) => s.url.endsWith('/v1/tracking/click'));
  }
  conversions() {
    return this.sent.filter((s) => s.url.endsWith('/v1/tracking/conversion'));
  }

  /** Loads a page, runs its scripts and resolves once the page has loaded. */
  async open(url: string, opts: PageOptions = {}): Promise<JSDOM['window']> {
    this.leave();
    const attrs = { key: KEY, ...opts.attrs };
    const data = Object.entries(attrs)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => ` data-${k}="${v}"`)
      .join('');
    const tag = opts.html ?? `<script src="${SCRIPT_SRC}"${data}></script>`;
    const html = `<!doctype html><html><head>${opts.before ? `<script>${opts.before}</script>` : ''}${tag}</head><body><a id="out" href="https://app.other.test/start?x=1">go</a><form id="form" action="https://app.other.test/signup"></form></body></html>`;
    const virtualConsole = new VirtualConsole();
    for (const level of ['log', 'warn', 'error', 'info'] as const) {
      virtualConsole.on(level, (...args: unknown[]) => this.logs.push([level, args]));
    }
    virtualConsole.on('jsdomError', (e: Error) => this.logs.push(['jsdomError', [e.message]]));
    const origin = new URL(url).origin;
    const saved = this.storage.get(origin) ?? {};
    const dom = new JSDOM(html, {
      url,
      runScripts: 'dangerously',
      resources: { interceptors: [serveBundle] },
      cookieJar: this.jar,
      virtualConsole,
      beforeParse: (window) => {
        for (const [k, v] of Object.entries(saved)) window.localStorage.setItem(k, v);
        this.install(window as unknown as Window & typeof globalThis);
      },
    });
    this.open_.push(dom);
    await new Promise<void>((resolve) => {
      if (dom.window.document.readyState === 'complete') resolve();
      else dom.window.addEventListener('load', () => resolve());
    });
    return dom.window;
  }

  /** Keeps each open page's localStorage for the next page of its origin, and closes it. */
  leave(): void {
    for (const dom of this.open_) {
      const w = dom.window;
      const copy: Record<string, string> = {};
      for (let i = 0; i < w.localStorage.length; i++) {
        const k = w.localStorage.key(i)!;
        copy[k] = w.localStorage.getItem(k)!;
      }
      this.storage.set(w.location.origin, copy);
      w.close();
    }
    this.open_ = [];
  }

  /** Lets the page's pending promises and zero-delay timers run. */
  async settle(window: JSDOM['window'], rounds = 20): Promise<void> {
    for (let i = 0; i < rounds; i++) await new Promise((r) => window.setTimeout(r, 0));
  }

  private install(window: Window & typeof globalThis): void {
    const realTimeout = window.setTimeout.bind(window);
    window.setTimeout = ((fn: () => void, ms?: number) => {
      if (ms) this.delays.push(ms);
      return realTimeout(fn, 0);
    }) as typeof window.setTimeout;
    window.fetch = (async (input: string, init: RequestInit = {}) => {
      const sent = {
        url: String(input),
        headers: init.headers as Record<string, string>,
        body: JSON.parse(String(init.body)),
        keepalive: !!init.keepalive,
      };
      this.sent.push(sent);
      const answer = sent.url.endsWith('/v1/tracking/click')
        ? (this.clickAnswer ?? { status: 202, body: { data: { cookie_domain: registrableDomain(sent.body.url as string) } } })
        : this.answers.length
          ? this.answers.shift()!
          : this.fallback;
      if (answer === 'offline') throw new TypeError('Failed to fetch');
      // A number is a status with its usual body; 202 (the old click answer) and 204 have none.
      const { status, body } =
        typeof answer === 'number' ? { status: answer, body: answer === 202 ? undefined : status2body(answer) } : answer;
      return new Response(status === 204 || body === undefined ? null : JSON.stringify(body), { status });
    }) as typeof fetch;
    const cookie = Object.getOwnPropertyDescriptor(window.Document.prototype, 'cookie')!;
    const writes = this.cookieWrites;
    Object.defineProperty(window.Document.prototype, 'cookie', {
      ...cookie,
      set(this: Document, value: string) {
        writes.push({ host: window.location.hostname, cookie: value });
        cookie.set!.call(this, value);
      },
    });
  }

  /** The domain attribute of each cookie written on a host ('' for none), in order. */
  cookieDomains(host: string): string[] {
    return this.cookieWrites.filter((w) => w.host === host).map((w) => /;\s*domain=([^;]*)/i.exec(w.cookie)?.[1] ?? '');
  }

  /** The `_gr_id` cookie as the jar holds it, for a URL. */
  cookie(url: string) {
    return this.jar.getCookiesSync(url).find((c) => c.key === '_gr_id');
  }

  /** The `_gr_s` cookie, the flag that says the origin's localStorage holds something of ours. */
  flag(url: string) {
    return this.jar.getCookiesSync(url).find((c) => c.key === '_gr_s');
  }

  /**
   * Items already in an origin's localStorage, as an earlier page of the snippet would have
   * left them: with the flag cookie, without which the snippet does not look.
   */
  store(origin: string, items: Record<string, string>): void {
    this.storage.set(origin, items);
    this.jar.setCookieSync('_gr_s=1; Path=/', `${origin}/`);
  }

  /** Removes one cookie, as a browser or an extension might, wherever it is kept for the URL. */
  loseCookie(url: string, name: string): void {
    for (const c of this.jar.getCookiesSync(url).filter((c) => c.key === name)) {
      this.jar.setCookieSync(`${name}=; Path=${c.path}; Max-Age=0${c.hostOnly ? '' : `; Domain=${c.domain}`}`, url);
    }
  }
}

function status2body(status: number): unknown {
  if (status < 300) return { data: { id: 'ref-1', type: 'referral', attributes: { state: 'converted' } } };
  return { errors: [{ status: String(status), code: 'x', title: 'x', detail: 'x' }] };
}

/** The referral the cookie holds, parsed. */
export function cookieReferral(b: Browser, url: string): Record<string, unknown> | undefined {
  const c = b.cookie(url);
  return c ? JSON.parse(decodeURIComponent(c.value)) : undefined;
}
