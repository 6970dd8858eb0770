// Payout methods' routes (docs/payouts.md, "How partners are paid"): the partner's, under
// one of their partnerships in the portal (any other id is a 404), the confirmation link's,
// and the owner's: a partner's method and readiness, and the program's payout settings.

import { z } from 'zod';
import { countryCode, currency, email } from '../../api/fields.js';
import { type RouteInput, route } from '../../api/route.js';
import { one, resource, unixTime } from '../../platform/http/schemas.js';
import type { Db } from '../../platform/db/db.js';
import { fail } from '../../platform/errors.js';
import type { AccountRow } from '../portal/repo.js';
import { reachedPartnership } from '../../flows/portal.js';
import { embeddedPartner } from '../../flows/embed.js';
import type { EmbedSessionRow } from '../embed/repo.js';
import { confirmPayoutEmail, setPayoutMethod } from '../../flows/payout-method.js';
import { PAYOUT_CONFIRM_PATH } from '../../flows/mail-messages.js';
import { findProgram } from '../programs/service.js';
import { METHODS, SCHEDULE_EVERY } from './model.js';
import { canonicalZone } from '../stats/service.js';
import { methodView, onboardingLink, refreshStripe, settingsOf, updateSettings, wiseRequirements } from './service.js';
import { renderPayoutMethod, renderSettings } from './present.js';

const REASONS = ['no_method', 'not_offered', 'country_not_allowed', 'unconfirmed', 'onboarding', 'requirements_due'] as const;

const methodSchema = resource('payout_method', {
  method: z
    .enum(METHODS)
    .optional()
    .meta({ description: 'Absent: the partner has chosen none, and has no PayPal address on their record' }),
  ready: z.boolean().meta({ description: 'A payout run may pay the partner through it now' }),
  reason: z.enum(REASONS).optional().meta({ description: 'Why it is not ready; absent when it is' }),
  country: z.string().optional(),
  paypal_email: z.string().optional(),
  paypal_confirmed: z.boolean().optional(),
  stripe_account_id: z.string().optional(),
  payouts_enabled: z.boolean().optional(),
  currently_due: z
    .array(z.string())
    .optional()
    .meta({ description: 'What Stripe still asks of the connected account (its requirements.currently_due)' }),
  wise_currency: z.string().optional(),
  wise_account: z.string().optional().meta({ description: 'The bank account, masked: iban •••• 3000' }),
  offered: z
    .array(z.enum(METHODS))
    .meta({ description: "The methods the program offers the partner (in the method's country, once known)" }),
  updated_at: unixTime.optional(),
});

const settingsSchema = resource('payout_settings', {
  offered: z.array(z.enum(METHODS)),
  countries: z.record(z.string(), z.array(z.string())),
  wise_api_token_hint: z.string().nullable(),
  wise_profile_id: z.string().nullable(),
  wise_source_currency: z.string(),
  schedule: z
    .object({
      every: z.enum(SCHEDULE_EVERY),
      day: z.number().int().meta({ description: 'weekly: the ISO weekday, 1 Monday … 7 Sunday; monthly: the day of the month, 1 … 28' }),
      time_zone: z.string().meta({ description: 'The IANA time zone whose midnight begins a period' }),
    })
    .meta({ description: 'When Tally makes a draft payout run by itself, for an owner to approve (off by default)' }),
});

/** A time zone the platform knows (an IANA name such as Europe/Paris), kept as the caller spelled it. */
const timeZone = z
  .string()
  .min(1)
  .max(64)
  .refine(
    (tz) => {
      try {
        canonicalZone(tz);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'not a time zone; use an IANA name such as Europe/Paris' },
  );

const requirementSchema = z.object({
  type: z.string(),
  title: z.string(),
  fields: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      type: z.string(),
      required: z.boolean(),
      example: z.string().nullable(),
      validation_regexp: z.string().nullable(),
      min_length: z.number().nullable(),
      max_length: z.number().nullable(),
      values: z.array(z.object({ key: z.string(), name: z.string() })).nullable(),
      refresh_on_change: z.boolean(),
    }),
  ),
});

const methodBody = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('paypal'), paypal_email: email, country: countryCode.optional() }),
  z.strictObject({ method: z.literal('stripe_connect'), country: countryCode }),
  z.strictObject({
    method: z.literal('wise'),
    country: countryCode,
    currency,
    type: z.string().min(1).max(40).meta({ description: "The requirement's type Wise listed: iban, sort_code, aba…" }),
    account_holder_name: z.string().trim().min(1).max(200),
    details: z
      .record(z.string().max(60), z.unknown())
      .meta({ description: "The requirement's fields by key, as Wise's POST /v1/accounts takes them" }),
  }),
]);

const methodAnswer = async (db: Db, programId: string, partnerId: string) => ({
  data: renderPayoutMethod(partnerId, await methodView(db, programId, partnerId)),
});

/** Where a partner's payout-method routes are: the portal's, under one of their partnerships, or the embed's, its session's. */
interface Place {
  access: 'partner' | 'embed';
  under: (path: string) => string;
  /** The program and partner record, and the address that needs no confirmation; else 404. */
  reach: (input: RouteInput<unknown, unknown>) => Promise<{ programId: string; partnerId: string; signInEmail: string }>;
  /** Where Stripe sends the partner back: `return` and `refresh` are appended. */
  back: (input: RouteInput<unknown, unknown>) => string;
}

/** The program and partner record of one of the signed-in partner's partnerships, or 404. */
const portalPlace: Place = {
  access: 'partner',
  under: (path) => `/v1/portal/partnerships/:id/payout_method${path}`,
  async reach(input) {
    const account = input.account as AccountRow;
    const p = await reachedPartnership(input.db, account.id, input.params.id ?? '');
    return { programId: p.program_id, partnerId: p.partner_id, signInEmail: account.email };
  },
  // Back to the Earnings page of this partnership, which refreshes the method (return) or asks a fresh link (refresh).
  back: (input) => `${input.publicUrl}/portal/earnings?p=${encodeURIComponent(input.params.id ?? '')}&stripe=`,
};

/**
 * The embed's session's partner; the address the company gave is theirs. Stripe's pages open
 * in a window of their own (no frame may show them) and come back to the embed's page there,
 * which says to return to the app (decision 0376).
 */
const embedPlace: Place = {
  access: 'embed',
  under: (path) => `/v1/embed/payout_method${path}`,
  async reach(input) {
    const partner = await embeddedPartner(input.db, input.embed as EmbedSessionRow);
    return { programId: partner.program_id, partnerId: partner.id, signInEmail: partner.email };
  },
  back: (input) => `${input.publicUrl}/embed/?stripe=`,
};

async function programOf(db: Db, id: string) {
  const program = await findProgram(db, id);
  if (!program) throw fail('not_found', `no program ${id}`);
  return program;
}

/** The partner's own routes, the same at each place. */
const partnerRoutes = (at: Place) => [
  route({
    method: 'get',
    path: at.under(''),
    summary: "How the partner is paid in this partnership's program: the method, whether it is ready, and the methods offered",
    access: at.access,
    status: 200,
    response: one(methodSchema),
    async handle(input) {
      const { programId, partnerId } = await at.reach(input);
      return { status: 200, body: await methodAnswer(input.db, programId, partnerId) };
    },
  }),
  route({
    method: 'post',
    path: at.under(''),
    summary:
      'Choose how to be paid: PayPal (an address other than the sign-in one is confirmed by an e-mailed link), Stripe Connect (then onboarding) or Wise (bank details as its requirements ask)',
    access: at.access,
    body: methodBody,
    status: 200,
    response: one(methodSchema),
    async handle(input) {
      const { programId, partnerId, signInEmail } = await at.reach(input);
      const body = input.body;
      const given =
        body.method === 'wise'
          ? {
              method: 'wise' as const,
              country: body.country,
              currency: body.currency,
              type: body.type,
              accountHolderName: body.account_holder_name,
              details: body.details,
            }
          : body;
      await setPayoutMethod(input.db, programId, partnerId, signInEmail, given, input, input.now);
      input.outbox?.kick();
      return { status: 200, body: await methodAnswer(input.db, programId, partnerId) };
    },
  }),
  route({
    method: 'post',
    path: at.under('/onboarding'),
    summary: "A Stripe Account Link onboarding the partner's connected account: send the partner to its url",
    access: at.access,
    status: 201,
    response: one(z.object({ type: z.literal('onboarding_link'), attributes: z.object({ url: z.string(), expires_at: unixTime }) })),
    async handle(input) {
      const { programId, partnerId } = await at.reach(input);
      const back = at.back(input);
      const link = await onboardingLink(
        input.db,
        await programOf(input.db, programId),
        partnerId,
        { returnUrl: `${back}return`, refreshUrl: `${back}refresh` },
        input.stripeApiUrl,
      );
      return { status: 201, body: { data: { type: 'onboarding_link', attributes: link } } };
    },
  }),
  route({
    method: 'post',
    path: at.under('/refresh'),
    summary: "Reads the partner's connected account from Stripe now (back from onboarding), as Stripe's account.updated would tell it",
    access: at.access,
    status: 200,
    response: one(methodSchema),
    async handle(input) {
      const { programId, partnerId } = await at.reach(input);
      await refreshStripe(input.db, await programOf(input.db, programId), partnerId, input.stripeApiUrl, input.now);
      return { status: 200, body: await methodAnswer(input.db, programId, partnerId) };
    },
  }),
  route({
    method: 'get',
    path: at.under('/wise_requirements'),
    summary: 'The bank details Wise asks of a recipient in a currency: each account type with its fields',
    access: at.access,
    query: z.strictObject({ currency }),
    status: 200,
    response: z.object({ data: z.array(requirementSchema) }),
    async handle(input) {
      const { programId } = await at.reach(input);
      return { status: 200, body: { data: await wiseRequirements(input.db, programId, input.query.currency, input.wiseApiUrl) } };
    },
  }),
];

/** The embed's: the same routes, for the session's partner (docs/embed.md). */
export const embedPayoutMethodRoutes = partnerRoutes(embedPlace);

export const payoutMethodRoutes = [
  ...partnerRoutes(portalPlace),
  route({
    method: 'post',
    path: '/v1/portal/payout_method/confirm',
    summary: `Confirm a PayPal address with the token of the link e-mailed to it (the portal's ${PAYOUT_CONFIRM_PATH}#token)`,
    access: 'public',
    tradesToken: true,
    body: z.strictObject({ token: z.string().min(1).max(200) }),
    status: 204,
    async handle({ db, body, now }) {
      await confirmPayoutEmail(db, body.token, now);
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/v1/partners/:id/payout_method',
    summary: 'How the partner is paid, and whether a payout run may pay them now (and if not, why)',
    access: 'secret',
    status: 200,
    response: one(methodSchema),
    async handle({ db, program, params }) {
      return { status: 200, body: await methodAnswer(db, program.id, params.id ?? '') };
    },
  }),
  route({
    method: 'get',
    path: '/v1/program/payout_settings',
    summary: 'Which payout methods the program offers, to which countries, and its Wise account',
    access: 'secret',
    status: 200,
    response: one(settingsSchema),
    async handle({ db, program }) {
      return { status: 200, body: { data: renderSettings(program.id, await settingsOf(db, program.id)) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/program/payout_settings',
    summary:
      "Change the payout methods offered, the countries each is open to (absent: every country), the program's Wise token and profile, or its payout schedule",
    access: 'secret',
    role: 'owner',
    body: z.strictObject({
      offered: z.array(z.enum(METHODS)).min(1).optional(),
      countries: z.partialRecord(z.enum(METHODS), z.array(countryCode).max(300)).optional(),
      wise_api_token: z.string().trim().min(8).max(200).nullable().optional(),
      wise_profile_id: z
        .union([z.string().regex(/^\d{1,20}$/), z.number().int().positive()])
        .transform(String)
        .nullable()
        .optional(),
      wise_source_currency: currency.optional(),
      schedule: z
        .strictObject({ every: z.enum(SCHEDULE_EVERY), day: z.number().int().default(1), time_zone: timeZone.default('UTC') })
        .optional(),
    }),
    status: 200,
    response: one(settingsSchema),
    async handle({ db, program, body, now }) {
      const s = await updateSettings(
        db,
        program.id,
        {
          ...(body.offered ? { offered: body.offered } : {}),
          ...(body.countries ? { countries: body.countries } : {}),
          ...(body.wise_api_token !== undefined ? { wiseApiToken: body.wise_api_token } : {}),
          ...(body.wise_profile_id !== undefined ? { wiseProfileId: body.wise_profile_id } : {}),
          ...(body.wise_source_currency ? { wiseSourceCurrency: body.wise_source_currency } : {}),
          ...(body.schedule
            ? { schedule: { every: body.schedule.every, day: body.schedule.day, timeZone: body.schedule.time_zone, setAt: null } }
            : {}),
        },
        now,
      );
      return { status: 200, body: { data: renderSettings(program.id, s) } };
    },
  }),
];
