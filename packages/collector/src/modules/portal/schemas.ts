// What the portal's routes share with the embedded portal's (modules/embed): a partnership
// as a partner sees it.

import { z } from 'zod';
import { LOCALES } from '../../core/locale.js';
import { resource, unixTime } from '../../platform/http/schemas.js';
import { rewardTermsOut } from '../rewards/schemas.js';

export const partnershipSchema = resource('portal_partnership', {
  program_id: z.string(),
  program_name: z.string(),
  program_locale: z
    .enum(LOCALES)
    .meta({ description: "The program's default language: the portal's when neither the partner nor their browser picks one" }),
  brand: z
    .object({ accent: z.string().nullable(), logo_url: z.string().nullable(), host: z.string().nullable() })
    .meta({ description: "The program's branding (docs/branding.md): the portal's header and colour" }),
  state: z.enum(['pending', 'accepted', 'declined']),
  referral_link: z.string().nullable().meta({ description: 'Only while accepted: a declined or pending partner has no link to share' }),
  key: z.string().nullable(),
  competitor_slugs: z.array(z.string()),
  commission_rate_bps: z.number().int(),
  own_codes: z
    .object({ prefix: z.string(), max_length: z.number().int() })
    .nullable()
    .meta({ description: "The program's rules for codes the partner makes (POST …/codes); null: the program makes its codes itself" }),
  group: z
    .object({
      name: z.string(),
      rewards: z.array(z.string()).meta({ description: 'Each reward in English words' }),
      terms: z.array(rewardTermsOut).meta({ description: 'Each reward as its terms, which the portal says in its own language' }),
      own_rate: z.boolean().meta({ description: "The partnership's own rate replaces the group's rewards: `terms` is that rate alone" }),
    })
    .meta({ description: 'The partner group the partnership is in, and what it earns, in words' }),
  earnings: z.record(
    z.string(),
    z.object({
      pending: z.number().int(),
      payable: z
        .number()
        .int()
        .meta({ description: 'Past the holding period, not held by a dispute and in no payout batch, net of clawbacks' }),
      paid: z.number().int(),
      next_payable_at: unixTime.nullable(),
      next_payout: z.object({
        amount: z.number().int().meta({
          description: 'What the next payout export would pay the partner in this currency: `payable`, or 0 when it pays nothing',
        }),
        reason: z
          .enum(['below_minimum', 'clawbacks_exceed_earnings', 'no_paypal_email', 'no_tax_form', 'not_accepted'])
          .nullable()
          .meta({ description: 'Why the next export pays nothing of `payable`; null when it pays it, or when nothing is payable' }),
        minimum: z
          .number()
          .int()
          .meta({ description: 'The least a payout may be in this currency, in minor units (1 when the program sets none)' }),
      }),
    }),
  ),
  created_at: unixTime,
});
