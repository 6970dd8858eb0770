// Issue 44, money that comes back after payment: each Stripe reversal of a paid payout's
// transfer, recorded once by its id (and the commission that owes its amount to the partner
// again), the payout's reversed total, and credit notes correcting a paid payout's invoice,
// numbered per program without gaps in a sequence of their own (CN-), as invoices are.

import type { Migration } from './migration.js';

const migration: Migration = `
  ALTER TABLE payout_run_items ADD COLUMN amount_reversed BIGINT NOT NULL DEFAULT 0;
  CREATE TABLE payout_reversals (
    item_id TEXT NOT NULL REFERENCES payout_run_items(id),
    reversal_id TEXT NOT NULL,
    program_id TEXT NOT NULL REFERENCES programs(id),
    amount BIGINT NOT NULL,
    commission_id TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (item_id, reversal_id)
  );
  CREATE TABLE credit_note_counters (
    program_id TEXT PRIMARY KEY REFERENCES programs(id),
    last_number INTEGER NOT NULL
  );
  CREATE TABLE credit_notes (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    partner_id TEXT NOT NULL REFERENCES partners(id),
    payout_id TEXT NOT NULL,
    invoice_id TEXT NOT NULL REFERENCES invoices(id),
    cause TEXT NOT NULL,
    number INTEGER NOT NULL,
    label TEXT NOT NULL,
    currency TEXT NOT NULL,
    amount BIGINT NOT NULL,
    issued_at BIGINT NOT NULL,
    data TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (program_id, number),
    UNIQUE (invoice_id, cause)
  );
  CREATE INDEX credit_notes_list ON credit_notes (program_id, created_at DESC, id DESC);
  CREATE INDEX credit_notes_partner ON credit_notes (partner_id, program_id, created_at DESC, id DESC);
  CREATE INDEX credit_notes_payout ON credit_notes (program_id, payout_id, created_at DESC, id DESC);
  `;

export default migration;
