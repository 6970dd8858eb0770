// What the three platforms' sources share: their options, and reading fields of JSON whose
// shape the platform owns (anything may be missing).

import type { ClientOptions } from './client.js';
import { seconds, skip, type Item, type SourcePartner } from './model.js';

export interface PlatformOptions {
  apiKey: string;
  /** The API's base URL; each platform's documented one when absent. */
  baseUrl?: string | undefined;
  /** FirstPromoter's Account-ID header. */
  accountId?: string | undefined;
  /** The currency of amounts the platform gives without one (FirstPromoter's; Tolt's when null). */
  currency?: string | undefined;
  maxWaitMs: number;
}

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null;

/** The client options for a platform, with the base URL given or its documented one. */
export function clientFor(platform: string, fallbackUrl: string, o: PlatformOptions, headers: Record<string, string>): ClientOptions {
  return { platform, baseUrl: o.baseUrl ?? fallbackUrl, headers, keyOption: '--api-key', maxWaitMs: o.maxWaitMs };
}

/** "Jane Doe" from first and last names, else the e-mail's local part. */
export function fullName(first: unknown, last: unknown, email: string): string {
  const name = [str(first), str(last)].filter(Boolean).join(' ');
  return name || email.split('@')[0] || email;
}

/**
 * A platform's partner record as a source partner: its id, e-mail and creation time read
 * from the record (`created` names the field), its name from first and last names or `name`;
 * skipped without an e-mail address.
 */
export function partnerFrom(row: Json, created: string, more: Pick<SourcePartner, 'paypalEmail' | 'state' | 'slugs'>): Item<SourcePartner> {
  const email = str(row.email);
  if (!email) return skip('partner', row.id, 'no e-mail address');
  const name = str(row.name) ?? fullName(row.first_name, row.last_name, email);
  return { kind: 'partner', id: String(row.id), name, email, createdAt: seconds(row[created]) ?? seconds(row.created_at) ?? 0, ...more };
}
