// Issue 30, identity: one set of rules for owners and partners. A link says why it was
// made (a reset limits how many an address gets) and when; owners' invitations are
// their own rows, accepted into a membership; e-mail waits in an outbox that holds what
// to send, never a link (the worker makes the link when it sends). Purges of expired
// sessions and links walk these indexes.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE sign_in_links ADD COLUMN purpose TEXT NOT NULL DEFAULT 'invitation';
  ALTER TABLE sign_in_links ADD COLUMN created_at BIGINT;
  ALTER TABLE partner_links ADD COLUMN purpose TEXT NOT NULL DEFAULT 'invitation';
  ALTER TABLE partner_links ADD COLUMN created_at BIGINT;
  CREATE INDEX sign_in_links_expiry ON sign_in_links (expires_at);
  CREATE INDEX partner_links_expiry ON partner_links (expires_at);
  CREATE INDEX sessions_seen ON sessions (last_seen_at);
  CREATE INDEX partner_sessions_seen ON partner_sessions (last_seen_at);
  CREATE TABLE invitations (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    email_norm TEXT NOT NULL,
    role TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
  );
  CREATE UNIQUE INDEX invitations_address ON invitations (program_id, email_norm);
  CREATE INDEX invitations_expiry ON invitations (expires_at);
  CREATE TABLE mail_outbox (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    subject_key TEXT NOT NULL,
    program_id TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE UNIQUE INDEX mail_outbox_once ON mail_outbox (kind, subject_key);
  CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at);
  `;

export default migration;
