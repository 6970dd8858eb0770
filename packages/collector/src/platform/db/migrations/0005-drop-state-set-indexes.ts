// A range on state_set_at from these indexes had to be sorted by created_at afterwards:
// the whole range, on a large program. Lists walk the created_at indexes instead
// (platform/db/list.ts, notBeforeCreation).

import type { Migration } from './migration.js';

const migration: Migration = `
  DROP INDEX commissions_state_set;
  DROP INDEX referrals_state_set;
  `;

export default migration;
