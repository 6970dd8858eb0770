// Issue 42, partners' invitations: which program a portal invitation's link is for, and
// whether its owner holds it (shown without SMTP) rather than the address alone (e-mailed):
// a held link chooses no password while another program's invitation of the account is
// open (docs/decisions/0317-contested-invitations-by-mail.md). Older links have neither.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE partner_links ADD COLUMN program_id TEXT;
  ALTER TABLE partner_links ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
  `;

export default migration;
