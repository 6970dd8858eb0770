// How long the tracker's referral cookie lives, shown in the snippet the dashboard gives.
// Payments and clicks became lists, and partnerships filter by partner: each walks an
// index newest first, by program or by its filter, as the other lists do; the filter's
// index also serves the foreign key it replaces.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE programs ADD COLUMN cookie_days INTEGER NOT NULL DEFAULT 60;
  CREATE INDEX payments_list ON payments (program_id, created_at DESC, id DESC);
  DROP INDEX payments_referral;
  CREATE INDEX payments_referral ON payments (referral_id, program_id, created_at DESC, id DESC);
  CREATE INDEX clicks_list ON clicks (program_id, created_at DESC, id DESC);
  DROP INDEX clicks_partnership;
  CREATE INDEX clicks_partnership ON clicks (partnership_id, program_id, created_at DESC, id DESC);
  DROP INDEX partnerships_partner_fk;
  CREATE INDEX partnerships_partner_fk ON partnerships (partner_id, program_id, created_at DESC, id DESC);
  `;

export default migration;
