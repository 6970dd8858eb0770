// The link's and the link rules' shapes, shared by the owner's and the portal's routes.

import { z } from 'zod';
import { relation, resource, unixTime } from '../../platform/http/schemas.js';
import { KEY_CHARACTERS, LINK_STATUSES, UTM_FIELDS } from './model.js';

const utmValue = z.string().trim().min(1).max(100);
export const utm = z
  .strictObject(
    Object.fromEntries(UTM_FIELDS.map((f) => [f, utmValue.optional()])) as Record<
      (typeof UTM_FIELDS)[number],
      z.ZodOptional<typeof utmValue>
    >,
  )
  .meta({ description: 'UTM parameters by name: utm_source, utm_medium, utm_campaign, utm_term, utm_content' });

export const linkSchema = resource(
  'link',
  {
    key: z.string(),
    destination: z.string().meta({ description: "A page on one of the program's allowed origins" }),
    utm,
    status: z.enum(LINK_STATUSES),
    created_by: z.enum(['company', 'partner']),
    url: z.string().optional().meta({ description: 'The destination with ?red=<key> and the UTM parameters: what a visitor lands on' }),
    short_url: z.string().optional().meta({ description: "The collector's address that redirects to url: what the QR code holds" }),
    created_at: unixTime,
    updated_at: unixTime,
  },
  { partnership: relation('partnership') },
);

export const linkSettingsSchema = resource('link_settings', {
  utm: utm.meta({ description: "The program's UTM template; {key} in a value is the link's key. A field it sets, links cannot change" }),
  custom_keys: z.boolean().meta({ description: 'Partners may choose their links’ keys' }),
  key_min_length: z.number().int(),
  key_max_length: z.number().int(),
  key_characters: z.enum(KEY_CHARACTERS),
  reserved_keys: z.array(z.string()),
  approval_required: z.boolean().meta({ description: 'A key a partner chose waits for an owner’s approval' }),
});

export const linkStatsSchema = resource('link_stats', {
  clicks: z.number().int(),
  referrals: z.number().int(),
  conversions: z.number().int().meta({ description: 'Referrals that paid' }),
});

export const linkBody = z.strictObject({
  destination: z.string().min(1).max(2048),
  key: z.string().min(1).max(64).optional().meta({ description: "The key to choose, within the program's rules; absent: one is made up" }),
  utm: utm.optional(),
});
