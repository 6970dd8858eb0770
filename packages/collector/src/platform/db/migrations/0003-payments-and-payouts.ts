// Payments create commissions; payouts group pending commissions into an export.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE payments (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    idempotency_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    referral_id TEXT NOT NULL REFERENCES referrals(id),
    commission_id TEXT NOT NULL REFERENCES commissions(id),
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (program_id, idempotency_key)
  );
  CREATE INDEX payments_commission ON payments (commission_id);
  CREATE INDEX referrals_uid ON referrals (program_id, uid);

  CREATE TABLE payout_batches (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    currency TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    paid_at BIGINT
  );
  CREATE TABLE payout_items (
    batch_id TEXT NOT NULL REFERENCES payout_batches(id),
    commission_id TEXT NOT NULL REFERENCES commissions(id),
    partner_id TEXT NOT NULL,
    amount BIGINT NOT NULL,
    PRIMARY KEY (batch_id, commission_id)
  );
  `;

export default migration;
