// Issue 48, the audit log: every change a person or a token made, one row each, written in
// the change's own transaction. Append-only: a trigger refuses every UPDATE but erasure's,
// which may only blank the personal columns (the label, the address, the browser) and the
// snapshots, and must say so in erased_at. DELETE stays open to the retention purge and to
// a program's own deletion (decision 0406).

import type { Migration } from './migration.js';

const table = `
  CREATE TABLE audit_events (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    actor_kind TEXT NOT NULL,
    actor_id TEXT,
    actor_label TEXT,
    action TEXT NOT NULL,
    target_type TEXT NOT NULL,
    target_id TEXT,
    before_data TEXT,
    after_data TEXT,
    ip TEXT,
    user_agent TEXT,
    request_id TEXT,
    created_at BIGINT NOT NULL,
    erased_at BIGINT
  )`;

const indexes = [
  'CREATE INDEX audit_events_list ON audit_events (program_id, created_at, id)',
  'CREATE INDEX audit_events_actor ON audit_events (program_id, actor_id, created_at, id)',
  'CREATE INDEX audit_events_action ON audit_events (program_id, action, created_at, id)',
  'CREATE INDEX audit_events_target ON audit_events (program_id, target_id, created_at, id)',
  'CREATE INDEX audit_events_age ON audit_events (created_at)',
];

// What an UPDATE may not do: touch what the entry says happened, or write anything but a
// blank into the personal columns and the snapshots.
const blanked = ['actor_label', 'ip', 'user_agent', 'before_data', 'after_data'];
const kept = ['id', 'program_id', 'actor_kind', 'actor_id', 'action', 'target_type', 'target_id', 'request_id', 'created_at'];
const refused = (distinct: string) =>
  [
    'NEW.erased_at IS NULL',
    ...blanked.map((c) => `(NEW.${c} IS NOT NULL AND NEW.${c} ${distinct} OLD.${c})`),
    ...kept.map((c) => `NEW.${c} ${distinct} OLD.${c}`),
  ].join(' OR ');

const migration: Migration = {
  sqlite: [
    table,
    ...indexes,
    `CREATE TRIGGER audit_events_append_only BEFORE UPDATE ON audit_events
       WHEN ${refused('IS NOT')}
       BEGIN SELECT RAISE(ABORT, 'audit_events are append-only'); END`,
  ],
  postgres: [
    table,
    ...indexes,
    `CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF ${refused('IS DISTINCT FROM')} THEN
         RAISE EXCEPTION 'audit_events are append-only';
       END IF;
       RETURN NEW;
     END $$`,
    `CREATE TRIGGER audit_events_append_only BEFORE UPDATE ON audit_events
       FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()`,
  ],
};

export default migration;
