// A commission as /openapi.json describes it, for the commissions' routes and the payments'.

import { reviewFields } from '../referrals/schemas.js';
import { resource, unixTime } from '../../platform/http/schemas.js';
import { z } from 'zod';

export const commissionSchema = resource('commission', {
  state: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  partner_id: z.string(),
  referral_id: z.string().optional(),
  reject_reason: z.string().optional(),
  paid_at: unixTime.optional(),
  payable_at: unixTime.meta({ description: 'When a payout may take it: its payment plus the holding period' }),
  on_hold: z.boolean().meta({ description: 'Its payment is disputed: no payout takes it meanwhile' }),
  ...reviewFields,
  clawback_of: z.string().optional().meta({ description: 'For a negative commission: the commission whose refunded share it takes back' }),
  tier: z.number().int().meta({ description: "1, or 2: a recruiter's share of their recruit's commission (docs/two-tier.md)" }),
  tier_of: z.string().optional().meta({ description: "For tier 2 (and its clawbacks): the recruit's commission it is a share of" }),
  payout_batch_id: z
    .string()
    .optional()
    .meta({ description: 'The payout batch holding it: pending in an open batch, or the batch that paid it' }),
  reward_id: z
    .string()
    .optional()
    .meta({ description: "The reward that made it; absent for one entered by hand or made by the partnership's own rate" }),
  reward_description: z.string().optional().meta({ description: 'What made it, in words: "20 % of a renewal, month 3 of 12"' }),
  state_set_at: unixTime,
  created_at: unixTime,
  updated_at: unixTime,
});
