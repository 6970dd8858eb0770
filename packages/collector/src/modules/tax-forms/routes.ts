// Tax forms (docs/payouts.md#tax-forms): a partner gives and reads their own form in the
// portal, under one of their partnerships (any other id is a 404); the owner reads every
// partner's status, the TIN masked, sets whether payouts need a valid form, and downloads
// the year's 1099-NEC file (the one place a TIN is shown whole: owners only).

import { z } from 'zod';
import { type RouteInput, route } from '../../api/route.js';
import type { AccountRow } from '../portal/repo.js';
import type { EmbedSessionRow } from '../embed/repo.js';
import { reachedPartnership } from '../../flows/portal.js';
import { necCsv, ownerTaxForm, ownerTaxForms } from '../../flows/tax-forms.js';
import { listEnvelope } from '../../platform/http/render.js';
import { one, page, resource, unixTime } from '../../platform/http/schemas.js';
import { FORM_KINDS } from './model.js';
import { renderTaxFormStatus } from './present.js';
import { giveTaxForm, setTaxFormRequired, taxFormRequired, taxFormStatus } from './service.js';

const text = (max: number) => z.string().trim().min(1).max(max);
const optional = (max: number) => z.string().trim().max(max).nullish();
const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'must be a country code of two capital letters (ISO 3166-1 alpha-2: DE, FR, US)')
  .meta({ description: 'ISO 3166-1 alpha-2' });
const notUs = countryCode.refine((c) => c !== 'US', 'must not be US: a US person gives a W-9');

const address = z.strictObject({
  line1: text(200),
  line2: optional(200),
  city: text(100),
  region: optional(100).meta({ description: "A US state's code on a W-9; else a province or region" }),
  postal_code: optional(20),
  country: countryCode,
});

/** The typed name that signs the form: its date and the signer's address are the request's. */
const signature = text(200).meta({ description: "The signer's name, typed: the electronic signature" });

const W9_CLASSES = [
  'individual',
  'c_corporation',
  's_corporation',
  'partnership',
  'trust_estate',
  'llc_c',
  'llc_s',
  'llc_p',
  'other',
] as const;

// A TIN's value is never repeated in an error: the messages say what shape it must have.
const w9Tin = z
  .string()
  .regex(/^(\d{3}-?\d{2}-?\d{4}|\d{2}-\d{7})$/, 'must be an SSN (123-45-6789) or an EIN (12-3456789)')
  .transform((t) => t.replace(/-/g, ''))
  .meta({ description: 'SSN or EIN; stored encrypted, shown only as its last 4 digits' });
const foreignTin = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ./-]{3,39}$/, 'must be 4 to 40 letters, digits, spaces, dots, slashes or hyphens')
  .meta({ description: 'The foreign taxpayer id; stored encrypted, shown only as its last 4 characters' });

const formBody = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('w9'),
      name: text(200),
      business_name: optional(200),
      tax_classification: z.enum(W9_CLASSES),
      address,
      tin: w9Tin,
      signature,
    }),
    z.strictObject({
      kind: z.literal('w8ben'),
      name: text(200),
      country: notUs.meta({ description: 'Country of citizenship' }),
      address,
      tin: foreignTin,
      date_of_birth: z.iso.date('must be a date: YYYY-MM-DD').refine((d) => d >= '1900-01-01', 'must be after 1900'),
      signature,
    }),
    z.strictObject({
      kind: z.literal('w8bene'),
      name: text(200).meta({ description: "The organization's name" }),
      country: notUs.meta({ description: 'Country of incorporation or organization' }),
      address,
      tin: foreignTin,
      signature,
    }),
  ],
  { error: `must be one of: ${FORM_KINDS.join(', ')}` },
);

const statusSchema = resource('tax_form_status', {
  status: z
    .enum(['valid', 'expired', 'missing'])
    .meta({ description: 'A W-8 expires at the end of the third calendar year after signing' }),
  form: z
    .object({
      id: z.string(),
      kind: z.enum(FORM_KINDS),
      name: z.string(),
      business_name: z.string().nullable(),
      tax_classification: z.string().nullable(),
      country: z.string().nullable(),
      address: z.object({
        line1: z.string(),
        line2: z.string().nullable(),
        city: z.string(),
        region: z.string().nullable(),
        postal_code: z.string().nullable(),
        country: z.string(),
      }),
      tin: z.string().meta({ description: 'Masked: •••••6789' }),
      date_of_birth: z.string().nullable(),
      signature: z.object({ name: z.string(), ip: z.string(), signed_at: unixTime }),
      expires_at: unixTime.nullable(),
    })
    .nullable()
    .meta({ description: 'The latest form given; null when none' }),
});

const settingsSchema = z.object({ data: z.object({ tax_form_required: z.boolean() }) });

/** The program and partner record the caller's form is for: one of the portal partner's partnerships (else 404), or the embed's session's. */
type Reach = (input: RouteInput<unknown, unknown>) => Promise<{ program_id: string; partner_id: string }>;

const portalReach: Reach = (input) => reachedPartnership(input.db, (input.account as AccountRow).id, input.params.id ?? '');
const embedReach: Reach = async (input) => {
  const s = input.embed as EmbedSessionRow;
  return { program_id: s.program_id, partner_id: s.partner_id };
};

/** The partner's routes, the same in the portal and the embed. */
const partnerRoutes = (path: string, access: 'partner' | 'embed', partnership: Reach) => [
  route({
    method: 'get',
    path,
    summary: "The partner's tax form for the partnership's program: valid, expired or missing, the TIN masked",
    access,
    status: 200,
    response: one(statusSchema),
    async handle(input) {
      const p = await partnership(input);
      return { status: 200, body: { data: renderTaxFormStatus(await taxFormStatus(input.db, p.program_id, p.partner_id, input.now)) } };
    },
  }),
  route({
    method: 'post',
    path,
    summary: 'Give a W-9 (a US person) or a W-8BEN / W-8BEN-E (anyone else), signed with the typed name; it replaces the last',
    access,
    body: formBody,
    status: 201,
    response: one(statusSchema),
    async handle(input) {
      const p = await partnership(input);
      const signer = { ip: input.clientIp, now: input.now };
      const given = await giveTaxForm(input.db, input.taxFormKeys, p.program_id, p.partner_id, input.body, signer);
      return { status: 201, body: { data: renderTaxFormStatus(given) } };
    },
  }),
];

/** The embed's, for its session's partner (docs/embed.md). */
export const embedTaxFormRoutes = partnerRoutes('/v1/embed/tax_form', 'embed', embedReach);

export const taxFormRoutes = [
  ...partnerRoutes('/v1/portal/partnerships/:id/tax_form', 'partner', portalReach),
  route({
    method: 'get',
    path: '/v1/tax_forms',
    summary: "Every partner's tax form status, newest partner first; TINs masked",
    access: 'secret',
    list: {},
    status: 200,
    response: page(statusSchema),
    async handle(input) {
      const found = await ownerTaxForms(input.db, input.program.id, input.list.page, input.now);
      return { status: 200, body: listEnvelope(found, input.list.page, renderTaxFormStatus) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/partners/:id/tax_form',
    summary: "One partner's tax form status; the TIN masked",
    access: 'secret',
    status: 200,
    response: one(statusSchema),
    async handle(input) {
      return {
        status: 200,
        body: { data: renderTaxFormStatus(await ownerTaxForm(input.db, input.program.id, input.params.id ?? '', input.now)) },
      };
    },
  }),
  route({
    method: 'get',
    path: '/v1/tax_forms/settings',
    summary: 'Whether payouts skip partners without a valid tax form',
    access: 'secret',
    status: 200,
    response: settingsSchema,
    async handle({ db, program }) {
      return { status: 200, body: { data: { tax_form_required: await taxFormRequired(db, program.id) } } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/tax_forms/settings',
    summary: 'Require a valid tax form before paying a partner (tax_form_required, off by default)',
    access: 'secret',
    body: z.strictObject({ tax_form_required: z.boolean() }),
    status: 200,
    response: settingsSchema,
    async handle({ db, program, body, now }) {
      return { status: 200, body: { data: { tax_form_required: await setTaxFormRequired(db, program.id, body.tax_form_required, now) } } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/tax_forms/1099_nec',
    summary:
      "The year's 1099-NEC rows as CSV, in the form's order: US payees (W-9) paid at least $600 in USD outside card and third-party networks",
    access: 'secret',
    role: 'owner',
    query: z.strictObject({
      year: z.coerce.number().int().min(2000).max(2100),
      payer_name: optional(200),
      payer_address: optional(400),
      payer_tin: optional(20),
    }),
    status: 200,
    produces: 'text/csv',
    async handle({ db, program, query, taxFormKeys }) {
      return {
        status: 200,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="tally-1099-nec-${query.year}.csv"`,
        },
        body: await necCsv(db, taxFormKeys, program, query),
      };
    },
  }),
];
