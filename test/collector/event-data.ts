// A referral's payload for tests that write events themselves: the least a subscriber reads.

import type { ReferralPayload } from '../../packages/collector/src/events/types.js';

export const referralData = (id = 'r'): ReferralPayload => ({
  id,
  type: 'referral',
  attributes: { state: 'converted' },
  relationships: { partnership: { data: { id: 'ps', type: 'partnership' } } },
});
