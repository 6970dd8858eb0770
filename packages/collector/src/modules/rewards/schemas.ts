// A reward and its conditions as the API receives them (snake_case JSON): the zod schemas
// that validate a body and describe it in /openapi.json. Each field takes only the operators
// that mean something for it, and a lead's or a click's conditions only the fields it has.
//
// Groups nest through three explicit levels rather than a recursive schema: a recursive one
// becomes a $ref into $defs, which openapi.ts's inlined body schemas could not resolve, and
// parsing stops at the third level whatever the body holds.

import { z } from 'zod';
import { currency as currencyCode } from '../../api/fields.js';
import { MAX_RECURRING_MONTHS } from '../../core/payout-terms.js';
import { type Comparison, MAX_REWARDS, type RewardInput } from './model.js';

/** Groups nest at most this deep (the reward's own group is level 1). */
export const MAX_GROUP_DEPTH = 3;
/** Items (conditions or groups) in one group. */
export const MAX_GROUP_ITEMS = 20;
const MAX_TEXT = 200;
const MAX_LIST = 100;
const MAX_WINDOW_DAYS = 3650;
const MAX_MINOR = 1e12;

const text = z.string().min(1).max(MAX_TEXT);
const minor = z.number().int().min(0).max(MAX_MINOR);

const country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, { message: 'must be an ISO 3166 alpha-2 country code, such as DE' })
  .overwrite((raw) => raw.toUpperCase());

const windowDays = z
  .number()
  .int()
  .min(1)
  .max(MAX_WINDOW_DAYS)
  .nullish()
  .meta({ description: 'Days back from the event the total counts; absent or null: all time' });

/** zod says "Invalid discriminator value. Expected 'a' | 'b'"; the API's other enums say "must be one of: a, b". */
const oneOf = (issue: z.core.$ZodRawIssue): string | undefined =>
  issue.code === 'invalid_union' && Array.isArray(issue.options) ? `must be one of: ${issue.options.join(', ')}` : undefined;
const named = { error: oneOf };

const SINGLE = ['eq', 'neq'] as const;
const ORDERED = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] as const;
const LIST = ['in', 'not_in'] as const;

/**
 * A field's condition: one value for eq, neq and the order operators, a list of 1 to 100 for
 * in and not_in. Two objects told apart by `op`, so a list where one value is due is named as such.
 */
function compared<
  const F extends string,
  const O extends readonly [Comparison, ...Comparison[]],
  V extends z.ZodType,
  X extends z.ZodRawShape,
>(field: F, ops: O, value: V, extra: X, description: string) {
  const head = { field: z.literal(field).meta({ description }) };
  return z.discriminatedUnion(
    'op',
    [
      z.strictObject({ ...head, op: z.enum(ops), value, ...extra }),
      z.strictObject({
        ...head,
        op: z.enum(LIST).meta({ description: 'in: any of the values; not_in: none of them' }),
        value: z.array(value).min(1).max(MAX_LIST),
        ...extra,
      }),
    ],
    named,
  );
}

const id = text.meta({ description: 'An id as the payment provider gives it' });
const revenueCurrency = currencyCode.meta({ description: 'The currency the amounts are in; a payment in another one fails the condition' });

const productId = compared('product_id', SINGLE, id, {}, "Any of the payment's products; neq and not_in: none of them");
const priceId = compared('price_id', SINGLE, id, {}, "Any of the payment's prices; neq and not_in: none of them");
const amount = compared(
  'amount',
  ORDERED,
  minor.meta({ description: 'Minor units of currency' }),
  { currency: revenueCurrency },
  "The payment's amount",
);
const paymentCurrency = compared('currency', SINGLE, currencyCode, {}, "The payment's currency");
const payment = z.strictObject({
  field: z.literal('payment').meta({ description: "Whether this is the customer's first payment or a later one" }),
  op: z.enum(SINGLE),
  value: z.enum(['first', 'renewal']),
});
const monthsSinceFirst = compared(
  'months_since_first_payment',
  ORDERED,
  z.number().int().min(0).max(MAX_RECURRING_MONTHS),
  {},
  "Whole calendar months since the customer's first payment: 0 for the first payment",
);
const customerCountry = compared(
  'customer_country',
  SINGLE,
  country,
  {},
  "The customer's country (ISO 3166 alpha-2, any case); an unknown country fails eq and in, passes neq and not_in",
);
const metadata = compared(
  'metadata',
  SINGLE,
  text.meta({ description: 'Compared as a string' }),
  { key: text.meta({ description: 'The metadata key' }) },
  'A metadata value; a missing key fails eq and in, passes neq and not_in',
);
const partnerCustomers = compared(
  'partner_customers',
  ORDERED,
  z.number().int().min(0).max(MAX_MINOR),
  { window_days: windowDays },
  "The partner's paying customers",
);
const partnerRevenue = compared(
  'partner_revenue',
  ORDERED,
  minor.meta({ description: 'Minor units of currency' }),
  { currency: currencyCode.meta({ description: "The currency of the partner's revenue counted" }), window_days: windowDays },
  "The partner's revenue",
);

const TOO_DEEP = `must be given: groups nest at most ${MAX_GROUP_DEPTH} deep, so this item must be a condition`;
const looksLikeGroup = (input: unknown): boolean => typeof input === 'object' && input !== null && 'items' in input;

const group = <I extends z.ZodType>(item: I) =>
  z.strictObject({
    op: z.enum(['and', 'or']).meta({ description: 'and: every item holds; or: at least one does' }),
    items: z
      .array(item)
      .min(1)
      .max(MAX_GROUP_ITEMS)
      .meta({ description: `Conditions, or groups of them (at most ${MAX_GROUP_DEPTH} levels of groups)` }),
  });

/** A top-level group over these conditions, with groups inside it down to MAX_GROUP_DEPTH. */
function groupsOver<const T extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]]>(options: T) {
  const condition = z.discriminatedUnion('field', options, named);
  // At the last level a group has no `field`: say why, rather than list the fields.
  const last = z.discriminatedUnion('field', options, { error: (issue) => (looksLikeGroup(issue.input) ? TOO_DEEP : oneOf(issue)) });
  const level3 = group(last);
  const level2 = group(z.discriminatedUnion('op', [level3, condition], named));
  return group(z.discriminatedUnion('op', [level2, condition], named));
}

/** A sale reward's conditions: every field. */
export const saleConditionsSchema = groupsOver([
  productId,
  priceId,
  amount,
  paymentCurrency,
  payment,
  monthsSinceFirst,
  customerCountry,
  metadata,
  partnerCustomers,
  partnerRevenue,
]).meta({ description: 'When the reward applies; absent or null: always' });

/** A lead's or a click's conditions: there is no payment, so only the customer's country, metadata and the partner's totals. */
export const visitConditionsSchema = groupsOver([customerCountry, metadata, partnerCustomers, partnerRevenue]).meta({
  description: 'When the reward applies (no payment fields: there is none); absent or null: always',
});

const ONCE = { kind: 'once' } as const;
const once = z.strictObject({ kind: z.literal('once') });

export const durationSchema = z
  .discriminatedUnion(
    'kind',
    [
      once,
      z.strictObject({ kind: z.literal('months'), months: z.number().int().min(1).max(MAX_RECURRING_MONTHS) }),
      z.strictObject({ kind: z.literal('lifetime') }),
    ],
    named,
  )
  .meta({ description: "Which of a customer's payments earn: the first (once), those in its first N months, or all (lifetime)" });

const position = z
  .number()
  .int()
  .min(0)
  .max(1_000_000)
  .default(0)
  .meta({ description: 'Between rewards that pay the same, the lower position wins' });
const flatAmount = z.number().int().min(1).max(MAX_MINOR).meta({ description: 'Minor units of currency' });
const flatCurrency = currencyCode.meta({ description: 'ISO 4217 currency code, any case (stored upper case)' });

/** Things one object's shape cannot say; an issue names the field at fault. */
type Rule<T> = (r: T) => [field: string, message: string] | undefined;
const ruled =
  <T>(rules: Rule<T>[]) =>
  (ctx: z.core.ParsePayload<T>) => {
    for (const rule of rules) {
      const broken = rule(ctx.value);
      if (broken) ctx.issues.push({ code: 'custom', input: ctx.value, path: [broken[0]], message: broken[1] });
    }
  };

// One object per kind of event rather than per kind of amount: each copy of a conditions
// schema is three levels inlined into /openapi.json, so the percentage/flat rules are checks.
const sale = z
  .strictObject({
    event: z.literal('sale'),
    kind: z.enum(['percentage', 'flat']),
    amount: z
      .number()
      .int()
      .min(1)
      .max(MAX_MINOR)
      .meta({ description: "percentage: basis points of the payment's amount, 1 to 10000 (2000 is 20 %); flat: minor units of currency" }),
    currency: currencyCode.nullish().meta({
      description: "flat only (required): a payment in another currency does not earn it; a percentage is paid in the payment's currency",
    }),
    duration: durationSchema,
    conditions: saleConditionsSchema.nullish(),
    daily_cap: z.null().optional(),
    position,
  })
  .check(
    ruled([
      (r) =>
        r.kind === 'percentage' && r.amount > 10_000 ? ['amount', 'must be at most 10000 (basis points) for a percentage'] : undefined,
      (r) => (r.kind === 'percentage' && r.currency != null ? ['currency', 'must be absent or null for a percentage'] : undefined),
      (r) => (r.kind === 'flat' && r.currency == null ? ['currency', 'is required for a flat amount'] : undefined),
    ]),
  );

const visit = z
  .strictObject({
    event: z.enum(['lead', 'click']),
    kind: z.literal('flat').meta({ description: 'A sign-up or a click has no amount to take a percentage of' }),
    amount: flatAmount.meta({ description: 'Minor units of currency, per sign-up or per unique visitor' }),
    currency: flatCurrency,
    duration: once.optional().meta({ description: 'Always once' }),
    conditions: visitConditionsSchema.nullish(),
    daily_cap: flatAmount
      .nullish()
      .meta({ description: 'click only: the most a partner earns from clicks in one day, minor units; absent or null: no cap' }),
    position,
  })
  .check(
    ruled([
      (r) => (r.event !== 'click' && r.daily_cap != null ? ['daily_cap', 'is for click rewards only'] : undefined),
      (r) => (r.daily_cap != null && r.daily_cap < r.amount ? ['daily_cap', 'must be at least amount'] : undefined),
    ]),
  );

export type { RewardInput } from './model.js';
export { MAX_REWARDS };

/** One reward as the API receives it, made into the model's shape (nulls for what is absent). */
export const rewardSchema = z.discriminatedUnion('event', [sale, visit], named).transform(
  (r): RewardInput => ({
    event: r.event,
    kind: r.kind,
    amount: r.amount,
    currency: r.currency ?? null,
    duration: r.duration ?? ONCE,
    conditions: r.conditions ?? null,
    daily_cap: r.daily_cap ?? null,
    position: r.position,
  }),
);

/**
 * A partner group's rewards. A lead or click reward has no payment to take its currency from,
 * so the amounts of two in different currencies could not be compared: each event's share one.
 */
export const rewardsSchema = z
  .array(rewardSchema)
  .max(MAX_REWARDS)
  .check((ctx) => {
    for (const event of ['lead', 'click'] as const) {
      const i = ctx.value.findIndex((r) => r.event === event && r.currency !== ctx.value.find((s) => s.event === event)?.currency);
      if (i >= 0) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          path: [i, 'currency'],
          message: `must be that of the group's other ${event} rewards`,
        });
      }
    }
  });

/** A reward's terms as partners' pages receive them, to say them in their own language. */
export const rewardTermsOut = z
  .object({
    event: z.enum(['lead', 'sale', 'click']),
    kind: z.enum(['percentage', 'flat']),
    amount: z.number().int(),
    currency: z.string().nullable(),
    duration: z.object({ kind: z.enum(['once', 'months', 'lifetime']), months: z.number().int().optional() }),
    conditions: z.unknown().nullable().meta({ description: 'The conditions as written (AND/OR groups); null: always' }),
    daily_cap: z.number().int().nullable(),
  })
  .meta({ description: 'What a reward pays and when: the fields of a reward (GET /v1/groups/:id/rewards), to be put in words' });
