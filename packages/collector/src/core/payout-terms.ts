// Payout terms (docs/api.md §26): how many months of a customer's payments earn, how long a
// commission waits before it can be paid, and the least a payout may be in each currency. A
// partnership's own term wins, else its group's, else the program's: resolved here alone.

import { fail } from '../platform/errors.js';

/** The terms as a group or a partnership stores them (null: as the level above). */
interface StoredTerms {
  recurring_months: number | null;
  hold_days: number | null;
  minimum_payout: string | null;
}
import { currencyCode } from './money.js';

export interface Rules {
  /** 0: every payment earns, forever. */
  recurringMonths: number;
  holdDays: number;
  /** Currency code → minor units. */
  minimumPayout: Record<string, number>;
}

export const MAX_RECURRING_MONTHS = 1200;
export const MAX_HOLD_DAYS = 365;
const DAY = 86_400;

/** A stored minimum-payout object; written only by minimumPayout below, so always valid. */
const parseMinimums = (json: string): Record<string, number> => JSON.parse(json) as Record<string, number>;

/** The one precedence of every term: the partnership's own if set, else its group's, else the program's. */
export const firstSet = <T>(partnership: T | null | undefined, group: T | null | undefined, program: T): T =>
  partnership ?? group ?? program;

/** The rules that apply to a partnership: each of its own, or else its group's, or else the program's. */
export function rulesFor(
  program: { recurring_months: number; hold_days: number; minimum_payout: string },
  partnership?: StoredTerms,
  group?: { holdDays: number; minimumPayout: string },
): Rules {
  return {
    recurringMonths: firstSet(partnership?.recurring_months, undefined, program.recurring_months),
    holdDays: firstSet(partnership?.hold_days, group?.holdDays, program.hold_days),
    minimumPayout: parseMinimums(firstSet(partnership?.minimum_payout, group?.minimumPayout, program.minimum_payout)),
  };
}

/**
 * The stored form of a minimum-payout object from the API: codes checked and upper
 * case, amounts whole minor units. `null` stays null (a partnership's "as the program").
 */
export function minimumPayout(raw: Record<string, number> | null, field = 'minimum_payout'): string | null {
  if (raw === null) return null;
  const clean: Record<string, number> = {};
  for (const [code, amount] of Object.entries(raw)) {
    clean[currencyCode(code, `${field}.${code}`)] = amount;
  }
  if (Object.keys(clean).length !== Object.keys(raw).length) {
    throw fail('invalid_field', 'a currency is named twice (in different cases)', { field });
  }
  return JSON.stringify(Object.fromEntries(Object.entries(clean).sort(([a], [b]) => (a < b ? -1 : 1))));
}

/** `months` calendar months after the unix time `t`, in UTC (Jan 31 + 1 month is Feb 28 or 29). */
export function addMonths(t: number, months: number): number {
  const d = new Date(t * 1000);
  const day = d.getUTCDate();
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}

/**
 * Whether a payment made at `at` still earns, when the referral's first payment was at
 * `first` (undefined: this is the first). The window is [first, first + N months).
 */
export function earns(rules: Rules, first: number | undefined, at: number): boolean {
  if (rules.recurringMonths === 0 || first === undefined) return true;
  return at < addMonths(first, rules.recurringMonths);
}

/** When a commission for a payment made at `paidAt` may be paid out; never later than it would be had it been paid now. */
export function payableAt(rules: Rules, paidAt: number, now: number): number {
  return Math.min(paidAt, now) + rules.holdDays * DAY;
}

/**
 * The least a payout in `currency` may be, from the stored minimum-payout objects of the
 * program and the partnership (null: the program's); 1 minor unit when none is set.
 */
export function minimumIn(levels: { program: string; group: string | null; partnership: string | null }, currency: string): number {
  return Math.max(1, parseMinimums(firstSet(levels.partnership, levels.group, levels.program))[currency] ?? 0);
}
