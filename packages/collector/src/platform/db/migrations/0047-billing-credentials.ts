// Issue 46, more billing platforms: what a platform's API needs from a program (Chargebee's
// site and key, a Shopify shop and its token) is one row per program and platform, its
// fields as JSON, instead of a column on programs for each platform (lemonsqueezy_api_key).

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE billing_credentials (
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    fields TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (program_id, platform)
  );
`;

export default migration;
