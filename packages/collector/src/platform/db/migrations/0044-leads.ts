// Issue 45, submitted leads (docs/leads.md): a person a partner names before they sign up,
// moved by the owner from new through qualified to won (then linked to its referral) or
// lost (with the reason). Indexed for the list's filters and for the duplicate checks by
// e-mail and by company domain, which look back a window from now.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE leads (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    partner_id TEXT NOT NULL REFERENCES partners(id),
    partnership_id TEXT NOT NULL REFERENCES partnerships(id),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    email_norm TEXT NOT NULL,
    domain TEXT,
    company TEXT,
    notes TEXT,
    stage TEXT NOT NULL,
    stage_set_at BIGINT NOT NULL,
    lost_reason TEXT,
    referral_id TEXT,
    submitted_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE INDEX leads_list ON leads (program_id, created_at DESC, id DESC);
  CREATE INDEX leads_stage ON leads (program_id, stage, created_at DESC, id DESC);
  CREATE INDEX leads_partner ON leads (partner_id, program_id, created_at DESC, id DESC);
  CREATE INDEX leads_email ON leads (program_id, email_norm, created_at DESC, id DESC);
  CREATE INDEX leads_domain ON leads (program_id, domain, created_at DESC);
  CREATE INDEX leads_partnership_fk ON leads (partnership_id);
  `;

export default migration;
