// Issue 36, notifications: the e-mails partners and owners get, written in the transaction
// of the change they tell of and sent beside the requests (modules/notifications). A row is
// kept after it is sent: its key makes it once (a day's digest, a week's summary) and its
// unsubscribe token's hash answers the one-click link. Opt-outs are per person and kind;
// a declined partnership keeps the reason its partner is told.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE notifications (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    audience TEXT NOT NULL,
    recipient_id TEXT,
    dedupe_key TEXT NOT NULL UNIQUE,
    data TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    unsubscribe_hash TEXT UNIQUE,
    created_at BIGINT NOT NULL,
    sent_at BIGINT
  );
  CREATE INDEX notifications_due ON notifications (next_attempt_at) WHERE state = 'pending';
  CREATE INDEX notifications_created ON notifications (created_at);
  CREATE INDEX notifications_program ON notifications (program_id, created_at);
  CREATE TABLE notification_optouts (
    audience TEXT NOT NULL,
    person_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (audience, person_id, kind)
  );
  ALTER TABLE partnerships ADD COLUMN decline_reason TEXT;
  `;

export default migration;
