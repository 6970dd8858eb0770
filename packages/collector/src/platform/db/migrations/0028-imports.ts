// Issue 36, importers: what each imported object became. A row per (program, source, kind,
// source id) names the Tally record it made, so a second run, or a run after an
// interrupted one, finds its work done and writes nothing twice (modules/imports).
// `fingerprint` hashes what the source said when it was written, for "unchanged" and
// "updated"; a hash, so that a person erased later leaves no address behind.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE import_links (
    program_id TEXT NOT NULL REFERENCES programs(id),
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    source_id TEXT NOT NULL,
    tally_id TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    imported_at BIGINT NOT NULL,
    PRIMARY KEY (program_id, source, kind, source_id)
  );
  `;

export default migration;
