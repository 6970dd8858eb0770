// Issue 32, rewards: a program's partners are in groups, each with its own rewards (a
// lead, a sale, a click: modules/rewards/model.ts), holding period, minimum payout and
// rules that move a partnership to another group when its totals cross a threshold.
// Every program gets a default group, which every partnership joins, and the default
// group's sale reward is the program's rate and recurring limit as they were (`base`: the
// program's commission_rate_bps and recurring_months read and write it), so an upgraded
// database pays exactly what it paid. A commission names the reward that made it.
// Groups and rewards are settings: every process keeps them in memory (0014's triggers).

import type { Migration } from './migration.js';

const tables = [
  `CREATE TABLE partner_groups (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    name TEXT NOT NULL,
    slug TEXT NOT NULL,
    is_default INTEGER NOT NULL DEFAULT 0,
    hold_days INTEGER,
    minimum_payout TEXT,
    auto_accept INTEGER,
    takes_applications INTEGER NOT NULL DEFAULT 1,
    move_rules TEXT NOT NULL DEFAULT '[]',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (program_id, slug)
  )`,
  'CREATE UNIQUE INDEX partner_groups_default ON partner_groups (program_id) WHERE is_default = 1',
  'CREATE INDEX partner_groups_list ON partner_groups (program_id, created_at DESC, id DESC)',
  `CREATE TABLE rewards (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    group_id TEXT NOT NULL REFERENCES partner_groups(id) ON DELETE CASCADE,
    event TEXT NOT NULL,
    kind TEXT NOT NULL,
    amount BIGINT NOT NULL,
    currency TEXT,
    duration_kind TEXT NOT NULL,
    duration_months INTEGER,
    conditions TEXT,
    daily_cap BIGINT,
    position INTEGER NOT NULL DEFAULT 0,
    base INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  )`,
  'CREATE INDEX rewards_group ON rewards (group_id, program_id)',
  'CREATE INDEX rewards_list ON rewards (program_id, created_at DESC, id DESC)',
  `CREATE TABLE group_moves (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    partnership_id TEXT NOT NULL REFERENCES partnerships(id) ON DELETE CASCADE,
    partner_id TEXT NOT NULL,
    from_group_id TEXT,
    to_group_id TEXT NOT NULL,
    moved_by TEXT NOT NULL,
    rule TEXT,
    reason TEXT NOT NULL,
    created_at BIGINT NOT NULL
  )`,
  'CREATE INDEX group_moves_list ON group_moves (program_id, created_at DESC, id DESC)',
  'CREATE INDEX group_moves_partnership ON group_moves (partnership_id, program_id, created_at DESC, id DESC)',
  // A rule moves a partnership once: the crossing it answered is recorded by this key.
  'CREATE UNIQUE INDEX group_moves_once ON group_moves (partnership_id, rule)',
  // A click reward pays a partnership once per UTC day: the day is settled here, with its commission if it earned.
  `CREATE TABLE click_reward_days (
    program_id TEXT NOT NULL REFERENCES programs(id),
    partnership_id TEXT NOT NULL REFERENCES partnerships(id) ON DELETE CASCADE,
    day BIGINT NOT NULL,
    visitors BIGINT NOT NULL,
    commission_id TEXT,
    PRIMARY KEY (partnership_id, day)
  )`,
  'CREATE INDEX click_reward_days_program ON click_reward_days (program_id, day)',
  'ALTER TABLE partnerships ADD COLUMN group_id TEXT REFERENCES partner_groups(id)',
  'CREATE INDEX partnerships_group ON partnerships (group_id, program_id)',
  'ALTER TABLE commissions ADD COLUMN reward_id TEXT',
  'ALTER TABLE commissions ADD COLUMN reward_description TEXT',
  `INSERT INTO partner_groups (id, program_id, name, slug, is_default, created_at, updated_at)
     SELECT 'grp_' || id, id, 'Default', 'default', 1, created_at, updated_at FROM programs`,
  `INSERT INTO rewards (id, program_id, group_id, event, kind, amount, duration_kind, duration_months, base, created_at, updated_at)
     SELECT 'rwd_' || id, id, 'grp_' || id, 'sale', 'percentage', commission_rate_bps,
            CASE WHEN recurring_months = 0 THEN 'lifetime' ELSE 'months' END,
            CASE WHEN recurring_months = 0 THEN NULL ELSE recurring_months END, 1, created_at, updated_at
       FROM programs`,
  `UPDATE partnerships SET group_id = 'grp_' || program_id`,
];

const sqliteTriggers = ['partner_groups', 'rewards'].flatMap((t) =>
  ['INSERT', 'DELETE', 'UPDATE'].map(
    (op, i) => `CREATE TRIGGER ${t}_settings_${i} AFTER ${op} ON ${t} BEGIN UPDATE settings_version SET n = n + 1; END`,
  ),
);
const postgresTriggers = ['partner_groups', 'rewards'].map(
  (t) => `CREATE TRIGGER ${t}_settings AFTER INSERT OR DELETE OR UPDATE ON ${t} FOR EACH STATEMENT EXECUTE FUNCTION settings_changed()`,
);

const migration: Migration = { sqlite: [...tables, ...sqliteTriggers], postgres: [...tables, ...postgresTriggers] };

export default migration;
