// Partners of their own: a public page per program to apply on, and accounts that sign
// in to the portal. An account is one person across programs; each program keeps its
// own partner record, linked to the account. Sessions and one-time links (an
// invitation, a password reset) keep only a SHA-256 of what the browser holds.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE programs ADD COLUMN slug TEXT;
  CREATE UNIQUE INDEX programs_slug ON programs (slug);
  ALTER TABLE programs ADD COLUMN description TEXT NOT NULL DEFAULT '';
  ALTER TABLE programs ADD COLUMN page_enabled INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE programs ADD COLUMN auto_accept INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE partnerships ADD COLUMN application_note TEXT;
  CREATE TABLE partner_accounts (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    email_norm TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    failed_count INTEGER NOT NULL DEFAULT 0,
    locked_until BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  ALTER TABLE partners ADD COLUMN account_id TEXT REFERENCES partner_accounts(id);
  CREATE INDEX partners_account ON partners (account_id);
  CREATE TABLE partner_sessions (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES partner_accounts(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
  );
  CREATE INDEX partner_sessions_account ON partner_sessions (account_id);
  CREATE TABLE partner_links (
    hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES partner_accounts(id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
  );
  CREATE INDEX partner_links_account ON partner_links (account_id);
  CREATE INDEX payout_items_partner ON payout_items (partner_id, batch_id);
  `;

export default migration;
