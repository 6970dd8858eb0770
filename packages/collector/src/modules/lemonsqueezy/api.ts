// Lemon Squeezy's API, for the one thing its webhooks leave out: the code an order used,
// on its discount redemptions (GET /v1/discount-redemptions?filter[order_id]=…). Plain
// fetch rather than @lemonsqueezy/lemonsqueezy.js: that package keeps one API key per
// process (lemonSqueezySetup), and each program here has its own.

import { fail } from '../../platform/errors.js';

export const LEMONSQUEEZY_API = 'https://api.lemonsqueezy.com';
const TIMEOUT_MS = 10_000;

/**
 * The codes an order's discounts were redeemed with. An answer Lemon Squeezy would give
 * again (a key refused, an order not found) leaves the order without a code; one that may
 * change (too many requests, its own failure, no answer) is a 503, so the webhook is
 * sent again later.
 */
export async function orderCodes(apiKey: string, orderId: string, apiUrl: string | undefined): Promise<string[]> {
  const url = new URL('/v1/discount-redemptions', apiUrl ?? LEMONSQUEEZY_API);
  url.searchParams.set('filter[order_id]', orderId);
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/vnd.api+json', authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw fail('unavailable', "Lemon Squeezy's API did not answer for the order's discount code: it will send the event again");
  }
  if (res.status === 429 || res.status >= 500) {
    throw fail('unavailable', `Lemon Squeezy's API answered ${res.status} for the order's discount code: it will send the event again`);
  }
  // A key refused or an order unknown: the sale is credited as if no code were used (docs/lemonsqueezy.md).
  if (!res.ok) return [];
  const body = (await res.json().catch(() => ({}))) as { data?: Array<{ attributes?: { discount_code?: unknown } }> };
  return (body.data ?? []).map((r) => r.attributes?.discount_code).filter((c): c is string => typeof c === 'string' && c.length > 0);
}
