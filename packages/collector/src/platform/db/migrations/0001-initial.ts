// The first schema: programs and their tokens, partners, partnerships and the slugs that
// credit them, clicks, referrals and commissions.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE programs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    site_url TEXT NOT NULL,
    commission_rate_bps INTEGER NOT NULL DEFAULT 2000,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE program_origins (
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    origin TEXT NOT NULL,
    PRIMARY KEY (program_id, origin)
  );
  CREATE TABLE tokens (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('secret', 'publishable')),
    hash TEXT NOT NULL UNIQUE,
    hint TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
  );
  CREATE INDEX tokens_program ON tokens (program_id, created_at);

  CREATE TABLE partners (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    email_norm TEXT NOT NULL,
    paypal_email TEXT,
    paypal_email_norm TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (program_id, email_norm)
  );
  CREATE INDEX partners_list ON partners (program_id, created_at DESC, id DESC);
  CREATE INDEX partners_name ON partners (program_id, name, created_at DESC, id DESC);
  CREATE INDEX partners_paypal ON partners (program_id, paypal_email_norm, created_at DESC, id DESC);

  CREATE TABLE partnerships (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    partner_id TEXT NOT NULL REFERENCES partners(id),
    key TEXT NOT NULL,
    state TEXT NOT NULL,
    competitor_slugs TEXT NOT NULL DEFAULT '[]',
    created_by TEXT NOT NULL,
    commission_rate_bps INTEGER,
    state_set_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (program_id, partner_id)
  );
  CREATE INDEX partnerships_list ON partnerships (program_id, created_at DESC, id DESC);
  CREATE INDEX partnerships_state ON partnerships (program_id, state, created_at DESC, id DESC);

  -- Every slug that can credit a partnership: its key and its competitor slugs. One
  -- table makes them unique together, so a link can never credit two partnerships.
  CREATE TABLE slugs (
    program_id TEXT NOT NULL,
    slug TEXT NOT NULL,
    partnership_id TEXT NOT NULL REFERENCES partnerships(id) ON DELETE CASCADE,
    PRIMARY KEY (program_id, slug)
  );
  CREATE INDEX slugs_partnership ON slugs (partnership_id);

  CREATE TABLE clicks (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL,
    partnership_id TEXT NOT NULL REFERENCES partnerships(id) ON DELETE CASCADE,
    gr_id TEXT NOT NULL,
    pk TEXT NOT NULL,
    url TEXT,
    referrer TEXT,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
  );
  CREATE INDEX clicks_gr_id ON clicks (program_id, gr_id, last_seen_at DESC);
  CREATE INDEX clicks_partnership ON clicks (partnership_id, created_at);

  CREATE TABLE referrals (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    partnership_id TEXT NOT NULL REFERENCES partnerships(id),
    partner_id TEXT NOT NULL REFERENCES partners(id),
    email TEXT NOT NULL,
    email_norm TEXT NOT NULL,
    gr_id TEXT NOT NULL,
    uid TEXT,
    state TEXT NOT NULL,
    state_set_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (program_id, email_norm)
  );
  CREATE INDEX referrals_list ON referrals (program_id, created_at DESC, id DESC);
  CREATE INDEX referrals_state ON referrals (program_id, state, created_at DESC, id DESC);
  CREATE INDEX referrals_partner ON referrals (program_id, partner_id, created_at DESC, id DESC);
  CREATE INDEX referrals_state_set ON referrals (program_id, state_set_at);

  CREATE TABLE commissions (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    partner_id TEXT NOT NULL REFERENCES partners(id),
    referral_id TEXT REFERENCES referrals(id),
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    state TEXT NOT NULL,
    reject_reason TEXT,
    state_set_at BIGINT NOT NULL,
    paid_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE INDEX commissions_list ON commissions (program_id, created_at DESC, id DESC);
  CREATE INDEX commissions_state ON commissions (program_id, state, created_at DESC, id DESC);
  CREATE INDEX commissions_partner ON commissions (program_id, partner_id, created_at DESC, id DESC);
  CREATE INDEX commissions_state_set ON commissions (program_id, state_set_at);
  CREATE INDEX commissions_referral ON commissions (referral_id);
  `;

export default migration;
