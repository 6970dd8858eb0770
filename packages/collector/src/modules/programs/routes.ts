// The program the caller's token (or session) belongs to: its settings, read and changed
// as one record. Allowed origins are given as the whole list; the domain adds and removes
// by name, so a concurrent change to another origin is not undone.

import { SIGNAL_NAMES, signalsOn } from '../review/signals.js';
import { z } from 'zod';
import { updateProgram } from '../../flows/program.js';
import { getProgram, type ProgramWithOrigins } from './service.js';
import { found } from '../../platform/errors.js';
import { route } from '../../api/route.js';
import { one, resource, unixTime } from '../../platform/http/schemas.js';
import { rulesFor } from '../../core/payout-terms.js';
import { renderRules } from './present.js';
import { STRIPE_API_KEY } from '../codes/stripe-api.js';
import { rateBps, rules, rulesOut, slug } from '../../api/fields.js';
import { LOCALES, localeOf } from '../../core/locale.js';
import { billingIn, billingOut } from '../../api/fields.js';
import { billingOf, renderBilling } from '../../core/billing.js';

/** The snippet holds data-cookie-days to 1–365 (docs/tracker.md). */
export const COOKIE_DAYS_MAX = 365;

const programSchema = resource('program', {
  name: z.string(),
  site_url: z.string(),
  allowed_origins: z.array(z.string()),
  commission_rate_bps: z.number().int(),
  cookie_days: z.number().int(),
  ...rulesOut,
  stripe_endpoint_id: z.string().nullable(),
  slug: z.string().nullable().meta({ description: "The public page's address: /p/<slug>/" }),
  description: z.string(),
  page_enabled: z.boolean().meta({ description: 'Whether the public page is up and takes applications' }),
  auto_accept: z.boolean().meta({ description: 'Whether applications are accepted at once' }),
  code_wins: z
    .boolean()
    .meta({ description: "Whether a promotion code used by another partner's referral takes the payment (false: the referral stands)" }),
  partner_codes: z.boolean().meta({ description: 'Whether partners may make their own codes in the portal' }),
  code_prefix: z.string().meta({ description: "What partners' own codes begin with ('' for anything)" }),
  code_max_length: z.number().int().meta({ description: "The longest a partner's own code may be" }),
  auto_codes: z.boolean().meta({ description: 'Whether a partnership gets a code (its key, with the prefix) when it is accepted' }),
  stripe_api_key_hint: z.string().nullable().meta({ description: 'The end of the Stripe API key Tally makes codes with; null: none' }),
  review_signals: z
    .record(z.enum(SIGNAL_NAMES), z.boolean())
    .meta({ description: 'Which review signals hold what looks wrong (docs/review.md): each on or off' }),
  lemonsqueezy_api_key_hint: z
    .string()
    .nullable()
    .meta({ description: "The end of the Lemon Squeezy API key Tally reads orders' discount codes with; null: none" }),
  locale: z.enum(LOCALES).meta({
    description: "The partners' default language: the portal's and public page's when neither the partner nor their browser picks one",
  }),
  ...billingOut,
  created_at: unixTime,
  updated_at: unixTime,
});

function renderProgram({ program, origins }: ProgramWithOrigins) {
  return {
    id: program.id,
    type: 'program' as const,
    attributes: {
      name: program.name,
      site_url: program.site_url,
      allowed_origins: origins,
      commission_rate_bps: program.commission_rate_bps,
      cookie_days: program.cookie_days,
      ...renderRules(rulesFor(program)),
      stripe_endpoint_id: program.stripe_endpoint_id,
      slug: program.slug,
      description: program.description,
      page_enabled: program.page_enabled === 1,
      auto_accept: program.auto_accept === 1,
      code_wins: program.code_wins === 1,
      partner_codes: program.partner_codes === 1,
      code_prefix: program.code_prefix,
      code_max_length: program.code_max_length,
      auto_codes: program.auto_codes === 1,
      stripe_api_key_hint: program.stripe_api_key ? `${program.stripe_api_key.slice(0, 8)}…${program.stripe_api_key.slice(-4)}` : null,
      lemonsqueezy_api_key_hint: program.lemonsqueezy_api_key ? `…${program.lemonsqueezy_api_key.slice(-4)}` : null,
      review_signals: Object.fromEntries(SIGNAL_NAMES.map((s) => [s, signalsOn(program.review_signals).has(s)])),
      locale: localeOf(program.locale) ?? 'en',
      ...renderBilling(program),
      created_at: program.created_at,
      updated_at: program.updated_at,
    },
  };
}

const changes = z.strictObject({
  name: z.string().max(200).optional(),
  site_url: z.string().max(2000).optional(),
  allowed_origins: z.array(z.string().max(2000)).max(50).optional(),
  commission_rate_bps: rateBps.optional(),
  cookie_days: z.number().int().min(1).max(COOKIE_DAYS_MAX).optional(),
  recurring_months: rules.recurring_months.optional(),
  hold_days: rules.hold_days.optional(),
  minimum_payout: rules.minimum_payout.optional(),
  slug: slug.nullable().optional(),
  description: z.string().max(5000).optional(),
  page_enabled: z.boolean().optional(),
  auto_accept: z.boolean().optional(),
  code_wins: z.boolean().optional(),
  partner_codes: z.boolean().optional(),
  code_prefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,16}$/)
    .optional()
    .meta({ description: 'Up to 16 ASCII letters, digits, - or _' }),
  code_max_length: z.number().int().min(3).max(32).optional(),
  auto_codes: z.boolean().optional(),
  stripe_api_key: z
    .string()
    .regex(STRIPE_API_KEY, 'must be a Stripe API key: rk_test_…, rk_live_… (restricted, with write access to coupons and promotion codes)')
    .nullable()
    .optional()
    .meta({
      description: "A restricted Stripe API key: Tally makes discounts' coupons and codes' promotion codes in Stripe; null removes it",
    }),
  review_signals: z
    .partialRecord(z.enum(SIGNAL_NAMES), z.boolean())
    .optional()
    .meta({ description: 'Turns review signals on or off; the others keep their setting' }),
  lemonsqueezy_api_key: z
    .string()
    .regex(/^[A-Za-z0-9._-]{20,4000}$/, 'must be a Lemon Squeezy API key, as Settings → API shows it once (a long token)')
    .nullable()
    .optional()
    .meta({
      description: "A Lemon Squeezy API key: Tally reads an order's discount code with it (webhooks do not carry it); null removes it",
    }),
  locale: z.enum(LOCALES).optional().meta({ description: 'en, de, fr or es' }),
  ...billingIn,
});

export const programRoutes = [
  route({
    method: 'get',
    path: '/v1/program',
    summary: "The caller's program: its name, site, allowed origins, default rate, cookie lifetime and commission rules",
    access: 'secret',
    status: 200,
    response: one(programSchema),
    async handle({ db, program }) {
      return { status: 200, body: { data: renderProgram(found(await getProgram(db, program.id), 'program', program.id)) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/program',
    summary: "Change the program's settings; allowed_origins replaces the whole list",
    access: 'secret',
    body: changes,
    status: 200,
    response: one(programSchema),
    async handle({ db, program, body, now }) {
      const updated = await updateProgram(
        db,
        program.id,
        {
          name: body.name,
          siteUrl: body.site_url,
          commissionRateBps: body.commission_rate_bps,
          cookieDays: body.cookie_days,
          recurringMonths: body.recurring_months,
          holdDays: body.hold_days,
          minimumPayout: body.minimum_payout,
          slug: body.slug,
          description: body.description,
          pageEnabled: body.page_enabled,
          autoAccept: body.auto_accept,
          codeWins: body.code_wins,
          partnerCodes: body.partner_codes,
          codePrefix: body.code_prefix,
          codeMaxLength: body.code_max_length,
          autoCodes: body.auto_codes,
          stripeApiKey: body.stripe_api_key,
          lemonSqueezyApiKey: body.lemonsqueezy_api_key,
          reviewSignals: body.review_signals,
          locale: body.locale,
          billing: billingOf(body),
          origins: body.allowed_origins,
        },
        now,
      );
      return { status: 200, body: { data: renderProgram(updated) } };
    },
  }),
];
