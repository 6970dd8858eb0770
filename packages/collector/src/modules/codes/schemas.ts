// Discounts and codes as /openapi.json describes them: for the owner's routes and the portal's.

import { z } from 'zod';
import { resource, unixTime } from '../../platform/http/schemas.js';

export const discountSchema = resource('discount', {
  name: z.string(),
  group_id: z.string().nullable(),
  kind: z.enum(['percent', 'amount']),
  amount: z.number().int(),
  currency: z.string().nullable(),
  duration: z.object({ kind: z.enum(['once', 'months', 'forever']), months: z.number().int().optional() }),
  created_at: unixTime,
  updated_at: unixTime,
});

export const codeSchema = resource('discount_code', {
  code: z.string(),
  partnership_id: z.string(),
  partner_id: z.string(),
  discount_id: z.string().nullable(),
  enabled: z.boolean(),
  created_by: z.enum(['owner', 'partner', 'auto']),
  stripe_promotion_code_id: z
    .string()
    .nullable()
    .meta({ description: "The Stripe promotion code (promo_…) it is: Stripe's events name it" }),
  created_at: unixTime,
  updated_at: unixTime,
});
