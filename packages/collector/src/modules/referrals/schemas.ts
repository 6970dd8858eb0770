// A referral as /openapi.json describes it, for the referrals' routes and the tracker's.

import { z } from 'zod';
import { relation, resource, unixTime } from '../../platform/http/schemas.js';

/** A record's review (modules/review): held until an owner decides, with what held it. */
export const reviewFields = {
  review: z
    .enum(['held', 'approved', 'rejected'])
    .nullable()
    .optional()
    .meta({ description: 'Held: it earns nothing payable until an owner decides; null: nothing held it' }),
  review_reasons: z
    .array(z.object({ signal: z.string(), explain: z.string() }))
    .nullable()
    .optional()
    .meta({ description: 'What held it, each signal with what it saw' }),
};

export const referralSchema = resource(
  'referral',
  {
    email: z.string().optional(),
    uid: z.string().optional(),
    state: z.string(),
    state_set_at: unixTime,
    ...reviewFields,
    created_at: unixTime,
    updated_at: unixTime,
  },
  { partnership: relation('partnership') },
);
