// Forward-only migrations, applied at start inside one write transaction. Processes
// starting together (servers, the CLI) take one lock first, so exactly one of them
// migrates and the others then see its work. The SQL sticks to what SQLite and
// PostgreSQL share; a step that cannot be shared says it once per engine.

import type { Db, Engine } from './db.js';

type Migration = string | Readonly<Record<Engine, string>>;

const MIGRATIONS: readonly Migration[] = [
  `
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
  `,
  // The demo page's publishable token is replaced at each start; a label finds it.
  `
  ALTER TABLE tokens ADD COLUMN label TEXT;
  CREATE INDEX tokens_label ON tokens (program_id, label);
  `,
  // Payments create commissions; payouts group pending commissions into an export.
  `
  CREATE TABLE payments (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    idempotency_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    referral_id TEXT NOT NULL REFERENCES referrals(id),
    commission_id TEXT NOT NULL REFERENCES commissions(id),
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (program_id, idempotency_key)
  );
  CREATE INDEX payments_commission ON payments (commission_id);
  CREATE INDEX referrals_uid ON referrals (program_id, uid);

  CREATE TABLE payout_batches (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    currency TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    paid_at BIGINT
  );
  CREATE TABLE payout_items (
    batch_id TEXT NOT NULL REFERENCES payout_batches(id),
    commission_id TEXT NOT NULL REFERENCES commissions(id),
    partner_id TEXT NOT NULL,
    amount BIGINT NOT NULL,
    PRIMARY KEY (batch_id, commission_id)
  );
  `,
  // Erasing a person deletes their referral; their payments and commissions stay, for
  // the accounts, without the link. The rebuild is how SQLite drops a NOT NULL.
  {
    postgres: `
  ALTER TABLE payments ALTER COLUMN referral_id DROP NOT NULL;
  CREATE INDEX payments_referral ON payments (referral_id);
  `,
    sqlite: `
  CREATE TABLE payments_new (
    id TEXT PRIMARY KEY,
    program_id TEXT NOT NULL REFERENCES programs(id),
    idempotency_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    referral_id TEXT REFERENCES referrals(id),
    commission_id TEXT NOT NULL REFERENCES commissions(id),
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (program_id, idempotency_key)
  );
  INSERT INTO payments_new
    SELECT id, program_id, idempotency_key, request_hash, referral_id, commission_id, amount, currency, created_at, updated_at
    FROM payments;
  DROP TABLE payments;
  ALTER TABLE payments_new RENAME TO payments;
  CREATE INDEX payments_commission ON payments (commission_id);
  CREATE INDEX payments_referral ON payments (referral_id);
  `,
  },
  // A range on state_set_at from these indexes had to be sorted by created_at afterwards:
  // the whole range, on a large program. Lists walk the created_at indexes instead
  // (store/list.ts, notBeforeCreation).
  `
  DROP INDEX commissions_state_set;
  DROP INDEX referrals_state_set;
  `,
  // Deleting a partner makes the engine check, by foreign key, that no partnership,
  // referral or commission still names it, and deleting its partnership that no referral
  // does. Without an index led by those columns each was a full scan inside the write
  // transaction, which every other write waits for. A conversion writes every index of
  // referrals, so the partner's list index is led by the partner instead of a second
  // index beside it (the program, its other equality, comes second): it serves the
  // `partner_id_eq` lists and the foreign-key check alike. (Separate indexes cost a
  // conversion 23% more CPU: docs/performance.md.) query-plans.test.ts holds these paths,
  // and `forget` across programs (store/referrals.ts), to indexes.
  `
  CREATE INDEX partnerships_partner_fk ON partnerships (partner_id);
  CREATE INDEX referrals_partnership_fk ON referrals (partnership_id);
  DROP INDEX referrals_partner;
  CREATE INDEX referrals_partner ON referrals (partner_id, program_id, created_at DESC, id DESC);
  DROP INDEX commissions_partner;
  CREATE INDEX commissions_partner ON commissions (partner_id, program_id, created_at DESC, id DESC);
  `,
  // A commission belongs to at most one open payout batch: the batch that holds it, or
  // later paid it, is on the commission itself and set by a conditional update, so no two
  // exports can claim it. A batch can be cancelled, which lets go of its commissions. Items
  // keep the payee address as exported, so the file can be written again and checked cell
  // by cell after the partner changes it.
  // Batches from before: the address is the partner's now (the best there is), and a
  // commission that several open batches list (the double export this fixes) belongs to
  // the earliest; mark-paid refuses the others' files.
  `
  ALTER TABLE payout_batches ADD COLUMN cancelled_at BIGINT;
  ALTER TABLE payout_items ADD COLUMN paypal_email TEXT;
  ALTER TABLE commissions ADD COLUMN payout_batch_id TEXT REFERENCES payout_batches(id);
  CREATE INDEX commissions_payout_batch ON commissions (payout_batch_id);
  CREATE INDEX payout_items_commission ON payout_items (commission_id);
  CREATE INDEX payout_batches_program ON payout_batches (program_id, created_at);
  UPDATE payout_items SET paypal_email = (SELECT pa.paypal_email FROM partners pa WHERE pa.id = payout_items.partner_id);
  UPDATE commissions SET payout_batch_id = (
    SELECT i.batch_id FROM payout_items i JOIN payout_batches b ON b.id = i.batch_id
     WHERE i.commission_id = commissions.id AND b.paid_at IS NULL
     ORDER BY b.created_at, b.id LIMIT 1)
   WHERE id IN (SELECT commission_id FROM payout_items) AND state = 'pending';
  UPDATE commissions SET payout_batch_id = (
    SELECT i.batch_id FROM payout_items i JOIN payout_batches b ON b.id = i.batch_id
     WHERE i.commission_id = commissions.id AND b.paid_at IS NOT NULL
     ORDER BY b.paid_at, b.id LIMIT 1)
   WHERE id IN (SELECT commission_id FROM payout_items) AND state = 'paid';
  `,
  // The dashboard's owners. A user is a person with a password who may run programs
  // (memberships). The first start's user has no e-mail until its link is redeemed.
  // Sessions and one-time sign-in links keep only a SHA-256 of what the browser holds.
  `
  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT,
    email_norm TEXT UNIQUE,
    password_hash TEXT,
    failed_count INTEGER NOT NULL DEFAULT 0,
    locked_until BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE memberships (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    role TEXT NOT NULL DEFAULT 'owner',
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, program_id)
  );
  CREATE INDEX memberships_program ON memberships (program_id, created_at);
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
  );
  CREATE INDEX sessions_user ON sessions (user_id);
  CREATE TABLE sign_in_links (
    hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    program_id TEXT NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
  );
  CREATE INDEX sign_in_links_user ON sign_in_links (user_id);
  `,
  // How long the tracker's referral cookie lives, shown in the snippet the dashboard gives.
  // Payments and clicks became lists: each walks an index newest first, by program or by
  // its one filter, as the other lists do; the filter's index also serves the foreign
  // key it replaces.
  `
  ALTER TABLE programs ADD COLUMN cookie_days INTEGER NOT NULL DEFAULT 60;
  CREATE INDEX payments_list ON payments (program_id, created_at DESC, id DESC);
  DROP INDEX payments_referral;
  CREATE INDEX payments_referral ON payments (referral_id, program_id, created_at DESC, id DESC);
  CREATE INDEX clicks_list ON clicks (program_id, created_at DESC, id DESC);
  DROP INDEX clicks_partnership;
  CREATE INDEX clicks_partnership ON clicks (partnership_id, program_id, created_at DESC, id DESC);
  `,
];

export async function migrate(db: Db, now: number): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.lock('migrate');
    await tx.run('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
    const row = await tx.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
    const current = row?.v ?? 0;
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      const migration = MIGRATIONS[version - 1] ?? '';
      const script = typeof migration === 'string' ? migration : migration[db.engine];
      for (const statement of splitStatements(script)) await tx.run(statement);
      await tx.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [version, now]);
    }
    return MIGRATIONS.length;
  });
}

/** One statement per call works on every driver; the migrations hold no `;` inside literals. */
function splitStatements(script: string): string[] {
  return script
    .split(';')
    .map((s) => s.replace(/--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}
