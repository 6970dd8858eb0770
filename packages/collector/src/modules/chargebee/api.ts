// Chargebee's API, for the check its docs advise beside the webhook's basic auth: the event
// fetched back by its id (GET /api/v2/events/{id}, the API key as basic auth's user) and
// read as the webhook was. Plain fetch rather than the chargebee package: that package
// keeps one site and key per process (configure), and each program here has its own.

import { fail } from '../../platform/errors.js';
import type { Json } from '../billing/facts.js';

const TIMEOUT_MS = 10_000;

/** https://<site>.chargebee.com, or the API elsewhere (CHARGEBEE_API_URL: a proxy, the tests' server). */
export const chargebeeApi = (site: string, apiUrl: string | undefined): string => apiUrl ?? `https://${site}.chargebee.com`;

/**
 * The event as Chargebee keeps it: its object, `not_found` when Chargebee has no such event
 * on the site, or `refused` when the key is not taken (the basic auth that held stands then,
 * docs/chargebee.md). Too many requests, Chargebee's own failure or no answer is a 503,
 * so the webhook is sent again later.
 */
export async function retrieveEvent(
  site: string,
  apiKey: string,
  id: string,
  apiUrl: string | undefined,
): Promise<Json | 'not_found' | 'refused'> {
  const url = new URL(`/api/v2/events/${encodeURIComponent(id)}`, chargebeeApi(site, apiUrl));
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json', authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw fail('unavailable', "Chargebee's API did not answer for the event: it will send the event again");
  }
  if (res.status === 429 || res.status >= 500) {
    throw fail('unavailable', `Chargebee's API answered ${res.status} for the event: it will send the event again`);
  }
  if (res.status === 404) return 'not_found';
  if (!res.ok) return 'refused';
  const body = (await res.json().catch(() => ({}))) as { event?: unknown };
  const event = body.event;
  return event !== null && typeof event === 'object' && !Array.isArray(event) ? (event as Json) : 'not_found';
}
