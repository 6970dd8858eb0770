// Field schemas shared by the routes' bodies. They validate requests and describe them
// in /openapi.json.

import { z } from 'zod';
import { EMAIL_MAX, emailProblem, normalizeEmail } from '../core/email.js';
import { MAX_HOLD_DAYS, MAX_RECURRING_MONTHS } from '../core/payout-terms.js';
import { CURRENCY_RULE, knownCurrency } from '../core/money.js';
import { transformed } from '../platform/http/list-query.js';
import { SLUG_PATTERN } from '../core/slugs.js';
import { states, type Machine, type StateOf } from '../core/state-machines.js';

/** Every e-mail field of the API: one rule (core/email.ts), and the reason it gives. */
export const email = z
  .string()
  .check((ctx) => {
    const problem = emailProblem(ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem, params: { code: 'invalid_email' } });
  })
  .meta({ format: 'email', maxLength: EMAIL_MAX });

/** A string of bounded length; `null` and absence mean the same. */
export function optionalText(max: number) {
  return z.string().max(max).nullish();
}

export const slug = z
  .string()
  .trim()
  .toLowerCase()
  .regex(SLUG_PATTERN, { message: 'must be 2 to 64 of a-z, 0-9, _ and -, starting with a letter or digit' });

export const competitorSlugs = z.array(slug).max(50);

export const rateBps = z.number().int().min(0).max(10000);

export const partnerName = z.string().trim().min(1).max(200);

export function state<M extends Machine>(machine: M) {
  return z.enum(states(machine) as [StateOf<M>, ...StateOf<M>[]]);
}

/** List filter on an address: compared in its normalized form, as it is stored. */
export const emailFilter = transformed('e-mail address, compared normalized', normalizeEmail);

/** Minor units (cents): a whole number from 0 to 10^12. */
export const amount = z.number().int().min(0).max(1e12);

/** Checked by the domain's own rule, so a body is refused here exactly when the domain would refuse it. */
const currencyAsGiven = z
  .string()
  .min(3)
  .max(3)
  .refine((raw) => knownCurrency(raw) !== undefined, { message: CURRENCY_RULE });

/**
 * Any case in, upper case out, once for every route: one that compares or stores it as
 * given (a move rule, the preview, the payout export) sees what the totals hold, "jpy" as JPY.
 */
export const currency = currencyAsGiven
  .overwrite((raw) => knownCurrency(raw) ?? raw)
  .meta({ description: 'ISO 4217 currency code, any case (stored upper case)', examples: ['USD'] });

/** The commission rules (modules/commissions/rules.ts), as the program and a partnership take them. */
export const rules = {
  recurring_months: z
    .number()
    .int()
    .min(0)
    .max(MAX_RECURRING_MONTHS)
    .meta({ description: "Months from a referral's first payment in which its payments earn; 0 for no limit" }),
  hold_days: z.number().int().min(0).max(MAX_HOLD_DAYS).meta({ description: 'Days after its payment before a commission can be paid out' }),
  minimum_payout: z
    // As given: the domain refuses "usd" beside "USD", which upper-casing keys here would merge.
    .record(currencyAsGiven, amount)
    .refine((o) => Object.keys(o).length <= 50, { message: 'at most 50 currencies' })
    .meta({ description: 'Currency code → the least a payout may be, in minor units', examples: [{ USD: 5000 }] }),
};

/** The rules as rendered: the program's always set, a partnership's null for "the program's". */
export const rulesOut = {
  recurring_months: z.number().int(),
  hold_days: z.number().int(),
  minimum_payout: z.record(z.string(), z.number().int()),
};

/** A country as ISO 3166 alpha-2, any case, stored upper case: what rewards' conditions compare. */
export const countryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/)
  .transform((c) => c.toUpperCase());

/** A customer's key-value pairs, for rewards with conditions on them (a payment's, a sign-up's); not stored. */
export const metadata = z.record(z.string().max(40), z.string().max(500)).refine((m) => Object.keys(m).length <= 50, 'at most 50 keys');

/** A promotion code as a customer typed it (docs/codes.md): looked up whatever its case. */
export const discountCode = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .meta({ description: 'A promotion code the customer used: it credits its partner where no link or referral does' });

/**
 * The billing details of a program (its owner) or a partner, printed on invoices
 * (docs/payouts.md#invoices); each optional, null clears it. Without a billing name the
 * record's own name is printed.
 */
export const billingIn = {
  billing_name: z.string().trim().min(1).max(200).nullable().optional().meta({ description: 'The legal name invoices print' }),
  billing_address: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .nullable()
    .optional()
    .meta({ description: 'The postal address, lines split by newlines' }),
  billing_vat_id: z.string().trim().min(1).max(50).nullable().optional().meta({ description: 'The VAT (or other tax) ID' }),
};

export const billingOut = {
  billing_name: z.string().optional(),
  billing_address: z.string().optional(),
  billing_vat_id: z.string().optional(),
};
