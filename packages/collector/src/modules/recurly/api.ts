// Recurly's API v3, for what its JSON notifications leave out: they name an object by id
// only, so the invoice, its account and coupon redemptions, or the subscription are read
// here with the program's private API key. Plain fetch rather than the `recurly` package:
// its client reaches only Recurly's own two hosts, and Tally needs four GETs of it.

import { fail } from '../../platform/errors.js';
import type { Json } from '../billing/facts.js';

/** Recurly's API by region: a site in the EU data centre answers only at its own host. */
export const RECURLY_API: Readonly<Record<'us' | 'eu', string>> = { us: 'https://v3.recurly.com', eu: 'https://v3.eu.recurly.com' };
/** The API version Tally reads, named in the Accept header as Recurly asks. */
const ACCEPT = 'application/vnd.recurly.v2021-02-25+json';
const TIMEOUT_MS = 10_000;

export interface RecurlyKey {
  apiKey: string;
  /** Where the API is: Recurly's host for the site's region, or RECURLY_API_URL. */
  base: string;
}

/**
 * One object, or undefined when Recurly says it has none (404). A key refused, too many
 * requests, its own failure or no answer is a 503: the notification is sent again later,
 * when the owner may have set a right key.
 */
export async function get(key: RecurlyKey, path: string): Promise<Json | undefined> {
  let res: Response;
  try {
    res = await fetch(new URL(path, key.base), {
      headers: { accept: ACCEPT, authorization: `Basic ${Buffer.from(`${key.apiKey}:`).toString('base64')}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw fail('unavailable', "Recurly's API did not answer for the notification's object: Recurly will send it again");
  }
  if (res.status === 404) return undefined;
  if (res.status === 401 || res.status === 403) {
    throw fail(
      'unavailable',
      "Recurly's API refused the program's API key: set a private API key of this site, and Recurly's next try applies the notification",
    );
  }
  if (!res.ok) throw fail('unavailable', `Recurly's API answered ${res.status} for the notification's object: Recurly will send it again`);
  const body: unknown = await res.json().catch(() => undefined);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw fail('unavailable', "Recurly's API answered with something other than a JSON object: Recurly will send the notification again");
  }
  return body as Json;
}
