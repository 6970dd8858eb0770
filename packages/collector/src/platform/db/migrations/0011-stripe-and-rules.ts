// Stripe (docs/stripe.md) and the commission rules. A program's endpoint id names its
// webhook URL; its signing secrets are kept as given, since verifying a signature needs
// them. A payment keeps when it was made (recurring limits count from the first), what
// its charge was (a refund is a share of that), how much of it was refunded and what it
// earned at first (partial refunds reduce in proportion). A commission becomes payable
// after the holding period, is held while its payment is disputed, and a negative one
// (a clawback) names the commission it takes back from. Links map Stripe's ids to a
// referral (customers) or a payment (invoices, payment intents, charges, sessions).
// Its last statements refill the statistics by the recount as it was then (modules/stats/repo.ts
// has its own, which may since have changed): a fresh database and an upgraded one get
// the same tables.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE programs ADD COLUMN recurring_months INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE programs ADD COLUMN hold_days INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE programs ADD COLUMN minimum_payout TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE programs ADD COLUMN stripe_endpoint_id TEXT;
  CREATE UNIQUE INDEX programs_stripe_endpoint ON programs (stripe_endpoint_id);
  ALTER TABLE partnerships ADD COLUMN recurring_months INTEGER;
  ALTER TABLE partnerships ADD COLUMN hold_days INTEGER;
  ALTER TABLE partnerships ADD COLUMN minimum_payout TEXT;
  ALTER TABLE payments ADD COLUMN occurred_at BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE payments ADD COLUMN gross BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE payments ADD COLUMN refunded_gross BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE payments ADD COLUMN refunded BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE payments ADD COLUMN earned BIGINT NOT NULL DEFAULT 0;
  UPDATE payments SET occurred_at = created_at, gross = amount,
         earned = (SELECT c.amount FROM commissions c WHERE c.id = payments.commission_id);
  UPDATE payments SET refunded = amount, refunded_gross = gross
   WHERE commission_id IN (SELECT id FROM commissions WHERE state = 'rejected' AND reject_reason = 'refunded');
  CREATE INDEX payments_referral_time ON payments (referral_id, occurred_at);
  ALTER TABLE commissions ADD COLUMN payable_at BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE commissions ADD COLUMN on_hold INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE commissions ADD COLUMN clawback_of TEXT REFERENCES commissions(id);
  UPDATE commissions SET payable_at = created_at;
  CREATE INDEX commissions_clawback ON commissions (clawback_of);
  CREATE INDEX referrals_gr_id ON referrals (program_id, gr_id);
  CREATE TABLE stripe_secrets (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    secret TEXT NOT NULL,
    label TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX stripe_secrets_program ON stripe_secrets (program_id, created_at);
  CREATE TABLE stripe_links (
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    stripe_id TEXT NOT NULL,
    target_id TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (program_id, stripe_id)
  );
  CREATE INDEX stripe_links_target ON stripe_links (target_id);
  CREATE TABLE stripe_events (
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    type TEXT NOT NULL,
    livemode INTEGER NOT NULL,
    stripe_created BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    processed_at BIGINT NOT NULL,
    attempts INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    reason TEXT,
    touched TEXT NOT NULL,
    waiting_on TEXT,
    referral_id TEXT,
    payload TEXT NOT NULL,
    PRIMARY KEY (program_id, id)
  );
  CREATE INDEX stripe_events_list ON stripe_events (program_id, created_at DESC, id DESC);
  CREATE INDEX stripe_events_type ON stripe_events (program_id, type, created_at DESC, id DESC);
  CREATE INDEX stripe_events_outcome ON stripe_events (program_id, outcome, created_at DESC, id DESC);
  CREATE INDEX stripe_events_waiting ON stripe_events (program_id, waiting_on);
  CREATE INDEX stripe_events_referral ON stripe_events (referral_id);
  DELETE FROM stat_deltas;
  DELETE FROM stat_buckets;
  INSERT INTO stat_buckets (program_id, partner_id, bucket, currency, clicks, referrals, customers, payments, revenue, commissions, owed) SELECT * FROM (
  SELECT program_id, partner_id, bucket, currency, SUM(clicks) AS clicks, SUM(referrals) AS referrals, SUM(customers) AS customers, SUM(payments) AS payments, SUM(revenue) AS revenue, SUM(commissions) AS commissions, SUM(owed) AS owed FROM (
    SELECT c.program_id, ps.partner_id, (c.created_at / 900) * 900 AS bucket, '' AS currency,
           1 AS clicks, 0 AS referrals, 0 AS customers, 0 AS payments, 0 AS revenue, 0 AS commissions, 0 AS owed
      FROM clicks c JOIN partnerships ps ON ps.id = c.partnership_id
    UNION ALL
    SELECT program_id, partner_id, (created_at / 900) * 900, '', 0, 1, 0, 0, 0, 0, 0 FROM referrals
    UNION ALL
    SELECT p.program_id, cm.partner_id, (p.created_at / 900) * 900, p.currency, 0, 0, p.first_of_referral, 1,
           p.amount - p.refunded, 0, 0
      FROM payments p JOIN commissions cm ON cm.id = p.commission_id
    UNION ALL
    SELECT program_id, partner_id, (created_at / 900) * 900, currency, 0, 0, 0, 0, 0, amount, 0
      FROM commissions WHERE state <> 'rejected'
    UNION ALL
    SELECT program_id, partner_id, -1, currency, 0, 0, 0, 0, 0, 0, amount
      FROM commissions WHERE state = 'pending' AND payout_batch_id IS NULL
  ) t GROUP BY program_id, partner_id, bucket, currency) r;
  INSERT INTO stat_buckets (program_id, partner_id, bucket, currency, clicks, referrals, customers, payments, revenue, commissions, owed)
   SELECT program_id, '', bucket, currency, SUM(clicks) AS clicks, SUM(referrals) AS referrals, SUM(customers) AS customers, SUM(payments) AS payments, SUM(revenue) AS revenue, SUM(commissions) AS commissions, SUM(owed) AS owed FROM stat_buckets GROUP BY program_id, bucket, currency;
  `;

export default migration;
