import { z } from 'zod';
import { changePartnership, createPartnership } from '../../flows/partnership.js';
import { states } from '../../core/state-machines.js';
import { dateTime, oneOf, text } from '../../platform/http/list-query.js';
import { route } from '../../api/route.js';
import { one, relation, resource, unixTime } from '../../platform/http/schemas.js';
import * as partnerships from './repo.js';
import { readRoutes } from '../../api/crud.js';
import { promoteCodes } from '../codes/service.js';
import { partnerCodesInShopify } from '../../flows/shopify-codes.js';
import { competitorSlugs, rateBps, rules, rulesOut, slug, state } from '../../api/fields.js';
import { renderPartnership } from './present.js';

export const partnershipSchema = resource(
  'partnership',
  {
    state: z.string(),
    key: z.string(),
    competitor_slugs: z.array(z.string()).optional(),
    created_by: z.string().optional(),
    application_note: z.string().optional().meta({ description: "What the partner wrote when applying on the program's page" }),
    decline_reason: z.string().optional().meta({ description: 'While declined: why, as the owner gave it' }),
    commission_rate_bps: z.number().int().optional(),
    recurring_months: rulesOut.recurring_months.nullable(),
    hold_days: rulesOut.hold_days.nullable(),
    minimum_payout: rulesOut.minimum_payout.nullable(),
    referral_link: z.string(),
    group_id: z.string().nullable().meta({ description: 'Its partner group (GET /v1/groups): which rewards it earns' }),
    state_set_at: unixTime,
    created_at: unixTime,
    updated_at: unixTime,
  },
  { partner: relation('partner') },
);

/** The commission rules a partnership may set for itself; null goes back to the program's. */
const overrides = {
  recurring_months: rules.recurring_months.nullish(),
  hold_days: rules.hold_days.nullish(),
  minimum_payout: rules.minimum_payout.nullish(),
};

const createBody = z.strictObject({
  partner_id: z.string().min(1).max(64),
  key: slug.optional(),
  state: state('partnership').optional(),
  competitor_slugs: competitorSlugs.optional(),
  created_by: z.enum(['company', 'partner']).optional(),
  commission_rate_bps: rateBps.nullish(),
  ...overrides,
  group_id: z.string().min(1).max(64).optional().meta({ description: "Its partner group; the program's default group when absent" }),
});

const updateBody = z.strictObject({
  state: state('partnership').optional(),
  decline_reason: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .optional()
    .meta({ description: 'With `state: declined`: why, told to the partner in the e-mail that says so' }),
  key: slug.optional(),
  competitor_slugs: competitorSlugs.optional(),
  commission_rate_bps: rateBps.nullish(),
  ...overrides,
  group_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'Moves it to this partner group, recorded as a move by an owner (GET /v1/group_moves)' }),
});

export const partnershipRoutes = [
  ...readRoutes({
    plural: 'partnerships',
    type: 'partnership',
    get: partnerships.get,
    list: partnerships.list,
    render: (row, { program }) => renderPartnership(row, program),
    filters: {
      state_eq: oneOf(states('partnership')),
      partner_id_eq: text,
      group_id_eq: text,
      created_at_lt: dateTime,
      created_at_gt: dateTime,
    },
    schema: partnershipSchema,
  }),
  route({
    method: 'post',
    path: '/v1/partnerships',
    summary: 'Make a partner a member of the program, with its referral key',
    access: 'secret',
    body: createBody,
    status: 201,
    response: one(partnershipSchema),
    async handle({ db, program, body, now, stripeApiUrl, platformApiUrls }) {
      const row = await createPartnership(db, program.id, body, now);
      // A code made on acceptance is made in Stripe and Shopify too, once the partnership is committed.
      await promoteCodes(db, program, row.id, now, stripeApiUrl);
      await partnerCodesInShopify(db, program.id, row.id, now, platformApiUrls.shopify);
      return {
        status: 201,
        headers: { Location: `/v1/partnerships/${row.id}` },
        body: { data: renderPartnership(row, program) },
      };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/partnerships/:id',
    summary: 'Change the state, key, competitor slugs, rate or commission rules of a partnership',
    access: 'secret',
    body: updateBody,
    status: 200,
    response: one(partnershipSchema),
    async handle({ db, program, params, body, now, stripeApiUrl, platformApiUrls }) {
      const row = await changePartnership(db, program, params.id ?? '', body, now, stripeApiUrl);
      if (body.state === 'accepted') await partnerCodesInShopify(db, program.id, row.id, now, platformApiUrls.shopify);
      return { status: 200, body: { data: renderPartnership(row, program) } };
    },
  }),
];
