// Issue 33, codes made in Stripe: a program may give Tally a restricted Stripe API key, with
// which Tally makes each discount's coupon and each code's promotion code in Stripe.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE programs ADD COLUMN stripe_api_key TEXT;
  ALTER TABLE discounts ADD COLUMN stripe_coupon_id TEXT;
  `;

export default migration;
