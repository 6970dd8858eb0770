// Stripe's own library with a program's API key, at STRIPE_API_URL when it is set (a proxy,
// or a test's local server): what every call Tally makes to Stripe with a program's key uses.

import Stripe from 'stripe';

export function stripeClient(apiKey: string, apiUrl: string | undefined): Stripe {
  const at = apiUrl ? new URL(apiUrl) : undefined;
  return new Stripe(apiKey, {
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
