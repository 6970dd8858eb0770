// Issue 33, codes through Stripe: a code may be one of Stripe's promotion codes, whose id
// (promo_…) is what Stripe's events name; it leads back to the code and its partner.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE discount_codes ADD COLUMN stripe_promotion_code_id TEXT;
  CREATE UNIQUE INDEX discount_codes_stripe ON discount_codes (program_id, stripe_promotion_code_id);
  `;

export default migration;
