// Issue 36, the embedded portal (modules/embed): which partner each of a company's own users
// is (found again by the company's user id), and the two short-lived credentials of an
// embed, each kept only as the SHA-256 of what its holder has: the one-time token the
// company's server asks for (minutes), and the session the embedded page holds (hours).
// Deleting a partner takes their rows with it.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE embed_users (
    program_id TEXT NOT NULL REFERENCES programs(id),
    user_id TEXT NOT NULL,
    partner_id TEXT NOT NULL REFERENCES partners(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (program_id, user_id)
  );
  CREATE INDEX embed_users_partner ON embed_users (partner_id);
  CREATE TABLE embed_tokens (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    program_id TEXT NOT NULL REFERENCES programs(id),
    partner_id TEXT NOT NULL REFERENCES partners(id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX embed_tokens_expiry ON embed_tokens (expires_at);
  CREATE INDEX embed_tokens_partner ON embed_tokens (partner_id);
  CREATE TABLE embed_sessions (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    program_id TEXT NOT NULL REFERENCES programs(id),
    partner_id TEXT NOT NULL REFERENCES partners(id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX embed_sessions_expiry ON embed_sessions (expires_at);
  CREATE INDEX embed_sessions_partner ON embed_sessions (partner_id);
  `;

export default migration;
