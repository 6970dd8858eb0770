// Issue 45, part 1: bounties. A bounty is a program's offer of a flat amount, for a period,
// to the partners of its groups (none named: all of them): a performance bounty awards it
// once a partner's own records reach a target, once per partner (bounty_awards' key, which
// two processes race on safely); a submission bounty pays each submission an owner approves.
// Submissions go with their partnership when a partner without history is deleted.

import type { Migration } from './migration.js';

const tables = `
  CREATE TABLE bounties (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL,
    group_ids TEXT NOT NULL DEFAULT '[]',
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    metric TEXT,
    target BIGINT,
    max_submissions INTEGER,
    max_urls INTEGER,
    max_text INTEGER,
    requires_url INTEGER NOT NULL DEFAULT 0,
    archived_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE INDEX bounties_list ON bounties (program_id, created_at DESC, id DESC);
  CREATE TABLE bounty_awards (
    bounty_id TEXT NOT NULL REFERENCES bounties(id),
    partner_id TEXT NOT NULL REFERENCES partners(id),
    program_id TEXT NOT NULL REFERENCES programs(id),
    commission_id TEXT NOT NULL REFERENCES commissions(id),
    progress BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (bounty_id, partner_id)
  );
  CREATE INDEX bounty_awards_partner ON bounty_awards (partner_id, program_id);
  CREATE TABLE bounty_submissions (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    bounty_id TEXT NOT NULL REFERENCES bounties(id),
    partner_id TEXT NOT NULL REFERENCES partners(id) ON DELETE CASCADE,
    partnership_id TEXT NOT NULL REFERENCES partnerships(id) ON DELETE CASCADE,
    urls TEXT NOT NULL,
    text TEXT NOT NULL,
    state TEXT NOT NULL,
    reject_reason TEXT,
    commission_id TEXT REFERENCES commissions(id),
    decided_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE INDEX bounty_submissions_list ON bounty_submissions (program_id, created_at DESC, id DESC);
  CREATE INDEX bounty_submissions_bounty ON bounty_submissions (program_id, bounty_id, created_at DESC, id DESC);
  CREATE INDEX bounty_submissions_partner ON bounty_submissions (partner_id, program_id, created_at DESC, id DESC);
  CREATE INDEX bounty_submissions_partnership ON bounty_submissions (partnership_id)
  `;

// A program's bounties are settings (kept in memory): every payment and sign-up asks whether it has any.
const sqliteTriggers = ['INSERT', 'DELETE', 'UPDATE'].map(
  (op, i) => `CREATE TRIGGER bounties_settings_${i} AFTER ${op} ON bounties BEGIN UPDATE settings_version SET n = n + 1; END`,
);
const postgresTrigger =
  'CREATE TRIGGER bounties_settings AFTER INSERT OR DELETE OR UPDATE ON bounties FOR EACH STATEMENT EXECUTE FUNCTION settings_changed()';

/** One statement per entry: the triggers' bodies hold `;`. */
const statements = tables
  .split(';')
  .map((s) => s.trim())
  .filter((s) => s.length > 0);

const migration: Migration = { sqlite: [...statements, ...sqliteTriggers], postgres: [...statements, postgresTrigger] };

export default migration;
