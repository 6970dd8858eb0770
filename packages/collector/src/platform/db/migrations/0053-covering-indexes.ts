// Issue 47, the portal home at a big program's size: what one partner has earned, what is
// payable to them and their statistics are read from an index alone (index-only scans on
// PostgreSQL, covering indexes on SQLite), not from rows scattered over the tables' pages.
// One partner's 56,244 commissions took 203 ms read from the table and 17 ms from
// commissions_earnings; their 13,000 buckets of 90 days were fetched row by row through the
// key (docs/performance.md).

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE INDEX commissions_earnings ON commissions (partner_id, currency, state, payable_at, on_hold, review, payout_batch_id, amount, program_id, id);
  CREATE INDEX stat_buckets_partner ON stat_buckets (program_id, partner_id, bucket, currency, clicks, referrals, customers, payments, revenue, commissions, owed);
`;

export default migration;
