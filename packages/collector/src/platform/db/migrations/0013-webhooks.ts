// Outgoing webhooks (docs/webhooks.md). Every change writes its event in its own
// transaction, and a delivery per endpoint that wants it (a transactional outbox);
// deliveries due are claimed by pushing next_attempt_at past a lease, so a process that
// dies mid-send leaves them due again when the lease ends. The partial index holds only
// pending deliveries: the claim reads a few rows whatever the history.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE events (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX events_list ON events (program_id, created_at DESC, id DESC);
  CREATE INDEX events_type ON events (program_id, type, created_at DESC, id DESC);
  CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    event_types TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    disabled_reason TEXT,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_secret_until BIGINT,
    failing_since BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE INDEX webhook_endpoints_list ON webhook_endpoints (program_id, created_at DESC, id DESC);
  CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    event_type TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    claims INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    last_status INTEGER,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
  CREATE INDEX webhook_deliveries_list ON webhook_deliveries (program_id, endpoint_id, created_at DESC, id DESC);
  CREATE INDEX webhook_deliveries_state ON webhook_deliveries (program_id, endpoint_id, state, created_at DESC, id DESC);
  CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
  CREATE TABLE webhook_attempts (
    id TEXT PRIMARY KEY,
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    attempted_at BIGINT NOT NULL,
    duration_ms INTEGER NOT NULL,
    status INTEGER,
    error TEXT,
    response TEXT NOT NULL
  );
  CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempted_at);
  `;

export default migration;
