// Conversions are written to localStorage before they are sent and removed only once
// the collector has answered for good: a 2xx, or a 4xx that a retry cannot fix (409
// referral_exists among them). Network errors, 429 and 5xx are retried: three tries on
// the page, then again on later page loads of the site for up to 7 days.

import { json, local } from './storage';
import type { Conversion } from './types';

const KEY = '_gr_outbox';

export interface Entry {
  /** Local id, to remove the entry. */
  i: number;
  /** The JSON body. */
  b: Record<string, unknown>;
  /** When it was queued, ms. */
  t: number;
}

/** The outbox; with `keep`, only the entries it keeps, which are written back. */
export function entries(keep?: (e: Entry) => unknown): Entry[] {
  let all = json<Entry[]>(local(KEY), []);
  // An empty outbox is removed, not stored: a visitor without a referral keeps nothing.
  if (keep) local(KEY, (all = all.filter(keep)).length ? JSON.stringify(all) : '');
  return all;
}

export const post = (url: string, key: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    keepalive: true, // outlives the page: a signup that navigates away at once is still sent
    headers: { Authorization: 'Bearer ' + key, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

/**
 * Sends one entry: three tries, a second and then three seconds apart. Resolves to the
 * record on a 2xx and to null otherwise; a final answer removes the entry.
 */
export async function deliver(url: string, key: string, entry: Entry): Promise<Conversion | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, attempt * 2e3 - 1e3));
    const res = await post(url, key, entry.b).catch(() => 0 as const);
    if (res && res.status < 500 && res.status != 429) {
      entries((e) => e.i != entry.i);
      const data = res.ok && (await res.json()).data;
      return data ? { id: data.id, state: data.attributes.state } : null;
    }
  }
  return null;
}
