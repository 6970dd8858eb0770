// What every source yields, whichever platform or file it reads: partners with the link
// slugs that credited them, the people they referred and what they earned, already in
// Tally's states and in integer minor units. A record that cannot become one is a Skip
// that says why; the import reports it and goes on.

import type { CommissionState } from '../commissions/model.js';
import type { PartnershipState } from '../partnerships/model.js';
import type { ReferralState } from '../referrals/model.js';

export type Kind = 'partner' | 'referral' | 'commission';
export const KINDS: readonly Kind[] = ['partner', 'referral', 'commission'];

export interface SourcePartner {
  kind: 'partner';
  id: string;
  name: string;
  email: string;
  paypalEmail: string | null;
  state: PartnershipState;
  /** The values of the old links (`?via=jane`): the first free one becomes the key, the rest competitor slugs. */
  slugs: string[];
  createdAt: number;
}

export interface SourceReferral {
  kind: 'referral';
  id: string;
  partnerId: string;
  email: string;
  uid: string | null;
  state: ReferralState;
  createdAt: number;
}

export interface SourceCommission {
  kind: 'commission';
  id: string;
  partnerId: string;
  referralId: string | null;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  state: CommissionState;
  rejectReason: string | null;
  payableAt: number;
  paidAt: number | null;
  createdAt: number;
}

export interface Skip {
  kind: Kind;
  id: string;
  skip: string;
}

export type Item<T> = T | Skip;
export type SourceItem = SourcePartner | SourceReferral | SourceCommission;

/** One platform's records, read in order: every partner before any referral, every referral before any commission. */
export interface Source {
  /** Where the links are kept: 'rewardful', 'firstpromoter', 'tolt', 'csv'. */
  name: string;
  /** As people say it: "Rewardful". */
  title: string;
  partners(): AsyncIterable<Item<SourcePartner>>;
  referrals(): AsyncIterable<Item<SourceReferral>>;
  commissions(): AsyncIterable<Item<SourceCommission>>;
}

export const skip = (kind: Kind, id: unknown, reason: string): Skip => ({ kind, id: String(id ?? '?'), skip: reason });
export const isSkip = (item: Item<SourceItem>): item is Skip => 'skip' in item;

/** Unix seconds from an ISO 8601 time; undefined when absent or unreadable. */
export function seconds(iso: unknown): number | undefined {
  if (typeof iso !== 'string' || iso === '') return undefined;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** A whole number of minor units, from a number or a digit string ("4900"); undefined otherwise. */
export function minorAmount(raw: unknown): number | undefined {
  const n = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
}
