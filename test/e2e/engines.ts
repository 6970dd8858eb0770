// The browsers the e2e flows run in: Chromium through Playwright, and Firefox through
// puppeteer-core over WebDriver BiDi (firefox.ts), both behind driver.ts's methods.

import type { Browser } from './driver.js';
import { launchFirefox } from './firefox.js';
import { launchChromium } from './stack.js';

export interface Engine {
  name: 'Chromium' | 'Firefox';
  launch(): Promise<Browser>;
}

export const CHROMIUM_ENGINE: Engine = { name: 'Chromium', launch: launchChromium };
export const FIREFOX_ENGINE: Engine = { name: 'Firefox', launch: launchFirefox };
export const ENGINES: readonly Engine[] = [CHROMIUM_ENGINE, FIREFOX_ENGINE];

/** A browser's start, as a beforeAll's timeout: Firefox's first on a fresh, busy machine passed 30 s. */
export const LAUNCH_TIMEOUT = 120_000;
