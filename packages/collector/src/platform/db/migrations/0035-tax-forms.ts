// Issue 44, tax forms: a partner's W-9 or W-8BEN / W-8BEN-E for one program (the payer),
// each given form kept (the latest counts), its taxpayer id encrypted (tin_ciphertext, with
// the id of the key that sealed it) and only its last four characters in the clear; and
// whether a program pays only partners with a valid form (off by default). A partner
// deleted (one with no history) takes their forms, and so their taxpayer ids, with them.

import type { Migration } from './migration.js';

const migration: Migration = `
  CREATE TABLE tax_forms (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    partner_id TEXT NOT NULL REFERENCES partners(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    business_name TEXT,
    tax_classification TEXT,
    country TEXT,
    address_line1 TEXT NOT NULL,
    address_line2 TEXT,
    city TEXT NOT NULL,
    region TEXT,
    postal_code TEXT,
    address_country TEXT NOT NULL,
    tin_ciphertext TEXT NOT NULL,
    tin_key_id TEXT NOT NULL,
    tin_last4 TEXT NOT NULL,
    date_of_birth TEXT,
    signature_name TEXT NOT NULL,
    signed_ip TEXT NOT NULL,
    signed_at BIGINT NOT NULL,
    expires_at BIGINT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX tax_forms_partner ON tax_forms (program_id, partner_id, signed_at DESC, id DESC);
  CREATE INDEX tax_forms_partner_fk ON tax_forms (partner_id);
  CREATE TABLE tax_form_settings (
    program_id TEXT PRIMARY KEY REFERENCES programs(id),
    required INTEGER NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
  );
  `;

export default migration;
