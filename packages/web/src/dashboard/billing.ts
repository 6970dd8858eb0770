// The billing platforms as the dashboard names them (Stripe, Paddle, Lemon Squeezy): one
// list for Settings' integrations and the billing events' filter. The compiler refuses a
// platform the API does not have, and one of the API's left out.

import type { Answer } from '../common/api.js';

export type BillingEvent = Answer<'/v1/billing_events'>['data'][number];
export type Platform = BillingEvent['attributes']['platform'];

export const PLATFORM_TITLES = {
  stripe: 'Stripe',
  paddle: 'Paddle',
  lemonsqueezy: 'Lemon Squeezy',
  chargebee: 'Chargebee',
  recurly: 'Recurly',
  shopify: 'Shopify',
} satisfies Record<Platform, string>;

export const PLATFORMS = Object.keys(PLATFORM_TITLES) as Platform[];

export const isPlatform = (name: string | undefined): name is Platform => name !== undefined && Object.hasOwn(PLATFORM_TITLES, name);
