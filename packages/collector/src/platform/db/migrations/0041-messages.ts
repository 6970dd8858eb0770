// Issue 45, part 2: messages. One thread per partnership (its id is the partnership's), with
// each side's unread count and when it last read; its messages, each from the team or the
// partner; and broadcasts, written once and delivered as a message into each thread of their
// audience, now or at send_at. UNIQUE (broadcast_id, thread_id) keeps a broadcast's message
// to a thread once, whichever process delivers it.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE message_threads (
    id TEXT PRIMARY KEY REFERENCES partnerships(id),
    program_id TEXT NOT NULL REFERENCES programs(id),
    partner_id TEXT NOT NULL REFERENCES partners(id),
    last_message_at BIGINT NOT NULL,
    team_unread INTEGER NOT NULL DEFAULT 0,
    partner_unread INTEGER NOT NULL DEFAULT 0,
    team_read_at BIGINT NOT NULL DEFAULT 0,
    partner_read_at BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX message_threads_recent ON message_threads (program_id, last_message_at DESC, id DESC);
  CREATE INDEX message_threads_partner ON message_threads (partner_id);
  CREATE TABLE broadcasts (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    group_id TEXT,
    bodies TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('scheduled', 'sent')),
    send_at BIGINT NOT NULL,
    sent_at BIGINT,
    recipients INTEGER,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX broadcasts_list ON broadcasts (program_id, created_at DESC, id DESC);
  CREATE INDEX broadcasts_due ON broadcasts (state, send_at);
  CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    thread_id TEXT NOT NULL REFERENCES message_threads(id),
    author TEXT NOT NULL CHECK (author IN ('team', 'partner')),
    author_id TEXT,
    body TEXT NOT NULL,
    broadcast_id TEXT REFERENCES broadcasts(id),
    created_at BIGINT NOT NULL,
    UNIQUE (broadcast_id, thread_id)
  );
  CREATE INDEX messages_thread ON messages (thread_id, created_at DESC, id DESC);
  `;

export default migration;
