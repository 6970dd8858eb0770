// A referral as /openapi.json describes it, for the referrals' routes and the tracker's.

import { z } from 'zod';
import { relation, resource, unixTime } from '../../platform/http/schemas.js';

export const referralSchema = resource(
  'referral',
  {
    email: z.string().optional(),
    uid: z.string().optional(),
    state: z.string(),
    state_set_at: unixTime,
    created_at: unixTime,
    updated_at: unixTime,
  },
  { partnership: relation('partnership') },
);
