// Issue 33, promotion codes: a discount (percent or amount off, once, for some months or
// for ever) belongs to a partner group or to the whole program; a code belongs to one
// partnership, unique in its program whatever its case, and credits its partner's sales
// where no link did. A program says whether a code used by another partner's referral
// takes the payment (`code_wins`), or the referral stands.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE discounts (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    group_id TEXT REFERENCES partner_groups(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    amount BIGINT NOT NULL,
    currency TEXT,
    duration_kind TEXT NOT NULL,
    duration_months INTEGER,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE INDEX discounts_list ON discounts (program_id, created_at DESC, id DESC);
  CREATE INDEX discounts_group ON discounts (group_id, program_id);
  CREATE TABLE discount_codes (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    partnership_id TEXT NOT NULL REFERENCES partnerships(id) ON DELETE CASCADE,
    partner_id TEXT NOT NULL,
    discount_id TEXT REFERENCES discounts(id) ON DELETE SET NULL,
    code TEXT NOT NULL,
    code_norm TEXT NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 1,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (program_id, code_norm)
  );
  CREATE INDEX discount_codes_list ON discount_codes (program_id, created_at DESC, id DESC);
  CREATE INDEX discount_codes_partnership ON discount_codes (partnership_id, program_id, created_at DESC, id DESC);
  CREATE INDEX discount_codes_discount ON discount_codes (discount_id);
  ALTER TABLE programs ADD COLUMN code_wins INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE payments ADD COLUMN discount_code_id TEXT;
  `;

export default migration;
