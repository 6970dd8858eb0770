// Partner groups, their rewards and the record of moves between groups (docs/api.md,
// "Groups and rewards"): resources with the usual envelope, filters and paging.

import { z } from 'zod';
import { deleteRoute, readRoutes } from '../../api/crud.js';
import { countryCode, currency, rules, slug } from '../../api/fields.js';
import { route } from '../../api/route.js';
import { dateTime, oneOf, text } from '../../platform/http/list-query.js';
import { one, resource, unixTime } from '../../platform/http/schemas.js';
import * as groups from './groups-repo.js';
import { createGroup, createReward, deleteGroup, deleteReward, updateGroup, updateReward } from '../../flows/group-moves.js';
import type { GroupInput } from './model.js';
import { renderGroup, renderMove, renderReward } from './present.js';
import * as rewards from './repo.js';
import { rewardSchema, rewardTermsOut } from './schemas.js';
import { previewSale } from './service.js';
import { fail } from '../../platform/errors.js';

const moveRule = z
  .strictObject({
    to_group_id: z.string().min(1).max(64),
    metric: z.enum(['customers', 'revenue', 'commissions']).meta({ description: "The partner's paying customers, revenue or commissions" }),
    currency: currency.nullish().meta({ description: 'For revenue and commissions: the currency of the threshold' }),
    threshold: z.number().int().min(1).max(1e12).meta({ description: 'A count of customers, or minor units of currency' }),
    window_days: z.number().int().min(1).max(3650).nullish().meta({ description: 'Days back from now; absent or null: all time' }),
  })
  .refine((r) => (r.metric === 'customers') === (r.currency == null), {
    message: 'currency is required for revenue and commissions, and absent for customers',
    path: ['currency'],
  })
  .transform((r) => ({ ...r, currency: r.currency ?? null, window_days: r.window_days ?? null }));

const groupFields = {
  slug: slug.optional().meta({ description: 'Its public application page: /p/<program slug>/<group slug>/' }),
  hold_days: rules.hold_days.nullish().meta({ description: "Days before a commission can be paid out; null: the program's" }),
  minimum_payout: rules.minimum_payout.nullish().meta({ description: "The least a payout may be; null: the program's" }),
  auto_accept: z.boolean().nullish().meta({ description: 'Applications to this group are accepted at once; null: as the program says' }),
  takes_applications: z.boolean().optional().meta({ description: "Its page takes applications, and the program's page lists it" }),
  move_rules: z
    .array(moveRule)
    .max(20)
    .optional()
    .meta({ description: 'Moves a partnership to another group when a total reaches a threshold' }),
};
const groupBody = z.strictObject({ name: z.string().trim().min(1).max(100), ...groupFields });
const groupChanges = z.strictObject({ name: z.string().trim().min(1).max(100).optional(), ...groupFields });

const groupSchema = resource('group', {
  name: z.string(),
  slug: z.string(),
  default: z.boolean().meta({ description: 'Every partnership not moved elsewhere is in it; it cannot be deleted' }),
  hold_days: z.number().int().nullable(),
  minimum_payout: z.record(z.string(), z.number().int()).nullable(),
  auto_accept: z.boolean().nullable(),
  takes_applications: z.boolean(),
  move_rules: z.array(
    z.object({
      to_group_id: z.string(),
      metric: z.string(),
      currency: z.string().nullable(),
      threshold: z.number().int(),
      window_days: z.number().int().nullable(),
    }),
  ),
  created_at: unixTime,
  updated_at: unixTime,
});

const rewardOut = resource('reward', {
  group_id: z.string(),
  ...rewardTermsOut.shape,
  position: z.number().int(),
  base: z
    .boolean()
    .meta({ description: "The program's own rate (commission_rate_bps, recurring_months): changed through PATCH /v1/program" }),
  description: z.string().meta({ description: 'The reward in words, as partners read it' }),
  created_at: unixTime,
  updated_at: unixTime,
});

const moveOut = resource('group_move', {
  partnership_id: z.string(),
  partner_id: z.string(),
  from_group_id: z.string().optional(),
  to_group_id: z.string(),
  moved_by: z.enum(['rule', 'owner']),
  reason: z.string(),
  created_at: unixTime,
});

/** What the API's group body says, in the service's terms. */
const groupInput = (body: z.infer<typeof groupChanges>): GroupInput => body;

export const rewardRoutes = [
  ...readRoutes({
    plural: 'groups',
    type: 'group',
    get: groups.get,
    list: groups.list,
    render: renderGroup,
    schema: groupSchema,
    filters: { name_eq: text, slug_eq: text, created_at_lt: dateTime, created_at_gt: dateTime },
  }),
  route({
    method: 'post',
    path: '/v1/groups',
    summary: 'Create a partner group',
    access: 'secret',
    body: groupBody,
    status: 201,
    response: one(groupSchema),
    async handle({ db, program, body, now }) {
      const row = await db.transaction((tx) => createGroup(tx, program.id, { ...groupInput(body), name: body.name }, now));
      return { status: 201, headers: { Location: `/v1/groups/${row.id}` }, body: { data: renderGroup(row) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/groups/:id',
    summary: "Change a group's name, page, rules, or move rules",
    access: 'secret',
    body: groupChanges,
    status: 200,
    response: one(groupSchema),
    async handle({ db, program, params, body, now }) {
      const row = await db.transaction((tx) => updateGroup(tx, program.id, params.id ?? '', groupInput(body), now));
      return { status: 200, body: { data: renderGroup(row) } };
    },
  }),
  deleteRoute('/v1/groups/:id', 'Delete a group no partnership is in (not the default one)', deleteGroup),
  route({
    method: 'post',
    path: '/v1/groups/:id/preview',
    summary: 'What a partner of the group would earn for a payment: which sale reward wins, how much, in words',
    access: 'secret',
    body: z.strictObject({
      amount: z.number().int().min(1).max(1e12).meta({ description: 'Minor units of currency' }),
      currency,
      month: z.number().int().min(1).max(1200).meta({ description: "The customer's month: 1 for the first payment" }),
      product_id: z.string().min(1).max(255).optional(),
      price_id: z.string().min(1).max(255).optional(),
      customer_country: countryCode.optional(),
    }),
    status: 200,
    response: z.object({
      data: z.object({
        type: z.literal('reward_preview'),
        attributes: z.object({
          amount: z.number().int(),
          currency: z.string(),
          reward_id: z.string().nullable(),
          description: z.string().meta({ description: 'The winning reward at work, or why nothing is earned' }),
        }),
      }),
    }),
    async handle({ db, program, params, body, now }) {
      const id = params.id ?? '';
      const earned = await previewSale(db, program.id, id, body, now);
      if (earned === undefined) throw fail('not_found', `no group ${id}`);
      const attributes = earned
        ? { amount: earned.amount, currency: earned.currency, reward_id: earned.reward.id, description: earned.description }
        : { amount: 0, currency: body.currency, reward_id: null, description: 'no reward of the group applies to this payment' };
      return { status: 200, body: { data: { type: 'reward_preview' as const, attributes } } };
    },
  }),
  ...readRoutes({
    plural: 'rewards',
    type: 'reward',
    get: rewards.get,
    list: rewards.list,
    render: renderReward,
    schema: rewardOut,
    filters: { group_id_eq: text, event_eq: oneOf(['lead', 'sale', 'click']), created_at_lt: dateTime, created_at_gt: dateTime },
  }),
  route({
    method: 'post',
    path: '/v1/groups/:id/rewards',
    summary: 'Add a reward to a group: a lead, a sale or a click, with its conditions',
    access: 'secret',
    body: rewardSchema,
    status: 201,
    response: one(rewardOut),
    async handle({ db, program, params, body, now }) {
      const row = await db.transaction((tx) => createReward(tx, program.id, params.id ?? '', body, now));
      return { status: 201, headers: { Location: `/v1/rewards/${row.id}` }, body: { data: renderReward(row) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/rewards/:id',
    summary: "Replace a reward's terms (not the program's own rate, which PATCH /v1/program changes)",
    access: 'secret',
    body: rewardSchema,
    status: 200,
    response: one(rewardOut),
    async handle({ db, program, params, body, now }) {
      const row = await db.transaction((tx) => updateReward(tx, program.id, params.id ?? '', body, now));
      return { status: 200, body: { data: renderReward(row) } };
    },
  }),
  deleteRoute('/v1/rewards/:id', "Delete a reward (not the program's own rate)", deleteReward),
  ...readRoutes({
    plural: 'group_moves',
    type: 'group_move',
    get: groups.getMove,
    list: groups.moves,
    render: renderMove,
    schema: moveOut,
    filters: {
      partnership_id_eq: text,
      partner_id_eq: text,
      to_group_id_eq: text,
      moved_by_eq: oneOf(['rule', 'owner']),
      created_at_lt: dateTime,
      created_at_gt: dateTime,
    },
  }),
];
