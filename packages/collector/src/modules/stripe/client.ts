// Stripe's own library with a program's API key, at STRIPE_API_URL when it is set (a proxy,
// or a test's local server): what every call Tally makes to Stripe with a program's key uses.

import type Stripe from 'stripe';

// Loaded by the first call that needs it, not at start: the library is about 20 MB of a
// started collector's memory, and most programs never call Stripe (issue 47).
let library: typeof Stripe | undefined;

export async function stripeLibrary(): Promise<typeof Stripe> {
  library ??= (await import('stripe')).default;
  return library;
}

/** Stripe's error classes once the library is loaded; none before, when no error can be one of them. */
export const stripeErrors = (): (typeof Stripe)['errors'] | undefined => library?.errors;

export async function stripeClient(apiKey: string, apiUrl: string | undefined): Promise<Stripe> {
  const Library = await stripeLibrary();
  const at = apiUrl ? new URL(apiUrl) : undefined;
  return new Library(apiKey, {
    ...(at
      ? {
          host: at.hostname,
          port: Number(at.port || (at.protocol === 'http:' ? 80 : 443)),
          protocol: at.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
    maxNetworkRetries: 1,
    timeout: 10_000,
  });
}
