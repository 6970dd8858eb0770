// Issue 30, clicks: raw clicks are deleted after their retention (modules/clicks/service.ts,
// purgeClicks). What they counted stays in the statistics, and here per partner and
// 15-minute bucket, so a recount of the records can still equal the kept totals.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE clicks_purged (
    program_id TEXT NOT NULL,
    partner_id TEXT NOT NULL,
    bucket BIGINT NOT NULL,
    clicks BIGINT NOT NULL,
    PRIMARY KEY (program_id, partner_id, bucket)
  );
  `;

export default migration;
