// Issue 44, payout runs through Wise (docs/payouts.md, "Wise"): the fee Wise's quote priced a
// payout at, in the payout's minor units, kept apart from its amount (the partner's, whole),
// and when its transfer was funded from the program's Wise balance, so a resend after a lost
// answer funds a transfer at most once.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE payout_run_items ADD COLUMN provider_fee BIGINT;
  ALTER TABLE payout_run_items ADD COLUMN funded_at BIGINT;
  CREATE INDEX payout_run_items_provider ON payout_run_items (program_id, provider_item_id);
  `;

export default migration;
