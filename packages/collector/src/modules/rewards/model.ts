// Rewards: what a partner group pays for each kind of event, and on what conditions. The
// types, and the two quantities derived from a payment's dates that both the evaluator and
// the sentences need (kept here so that neither file imports the other).

import { addMonths } from '../../core/payout-terms.js';
import type { GroupRow } from './groups-repo.js';

/** What a reward pays for: a sign-up (lead), a payment (sale), or a unique visitor (click). */
export type RewardEvent = 'lead' | 'sale' | 'click';

/** neq and not_in are the negations of eq and in, so a value that is absent fails eq/in and passes neq/not_in. */
export type Comparison = 'eq' | 'neq' | 'in' | 'not_in' | 'gt' | 'gte' | 'lt' | 'lte';

export type ConditionField =
  /** Any of the payment's products (prices) is the value; neq/not_in: none is. */
  | 'product_id'
  | 'price_id'
  /** The payment's amount in minor units; `currency` names the unit, and a payment in another currency fails. */
  | 'amount'
  | 'currency'
  /** 'first' or 'renewal'. */
  | 'payment'
  /** Whole calendar months since the customer's first payment: 0 for the first payment. */
  | 'months_since_first_payment'
  /** ISO 3166 alpha-2, compared case-insensitively. */
  | 'customer_country'
  /** The payment's (or sign-up's) metadata value under `key`, compared as a string. */
  | 'metadata'
  /** The partner's paying customers over `window_days` (absent or null: all time). */
  | 'partner_customers'
  /** The partner's revenue in `currency` (minor units) over `window_days`. */
  | 'partner_revenue';

export interface Condition {
  field: ConditionField;
  op: Comparison;
  /** A list for in/not_in, a single value otherwise. */
  value: string | number | Array<string | number>;
  /** metadata only. */
  key?: string;
  /** partner_customers and partner_revenue only; absent or null: all time. */
  window_days?: number | null;
  /** amount and partner_revenue (required there). */
  currency?: string;
}

/** An empty 'and' holds and an empty 'or' does not (the schema refuses both). */
export interface ConditionGroup {
  op: 'and' | 'or';
  items: Array<Condition | ConditionGroup>;
}

/** Which of a customer's payments a sale reward pays on: the first, those in its first N months, or all. */
export type Duration = { kind: 'once' } | { kind: 'months'; months: number } | { kind: 'lifetime' };

export interface Reward {
  id: string;
  event: RewardEvent;
  /** Lead and click rewards are flat only. */
  kind: 'percentage' | 'flat';
  /** Percentage: basis points, 1..10000. Flat: minor units of `currency`. */
  amount: number;
  /** Flat only (upper-case ISO 4217); null for a percentage, which is paid in the payment's currency. */
  currency: string | null;
  /** Sale only; lead and click rewards are { kind: 'once' }. */
  duration: Duration;
  /** null: always matches. */
  conditions: ConditionGroup | null;
  /** Click only: the most a partner earns from clicks in one day, minor units; null: no cap. */
  daily_cap: number | null;
  /** Tie-break between rewards that pay the same: lower wins. */
  position: number;
}

/** Rewards a group may have: each is weighed on every payment of its partners. */
export const MAX_REWARDS = 100;

/** A reward without its id: what a partner group's reward is created from. */
export type RewardInput = Omit<Reward, 'id'>;

/** The partner's totals, looked up by the service beforehand (windowsOf says which), so the evaluator stays pure. */
export interface PartnerTotals {
  customers(windowDays: number | null): number;
  revenue(windowDays: number | null, currency: string): number;
}

export interface SaleFacts {
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  productIds: string[];
  priceIds: string[];
  /** Unix seconds. */
  paidAt: number;
  /** The customer's earlier first payment; undefined, or after paidAt: this payment is the first. */
  firstPaymentAt: number | undefined;
  country: string | null;
  metadata: Record<string, string>;
  partner: PartnerTotals;
}

/** A sign-up's facts, which are also those a click reward's conditions see: no payment. */
export interface LeadFacts {
  country: string | null;
  metadata: Record<string, string>;
  partner: PartnerTotals;
}

/** A commission to create: the winning reward, what it pays, and a sentence for the partner. */
export interface Earned {
  reward: Reward;
  /** Minor units of `currency`, always > 0. */
  amount: number;
  currency: string;
  description: string;
}

/** Whether an item of a group is itself a group (a condition has a field instead). */
export const isGroup = (item: Condition | ConditionGroup): item is ConditionGroup => 'items' in item;

/** Whether the facts are a payment's (a lead's and a click's have none). */
export const isSale = (facts: SaleFacts | LeadFacts): facts is SaleFacts => 'paidAt' in facts;

/**
 * The customer's first payment: none before it. One dated after this one is taken as this
 * one, the earliest known; one in the same second came first, so this one renews.
 */
export function isFirstPayment(facts: SaleFacts): boolean {
  return facts.firstPaymentAt === undefined || facts.paidAt < facts.firstPaymentAt;
}

/** The largest m with addMonths(first, m) <= at: whole calendar months, 0 before the first month is out. */
export function monthsBetween(first: number, at: number): number {
  if (at < first) return 0;
  // A guess from the days (30.44 a month) lands within one of the answer; the loops settle it.
  let m = Math.max(0, Math.floor((at - first) / (86_400 * 30.44)) - 1);
  while (addMonths(first, m + 1) <= at) m++;
  while (m > 0 && addMonths(first, m) > at) m--;
  return m;
}

/** Whole months since the customer's first payment: 0 for the first payment. */
export function monthsSinceFirst(facts: SaleFacts): number {
  return isFirstPayment(facts) ? 0 : monthsBetween(facts.firstPaymentAt ?? facts.paidAt, facts.paidAt);
}

/** Moves a partnership to `to_group_id` once its total of `metric` over the window reaches `threshold`. */
export interface MoveRule {
  to_group_id: string;
  metric: 'customers' | 'revenue' | 'commissions';
  /** For revenue and commissions: the currency the threshold is in (minor units). */
  currency: string | null;
  threshold: number;
  /** Days back from now; null: all time. */
  window_days: number | null;
}

export interface GroupInput {
  name?: string | undefined;
  slug?: string | undefined;
  hold_days?: number | null | undefined;
  minimum_payout?: Record<string, number> | null | undefined;
  auto_accept?: boolean | null | undefined;
  takes_applications?: boolean | undefined;
  move_rules?: MoveRule[] | undefined;
}

export const rulesOf = (group: Pick<GroupRow, 'move_rules'>): MoveRule[] => JSON.parse(group.move_rules) as MoveRule[];
