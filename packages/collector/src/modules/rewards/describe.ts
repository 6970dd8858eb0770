// Rewards and commissions in English sentences, for the dashboard, the partner portal and a
// commission's description: "20 % of each payment for 12 months, when the customer's country is DE".

import { majorUnits, minorUnit } from '../../core/money.js';
import {
  type Comparison,
  type Condition,
  type ConditionGroup,
  type Duration,
  isFirstPayment,
  isGroup,
  isSale,
  type LeadFacts,
  monthsSinceFirst,
  type Reward,
  type SaleFacts,
} from './model.js';

/** "USD 5.00", "JPY 500", "KWD 1.250"; a code without a known minor unit is shown in minor units rather than guessed. */
export function money(amount: number, currency: string): string {
  return minorUnit(currency) === undefined ? `${amount} minor units of ${currency}` : `${currency} ${majorUnits(amount, currency)}`;
}

/** Basis points as a percentage, exact and without trailing zeros: 2000 "20", 1250 "12.5", 1 "0.01". */
export function percent(bps: number): string {
  const cents = String(bps % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return cents ? `${Math.floor(bps / 100)}.${cents}` : String(Math.floor(bps / 100));
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "A", "A or B", "A, B or C". */
function listOf(words: string[], conjunction: 'or' | 'and'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;
}

const PREDICATE: Record<Comparison, (values: string[]) => string> = {
  eq: (v) => `is ${listOf(v, 'or')}`,
  neq: (v) => `is not ${listOf(v, 'or')}`,
  in: (v) => `is ${listOf(v, 'or')}`,
  not_in: (v) => (v.length === 1 ? `is not ${v[0]}` : v.length === 2 ? `is neither ${v[0]} nor ${v[1]}` : `is none of ${listOf(v, 'or')}`),
  gt: (v) => `is over ${listOf(v, 'or')}`,
  gte: (v) => `is at least ${listOf(v, 'or')}`,
  lt: (v) => `is under ${listOf(v, 'or')}`,
  lte: (v) => `is at most ${listOf(v, 'or')}`,
};

const over = (windowDays: number | null | undefined): string =>
  windowDays == null ? 'to date' : windowDays === 1 ? 'over the last day' : `over the last ${windowDays} days`;

function subject(c: Condition): string {
  switch (c.field) {
    case 'product_id':
      return 'the product';
    case 'price_id':
      return 'the price';
    case 'amount':
      return 'the amount';
    case 'currency':
      return 'the currency';
    case 'payment':
      return 'the payment';
    case 'months_since_first_payment':
      return 'the number of months since the first payment';
    case 'customer_country':
      return "the customer's country";
    case 'metadata':
      return `the metadata key ${c.key ?? '(none)'}`;
    case 'partner_customers':
      return `the number of the partner's paying customers ${over(c.window_days)}`;
    case 'partner_revenue':
      return `the partner's revenue ${over(c.window_days)}`;
  }
}

/** One condition in words: "the customer's country is DE". */
export function describeCondition(c: Condition): string {
  const raw = Array.isArray(c.value) ? c.value : [c.value];
  if (c.field === 'payment') {
    // Two values only, so "is not the first" is "is a renewal".
    const first = (c.value === 'first') === (c.op === 'eq');
    return first ? 'it is the first payment' : 'it is a renewal';
  }
  const inMoney = (c.field === 'amount' || c.field === 'partner_revenue') && c.currency !== undefined;
  const values = raw.map((v) => (inMoney && typeof v === 'number' ? money(v, c.currency as string) : String(v)));
  return `${subject(c)} ${PREDICATE[c.op](values)}`;
}

/** A group in words; a nested group of more than one item is put in parentheses, so "and" and "or" stay unambiguous. */
export function describeConditions(group: ConditionGroup): string {
  const words = group.items.map((item) => {
    if (!isGroup(item)) return describeCondition(item);
    return item.items.length > 1 ? `(${describeConditions(item)})` : describeConditions(item);
  });
  return words.join(group.op === 'and' ? ' and ' : ' or ');
}

/** The payments a duration covers, after "of": "the first payment", "each payment for 12 months". */
function payments(d: Duration): string {
  if (d.kind === 'once') return 'the first payment';
  if (d.kind === 'months') return `each payment for ${plural(d.months, 'month')}`;
  return "each payment, for the customer's lifetime";
}

const flat = (r: Reward, amount = r.amount): string => money(amount, r.currency ?? '');

/** What a reward pays, then its conditions: "USD 0.10 per unique visitor, at most USD 5.00 a day, when …". */
export function describeReward(reward: Reward): string {
  let what: string;
  if (reward.event === 'lead') what = `${flat(reward)} per sign-up`;
  else if (reward.event === 'click') {
    what = `${flat(reward)} per unique visitor${reward.daily_cap === null ? '' : `, at most ${flat(reward, reward.daily_cap)} a day`}`;
  } else if (reward.kind === 'percentage') what = `${percent(reward.amount)} % of ${payments(reward.duration)}`;
  // A flat amount once is paid for the sale itself; a recurring one for each payment.
  else if (reward.duration.kind === 'once') what = `${flat(reward)} per sale`;
  else what = `${flat(reward)} per ${payments(reward.duration).replace(/^each /, '')}`;
  return reward.conditions ? `${what}, when ${describeConditions(reward.conditions)}` : what;
}

/** Which payment of the duration this is, after a renewal: ", month 3 of 12" or ", month 14 (for life)". */
function monthOf(reward: Reward, sale: SaleFacts): string {
  const month = monthsSinceFirst(sale) + 1;
  if (reward.duration.kind === 'months') return `, month ${month} of ${reward.duration.months}`;
  return reward.duration.kind === 'lifetime' ? `, month ${month} (for life)` : '';
}

/** A commission's description: "20 % of a renewal, month 3 of 12", "USD 5.00 for a sale", "USD 2.00 for a sign-up". */
export function describeEarned(reward: Reward, facts: SaleFacts | LeadFacts): string {
  if (reward.event === 'lead') return `${flat(reward)} for a sign-up`;
  if (reward.event === 'click') return `${flat(reward)} per unique visitor`;
  const pct = `${percent(reward.amount)} %`;
  if (!isSale(facts) || isFirstPayment(facts))
    return reward.kind === 'percentage' ? `${pct} of the first payment` : `${flat(reward)} for a sale`;
  const what = reward.kind === 'percentage' ? `${pct} of a renewal` : `${flat(reward)} for a renewal`;
  return `${what}${monthOf(reward, facts)}`;
}

/** A day of clicks: "USD 1.20 for 12 unique visitors", "USD 5.00 for 80 unique visitors (the daily cap)". */
export function describeClickDay(reward: Reward, uniqueVisitors: number, earned: number): string {
  const capped =
    reward.daily_cap !== null && earned === reward.daily_cap && BigInt(earned) < BigInt(uniqueVisitors) * BigInt(reward.amount);
  return `${flat(reward, earned)} for ${plural(uniqueVisitors, 'unique visitor')}${capped ? ' (the daily cap)' : ''}`;
}
