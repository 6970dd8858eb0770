// The dashboard's owners. A user is a person with a password who may run programs
// (memberships). The first start's user has no e-mail until its link is redeemed.
// Sessions and one-time sign-in links keep only a SHA-256 of what the browser holds.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT,
    email_norm TEXT UNIQUE,
    password_hash TEXT,
    failed_count INTEGER NOT NULL DEFAULT 0,
    locked_until BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE memberships (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    role TEXT NOT NULL DEFAULT 'owner',
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, program_id)
  );
  CREATE INDEX memberships_program ON memberships (program_id, created_at);
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
  );
  CREATE INDEX sessions_user ON sessions (user_id);
  CREATE TABLE sign_in_links (
    hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
  );
  CREATE INDEX sign_in_links_user ON sign_in_links (user_id);
  `;

export default migration;
