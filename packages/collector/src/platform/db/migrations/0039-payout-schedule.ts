// Issue 44, scheduled payout runs (docs/payouts.md, "A schedule"): the program's schedule
// beside its payout methods (off, weekly on an ISO weekday, monthly on a day of month, in
// its time zone; when it was last set, so a period that began before it is not made), and
// one row per program and period the schedule claimed: its key is what makes the run at
// most once per period, however many processes look at once.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE payout_method_settings ADD COLUMN schedule TEXT NOT NULL DEFAULT 'off';
  ALTER TABLE payout_method_settings ADD COLUMN schedule_day INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE payout_method_settings ADD COLUMN schedule_time_zone TEXT NOT NULL DEFAULT 'UTC';
  ALTER TABLE payout_method_settings ADD COLUMN schedule_set_at BIGINT;
  CREATE TABLE payout_schedule_periods (
    program_id TEXT NOT NULL REFERENCES programs(id),
    period TEXT NOT NULL,
    run_id TEXT REFERENCES payout_runs(id),
    claimed_at BIGINT NOT NULL,
    PRIMARY KEY (program_id, period)
  );
  `;

export default migration;
