// The demo page's publishable token is replaced at each start; a label finds it.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE tokens ADD COLUMN label TEXT;
  CREATE INDEX tokens_label ON tokens (program_id, label);
  `;

export default migration;
