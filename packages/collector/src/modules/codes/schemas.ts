// Discounts and codes as /openapi.json describes them: for the owner's routes and the portal's.

import { z } from 'zod';
import { resource, unixTime } from '../../platform/http/schemas.js';

const terms = {
  name: z.string(),
  kind: z.enum(['percent', 'amount']),
  amount: z.number().int().meta({ description: "Basis points off ('percent': 2000 is 20 %), or minor units of `currency` off" }),
  currency: z.string().nullable(),
  duration: z.object({ kind: z.enum(['once', 'months', 'forever']), months: z.number().int().optional() }),
};

export const discountSchema = resource('discount', {
  ...terms,
  group_id: z.string().nullable(),
  created_at: unixTime,
  updated_at: unixTime,
});

/** The discount a partner's link brings, as a click's answer names it for the page. */
export const linkDiscount = z.object(terms).meta({ description: "The discount the partner's link brings, for the page to show" });

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
