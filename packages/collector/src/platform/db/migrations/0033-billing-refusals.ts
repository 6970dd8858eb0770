// Issue 42, a billing platform's test event that never showed: Settings → Integrations says
// when each platform's last event arrived and whether it verified. A verified one is the
// newest row of billing_events; a refused one (no matching secret, an altered body) changes
// nothing else, so its time and reason are kept here: the latest per program and platform,
// until a verified event removes it.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE billing_refusals (
    program_id TEXT NOT NULL REFERENCES programs(id),
    platform TEXT NOT NULL,
    received_at BIGINT NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (program_id, platform)
  );
  `;

export default migration;
