// Issue 36, languages: the language a partner chose for the portal and its e-mails (none:
// their browser's, else the program's), and the program's own default. Codes are the
// ones core/locale.ts knows; the API refuses any other.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE partners ADD COLUMN locale TEXT;
  ALTER TABLE programs ADD COLUMN locale TEXT NOT NULL DEFAULT 'en';
  `;

export default migration;
