// The billing platforms Tally reads. Adding one is a folder beside modules/stripe with a
// `Platform` (facts.ts), and a line here (docs/billing.md, "Adding a platform").

import type { Platform } from './modules/billing/facts.js';
import { chargebeePlatform } from './modules/chargebee/platform.js';
import { lemonSqueezyPlatform } from './modules/lemonsqueezy/platform.js';
import { paddlePlatform } from './modules/paddle/platform.js';
import { recurlyPlatform } from './modules/recurly/platform.js';
import { shopifyPlatform } from './modules/shopify/platform.js';
import { stripePlatform } from './modules/stripe/platform.js';

export const PLATFORMS: readonly Platform[] = [
  stripePlatform,
  paddlePlatform,
  lemonSqueezyPlatform,
  chargebeePlatform,
  recurlyPlatform,
  shopifyPlatform,
];

export const PLATFORM_BY_NAME: ReadonlyMap<string, Platform> = new Map(PLATFORMS.map((p) => [p.name, p]));
