// Issue 47, the leaderboard at a big program's size: a range the dashboard asks for is kept
// as a window, each partner's totals over its buckets, folded with them, so its ranking is
// an index walk of a page instead of a sum over millions of 15-minute rows
// (modules/stats/windows.ts). A window is built in the background a slice of partners at a
// time (built_to: the last partner whose totals are in), then kept until nobody asks.

import type { Migration } from './migration.js';

const RANKED = ['clicks', 'referrals', 'revenue', 'commissions'];

const migration: Migration = `
  CREATE TABLE stat_windows (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL,
    from_bucket BIGINT NOT NULL,
    to_bucket BIGINT NOT NULL,
    from_day TEXT NOT NULL,
    to_day TEXT NOT NULL,
    zone TEXT NOT NULL,
    building INTEGER NOT NULL DEFAULT 1,
    built_to TEXT NOT NULL DEFAULT '',
    asked_at BIGINT NOT NULL,
    UNIQUE (program_id, from_bucket, to_bucket)
  );
  CREATE TABLE stat_window_totals (
    window_id TEXT NOT NULL REFERENCES stat_windows(id) ON DELETE CASCADE,
    partner_id TEXT NOT NULL,
    currency TEXT NOT NULL,
    clicks BIGINT NOT NULL DEFAULT 0,
    referrals BIGINT NOT NULL DEFAULT 0,
    customers BIGINT NOT NULL DEFAULT 0,
    payments BIGINT NOT NULL DEFAULT 0,
    revenue BIGINT NOT NULL DEFAULT 0,
    commissions BIGINT NOT NULL DEFAULT 0,
    owed BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (window_id, partner_id, currency)
  );
  ${RANKED.map((m) => `CREATE INDEX stat_window_${m} ON stat_window_totals (window_id, currency, ${m} DESC, partner_id);`).join('\n  ')}
`;

export default migration;
