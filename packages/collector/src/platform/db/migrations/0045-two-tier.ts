// Issue 45, two-tier referrals (docs/two-tier.md): a program's two-tier settings (a setting
// every process keeps in memory, hence 0014's triggers), who recruited a partnership (made by
// its application through a recruiter's link; no foreign keys, as a partner without history may
// still be deleted and reads join the partnerships), and one row per recruit's commission that paid
// its recruiter a share: its primary key is what makes that share once per source commission,
// however many processes react at once. commissions.tier_of names the source on the share and
// on its clawbacks, so every commission says its tier.

import type { Migration } from './migration.js';

const tables = [
  `ALTER TABLE commissions ADD COLUMN tier_of TEXT`,
  `CREATE TABLE two_tier_settings (
    program_id TEXT PRIMARY KEY REFERENCES programs(id),
    enabled INTEGER NOT NULL DEFAULT 0,
    share_bps INTEGER NOT NULL,
    duration_months INTEGER,
    caps TEXT NOT NULL DEFAULT '{}',
    updated_at BIGINT NOT NULL
  )`,
  `CREATE TABLE recruitments (
    partnership_id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL,
    recruiter_id TEXT NOT NULL,
    created_at BIGINT NOT NULL
  )`,
  `CREATE INDEX recruitments_recruiter ON recruitments (recruiter_id)`,
  `CREATE TABLE second_tiers (
    source_id TEXT PRIMARY KEY REFERENCES commissions(id),
    commission_id TEXT NOT NULL UNIQUE REFERENCES commissions(id),
    program_id TEXT NOT NULL,
    recruit_id TEXT NOT NULL REFERENCES partnerships(id),
    currency TEXT NOT NULL,
    source_amount BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    created_at BIGINT NOT NULL
  )`,
  `CREATE INDEX second_tiers_recruit ON second_tiers (recruit_id, currency)`,
];

const migration: Migration = {
  sqlite: [
    ...tables,
    ...['INSERT', 'DELETE', 'UPDATE'].map(
      (op, i) =>
        `CREATE TRIGGER two_tier_settings_settings_${i} AFTER ${op} ON two_tier_settings BEGIN UPDATE settings_version SET n = n + 1; END`,
    ),
  ],
  postgres: [
    ...tables,
    `CREATE TRIGGER two_tier_settings_settings AFTER INSERT OR DELETE OR UPDATE ON two_tier_settings FOR EACH STATEMENT EXECUTE FUNCTION settings_changed()`,
  ],
};

export default migration;
