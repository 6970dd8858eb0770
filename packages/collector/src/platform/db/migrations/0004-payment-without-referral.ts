// Erasing a person deletes their referral; their payments and commissions stay, for
// the accounts, without the link. The rebuild is how SQLite drops a NOT NULL.

import type { Migration } from './migration.js';

const migration: Migration = {
  postgres: `
  ALTER TABLE payments ALTER COLUMN referral_id DROP NOT NULL;
  CREATE INDEX payments_referral ON payments (referral_id);
  `,
  sqlite: `
  CREATE TABLE payments_new (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    idempotency_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    referral_id TEXT REFERENCES referrals(id),
    commission_id TEXT NOT NULL REFERENCES commissions(id),
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (program_id, idempotency_key)
  );
  INSERT INTO payments_new
    SELECT id, program_id, idempotency_key, request_hash, referral_id, commission_id, amount, currency, created_at, updated_at
    FROM payments;
  DROP TABLE payments;
  ALTER TABLE payments_new RENAME TO payments;
  CREATE INDEX payments_commission ON payments (commission_id);
  CREATE INDEX payments_referral ON payments (referral_id);
  `,
};

export default migration;
