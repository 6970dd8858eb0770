// Issue 34, fraud and review: a conversion keeps what review needs as evidence (whether a
// landing of the same visitor came first, a keyed hash of the client's address, its
// browser), and a referral or commission that looks wrong is held (`review`) beside its
// state until an owner decides; each decision is recorded. A program chooses its signals.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE referrals ADD COLUMN landed INTEGER;
  ALTER TABLE referrals ADD COLUMN client_hash TEXT;
  ALTER TABLE referrals ADD COLUMN user_agent TEXT;
  ALTER TABLE referrals ADD COLUMN review TEXT;
  ALTER TABLE referrals ADD COLUMN review_reasons TEXT;
  CREATE INDEX referrals_review ON referrals (program_id, review, created_at DESC, id DESC);
  CREATE INDEX referrals_client ON referrals (program_id, client_hash, created_at);
  ALTER TABLE commissions ADD COLUMN review TEXT;
  ALTER TABLE commissions ADD COLUMN review_reasons TEXT;
  CREATE INDEX commissions_review ON commissions (program_id, review, created_at DESC, id DESC);
  CREATE TABLE review_decisions (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    referral_id TEXT,
    partner_id TEXT NOT NULL,
    decision TEXT NOT NULL,
    reason TEXT NOT NULL,
    decided_by TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX review_decisions_list ON review_decisions (program_id, created_at DESC, id DESC);
  CREATE INDEX review_decisions_referral ON review_decisions (referral_id);
  ALTER TABLE programs ADD COLUMN review_signals TEXT NOT NULL DEFAULT '{}';
  `;

export default migration;
