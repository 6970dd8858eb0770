// Upgrades end where a fresh start does: a database left at each earlier version, with
// rows in it where a later migration rewrites data, is migrated to the newest and must
// have exactly the schema of one migrated from nothing (scripts/schema-dump.mjs's dump).
// The rows must come through, rewritten as those migrations say.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaDump } from '../../scripts/schema-dump.mjs';
import { MIGRATIONS } from '../../packages/collector/src/platform/db/migrations/index.js';
import moveRuleCurrencies from '../../packages/collector/src/platform/db/migrations/0031-move-rule-currencies.js';
import { migrate } from '../../packages/collector/src/platform/db/migrate.js';
import type { Db, Param } from '../../packages/collector/src/platform/db/db.js';
import { ENGINE, integrityProblems, testDatabase, withDb, type TestDatabase } from './database.js';

const NEWEST = MIGRATIONS.length;
/** Its place in the list: the number in its name may change when migrations are merged. */
const MOVE_RULE_CURRENCIES = MIGRATIONS.indexOf(moveRuleCurrencies) + 1;
const T = 1_700_000_000;
/** The versions from which seed() writes more rows: a new shape of what an upgrade meets. */
const SHAPE = { partners: 1, payments: 3, owner: 8, group: 17 } as const;
/** The migrations whose rewrites of the seed's rows are checked below. */
const REWRITES = { batchItems: 7, firstPayments: 10, paymentFigures: 11, moveRuleCurrencies: MOVE_RULE_CURRENCIES } as const;

let freshDump: string;
beforeAll(async () => {
  const database = await testDatabase();
  try {
    freshDump = await withDb(database.url, async (db) => {
      expect(await migrate(db, 1)).toBe(NEWEST);
      return schemaDump(db);
    });
  } finally {
    await database.drop();
  }
});

/**
 * Rows in the columns that version `k` has (later migrations add only columns with a
 * default or none): a program with a partner, its slug, a click, two referrals with a
 * commission each; from version 3 their payments (the second refunded) and an open payout
 * batch holding the first commission; from version 8 an owner; from version 17 a group whose
 * move rules name a currency in lower case, as the API stored it before issue 42.
 */
async function seed(db: Db, k: number): Promise<void> {
  if (k < SHAPE.partners) return;
  const rows: Array<[string, Param[]]> = [
    [
      'INSERT INTO programs (id, name, site_url, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      ['prg_1', 'Old', 'https://old.test/', T, T],
    ],
    [
      'INSERT INTO partners (id, program_id, name, email, email_norm, paypal_email, paypal_email_norm, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ['ptn_1', 'prg_1', 'Ann', 'Ann@x.test', 'ann@x.test', 'Pay@x.test', 'pay@x.test', T, T],
    ],
    [
      'INSERT INTO partnerships (id, program_id, partner_id, key, state, created_by, state_set_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ['psh_1', 'prg_1', 'ptn_1', 'ann', 'approved', 'program', T, T, T],
    ],
    ['INSERT INTO slugs (program_id, slug, partnership_id) VALUES (?, ?, ?)', ['prg_1', 'ann', 'psh_1']],
    [
      'INSERT INTO clicks (id, program_id, partnership_id, gr_id, pk, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ['clk_1', 'prg_1', 'psh_1', 'gr_1', 'ann', T, T],
    ],
  ];
  for (const n of [1, 2]) {
    rows.push(
      [
        'INSERT INTO referrals (id, program_id, partnership_id, partner_id, email, email_norm, gr_id, state, state_set_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [`ref_${n}`, 'prg_1', 'psh_1', 'ptn_1', `c${n}@x.test`, `c${n}@x.test`, 'gr_1', 'customer', T, T + n, T + n],
      ],
      [
        'INSERT INTO commissions (id, program_id, partner_id, referral_id, amount, currency, state, reject_reason, state_set_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          `com_${n}`,
          'prg_1',
          'ptn_1',
          `ref_${n}`,
          200 * n,
          'usd',
          n === 1 ? 'pending' : 'rejected',
          n === 1 ? null : 'refunded',
          T,
          T + n,
          T + n,
        ],
      ],
    );
  }
  if (k >= SHAPE.payments) {
    for (const n of [1, 2]) {
      rows.push([
        'INSERT INTO payments (id, program_id, idempotency_key, request_hash, referral_id, commission_id, amount, currency, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [`pay_${n}`, 'prg_1', `key_${n}`, 'h', `ref_${n}`, `com_${n}`, 1000 * n, 'usd', T + n, T + n],
      ]);
    }
    rows.push(
      ['INSERT INTO payout_batches (id, program_id, currency, created_at) VALUES (?, ?, ?, ?)', ['bat_1', 'prg_1', 'usd', T + 10]],
      ['INSERT INTO payout_items (batch_id, commission_id, partner_id, amount) VALUES (?, ?, ?, ?)', ['bat_1', 'com_1', 'ptn_1', 200]],
    );
  }
  if (k >= SHAPE.owner) {
    rows.push(
      ['INSERT INTO users (id, email, email_norm, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', ['usr_1', 'O@x.test', 'o@x.test', T, T]],
      ['INSERT INTO memberships (user_id, program_id, created_at) VALUES (?, ?, ?)', ['usr_1', 'prg_1', T]],
    );
  }
  if (k >= SHAPE.group) {
    const rules = [
      { to_group_id: 'grp_1', metric: 'revenue', currency: 'jpy', threshold: 5000, window_days: null },
      { to_group_id: 'grp_1', metric: 'customers', currency: null, threshold: 5, window_days: 30 },
      { to_group_id: 'grp_1', metric: 'commissions', currency: 'Usd', threshold: 100, window_days: null },
    ];
    rows.push([
      'INSERT INTO partner_groups (id, program_id, name, slug, move_rules, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ['grp_1', 'prg_1', 'Gold', 'gold', JSON.stringify(rules), T, T],
    ]);
  }
  await db.transaction(async (tx) => {
    for (const [sql, params] of rows) await tx.run(sql, params);
  });
}

/** A migration `from` skipped (it ran before the rows were there) has nothing to show. */
const ranOnRows = (version: number, from: number) => from >= SHAPE.payments && from < version;

/**
 * SQLite starts from every version. PostgreSQL, where each start is most of a second of DDL,
 * from the first version of each shape of the seed's rows (so every migration meets every
 * shape that existed before it), from just before each migration with a script of its own
 * per engine and each one that rewrites the rows checked here, and from the one before the
 * newest. Between two of these, a start differs only in which columns the rows got from a
 * default rather than a backfill, and the scripts that do either are the ones SQLite runs too.
 */
const ENGINE_SCRIPTS = MIGRATIONS.flatMap((m, i) => (typeof m === 'object' && !Array.isArray(m) ? [i + 1] : []));
const FROM =
  ENGINE === 'sqlite'
    ? Array.from({ length: NEWEST }, (_, k) => k)
    : [...new Set([0, ...Object.values(SHAPE), ...[...ENGINE_SCRIPTS, ...Object.values(REWRITES)].map((v) => v - 1), NEWEST - 1])].sort(
        (a, b) => a - b,
      );

describe('a database from each earlier version, migrated to the newest', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await testDatabase();
  });
  afterAll(() => database.drop());

  // A database per version, each in a folder (SQLite) or schema (PostgreSQL) of its own,
  // several at once: on PostgreSQL each is most of a second of round trips.
  it.concurrent.for(FROM)('from version %i: the fresh schema, and the rows rewritten', async (k, { expect }) => {
    const old = await testDatabase();
    try {
      const dump = await withDb(old.url, async (db) => {
        expect(await migrate(db, 1, { to: k })).toBe(k);
        expect((await db.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations'))?.v ?? 0).toBe(k);
        await seed(db, k);
        expect(await migrate(db, 2)).toBe(NEWEST);
        const versions = await db.all<{ version: number; applied_at: number }>(
          'SELECT version, applied_at FROM schema_migrations ORDER BY version',
        );
        expect(versions).toEqual(Array.from({ length: NEWEST }, (_, i) => ({ version: i + 1, applied_at: i < k ? 1 : 2 })));

        if (k >= SHAPE.partners) {
          const count = async (table: string) => (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n;
          expect(await count('clicks')).toBe(1);
          expect(await count('commissions')).toBe(2);
        }
        if (k >= SHAPE.payments) {
          const payments = await db.all<Record<string, unknown>>(
            'SELECT id, referral_id, first_of_referral, occurred_at, gross, refunded, refunded_gross, earned FROM payments ORDER BY id',
          );
          const [first, second] = payments;
          expect(payments).toHaveLength(2);
          expect(first).toMatchObject({ id: 'pay_1', referral_id: 'ref_1' });
          // 0010 marks each referral's first payment; 0011 fills what a payment now keeps.
          if (ranOnRows(REWRITES.firstPayments, k)) expect([first!.first_of_referral, second!.first_of_referral]).toEqual([1, 1]);
          if (ranOnRows(REWRITES.paymentFigures, k)) {
            expect(first).toMatchObject({ occurred_at: T + 1, gross: 1000, refunded: 0, refunded_gross: 0, earned: 200 });
            expect(second).toMatchObject({ occurred_at: T + 2, gross: 2000, refunded: 2000, refunded_gross: 2000, earned: 400 });
          }
          // 0007: the open batch holds its pending commission, and its item the payee address.
          if (ranOnRows(REWRITES.batchItems, k)) {
            expect(await db.all('SELECT id, payout_batch_id FROM commissions ORDER BY id')).toEqual([
              { id: 'com_1', payout_batch_id: 'bat_1' },
              { id: 'com_2', payout_batch_id: null },
            ]);
            expect(await db.get('SELECT paypal_email FROM payout_items')).toEqual({ paypal_email: 'Pay@x.test' });
          }
        }
        if (k >= SHAPE.group) {
          const stored = await db.get<{ move_rules: string }>('SELECT move_rules FROM partner_groups');
          const currencies = (JSON.parse(stored!.move_rules) as Array<{ currency: string | null }>).map((r) => r.currency);
          expect(currencies).toEqual(ranOnRows(REWRITES.moveRuleCurrencies, k) ? ['JPY', null, 'USD'] : ['jpy', null, 'Usd']);
        }
        return schemaDump(db);
      });
      expect(dump).toBe(freshDump);
      // 0011 counts the statistics from the records; rows put in after it bypass them.
      if (k < REWRITES.paymentFigures) expect(await integrityProblems(old.url)).toEqual([]);
    } finally {
      await old.drop();
    }
  });

  it("migrating to a version below the database's own leaves it as it is", async () => {
    await withDb(database.url, async (db) => {
      expect(await migrate(db, 1)).toBe(NEWEST);
      expect(await migrate(db, 2, { to: 3 })).toBe(NEWEST);
      expect(await schemaDump(db)).toBe(freshDump);
      await expect(migrate(db, 2, { to: NEWEST + 1 })).rejects.toThrow(/no version/);
    });
  });
});
