// Issue 48, two-factor sign-in: each realm (owners, partners) gets its factors (an
// authenticator's TOTP secret, read back to check codes, or a passkey's public key), its
// recovery codes (SHA-256 only, each used once) and its sign-in challenges (the hash of
// what a browser holds between the password and the second step). A session remembers
// when its holder last proved who they are (step-up). A program's team may be required to
// use a second factor (team_settings).

import type { Migration } from './migration.js';

const realm = (prefix: string, accounts: string, fk: string) => `
  CREATE TABLE ${prefix}_factors (
    id TEXT PRIMARY KEY,
    ${fk} TEXT NOT NULL REFERENCES ${accounts}(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    label TEXT NOT NULL,
    secret TEXT,
    last_step BIGINT,
    credential_id TEXT UNIQUE,
    public_key TEXT,
    sign_count BIGINT NOT NULL DEFAULT 0,
    transports TEXT,
    confirmed_at BIGINT,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT
  );
  CREATE INDEX ${prefix}_factors_account ON ${prefix}_factors (${fk});
  CREATE TABLE ${prefix}_recovery_codes (
    hash TEXT PRIMARY KEY,
    ${fk} TEXT NOT NULL REFERENCES ${accounts}(id) ON DELETE CASCADE,
    used_at BIGINT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX ${prefix}_recovery_codes_account ON ${prefix}_recovery_codes (${fk});
  CREATE TABLE ${prefix}_challenges (
    hash TEXT PRIMARY KEY,
    ${fk} TEXT REFERENCES ${accounts}(id) ON DELETE CASCADE,
    purpose TEXT NOT NULL,
    program_id TEXT,
    data TEXT,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX ${prefix}_challenges_account ON ${prefix}_challenges (${fk});
  CREATE INDEX ${prefix}_challenges_expiry ON ${prefix}_challenges (expires_at);
`;

const migration: Migration = `
  ${realm('user', 'users', 'user_id')}
  ${realm('partner', 'partner_accounts', 'account_id')}
  ALTER TABLE sessions ADD COLUMN verified_at BIGINT;
  ALTER TABLE partner_sessions ADD COLUMN verified_at BIGINT;
  CREATE TABLE team_settings (
    program_id TEXT PRIMARY KEY REFERENCES programs(id) ON DELETE CASCADE,
    require_two_factor INTEGER NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
  );
`;

export default migration;
