// Issue 45, partners' links: several per partnership, each a key that credits it and a
// destination on the program's origins, with the program's rules for keys (link_settings).
// A link's key is a slug (slugs.link_id names it) so the click path finds it in the one
// read it already makes; clicks.link_id records which link a click came through.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE links (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    partnership_id TEXT NOT NULL REFERENCES partnerships(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    destination TEXT NOT NULL,
    utm TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE UNIQUE INDEX links_key ON links (program_id, key);
  CREATE INDEX links_partnership ON links (partnership_id, program_id, created_at DESC, id DESC);
  CREATE INDEX links_list ON links (program_id, created_at DESC, id DESC);
  CREATE TABLE link_settings (
    program_id TEXT PRIMARY KEY REFERENCES programs(id),
    utm TEXT NOT NULL DEFAULT '{}',
    custom_keys INTEGER NOT NULL DEFAULT 1,
    key_min_length INTEGER NOT NULL DEFAULT 4,
    key_max_length INTEGER NOT NULL DEFAULT 32,
    key_characters TEXT NOT NULL DEFAULT 'letters_digits_dash',
    reserved_keys TEXT NOT NULL DEFAULT '[]',
    approval_required INTEGER NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
  );
  ALTER TABLE slugs ADD COLUMN link_id TEXT;
  ALTER TABLE clicks ADD COLUMN link_id TEXT;
  `;

export default migration;
