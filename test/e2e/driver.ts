// The part of Playwright's API the browser tests use, so one test runs in two engines:
// Chromium is driven by playwright-core itself; Firefox (Debian's firefox-esr, which
// Playwright cannot drive: it needs its own patched build) by puppeteer-core over
// WebDriver BiDi, behind these same methods (firefox.ts).

/** A request a page sent. */
export interface SentRequest {
  url(): string;
  method(): string;
  postData(): string | null;
}

export interface ConsoleMessage {
  /** 'log', 'warning', 'error', … (Playwright's names). */
  type(): string;
  text(): string;
  /** Where it came from: a script, or the resource that failed to load. */
  location(): { url?: string };
}

export interface Cookie {
  name: string;
  value: string;
  /** With a leading dot for a domain cookie; the host itself for a host-only one. */
  domain: string;
  /** Unix seconds; -1 for a session cookie. */
  expires: number;
}

export interface Page {
  goto(url: string): Promise<unknown>;
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  waitForFunction(fn: () => unknown): Promise<unknown>;
  /** Waits until the address matches a glob (`**` any characters, `*` any but `/`) and the page has loaded. */
  waitForURL(glob: string): Promise<void>;
  /** Back and forward; they resolve once the page at the new entry has loaded (or been restored). */
  goBack(): Promise<unknown>;
  goForward(): Promise<unknown>;
  click(selector: string): Promise<void>;
  fill(selector: string, value: string): Promise<void>;
  textContent(selector: string): Promise<string | null>;
  getAttribute(selector: string, name: string): Promise<string | null>;
  waitForTimeout(ms: number): Promise<void>;
  screenshot(options: { path: string }): Promise<unknown>;
  on(event: 'console', listener: (message: ConsoleMessage) => void): unknown;
  on(event: 'pageerror', listener: (error: Error) => void): unknown;
}

export interface BrowserContext {
  newPage(): Promise<Page>;
  /** The profile's cookies; with a URL, only those a request to it would carry. */
  cookies(url?: string): Promise<Cookie[]>;
  on(event: 'request' | 'requestfailed', listener: (request: SentRequest) => void): unknown;
  close(): Promise<void>;
}

export interface Browser {
  newContext(): Promise<BrowserContext>;
  close(): Promise<void>;
}

/**
 * Collects what a site owner would see in red or yellow in the page's console: errors,
 * warnings, and uncaught errors (Firefox reports a refused cookie as one of these).
 */
export function consoleProblems(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') seen.push(`${m.type()}: ${m.text()} (${m.location().url ?? ''})`);
  });
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`));
  return seen;
}
