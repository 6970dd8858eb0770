// Every change to the settings requests read each time (tokens, programs, their origins,
// which webhook endpoints want which events, what a link's slug credits: the partnership,
// its state, and its partner's addresses, as a partner may not refer themself) is told to
// every process (SettingsClock in platform/db/db.ts), so that each may keep them in memory and
// still drop a revoked token at once. SQLite counts the changes in a row each process
// reads; PostgreSQL tells listeners at commit (NOTIFY) and the writer at once (NOTICE), per
// schema. An endpoint's delivery bookkeeping (failing_since) changes often and is not a
// setting.
// The channel and the notice are platform/db/pg-settings.ts's SETTINGS_CHANNEL and
// SETTINGS_NOTICE as they were, written out so this file stays frozen: if those change, a
// new migration replaces the function.

import type { Migration } from './migration.js';

const migration: Migration = {
  sqlite: [
    `CREATE TABLE settings_version (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)`,
    `INSERT INTO settings_version (id, n) VALUES (1, 0)`,
    `CREATE TRIGGER tokens_settings_0 AFTER INSERT ON tokens
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER tokens_settings_1 AFTER DELETE ON tokens
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER tokens_settings_2 AFTER UPDATE ON tokens
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER programs_settings_0 AFTER INSERT ON programs
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER programs_settings_1 AFTER DELETE ON programs
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER programs_settings_2 AFTER UPDATE ON programs
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER program_origins_settings_0 AFTER INSERT ON program_origins
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER program_origins_settings_1 AFTER DELETE ON program_origins
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER program_origins_settings_2 AFTER UPDATE ON program_origins
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER webhook_endpoints_settings_0 AFTER INSERT ON webhook_endpoints
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER webhook_endpoints_settings_1 AFTER DELETE ON webhook_endpoints
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER webhook_endpoints_settings_2 AFTER UPDATE OF enabled, event_types ON webhook_endpoints
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER slugs_settings_0 AFTER INSERT ON slugs
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER slugs_settings_1 AFTER DELETE ON slugs
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER slugs_settings_2 AFTER UPDATE ON slugs
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER partnerships_settings_0 AFTER INSERT ON partnerships
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER partnerships_settings_1 AFTER DELETE ON partnerships
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER partnerships_settings_2 AFTER UPDATE ON partnerships
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER partners_settings_0 AFTER INSERT ON partners
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER partners_settings_1 AFTER DELETE ON partners
           BEGIN UPDATE settings_version SET n = n + 1; END`,
    `CREATE TRIGGER partners_settings_2 AFTER UPDATE ON partners
           BEGIN UPDATE settings_version SET n = n + 1; END`,
  ],
  postgres: [
    `CREATE FUNCTION settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       PERFORM pg_notify('tally_settings', current_schema());
       RAISE NOTICE 'tally: settings changed';
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER tokens_settings AFTER INSERT OR DELETE OR UPDATE ON tokens
         FOR EACH STATEMENT EXECUTE FUNCTION settings_changed()`,
    `CREATE TRIGGER programs_settings AFTER INSERT OR DELETE OR UPDATE ON programs
         FOR EACH STATEMENT EXECUTE FUNCTION settings_changed()`,
    `CREATE TRIGGER program_origins_settings AFTER INSERT OR DELETE OR UPDATE ON program_origins
         FOR EACH STATEMENT EXECUTE FUNCTION settings_changed()`,
    `CREATE TRIGGER webhook_endpoints_settings AFTER INSERT OR DELETE OR UPDATE OF enabled, event_types ON webhook_endpoints
         FOR EACH STATEMENT EXECUTE FUNCTION settings_changed()`,
    `CREATE TRIGGER slugs_settings AFTER INSERT OR DELETE OR UPDATE ON slugs
         FOR EACH STATEMENT EXECUTE FUNCTION settings_changed()`,
    `CREATE TRIGGER partnerships_settings AFTER INSERT OR DELETE OR UPDATE ON partnerships
         FOR EACH STATEMENT EXECUTE FUNCTION settings_changed()`,
    `CREATE TRIGGER partners_settings AFTER INSERT OR DELETE OR UPDATE ON partners
         FOR EACH STATEMENT EXECUTE FUNCTION settings_changed()`,
  ],
};

export default migration;
