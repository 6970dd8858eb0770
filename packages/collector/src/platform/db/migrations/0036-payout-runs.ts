// Issue 44, payout runs through the providers' APIs (docs/payouts.md, "Payout runs"). A run
// is made, approved and sent; it has one item per partner and currency. Each item is also a
// payout_batches row (same id, run_id set) so that the commissions' one claim
// (commissions.payout_batch_id), the owed counts and payout_items (the item's commissions,
// which notices read) serve runs as they serve the CSV export; the CSV's lists skip them.
// The program's PayPal REST credentials are kept as its Stripe key is, and each provider
// event is recorded once by its id.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE paypal_accounts (
    program_id TEXT PRIMARY KEY REFERENCES programs(id),
    client_id TEXT NOT NULL,
    client_secret TEXT NOT NULL,
    webhook_id TEXT,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE payout_runs (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    provider TEXT NOT NULL,
    state TEXT NOT NULL,
    attempt INTEGER NOT NULL DEFAULT 0,
    created_by TEXT NOT NULL,
    approved_by TEXT,
    created_at BIGINT NOT NULL,
    approved_at BIGINT,
    sent_at BIGINT
  );
  CREATE INDEX payout_runs_program ON payout_runs (program_id, created_at);
  CREATE TABLE payout_run_items (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES payout_runs(id),
    program_id TEXT NOT NULL REFERENCES programs(id),
    partner_id TEXT NOT NULL REFERENCES partners(id),
    currency TEXT NOT NULL,
    amount BIGINT NOT NULL,
    method TEXT NOT NULL,
    address TEXT NOT NULL,
    state TEXT NOT NULL,
    sender_batch_id TEXT,
    provider_batch_id TEXT,
    provider_item_id TEXT,
    reason TEXT,
    state_set_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX payout_run_items_run ON payout_run_items (run_id, currency);
  CREATE INDEX payout_run_items_partner ON payout_run_items (partner_id);
  ALTER TABLE payout_batches ADD COLUMN run_id TEXT REFERENCES payout_runs(id);
  CREATE INDEX payout_batches_run ON payout_batches (run_id);
  CREATE TABLE payout_provider_events (
    provider TEXT NOT NULL,
    event_id TEXT NOT NULL,
    program_id TEXT NOT NULL REFERENCES programs(id),
    event_type TEXT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (provider, event_id)
  );
  CREATE INDEX payout_provider_events_program ON payout_provider_events (program_id);
  `;

export default migration;
