// Which reward an event earns, and how much. Pure: the partner's totals come in the facts.
//
// Evaluation order, for a sale: filter by event → duration (does it cover this payment?) →
// currency (a flat reward pays only in its own) → conditions → amount (a reward paying 0
// drops out) → the highest amount wins → tie-break: lower position, then lower id.
// A lead and a click skip the duration and currency steps: they have no payment.

import { commissionAmount } from '../../core/money.js';
import { addMonths } from '../../core/payout-terms.js';
import { describeEarned } from './describe.js';
import {
  type Comparison,
  type Condition,
  type ConditionGroup,
  type Earned,
  isFirstPayment,
  isGroup,
  isSale,
  type LeadFacts,
  monthsSinceFirst,
  type PartnerTotals,
  type Reward,
  type SaleFacts,
} from './model.js';

export { monthsBetween } from './model.js';

type Scalar = string | number;
type Facts = SaleFacts | LeadFacts;

const ORDER: Partial<Record<Comparison, (a: number, b: number) => boolean>> = {
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
};

/** The values an eq/neq (one) or in/not_in (a list) condition names; undefined when the value's shape is not the operator's. */
function named(op: Comparison, value: Condition['value']): readonly Scalar[] | undefined {
  if (op === 'in' || op === 'not_in') return Array.isArray(value) ? value : undefined;
  if (op === 'eq' || op === 'neq') return Array.isArray(value) ? undefined : [value];
  return undefined;
}

/** eq/in and their negations over a set of present values; an empty set (unknown) fails eq/in. */
function membership(op: Comparison, present: readonly Scalar[], value: Condition['value']): boolean {
  const wanted = named(op, value);
  if (wanted === undefined) return false;
  const hit = present.some((p) => wanted.includes(p));
  return op === 'eq' || op === 'in' ? hit : !hit;
}

/** A number against the condition: the order operators, or membership. */
function compareNumber(op: Comparison, actual: number, value: Condition['value']): boolean {
  const order = ORDER[op];
  if (order) return typeof value === 'number' && order(actual, value);
  return membership(op, [actual], value);
}

/** Strings only know eq/neq/in/not_in. */
const compareString = (op: Comparison, present: readonly string[], value: Condition['value']): boolean =>
  ORDER[op] === undefined && membership(op, present, value);

/** ASCII upper case: codes are ASCII, and toUpperCase would turn a dotless ı into I. */
const upper = (s: string): string => s.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));
const sameCurrency = (a: string, b: string): boolean => upper(a) === upper(b);
const upperAll = (value: Condition['value']): Condition['value'] =>
  Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? upper(v) : v)) : typeof value === 'string' ? upper(value) : value;

/** The payment's fields, false whatever the operator when there is no payment (a lead's, a click's). */
function paymentCondition(c: Condition, sale: SaleFacts): boolean {
  switch (c.field) {
    case 'product_id':
      return compareString(c.op, sale.productIds, c.value);
    case 'price_id':
      return compareString(c.op, sale.priceIds, c.value);
    case 'amount':
      return c.currency !== undefined && sameCurrency(c.currency, sale.currency) && compareNumber(c.op, sale.amount, c.value);
    case 'currency':
      return compareString(c.op, [upper(sale.currency)], upperAll(c.value));
    case 'payment':
      return (c.op === 'eq' || c.op === 'neq') && compareString(c.op, [isFirstPayment(sale) ? 'first' : 'renewal'], c.value);
    case 'months_since_first_payment':
      return compareNumber(c.op, monthsSinceFirst(sale), c.value);
    default:
      return false;
  }
}

function condition(c: Condition, facts: Facts): boolean {
  switch (c.field) {
    case 'customer_country':
      return compareString(c.op, facts.country === null ? [] : [upper(facts.country)], upperAll(c.value));
    case 'metadata': {
      if (c.key === undefined) return false;
      // Own keys only: "constructor" is no metadata key.
      const present = Object.hasOwn(facts.metadata, c.key) ? [facts.metadata[c.key] as string] : [];
      return compareString(c.op, present, c.value);
    }
    case 'partner_customers':
      return compareNumber(c.op, facts.partner.customers(c.window_days ?? null), c.value);
    case 'partner_revenue':
      return c.currency !== undefined && compareNumber(c.op, facts.partner.revenue(c.window_days ?? null, upper(c.currency)), c.value);
    default:
      return isSale(facts) && paymentCondition(c, facts);
  }
}

/** Whether the facts meet the conditions; null (no conditions) always does. */
export function matches(group: ConditionGroup | null, facts: Facts): boolean {
  if (group === null) return true;
  const holds = (item: Condition | ConditionGroup) => (isGroup(item) ? matches(item, facts) : condition(item, facts));
  return group.op === 'and' ? group.items.every(holds) : group.items.some(holds);
}

/** Whether the reward's duration takes this payment: once the first, months N those before first + N months. */
export function covers(reward: Reward, sale: SaleFacts): boolean {
  const d = reward.duration;
  if (d.kind === 'lifetime' || isFirstPayment(sale)) return true;
  if (d.kind === 'once') return false;
  return sale.paidAt < addMonths(sale.firstPaymentAt ?? sale.paidAt, d.months);
}

/** What a sale reward pays on this payment, in the payment's currency; 0 when it does not apply. */
export function saleAmount(reward: Reward, sale: SaleFacts): number {
  if (reward.kind === 'percentage') return commissionAmount(sale.amount, reward.amount);
  return reward.currency !== null && sameCurrency(reward.currency, sale.currency) ? reward.amount : 0;
}

type Candidate = { reward: Reward; amount: number };

/** The highest amount; on a tie the lower position, then the lower id (by code units, as the database sorts bytes). */
function best(candidates: Candidate[]): Candidate | undefined {
  let top: Candidate | undefined;
  for (const c of candidates) {
    if (c.amount <= 0) continue;
    if (
      top === undefined ||
      c.amount > top.amount ||
      (c.amount === top.amount &&
        (c.reward.position < top.reward.position || (c.reward.position === top.reward.position && c.reward.id < top.reward.id)))
    ) {
      top = c;
    }
  }
  return top;
}

/** The commission a payment earns: the best sale reward that covers it, applies in its currency and matches. */
export function evaluateSale(rewards: readonly Reward[], facts: SaleFacts): Earned | undefined {
  const candidates = rewards
    .filter(
      (r) =>
        r.event === 'sale' &&
        covers(r, facts) &&
        (r.kind === 'percentage' || (r.currency !== null && sameCurrency(r.currency, facts.currency))),
    )
    .filter((r) => matches(r.conditions, facts))
    .map((r) => ({ reward: r, amount: saleAmount(r, facts) }));
  const top = best(candidates);
  return top && { ...top, currency: facts.currency, description: describeEarned(top.reward, facts) };
}

/** Lead and click rewards: flat, with a currency (those without one are ignored), matching the facts. */
const flatMatching = (rewards: readonly Reward[], event: 'lead' | 'click', facts: LeadFacts): Candidate[] =>
  rewards
    .filter((r) => r.event === event && r.kind === 'flat' && r.currency !== null && matches(r.conditions, facts))
    .map((r) => ({ reward: r, amount: r.amount }));

/**
 * The commission a sign-up earns. Amounts in different currencies are compared as numbers,
 * which means nothing: a group's lead rewards should share one currency (rewardsSchema refuses a mix).
 */
export function evaluateLead(rewards: readonly Reward[], facts: LeadFacts): Earned | undefined {
  const top = best(flatMatching(rewards, 'lead', facts));
  return top && { ...top, currency: top.reward.currency as string, description: describeEarned(top.reward, facts) };
}

/** The click reward that applies to the partner's clicks (the highest paying that matches); earnings are counted per day. */
export function clickReward(rewards: readonly Reward[], facts: LeadFacts): Reward | undefined {
  return best(flatMatching(rewards, 'click', facts))?.reward;
}

/** A day's earnings from clicks: visitors × amount, at most the daily cap. Exact in BigInt, as a product may pass 2^53. */
export function clickEarnings(reward: Reward, uniqueVisitors: number): number {
  if (!Number.isSafeInteger(uniqueVisitors) || uniqueVisitors < 0)
    throw new RangeError(`unique visitors must be a whole number ≥ 0: ${uniqueVisitors}`);
  const total = BigInt(uniqueVisitors) * BigInt(reward.amount);
  const capped = reward.daily_cap === null || total < BigInt(reward.daily_cap) ? total : BigInt(reward.daily_cap);
  if (capped > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('click earnings pass 2^53 minor units');
  return Number(capped);
}

/** A partner total some condition asks for: the service fetches each once, before evaluating. */
export type TotalsWindow =
  | { metric: 'customers'; windowDays: number | null }
  | { metric: 'revenue'; windowDays: number | null; currency: string };

const windowKey = (w: TotalsWindow) => `${w.metric}/${w.windowDays ?? 'all'}/${w.metric === 'revenue' ? w.currency : ''}`;

/** The distinct partner totals the rewards' conditions ask for, in the order they are first met. */
export function windowsOf(rewards: readonly Reward[]): TotalsWindow[] {
  const found = new Map<string, TotalsWindow>();
  const visit = (item: Condition | ConditionGroup): void => {
    if (isGroup(item)) {
      for (const inner of item.items) visit(inner);
      return;
    }
    const windowDays = item.window_days ?? null;
    let w: TotalsWindow | undefined;
    if (item.field === 'partner_customers') w = { metric: 'customers', windowDays };
    // Without a currency the condition is false, so nothing need be fetched.
    if (item.field === 'partner_revenue' && item.currency !== undefined)
      w = { metric: 'revenue', windowDays, currency: upper(item.currency) };
    if (w && !found.has(windowKey(w))) found.set(windowKey(w), w);
  };
  for (const r of rewards) if (r.conditions) visit(r.conditions);
  return [...found.values()];
}

/**
 * PartnerTotals over what the service fetched for windowsOf. Asking for a total not fetched
 * throws: a silent 0 would pay, or withhold, a commission on a number nobody looked up.
 */
export function totalsFrom(fetched: ReadonlyArray<{ window: TotalsWindow; value: number }>): PartnerTotals {
  const values = new Map(fetched.map((f) => [windowKey(f.window), f.value]));
  const get = (w: TotalsWindow): number => {
    const value = values.get(windowKey(w));
    if (value === undefined) throw new Error(`partner total not fetched: ${windowKey(w)}`);
    return value;
  };
  return {
    customers: (windowDays) => get({ metric: 'customers', windowDays }),
    revenue: (windowDays, currency) => get({ metric: 'revenue', windowDays, currency }),
  };
}
