// PostgreSQL's settings trigger (0014) now names, in its NOTICE's detail, the server backend
// that made the change. Behind PgBouncer in transaction pooling mode a process cannot know
// which backend served its statement, and it must, to tell its own change's NOTIFY (counted
// at once, at commit) from another process's (platform/db/pg-settings.ts). SQLite: nothing.
// The channel and the notice are written out, as in 0014, so this file stays frozen.

import type { Migration } from './migration.js';

const migration: Migration = {
  sqlite: [],
  postgres: [
    `CREATE OR REPLACE FUNCTION settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       PERFORM pg_notify('tally_settings', current_schema());
       RAISE NOTICE 'tally: settings changed' USING DETAIL = pg_backend_pid()::text;
       RETURN NULL;
     END $$`,
  ],
};

export default migration;
