// Rewards' pure core (modules/rewards/): the conditions, field by field and operator by
// operator; which reward wins; durations at calendar-month boundaries; amounts in 0-, 2- and
// 3-decimal currencies; clicks; the partner totals asked for; the sentences; the API schemas.

import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  describeClickDay,
  describeConditions,
  describeEarned,
  describeReward,
} from '../../packages/collector/src/modules/rewards/describe.js';
import {
  clickEarnings,
  clickReward,
  evaluateLead,
  evaluateSale,
  matches,
  monthsBetween,
  totalsFrom,
  windowsOf,
} from '../../packages/collector/src/modules/rewards/evaluate.js';
import type {
  Condition,
  ConditionGroup,
  LeadFacts,
  PartnerTotals,
  Reward,
  SaleFacts,
} from '../../packages/collector/src/modules/rewards/model.js';
import { type RewardInput, rewardSchema, rewardsSchema } from '../../packages/collector/src/modules/rewards/schemas.js';

const at = (iso: string): number => Date.parse(iso) / 1000;
const PAID = at('2025-03-01T12:00:00Z');

/** 50 customers all time, 5 over 30 days; USD 10000.00 all time, USD 200.00 over 30 days. */
const partner: PartnerTotals = {
  customers: (days) => (days === null ? 50 : days === 30 ? 5 : 0),
  revenue: (days, currency) => (currency !== 'USD' ? 0 : days === null ? 1_000_000 : days === 30 ? 20_000 : 0),
};

const sale = (over: Partial<SaleFacts> = {}): SaleFacts => ({
  amount: 10_000,
  currency: 'USD',
  productIds: ['prod_1', 'prod_2'],
  priceIds: ['price_1'],
  paidAt: PAID,
  firstPaymentAt: undefined,
  country: 'DE',
  metadata: { plan: 'pro' },
  partner,
  ...over,
});
const renewal = (over: Partial<SaleFacts> = {}): SaleFacts => sale({ firstPaymentAt: at('2025-01-01T12:00:00Z'), ...over });
const lead = (over: Partial<LeadFacts> = {}): LeadFacts => ({ country: 'DE', metadata: { plan: 'pro' }, partner, ...over });

const reward = (over: Partial<Reward> = {}): Reward => ({
  id: 'r1',
  event: 'sale',
  kind: 'percentage',
  amount: 2000,
  currency: null,
  duration: { kind: 'lifetime' },
  conditions: null,
  daily_cap: null,
  position: 0,
  ...over,
});
const flat = (amount: number, currency: string, over: Partial<Reward> = {}): Reward => reward({ kind: 'flat', amount, currency, ...over });
const all = (...items: Array<Condition | ConditionGroup>): ConditionGroup => ({ op: 'and', items });
const any = (...items: Array<Condition | ConditionGroup>): ConditionGroup => ({ op: 'or', items });

describe('a condition, field by field', () => {
  const c = (field: Condition['field'], op: Condition['op'], value: Condition['value'], extra: Partial<Condition> = {}): Condition => ({
    field,
    op,
    value,
    ...extra,
  });
  it.each<[string, Condition, SaleFacts | LeadFacts, boolean]>([
    // Products and prices: any of the payment's matches; neq/not_in: none does.
    ['product eq, one of two', c('product_id', 'eq', 'prod_2'), sale(), true],
    ['product eq, none', c('product_id', 'eq', 'prod_9'), sale(), false],
    ['product neq, present', c('product_id', 'neq', 'prod_1'), sale(), false],
    ['product neq, absent', c('product_id', 'neq', 'prod_9'), sale(), true],
    ['product in', c('product_id', 'in', ['prod_9', 'prod_2']), sale(), true],
    ['product in, none', c('product_id', 'in', ['prod_8', 'prod_9']), sale(), false],
    ['product not_in, one present', c('product_id', 'not_in', ['prod_9', 'prod_1']), sale(), false],
    ['product not_in, none present', c('product_id', 'not_in', ['prod_8', 'prod_9']), sale(), true],
    ['no products: eq', c('product_id', 'eq', 'prod_1'), sale({ productIds: [] }), false],
    ['no products: neq', c('product_id', 'neq', 'prod_1'), sale({ productIds: [] }), true],
    ['product gt: not an operator of the field', c('product_id', 'gt', 'a'), sale(), false],
    ['product in with a single value', c('product_id', 'in', 'prod_1'), sale(), false],
    ['product eq with a list', c('product_id', 'eq', ['prod_1']), sale(), false],
    ['price eq', c('price_id', 'eq', 'price_1'), sale(), true],
    ['price neq', c('price_id', 'neq', 'price_1'), sale(), false],
    ['price in', c('price_id', 'in', ['price_2']), sale(), false],
    ['price not_in', c('price_id', 'not_in', ['price_2']), sale(), true],
    // The amount, in its currency only.
    ['amount eq', c('amount', 'eq', 10_000, { currency: 'USD' }), sale(), true],
    ['amount neq', c('amount', 'neq', 10_000, { currency: 'USD' }), sale(), false],
    ['amount gt, equal', c('amount', 'gt', 10_000, { currency: 'USD' }), sale(), false],
    ['amount gt', c('amount', 'gt', 9_999, { currency: 'USD' }), sale(), true],
    ['amount gte, equal', c('amount', 'gte', 10_000, { currency: 'USD' }), sale(), true],
    ['amount gte', c('amount', 'gte', 10_001, { currency: 'USD' }), sale(), false],
    ['amount lt, equal', c('amount', 'lt', 10_000, { currency: 'USD' }), sale(), false],
    ['amount lt', c('amount', 'lt', 10_001, { currency: 'USD' }), sale(), true],
    ['amount lte, equal', c('amount', 'lte', 10_000, { currency: 'USD' }), sale(), true],
    ['amount lte', c('amount', 'lte', 9_999, { currency: 'USD' }), sale(), false],
    ['amount in', c('amount', 'in', [5_000, 10_000], { currency: 'USD' }), sale(), true],
    ['amount not_in', c('amount', 'not_in', [5_000, 10_000], { currency: 'USD' }), sale(), false],
    ['amount, currency in lower case', c('amount', 'eq', 10_000, { currency: 'usd' }), sale(), true],
    ['amount in another currency: eq', c('amount', 'eq', 10_000, { currency: 'EUR' }), sale(), false],
    ['amount in another currency: neq', c('amount', 'neq', 1, { currency: 'EUR' }), sale(), false],
    ['amount in another currency: lt', c('amount', 'lt', 1_000_000, { currency: 'EUR' }), sale(), false],
    ['amount without a currency', c('amount', 'gt', 0), sale(), false],
    ['amount gt with a string', c('amount', 'gt', '1', { currency: 'USD' }), sale(), false],
    // The currency.
    ['currency eq', c('currency', 'eq', 'USD'), sale(), true],
    ['currency eq, any case', c('currency', 'eq', 'usd'), sale(), true],
    ['currency neq', c('currency', 'neq', 'USD'), sale(), false],
    ['currency in', c('currency', 'in', ['EUR', 'USD']), sale(), true],
    ['currency not_in', c('currency', 'not_in', ['EUR', 'GBP']), sale(), true],
    ['currency lt', c('currency', 'lt', 'ZZZ'), sale(), false],
    // First payment or renewal.
    ['payment eq first, no first known', c('payment', 'eq', 'first'), sale(), true],
    ['payment eq first, an earlier first in the same second', c('payment', 'eq', 'first'), sale({ firstPaymentAt: PAID }), false],
    ['payment eq first, a first dated after this one', c('payment', 'eq', 'first'), sale({ firstPaymentAt: PAID + 1 }), true],
    ['payment eq first, on a renewal', c('payment', 'eq', 'first'), renewal(), false],
    ['payment eq renewal', c('payment', 'eq', 'renewal'), renewal(), true],
    ['payment neq first, on a renewal', c('payment', 'neq', 'first'), renewal(), true],
    ['payment neq renewal, on a first', c('payment', 'neq', 'renewal'), sale(), true],
    ['payment in: not an operator of the field', c('payment', 'in', ['first']), sale(), false],
    // Months since the first payment: Jan 1 12:00 to Mar 1 12:00 is 2.
    ['months eq 0 on the first payment', c('months_since_first_payment', 'eq', 0), sale(), true],
    ['months eq 2', c('months_since_first_payment', 'eq', 2), renewal(), true],
    ['months gte 3', c('months_since_first_payment', 'gte', 3), renewal(), false],
    ['months lt 3', c('months_since_first_payment', 'lt', 3), renewal(), true],
    ['months, one second short', c('months_since_first_payment', 'eq', 1), renewal({ paidAt: PAID - 1 }), true],
    ['months in', c('months_since_first_payment', 'in', [1, 2]), renewal(), true],
    ['months not_in', c('months_since_first_payment', 'not_in', [1, 2]), renewal(), false],
    // The customer's country: case-insensitive; unknown fails eq/in and passes neq/not_in.
    ['country eq', c('customer_country', 'eq', 'DE'), sale(), true],
    ['country eq, condition in lower case', c('customer_country', 'eq', 'de'), sale(), true],
    ['country eq, facts in lower case', c('customer_country', 'eq', 'DE'), sale({ country: 'de' }), true],
    ['country neq', c('customer_country', 'neq', 'DE'), sale(), false],
    ['country in', c('customer_country', 'in', ['FR', 'DE']), lead(), true],
    ['country not_in', c('customer_country', 'not_in', ['FR', 'DE']), lead(), false],
    ['unknown country: eq', c('customer_country', 'eq', 'DE'), sale({ country: null }), false],
    ['unknown country: in', c('customer_country', 'in', ['DE']), sale({ country: null }), false],
    ['unknown country: neq', c('customer_country', 'neq', 'DE'), sale({ country: null }), true],
    ['unknown country: not_in', c('customer_country', 'not_in', ['DE']), lead({ country: null }), true],
    ['country gt', c('customer_country', 'gt', 'AA'), sale(), false],
    // Metadata: a missing key fails eq/in and passes neq/not_in.
    ['metadata eq', c('metadata', 'eq', 'pro', { key: 'plan' }), sale(), true],
    ['metadata eq, other value', c('metadata', 'eq', 'team', { key: 'plan' }), sale(), false],
    ['metadata neq', c('metadata', 'neq', 'team', { key: 'plan' }), lead(), true],
    ['metadata in', c('metadata', 'in', ['team', 'pro'], { key: 'plan' }), lead(), true],
    ['metadata not_in', c('metadata', 'not_in', ['team', 'pro'], { key: 'plan' }), lead(), false],
    ['missing key: eq', c('metadata', 'eq', 'pro', { key: 'tier' }), sale(), false],
    ['missing key: in', c('metadata', 'in', ['pro'], { key: 'tier' }), sale(), false],
    ['missing key: neq', c('metadata', 'neq', 'pro', { key: 'tier' }), sale(), true],
    ['missing key: not_in', c('metadata', 'not_in', ['pro'], { key: 'tier' }), sale(), true],
    ['an inherited key is missing', c('metadata', 'neq', 'x', { key: 'constructor' }), sale(), true],
    ['metadata without a key', c('metadata', 'neq', 'pro'), sale(), false],
    ['metadata, a number against a string', c('metadata', 'eq', 1, { key: 'n' }), sale({ metadata: { n: '1' } }), false],
    ['metadata lt', c('metadata', 'lt', 'z', { key: 'plan' }), sale(), false],
    // The partner's totals, in a window or all time.
    ['customers all time gte 50', c('partner_customers', 'gte', 50), sale(), true],
    ['customers, window_days null is all time', c('partner_customers', 'gt', 49, { window_days: null }), sale(), true],
    ['customers over 30 days lt 5', c('partner_customers', 'lt', 5, { window_days: 30 }), lead(), false],
    ['customers over 30 days lte 5', c('partner_customers', 'lte', 5, { window_days: 30 }), lead(), true],
    ['customers in', c('partner_customers', 'in', [5, 6], { window_days: 30 }), lead(), true],
    ['revenue all time', c('partner_revenue', 'gte', 1_000_000, { currency: 'USD' }), sale(), true],
    ['revenue over 30 days', c('partner_revenue', 'gt', 20_000, { currency: 'usd', window_days: 30 }), lead(), false],
    ['revenue in another currency', c('partner_revenue', 'eq', 0, { currency: 'EUR' }), lead(), true],
    ['revenue without a currency', c('partner_revenue', 'gte', 0), lead(), false],
    // A lead has no payment: its fields fail whatever the operator.
    ['lead: product eq', c('product_id', 'eq', 'prod_1'), lead(), false],
    ['lead: product neq', c('product_id', 'neq', 'prod_1'), lead(), false],
    ['lead: payment neq renewal', c('payment', 'neq', 'renewal'), lead(), false],
    ['lead: amount', c('amount', 'gte', 0, { currency: 'USD' }), lead(), false],
  ])('%s', (_, condition, facts, expected) => {
    expect(matches(all(condition), facts)).toBe(expected);
  });
});

describe('groups', () => {
  const de: Condition = { field: 'customer_country', op: 'eq', value: 'DE' };
  const fr: Condition = { field: 'customer_country', op: 'eq', value: 'FR' };
  const pro: Condition = { field: 'metadata', key: 'plan', op: 'eq', value: 'pro' };
  it.each<[string, ConditionGroup | null, boolean]>([
    ['no conditions', null, true],
    ['and: both hold', all(de, pro), true],
    ['and: one fails', all(de, fr), false],
    ['or: one holds', any(fr, de), true],
    ['or: none holds', any(fr, { ...pro, value: 'team' }), false],
    ['empty and', all(), true],
    ['empty or', any(), false],
    ['nested: DE and (FR or pro)', all(de, any(fr, pro)), true],
    ['nested: DE and (FR or team)', all(de, any(fr, { ...pro, value: 'team' })), false],
    ['three deep: FR or (DE and (FR or pro))', any(fr, all(de, any(fr, pro))), true],
    ['three deep: FR or (DE and (FR))', any(fr, all(de, any(fr))), false],
  ])('%s', (_, group, expected) => {
    expect(matches(group, sale())).toBe(expected);
  });
});

describe('monthsBetween', () => {
  it.each<[string, string, number]>([
    ['2025-01-31T00:00:00Z', '2025-01-31T00:00:00Z', 0],
    ['2025-01-31T00:00:00Z', '2025-01-30T00:00:00Z', 0],
    ['2025-01-31T00:00:00Z', '2025-02-27T23:59:59Z', 0],
    ['2025-01-31T00:00:00Z', '2025-02-28T00:00:00Z', 1],
    ['2024-01-31T00:00:00Z', '2024-02-28T23:59:59Z', 0],
    ['2024-01-31T00:00:00Z', '2024-02-29T00:00:00Z', 1],
    ['2025-01-31T00:00:00Z', '2025-03-30T23:59:59Z', 1],
    ['2025-01-31T00:00:00Z', '2025-03-31T00:00:00Z', 2],
    ['2025-01-15T10:00:00Z', '2026-01-15T09:59:59Z', 11],
    ['2025-01-15T10:00:00Z', '2026-01-15T10:00:00Z', 12],
    ['2025-01-15T10:00:00Z', '2035-01-15T10:00:00Z', 120],
    ['2024-02-29T00:00:00Z', '2025-02-28T00:00:00Z', 12],
  ])('%s to %s: %i', (first, then, months) => {
    expect(monthsBetween(at(first), at(then))).toBe(months);
  });
});

describe('evaluateSale: durations', () => {
  const first = (iso: string, paid: string): Partial<SaleFacts> => ({ firstPaymentAt: at(iso), paidAt: at(paid) });
  it.each<[string, Reward['duration'], Partial<SaleFacts>, number | undefined]>([
    ['once: the first payment', { kind: 'once' }, {}, 2000],
    ['once: a first payment in the same second came first', { kind: 'once' }, { firstPaymentAt: PAID }, undefined],
    ['once: a renewal', { kind: 'once' }, first('2025-02-01T12:00:00Z', '2025-03-01T12:00:00Z'), undefined],
    [
      'months 1 from Jan 31: one second before Feb 28',
      { kind: 'months', months: 1 },
      first('2025-01-31T00:00:00Z', '2025-02-27T23:59:59Z'),
      2000,
    ],
    ['months 1 from Jan 31: at Feb 28', { kind: 'months', months: 1 }, first('2025-01-31T00:00:00Z', '2025-02-28T00:00:00Z'), undefined],
    [
      'months 1 from Jan 31 2024: one second before Feb 29',
      { kind: 'months', months: 1 },
      first('2024-01-31T00:00:00Z', '2024-02-28T23:59:59Z'),
      2000,
    ],
    [
      'months 1 from Jan 31 2024: at Feb 29',
      { kind: 'months', months: 1 },
      first('2024-01-31T00:00:00Z', '2024-02-29T00:00:00Z'),
      undefined,
    ],
    ['months 12: one second before', { kind: 'months', months: 12 }, first('2025-01-15T10:00:00Z', '2026-01-15T09:59:59Z'), 2000],
    ['months 12: at the boundary', { kind: 'months', months: 12 }, first('2025-01-15T10:00:00Z', '2026-01-15T10:00:00Z'), undefined],
    ['months 12: the first payment', { kind: 'months', months: 12 }, {}, 2000],
    ['lifetime: the first payment', { kind: 'lifetime' }, {}, 2000],
    ['lifetime: ten years on', { kind: 'lifetime' }, first('2015-03-01T12:00:00Z', '2025-03-01T12:00:00Z'), 2000],
  ])('%s', (_, duration, facts, amount) => {
    expect(evaluateSale([reward({ duration })], sale(facts))?.amount).toBe(amount);
  });
});

describe('evaluateSale: which reward, and how much', () => {
  const de: ConditionGroup = all({ field: 'customer_country', op: 'eq', value: 'DE' });
  const fr: ConditionGroup = all({ field: 'customer_country', op: 'eq', value: 'FR' });
  it.each<[string, Reward[], Partial<SaleFacts>, { id: string; amount: number; currency: string } | undefined]>([
    ['none', [], {}, undefined],
    ['20 % of USD 100.00', [reward()], {}, { id: 'r1', amount: 2000, currency: 'USD' }],
    ['a flat amount beats a lower percentage', [reward(), flat(2500, 'USD', { id: 'f' })], {}, { id: 'f', amount: 2500, currency: 'USD' }],
    ['a percentage beats a lower flat amount', [reward(), flat(1500, 'USD', { id: 'f' })], {}, { id: 'r1', amount: 2000, currency: 'USD' }],
    ['a flat amount in another currency does not apply', [flat(9999, 'EUR')], {}, undefined],
    [
      'a flat amount in another currency does not win',
      [reward(), flat(9999, 'EUR', { id: 'f' })],
      {},
      { id: 'r1', amount: 2000, currency: 'USD' },
    ],
    [
      'tie: the lower position',
      [reward({ id: 'a', position: 2 }), flat(2000, 'USD', { id: 'b', position: 1 })],
      {},
      { id: 'b', amount: 2000, currency: 'USD' },
    ],
    [
      'tie, same position: the lower id',
      [flat(2000, 'USD', { id: 'b' }), reward({ id: 'a' })],
      {},
      { id: 'a', amount: 2000, currency: 'USD' },
    ],
    ['ids compare by code unit: B before a', [reward({ id: 'a' }), reward({ id: 'B' })], {}, { id: 'B', amount: 2000, currency: 'USD' }],
    [
      'conditions not met drop out',
      [reward({ amount: 5000, conditions: fr }), reward({ id: 'r2', conditions: de })],
      {},
      { id: 'r2', amount: 2000, currency: 'USD' },
    ],
    [
      'lead and click rewards are no sale rewards',
      [flat(5000, 'USD', { event: 'lead' }), flat(5000, 'USD', { event: 'click' })],
      {},
      undefined,
    ],
    [
      'a duration that does not cover drops out',
      [reward({ amount: 5000, duration: { kind: 'once' } }), reward({ id: 'r2' })],
      { firstPaymentAt: at('2025-01-01T00:00:00Z') },
      { id: 'r2', amount: 2000, currency: 'USD' },
    ],
    ['rounded half up: 25 % of 2 cents', [reward({ amount: 2500 })], { amount: 2 }, { id: 'r1', amount: 1, currency: 'USD' }],
    ['rounded down: 0.01 % of USD 49.99 pays 0, so nothing', [reward({ amount: 1 })], { amount: 4999 }, undefined],
    ['a payment of 0', [reward()], { amount: 0 }, undefined],
    ['a refund (negative) earns nothing', [reward()], { amount: -10_000 }, undefined],
    [
      'JPY (0 decimals): 20 % of JPY 1234 is 247',
      [reward()],
      { amount: 1234, currency: 'JPY' },
      { id: 'r1', amount: 247, currency: 'JPY' },
    ],
    [
      'JPY: a flat JPY 500',
      [reward(), flat(500, 'JPY', { id: 'f' })],
      { amount: 1234, currency: 'JPY' },
      { id: 'f', amount: 500, currency: 'JPY' },
    ],
    [
      'KWD (3 decimals): 12.5 % of KWD 1.999 is 0.250',
      [reward({ amount: 1250 })],
      { amount: 1999, currency: 'KWD' },
      { id: 'r1', amount: 250, currency: 'KWD' },
    ],
    ['KWD: a flat KWD 1.250', [flat(1250, 'KWD')], { amount: 1999, currency: 'KWD' }, { id: 'r1', amount: 1250, currency: 'KWD' }],
    [
      '100 % of a large amount, exact',
      [reward({ amount: 10_000 })],
      { amount: 999_999_999_999 },
      { id: 'r1', amount: 999_999_999_999, currency: 'USD' },
    ],
  ])('%s', (_, rewards, facts, expected) => {
    const earned = evaluateSale(rewards, sale(facts));
    expect(earned && { id: earned.reward.id, amount: earned.amount, currency: earned.currency }).toEqual(expected);
  });

  it('describes what it earned', () => {
    expect(evaluateSale([reward({ duration: { kind: 'months', months: 12 } })], renewal())).toEqual({
      reward: reward({ duration: { kind: 'months', months: 12 } }),
      amount: 2000,
      currency: 'USD',
      description: '20 % of a renewal, month 3 of 12',
    });
  });
});

describe('evaluateLead and clicks', () => {
  const de: ConditionGroup = all({ field: 'customer_country', op: 'eq', value: 'DE' });
  const leads = [
    flat(200, 'USD', { id: 'l1', event: 'lead', duration: { kind: 'once' } }),
    flat(300, 'USD', { id: 'l2', event: 'lead', duration: { kind: 'once' }, conditions: de }),
    // Malformed (the schema refuses it): a lead is flat only.
    reward({ id: 'l3', event: 'lead', amount: 9000 }),
    flat(5000, 'USD', { id: 's1' }),
  ];
  it.each<[string, LeadFacts, { id: string; amount: number; currency: string; description: string } | undefined]>([
    ['the higher one that matches', lead(), { id: 'l2', amount: 300, currency: 'USD', description: 'USD 3.00 for a sign-up' }],
    [
      'the other one when it does not',
      lead({ country: 'FR' }),
      { id: 'l1', amount: 200, currency: 'USD', description: 'USD 2.00 for a sign-up' },
    ],
  ])('lead: %s', (_, facts, expected) => {
    const earned = evaluateLead(leads, facts);
    expect(earned && { id: earned.reward.id, amount: earned.amount, currency: earned.currency, description: earned.description }).toEqual(
      expected,
    );
  });

  it('lead: none', () => {
    expect(evaluateLead([flat(5000, 'USD')], lead())).toBeUndefined();
  });

  const clicks = [
    flat(10, 'USD', { id: 'c1', event: 'click', daily_cap: 500 }),
    flat(20, 'USD', { id: 'c2', event: 'click', conditions: de }),
    flat(99, 'USD', { id: 's1' }),
  ];
  it.each<[string, LeadFacts, string | undefined]>([
    ['the higher one that matches', lead(), 'c2'],
    ['the other one when it does not', lead({ country: 'FR' }), 'c1'],
    ['an unknown country', lead({ country: null }), 'c1'],
  ])('click reward: %s', (_, facts, id) => {
    expect(clickReward(clicks, facts)?.id).toBe(id);
  });

  it('click reward: none among sale rewards', () => {
    expect(clickReward([flat(99, 'USD')], lead())).toBeUndefined();
  });

  const capped = flat(10, 'USD', { event: 'click', daily_cap: 500 });
  const uncapped = flat(10, 'USD', { event: 'click' });
  it.each<[string, Reward, number, number]>([
    ['no visitors', capped, 0, 0],
    ['under the cap', capped, 49, 490],
    ['at the cap', capped, 50, 500],
    ['over the cap', capped, 51, 500],
    ['far over the cap', capped, 1_000_000, 500],
    ['no cap', uncapped, 1_000_000, 10_000_000],
    ['a product past 2^53, capped', flat(1e12, 'USD', { event: 'click', daily_cap: 5e11 }), 1e6, 5e11],
  ])('click earnings: %s', (_, r, visitors, amount) => {
    expect(clickEarnings(r, visitors)).toBe(amount);
  });

  it.each([-1, 1.5, Number.NaN])('click earnings refuse %s visitors', (visitors) => {
    expect(() => clickEarnings(capped, visitors)).toThrow(RangeError);
  });

  it('click earnings refuse a total past 2^53 rather than round it', () => {
    expect(() => clickEarnings(flat(1e12, 'USD', { event: 'click' }), 1e6)).toThrow(RangeError);
  });
});

describe('the partner totals the conditions ask for', () => {
  const customers = (window_days?: number | null): Condition => ({ field: 'partner_customers', op: 'gte', value: 1, window_days });
  const revenue = (currency: string | undefined, window_days?: number | null): Condition => ({
    field: 'partner_revenue',
    op: 'gte',
    value: 1,
    currency,
    window_days,
  });
  it.each<[string, Reward[], ReturnType<typeof windowsOf>]>([
    ['no rewards', [], []],
    ['no conditions', [reward()], []],
    ['no totals', [reward({ conditions: all({ field: 'customer_country', op: 'eq', value: 'DE' }) })], []],
    [
      'each once, in the order met, at every depth and across rewards',
      [
        reward({ conditions: all(customers(30), any(revenue('USD'), all(customers(null)))) }),
        reward({ event: 'lead', conditions: any(customers(), revenue('usd', null), revenue('EUR', 30), customers(7)) }),
      ],
      [
        { metric: 'customers', windowDays: 30 },
        { metric: 'revenue', windowDays: null, currency: 'USD' },
        { metric: 'customers', windowDays: null },
        { metric: 'revenue', windowDays: 30, currency: 'EUR' },
        { metric: 'customers', windowDays: 7 },
      ],
    ],
    ['revenue without a currency needs nothing', [reward({ conditions: all(revenue(undefined)) })], []],
  ])('%s', (_, rewards, windows) => {
    expect(windowsOf(rewards)).toEqual(windows);
  });

  it('totalsFrom answers what was fetched, and throws for what was not', () => {
    const totals = totalsFrom([
      { window: { metric: 'customers', windowDays: 30 }, value: 4 },
      { window: { metric: 'revenue', windowDays: null, currency: 'USD' }, value: 12_345 },
    ]);
    expect(totals.customers(30)).toBe(4);
    expect(totals.revenue(null, 'USD')).toBe(12_345);
    expect(() => totals.customers(null)).toThrow('partner total not fetched: customers/all/');
    expect(() => totals.revenue(null, 'EUR')).toThrow('partner total not fetched: revenue/all/EUR');
  });
});

describe('sentences', () => {
  const click = (over: Partial<Reward> = {}) => flat(10, 'USD', { event: 'click', duration: { kind: 'once' }, ...over });
  it.each<[string, Reward, string]>([
    ['months', reward({ duration: { kind: 'months', months: 12 } }), '20 % of each payment for 12 months'],
    ['one month', reward({ duration: { kind: 'months', months: 1 } }), '20 % of each payment for 1 month'],
    ['once', reward({ duration: { kind: 'once' } }), '20 % of the first payment'],
    ['lifetime', reward(), "20 % of each payment, for the customer's lifetime"],
    ['a fraction of a percent', reward({ amount: 1250 }), "12.5 % of each payment, for the customer's lifetime"],
    ['one basis point', reward({ amount: 1 }), "0.01 % of each payment, for the customer's lifetime"],
    ['all of it', reward({ amount: 10_000 }), "100 % of each payment, for the customer's lifetime"],
    ['flat, once', flat(500, 'USD', { duration: { kind: 'once' } }), 'USD 5.00 per sale'],
    ['flat, months', flat(500, 'USD', { duration: { kind: 'months', months: 6 } }), 'USD 5.00 per payment for 6 months'],
    ['flat, lifetime', flat(500, 'USD'), "USD 5.00 per payment, for the customer's lifetime"],
    ['JPY', flat(500, 'JPY', { duration: { kind: 'once' } }), 'JPY 500 per sale'],
    ['KWD', flat(1250, 'KWD', { duration: { kind: 'once' } }), 'KWD 1.250 per sale'],
    ['lead', flat(200, 'USD', { event: 'lead' }), 'USD 2.00 per sign-up'],
    ['click with a cap', click({ daily_cap: 500 }), 'USD 0.10 per unique visitor, at most USD 5.00 a day'],
    ['click', click(), 'USD 0.10 per unique visitor'],
    [
      'with conditions',
      reward({
        duration: { kind: 'months', months: 12 },
        conditions: all(
          { field: 'product_id', op: 'in', value: ['prod_1', 'prod_2'] },
          { field: 'customer_country', op: 'eq', value: 'DE' },
        ),
      }),
      "20 % of each payment for 12 months, when the product is prod_1 or prod_2 and the customer's country is DE",
    ],
  ])('reward: %s', (_, r, sentence) => {
    expect(describeReward(r)).toBe(sentence);
  });

  it.each<[string, Condition | ConditionGroup, string]>([
    ['product eq', { field: 'product_id', op: 'eq', value: 'prod_1' }, 'the product is prod_1'],
    ['product neq', { field: 'product_id', op: 'neq', value: 'prod_1' }, 'the product is not prod_1'],
    ['product in three', { field: 'product_id', op: 'in', value: ['a', 'b', 'c'] }, 'the product is a, b or c'],
    ['product not_in one', { field: 'product_id', op: 'not_in', value: ['a'] }, 'the product is not a'],
    ['product not_in two', { field: 'product_id', op: 'not_in', value: ['a', 'b'] }, 'the product is neither a nor b'],
    ['product not_in three', { field: 'product_id', op: 'not_in', value: ['a', 'b', 'c'] }, 'the product is none of a, b or c'],
    ['price', { field: 'price_id', op: 'eq', value: 'price_1' }, 'the price is price_1'],
    ['amount gt', { field: 'amount', op: 'gt', value: 5000, currency: 'USD' }, 'the amount is over USD 50.00'],
    ['amount gte JPY', { field: 'amount', op: 'gte', value: 500, currency: 'JPY' }, 'the amount is at least JPY 500'],
    ['amount lt KWD', { field: 'amount', op: 'lt', value: 1250, currency: 'KWD' }, 'the amount is under KWD 1.250'],
    ['amount lte', { field: 'amount', op: 'lte', value: 5, currency: 'USD' }, 'the amount is at most USD 0.05'],
    ['amount in', { field: 'amount', op: 'in', value: [100, 200], currency: 'EUR' }, 'the amount is EUR 1.00 or EUR 2.00'],
    ['currency', { field: 'currency', op: 'in', value: ['EUR', 'GBP'] }, 'the currency is EUR or GBP'],
    ['payment eq first', { field: 'payment', op: 'eq', value: 'first' }, 'it is the first payment'],
    ['payment neq first', { field: 'payment', op: 'neq', value: 'first' }, 'it is a renewal'],
    ['payment eq renewal', { field: 'payment', op: 'eq', value: 'renewal' }, 'it is a renewal'],
    ['payment neq renewal', { field: 'payment', op: 'neq', value: 'renewal' }, 'it is the first payment'],
    ['months', { field: 'months_since_first_payment', op: 'gte', value: 3 }, 'the number of months since the first payment is at least 3'],
    ['country', { field: 'customer_country', op: 'neq', value: 'DE' }, "the customer's country is not DE"],
    ['metadata', { field: 'metadata', key: 'plan', op: 'eq', value: 'pro' }, 'the metadata key plan is pro'],
    [
      'customers, 30 days',
      { field: 'partner_customers', op: 'gte', value: 10, window_days: 30 },
      "the number of the partner's paying customers over the last 30 days is at least 10",
    ],
    [
      'customers, one day',
      { field: 'partner_customers', op: 'lt', value: 2, window_days: 1 },
      "the number of the partner's paying customers over the last day is under 2",
    ],
    [
      'revenue, all time',
      { field: 'partner_revenue', op: 'gte', value: 100_000, currency: 'USD' },
      "the partner's revenue to date is at least USD 1000.00",
    ],
    [
      'a nested group in parentheses',
      any(
        { field: 'customer_country', op: 'eq', value: 'DE' },
        all({ field: 'product_id', op: 'eq', value: 'a' }, { field: 'payment', op: 'eq', value: 'renewal' }),
      ),
      "the customer's country is DE or (the product is a and it is a renewal)",
    ],
    [
      'a nested group of one, bare',
      all({ field: 'product_id', op: 'eq', value: 'a' }, any({ field: 'price_id', op: 'eq', value: 'b' })),
      'the product is a and the price is b',
    ],
  ])('condition: %s', (_, item, sentence) => {
    expect(describeConditions('items' in item ? item : all(item))).toBe(sentence);
  });

  const monthly = reward({ duration: { kind: 'months', months: 12 } });
  it.each<[string, Reward, SaleFacts | LeadFacts, string]>([
    [
      'a renewal in month 3 of 12',
      monthly,
      renewal({ firstPaymentAt: at('2025-01-15T00:00:00Z'), paidAt: at('2025-03-20T00:00:00Z') }),
      '20 % of a renewal, month 3 of 12',
    ],
    ['a renewal in the first month', monthly, renewal({ firstPaymentAt: at('2025-02-20T00:00:00Z') }), '20 % of a renewal, month 1 of 12'],
    ['the first payment', monthly, sale(), '20 % of the first payment'],
    ['once', reward({ duration: { kind: 'once' } }), sale(), '20 % of the first payment'],
    [
      'for life, month 14',
      reward(),
      renewal({ firstPaymentAt: at('2025-01-15T00:00:00Z'), paidAt: at('2026-02-15T00:00:00Z') }),
      '20 % of a renewal, month 14 (for life)',
    ],
    ['flat, a sale', flat(500, 'USD', { duration: { kind: 'once' } }), sale(), 'USD 5.00 for a sale'],
    ['flat, a renewal', flat(500, 'USD', { duration: { kind: 'months', months: 12 } }), renewal(), 'USD 5.00 for a renewal, month 3 of 12'],
    ['flat KWD', flat(1250, 'KWD', { duration: { kind: 'once' } }), sale({ currency: 'KWD' }), 'KWD 1.250 for a sale'],
    ['a sign-up', flat(200, 'USD', { event: 'lead' }), lead(), 'USD 2.00 for a sign-up'],
  ])('earned: %s', (_, r, facts, sentence) => {
    expect(describeEarned(r, facts)).toBe(sentence);
  });

  const cappedClick = click({ daily_cap: 500 });
  it.each<[number, number, string]>([
    [1, 10, 'USD 0.10 for 1 unique visitor'],
    [12, 120, 'USD 1.20 for 12 unique visitors'],
    [50, 500, 'USD 5.00 for 50 unique visitors'],
    [80, 500, 'USD 5.00 for 80 unique visitors (the daily cap)'],
  ])('a day of %i clicks', (visitors, earned, sentence) => {
    expect(clickEarnings(cappedClick, visitors)).toBe(earned);
    expect(describeClickDay(cappedClick, visitors, earned)).toBe(sentence);
  });
});

describe('schemas', () => {
  it('parse to the model, less the id', () => {
    expectTypeOf<z.output<typeof rewardSchema>>().toEqualTypeOf<RewardInput>();
  });

  const percentage = { event: 'sale', kind: 'percentage', amount: 2000, duration: { kind: 'months', months: 12 } };
  const deep = (levels: number): unknown => {
    let item: unknown = { field: 'customer_country', op: 'eq', value: 'DE' };
    for (let i = 0; i < levels; i++) item = { op: 'and', items: [item] };
    return item;
  };
  const withCondition = (condition: unknown, base: object = percentage) => ({ ...base, conditions: { op: 'and', items: [condition] } });

  it.each<[string, unknown, RewardInput]>([
    [
      'a percentage, with every field of default',
      percentage,
      {
        event: 'sale',
        kind: 'percentage',
        amount: 2000,
        currency: null,
        duration: { kind: 'months', months: 12 },
        conditions: null,
        daily_cap: null,
        position: 0,
      },
    ],
    [
      'a flat sale: codes upper-cased, nulls kept',
      {
        event: 'sale',
        kind: 'flat',
        amount: 1250,
        currency: 'kwd',
        duration: { kind: 'once' },
        conditions: {
          op: 'or',
          items: [
            { field: 'customer_country', op: 'in', value: ['de', 'At'] },
            { field: 'amount', op: 'gte', value: 1, currency: 'kwd' },
          ],
        },
        daily_cap: null,
        position: 3,
      },
      {
        event: 'sale',
        kind: 'flat',
        amount: 1250,
        currency: 'KWD',
        duration: { kind: 'once' },
        conditions: {
          op: 'or',
          items: [
            { field: 'customer_country', op: 'in', value: ['DE', 'AT'] },
            { field: 'amount', op: 'gte', value: 1, currency: 'KWD' },
          ],
        },
        daily_cap: null,
        position: 3,
      },
    ],
    [
      'three levels of groups',
      { ...percentage, conditions: deep(3) },
      {
        ...(percentage as Pick<RewardInput, 'event' | 'kind' | 'amount' | 'duration'>),
        currency: null,
        conditions: deep(3) as ConditionGroup,
        daily_cap: null,
        position: 0,
      },
    ],
    [
      'a lead: once, whatever is given',
      { event: 'lead', kind: 'flat', amount: 200, currency: 'usd', duration: { kind: 'once' }, conditions: null },
      {
        event: 'lead',
        kind: 'flat',
        amount: 200,
        currency: 'USD',
        duration: { kind: 'once' },
        conditions: null,
        daily_cap: null,
        position: 0,
      },
    ],
    [
      'a click with a cap and its totals',
      {
        event: 'click',
        kind: 'flat',
        amount: 10,
        currency: 'USD',
        daily_cap: 500,
        conditions: {
          op: 'and',
          items: [
            { field: 'partner_revenue', op: 'gt', value: 0, currency: 'usd', window_days: 30 },
            { field: 'partner_customers', op: 'gte', value: 1 },
          ],
        },
      },
      {
        event: 'click',
        kind: 'flat',
        amount: 10,
        currency: 'USD',
        duration: { kind: 'once' },
        conditions: {
          op: 'and',
          items: [
            { field: 'partner_revenue', op: 'gt', value: 0, currency: 'USD', window_days: 30 },
            { field: 'partner_customers', op: 'gte', value: 1 },
          ],
        },
        daily_cap: 500,
        position: 0,
      },
    ],
  ])('accept %s', (_, input, output) => {
    expect(rewardSchema.parse(input)).toEqual(output);
  });

  it.each<[string, unknown]>([
    ['product', { field: 'product_id', op: 'not_in', value: ['prod_1'] }],
    ['price', { field: 'price_id', op: 'neq', value: 'price_1' }],
    ['amount', { field: 'amount', op: 'lte', value: 0, currency: 'JPY' }],
    ['currency', { field: 'currency', op: 'eq', value: 'eur' }],
    ['payment', { field: 'payment', op: 'neq', value: 'renewal' }],
    ['months', { field: 'months_since_first_payment', op: 'in', value: [0, 1, 1200] }],
    ['country', { field: 'customer_country', op: 'not_in', value: ['US'] }],
    ['metadata', { field: 'metadata', key: 'plan', op: 'eq', value: 'x'.repeat(200) }],
    ['customers', { field: 'partner_customers', op: 'lt', value: 3, window_days: null }],
    ['revenue', { field: 'partner_revenue', op: 'gt', value: 3, currency: 'USD', window_days: 3650 }],
  ])('accept a condition on %s', (_, condition) => {
    expect(rewardSchema.safeParse(withCondition(condition)).success).toBe(true);
  });

  const lead = { event: 'lead', kind: 'flat', amount: 200, currency: 'USD' };
  const click = { event: 'click', kind: 'flat', amount: 10, currency: 'USD' };
  const tooDeep = 'must be given: groups nest at most 3 deep, so this item must be a condition';
  it.each<[string, unknown, string, string?]>([
    ['groups four deep', { ...percentage, conditions: deep(4) }, 'conditions.items.0.items.0.items.0.field', tooDeep],
    ['a lead with a percentage', { ...lead, kind: 'percentage' }, 'kind'],
    ['a click with a percentage', { ...click, kind: 'percentage' }, 'kind'],
    ['a percentage over 10000', { ...percentage, amount: 10_001 }, 'amount', 'must be at most 10000 (basis points) for a percentage'],
    ['a percentage of 0', { ...percentage, amount: 0 }, 'amount'],
    ['a percentage with a currency', { ...percentage, currency: 'USD' }, 'currency', 'must be absent or null for a percentage'],
    ['a flat amount without a currency', { ...percentage, kind: 'flat' }, 'currency', 'is required for a flat amount'],
    ['an unknown currency', { ...lead, currency: 'XXX' }, 'currency'],
    ['a dotless i in a currency', { ...lead, currency: '\u0131sk' }, 'currency'],
    ['a flat amount of 0', { ...lead, amount: 0 }, 'amount'],
    ['a sale without a duration', { event: 'sale', kind: 'percentage', amount: 2000 }, 'duration'],
    ['months 0', { ...percentage, duration: { kind: 'months', months: 0 } }, 'duration.months'],
    ['a lead for months', { ...lead, duration: { kind: 'months', months: 3 } }, 'duration.kind'],
    ['a daily cap on a sale', { ...percentage, daily_cap: 100 }, 'daily_cap'],
    ['a daily cap on a lead', { ...lead, daily_cap: 100 }, 'daily_cap', 'is for click rewards only'],
    ['a daily cap under the amount', { ...click, daily_cap: 9 }, 'daily_cap', 'must be at least amount'],
    ['an unknown event', { ...lead, event: 'refund' }, 'event'],
    ['an unknown field', { ...lead, rate: 5 }, ''],
    ['an amount condition without a currency', withCondition({ field: 'amount', op: 'gt', value: 5 }), 'conditions.items.0.currency'],
    [
      'a revenue condition without a currency',
      withCondition({ field: 'partner_revenue', op: 'gt', value: 5 }),
      'conditions.items.0.currency',
    ],
    [
      'gt on a product',
      withCondition({ field: 'product_id', op: 'gt', value: 'a' }),
      'conditions.items.0.op',
      'must be one of: eq, neq, in, not_in',
    ],
    ['lt on a country', withCondition({ field: 'customer_country', op: 'lt', value: 'DE' }), 'conditions.items.0.op'],
    ['in on payment', withCondition({ field: 'payment', op: 'in', value: ['first'] }), 'conditions.items.0.op'],
    [
      'a condition with op "and", read as a group',
      withCondition({ field: 'product_id', op: 'and', value: 'a' }),
      'conditions.items.0.items',
    ],
    [
      'a payment that is neither first nor renewal',
      withCondition({ field: 'payment', op: 'eq', value: 'second' }),
      'conditions.items.0.value',
    ],
    ['in with one value', withCondition({ field: 'product_id', op: 'in', value: 'a' }), 'conditions.items.0.value'],
    ['eq with a list', withCondition({ field: 'product_id', op: 'eq', value: ['a'] }), 'conditions.items.0.value'],
    ['in with an empty list', withCondition({ field: 'product_id', op: 'in', value: [] }), 'conditions.items.0.value'],
    [
      'in with 101 values',
      withCondition({ field: 'product_id', op: 'in', value: Array.from({ length: 101 }, (_, i) => `p${i}`) }),
      'conditions.items.0.value',
    ],
    [
      'a value of 201 characters',
      withCondition({ field: 'metadata', key: 'k', op: 'eq', value: 'x'.repeat(201) }),
      'conditions.items.0.value',
    ],
    ['an empty value', withCondition({ field: 'product_id', op: 'eq', value: '' }), 'conditions.items.0.value'],
    ['a number for a product', withCondition({ field: 'product_id', op: 'eq', value: 5 }), 'conditions.items.0.value'],
    ['a string for an amount', withCondition({ field: 'amount', op: 'eq', value: '5', currency: 'USD' }), 'conditions.items.0.value'],
    ['a three-letter country', withCondition({ field: 'customer_country', op: 'eq', value: 'DEU' }), 'conditions.items.0.value'],
    ['metadata without a key', withCondition({ field: 'metadata', op: 'eq', value: 'pro' }), 'conditions.items.0.key'],
    ['a key on a product', withCondition({ field: 'product_id', op: 'eq', value: 'a', key: 'k' }), 'conditions.items.0'],
    [
      'a window on an amount',
      withCondition({ field: 'amount', op: 'eq', value: 1, currency: 'USD', window_days: 3 }),
      'conditions.items.0',
    ],
    [
      'a window of 0 days',
      withCondition({ field: 'partner_customers', op: 'eq', value: 1, window_days: 0 }),
      'conditions.items.0.window_days',
    ],
    ['an unknown field', withCondition({ field: 'plan', op: 'eq', value: 'a' }), 'conditions.items.0.field'],
    [
      'a product on a lead',
      withCondition({ field: 'product_id', op: 'eq', value: 'a' }, lead),
      'conditions.items.0.field',
      'must be one of: customer_country, metadata, partner_customers, partner_revenue',
    ],
    ['a payment on a click', withCondition({ field: 'payment', op: 'eq', value: 'first' }, click), 'conditions.items.0.field'],
    ['an empty group', { ...percentage, conditions: { op: 'and', items: [] } }, 'conditions.items'],
    [
      '21 items in a group',
      { ...percentage, conditions: { op: 'or', items: Array.from({ length: 21 }, () => deep(0)) } },
      'conditions.items',
    ],
    ['xor', { ...percentage, conditions: { op: 'xor', items: [deep(0)] } }, 'conditions.op'],
  ])('refuse %s', (_, input, path, message) => {
    const result = rewardSchema.safeParse(input);
    expect(result.success).toBe(false);
    const issue = result.error?.issues[0];
    expect(issue?.path.join('.')).toBe(path);
    if (message) expect(issue?.message).toBe(message);
  });

  it.each<[string, unknown[], string | undefined]>([
    ['one currency per event', [{ ...lead }, { ...lead, currency: 'usd' }, { ...click, currency: 'EUR' }, percentage], undefined],
    ['two lead currencies', [lead, click, { ...lead, currency: 'EUR' }], '2.currency'],
    ['two click currencies', [click, lead, { ...click, currency: 'EUR' }], '2.currency'],
    ['101 rewards', Array.from({ length: 101 }, () => lead), ''],
  ])('a group of rewards: %s', (_, input, path) => {
    const result = rewardsSchema.safeParse(input);
    expect(result.error?.issues[0]?.path.join('.')).toBe(path);
  });

  it('describe a body in /openapi.json without references', () => {
    const text = JSON.stringify(z.toJSONSchema(rewardSchema, { io: 'input', unrepresentable: 'any' }));
    // openapi.ts inlines each body: a $ref into $defs would point nowhere.
    expect(text).not.toContain('$ref');
    expect(text).toContain('"description":"Days back from the event the total counts; absent or null: all time"');
  });
});
