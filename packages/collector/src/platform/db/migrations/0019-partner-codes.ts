// Issue 33, codes made by partners and on acceptance: a program may let partners make their
// own codes in the portal, within a prefix and a length it sets, and may give each
// partnership a code when it is accepted.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE programs ADD COLUMN partner_codes INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE programs ADD COLUMN code_prefix TEXT NOT NULL DEFAULT '';
  ALTER TABLE programs ADD COLUMN code_max_length INTEGER NOT NULL DEFAULT 32;
  ALTER TABLE programs ADD COLUMN auto_codes INTEGER NOT NULL DEFAULT 0;
  `;

export default migration;
