// Issue 45, parts 3 and 7: brand resources (files and copy the owner hands to partners) and
// each program's branding (logo, accent colour, own host name). Files are kept in the
// database, so a backup holds them (decision: docs/resources.md#storage); a brand row is
// apart from programs', as it is read by the public pages and the portal only.

import type { Migration } from './migration.js';

const tables = (bytes: string) => [
  `CREATE TABLE brand_resources (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    kind TEXT NOT NULL CHECK (kind IN ('file', 'copy')),
    title TEXT NOT NULL,
    file_name TEXT,
    media_type TEXT,
    size INTEGER NOT NULL,
    sha256 TEXT,
    content ${bytes},
    body TEXT,
    position INTEGER NOT NULL,
    created_at BIGINT NOT NULL
  )`,
  'CREATE INDEX brand_resources_list ON brand_resources (program_id, position, id)',
  `CREATE TABLE program_brands (
    program_id TEXT PRIMARY KEY REFERENCES programs(id),
    logo_id TEXT REFERENCES brand_resources(id) ON DELETE SET NULL,
    accent TEXT,
    host TEXT UNIQUE,
    updated_at BIGINT NOT NULL
  )`,
];

const migration: Migration = { sqlite: tables('BLOB'), postgres: tables('BYTEA') };

export default migration;
