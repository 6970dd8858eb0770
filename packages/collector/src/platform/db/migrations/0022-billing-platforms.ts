// Issue 33, billing platforms beyond Stripe: Stripe's tables become every platform's. Each
// event, secret and link says its platform; the links and events of other platforms keep
// their own ids under a `platform:` prefix, so Stripe's rows stay as they were. A platform
// whose payments do not carry the customer's address (Paddle's) tells it once, when the
// customer is made: billing_customers keeps it for the payments that follow. Lemon
// Squeezy's orders name no code: with the program's API key, Tally asks for it. Discounts
// become settings (0014's triggers): a click's answer names its partner's, from memory.

import type { Migration } from './migration.js';

const tables = `
  ALTER TABLE stripe_events RENAME TO billing_events;
  ALTER TABLE billing_events RENAME COLUMN stripe_created TO platform_created;
  ALTER TABLE billing_events ADD COLUMN platform TEXT NOT NULL DEFAULT 'stripe';
  DROP INDEX stripe_events_list;
  DROP INDEX stripe_events_type;
  DROP INDEX stripe_events_outcome;
  DROP INDEX stripe_events_waiting;
  DROP INDEX stripe_events_referral;
  CREATE INDEX billing_events_list ON billing_events (program_id, created_at DESC, id DESC);
  CREATE INDEX billing_events_platform ON billing_events (program_id, platform, created_at DESC, id DESC);
  CREATE INDEX billing_events_type ON billing_events (program_id, type, created_at DESC, id DESC);
  CREATE INDEX billing_events_outcome ON billing_events (program_id, outcome, created_at DESC, id DESC);
  CREATE INDEX billing_events_waiting ON billing_events (program_id, waiting_on);
  CREATE INDEX billing_events_referral ON billing_events (referral_id);
  ALTER TABLE stripe_links RENAME TO billing_links;
  ALTER TABLE billing_links RENAME COLUMN stripe_id TO external_id;
  DROP INDEX stripe_links_target;
  CREATE INDEX billing_links_target ON billing_links (target_id);
  ALTER TABLE stripe_secrets RENAME TO billing_secrets;
  ALTER TABLE billing_secrets ADD COLUMN platform TEXT NOT NULL DEFAULT 'stripe';
  DROP INDEX stripe_secrets_program;
  CREATE INDEX billing_secrets_program ON billing_secrets (program_id, platform, created_at);
  CREATE TABLE billing_customers (
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    external_id TEXT NOT NULL,
    email_norm TEXT NOT NULL,
    email TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (program_id, external_id)
  );
  CREATE INDEX billing_customers_email ON billing_customers (program_id, email_norm);
  ALTER TABLE programs ADD COLUMN lemonsqueezy_api_key TEXT;
  `;

const sqliteTriggers = ['INSERT', 'DELETE', 'UPDATE'].map(
  (op, i) => `CREATE TRIGGER discounts_settings_${i} AFTER ${op} ON discounts BEGIN UPDATE settings_version SET n = n + 1; END`,
);
const postgresTrigger =
  'CREATE TRIGGER discounts_settings AFTER INSERT OR DELETE OR UPDATE ON discounts FOR EACH STATEMENT EXECUTE FUNCTION settings_changed()';

/** One statement per entry: the triggers' bodies hold `;`. */
const statements = tables
  .split(';')
  .map((s) => s.trim())
  .filter((s) => s.length > 0);

const migration: Migration = { sqlite: [...statements, ...sqliteTriggers], postgres: [...statements, postgresTrigger] };

export default migration;
