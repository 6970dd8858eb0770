// Issue 44, payout methods chosen by the partner: per partner record of a program (where
// paypal_email lives), one method (PayPal, Stripe Connect Express or Wise) with what makes it
// ready; and per program, which methods it offers and to which countries, and its Wise key.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE payout_methods (
    program_id TEXT NOT NULL REFERENCES programs(id),
    partner_id TEXT NOT NULL REFERENCES partners(id) ON DELETE CASCADE,
    method TEXT NOT NULL,
    country TEXT,
    paypal_email TEXT,
    paypal_confirmed_at BIGINT,
    confirm_hash TEXT,
    confirm_expires_at BIGINT,
    stripe_account_id TEXT,
    stripe_payouts_enabled INTEGER NOT NULL DEFAULT 0,
    stripe_currently_due TEXT NOT NULL DEFAULT '[]',
    stripe_synced_at BIGINT NOT NULL DEFAULT 0,
    wise_recipient_id TEXT,
    wise_currency TEXT,
    wise_display TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (program_id, partner_id)
  );
  CREATE INDEX payout_methods_partner ON payout_methods (partner_id);
  CREATE UNIQUE INDEX payout_methods_confirm ON payout_methods (confirm_hash);
  CREATE UNIQUE INDEX payout_methods_stripe_account ON payout_methods (program_id, stripe_account_id);
  CREATE TABLE payout_method_settings (
    program_id TEXT PRIMARY KEY REFERENCES programs(id),
    offered TEXT NOT NULL,
    countries TEXT NOT NULL,
    wise_api_token TEXT,
    wise_profile_id TEXT,
    wise_source_currency TEXT NOT NULL DEFAULT 'USD',
    updated_at BIGINT NOT NULL
  );
  `;

export default migration;
