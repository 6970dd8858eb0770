// Issue 44, item 5: a self-billing invoice for each partner's share of a paid payout.
// Numbers are gapless per program: invoice_counters holds the last one given, raised in the
// transaction that marks the payout paid, so a rollback gives the number back. An invoice
// keeps what it said (the parties, its lines) in `data`, so a later change of address never
// changes an invoice already issued. The billing fields are optional, both sides.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE programs ADD COLUMN billing_name TEXT;
  ALTER TABLE programs ADD COLUMN billing_address TEXT;
  ALTER TABLE programs ADD COLUMN billing_vat_id TEXT;
  ALTER TABLE partners ADD COLUMN billing_name TEXT;
  ALTER TABLE partners ADD COLUMN billing_address TEXT;
  ALTER TABLE partners ADD COLUMN billing_vat_id TEXT;
  CREATE TABLE invoice_counters (
    program_id TEXT PRIMARY KEY REFERENCES programs(id),
    last_number INTEGER NOT NULL
  );
  CREATE TABLE invoices (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    partner_id TEXT NOT NULL REFERENCES partners(id),
    payout_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    label TEXT NOT NULL,
    currency TEXT NOT NULL,
    amount BIGINT NOT NULL,
    paid_at BIGINT NOT NULL,
    data TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (program_id, number),
    UNIQUE (program_id, payout_id, partner_id)
  );
  CREATE INDEX invoices_list ON invoices (program_id, created_at DESC, id DESC);
  CREATE INDEX invoices_partner ON invoices (partner_id, program_id, created_at DESC, id DESC);
  CREATE INDEX invoices_payout ON invoices (program_id, payout_id, created_at DESC, id DESC);
  `;

export default migration;
