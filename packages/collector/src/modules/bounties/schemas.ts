// Bounties as the API receives and answers them (docs/bounties.md).

import { z } from 'zod';
import { currency } from '../../api/fields.js';
import { resource, unixTime } from '../../platform/http/schemas.js';

const MAX_MINOR = 1e12;
const int = z.number().int();

const terms = {
  name: z.string(),
  description: z.string(),
  kind: z.enum(['performance', 'submission']),
  group_ids: z.array(z.string()).meta({ description: 'The partner groups it is for; empty: every group' }),
  starts_at: unixTime,
  ends_at: unixTime.meta({ description: 'The period is [starts_at, ends_at)' }),
  amount: int.meta({ description: "The reward, in the currency's minor units" }),
  currency: z.string(),
  metric: z.enum(['sales', 'leads', 'revenue']).nullable(),
  target: int.nullable().meta({ description: 'Sales or leads to reach, or revenue in minor units of `currency`' }),
  max_submissions: int.nullable(),
  max_urls: int.nullable(),
  max_text: int.nullable(),
  requires_url: z.boolean(),
};

export const bountySchema = resource('bounty', {
  ...terms,
  archived: z.boolean(),
  archived_at: unixTime.nullable(),
  created_at: unixTime,
  updated_at: unixTime,
});

export const submissionSchema = resource('bounty_submission', {
  bounty_id: z.string(),
  bounty_name: z.string(),
  partner_id: z.string(),
  partnership_id: z.string(),
  urls: z.array(z.string()),
  text: z.string(),
  state: z.enum(['pending', 'approved', 'rejected']),
  reject_reason: z.string().nullable(),
  commission_id: z.string().nullable().meta({ description: 'The commission its approval made' }),
  amount: int,
  currency: z.string(),
  decided_at: unixTime.nullable(),
  created_at: unixTime,
  updated_at: unixTime,
});

export const partnerBountySchema = resource('bounty', {
  ...terms,
  progress: z
    .object({ value: int, target: int })
    .nullable()
    .meta({ description: "A performance bounty: the partner's records in the period toward its target" }),
  awarded: z.boolean(),
  submissions_left: int.nullable(),
  submissions: z.array(submissionSchema),
});

const changeable = {
  name: z.string().trim().min(1).max(100),
  description: z.string().max(2000).nullish(),
  group_ids: z.array(z.string().min(1).max(64)).max(50).nullish(),
  starts_at: unixTime.min(0),
  ends_at: unixTime.min(1),
  amount: int.min(1).max(MAX_MINOR),
  currency,
  metric: z.enum(['sales', 'leads', 'revenue']).nullish(),
  target: int.min(1).max(MAX_MINOR).nullish(),
  max_submissions: int.min(1).max(100).nullish(),
  max_urls: int.min(0).max(20).nullish(),
  max_text: int.min(0).max(10_000).nullish(),
  requires_url: z.boolean().nullish(),
};

export const bountyBody = z.strictObject({ ...changeable, kind: z.enum(['performance', 'submission']) });
export const bountyChange = z.strictObject({ ...changeable, archived: z.boolean() }).partial();

export const submissionBody = z.strictObject({
  urls: z
    .array(z.url({ protocol: /^https?$/ }).max(2000))
    .max(20)
    .nullish(),
  text: z.string().max(10_000).nullish(),
});

export const decisionBody = z.strictObject({
  state: z.enum(['approved', 'rejected']),
  reject_reason: z.string().trim().min(1).max(500).nullish(),
});
