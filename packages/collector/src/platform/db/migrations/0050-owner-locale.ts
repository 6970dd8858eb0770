// Issue 48, the dashboard in the owner's language: the language an owner chose for it,
// null for their browser's (packages/web/src/common/i18n.ts picks then).

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE users ADD COLUMN locale TEXT;
  `;

export default migration;
