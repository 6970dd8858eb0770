// Tokens, programs and origins kept in memory (platform/db/remembered.ts): read once while
// nothing changes, and never trusted past a change, whether this process made it or
// another one did. cli.test.ts shows the same through a running server and the CLI.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgram, updateProgram } from '../../packages/collector/src/flows/program.js';
import { allowsOrigin } from '../../packages/collector/src/modules/programs/service.js';
import { authenticate, issueToken, revokeProgramToken } from '../../packages/collector/src/modules/tokens/service.js';
import { emit } from '../../packages/collector/src/events/emit.js';
import { referralData } from './event-data.js';
import { registerSubscribers } from '../../packages/collector/src/subscribers.js';
import { recordConversion } from '../../packages/collector/src/flows/conversion.js';
import { createPartner, updatePartner } from '../../packages/collector/src/modules/partners/service.js';
import { createPartnership, updatePartnership } from '../../packages/collector/src/flows/partnership.js';
import { createEndpoint, updateEndpoint } from '../../packages/collector/src/modules/webhooks/service.js';
import { DEFAULT_OUTBOUND } from '../../packages/collector/src/platform/outbound.js';
import { type Db, type Param, type Queryable, SETTINGS_LAG_MS } from '../../packages/collector/src/platform/db/db.js';
import { SETTINGS_CHANNEL, type SettingsWatch } from '../../packages/collector/src/platform/db/pg-settings.js';
import { openMigrated } from '../../packages/collector/src/platform/db/open.js';
import { ENGINE, testDatabase, type TestDatabase } from './database.js';
import { msUntil, until } from './served.js';

let database: TestDatabase;
let db: Db;
let other: Db | undefined;
const now = 1_760_000_000;

beforeEach(async () => {
  database = await testDatabase();
  db = await openMigrated(database.url, now);
  // Listening before the first change: a change committed while LISTEN is on its way may
  // be heard after the listener has forgotten it was ours, and read once more (harmless).
  await versionOf(db);
});
afterEach(async () => {
  await other?.close();
  other = undefined;
  await db.close();
  await database.drop();
});

/**
 * Past the moment the settings clock next looks for other processes' changes, without
 * waiting a guessed time: on SQLite the clock moves past its poll's interval; on
 * PostgreSQL a notification sent now has come back, and so every one committed before it.
 */
async function pastAnyPoll<T>(on: Db, then: () => Promise<T> | T): Promise<T> {
  if (on.engine === 'sqlite') {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + SETTINGS_LAG_MS + 1 });
    try {
      return await then();
    } finally {
      vi.useRealTimers();
    }
  }
  const watch = on.settings as SettingsWatch;
  const heard = watch.heard();
  await on.get(`SELECT pg_notify('${SETTINGS_CHANNEL}', 'another schema')`);
  await until(() => watch.heard() > heard);
  return then();
}

/** `db` with its statements counted, in transactions too; every other call passes through. */
function counted(inner: Db): { db: Db; reads: (table: RegExp) => number } {
  const sent: string[] = [];
  const wrap = <Q extends Queryable>(q: Q): Q => ({
    ...q,
    all: (sql: string, params?: readonly Param[]) => (sent.push(sql), q.all(sql, params)),
    get: (sql: string, params?: readonly Param[]) => (sent.push(sql), q.get(sql, params)),
    run: (sql: string, params?: readonly Param[]) => (sent.push(sql), q.run(sql, params)),
  });
  return {
    db: {
      ...wrap(inner),
      transaction: (fn) => inner.transaction((tx) => fn(wrap(tx))),
      readThenWrite: (fn) => inner.readThenWrite((q) => fn(wrap(q))),
    },
    reads: (table) => sent.filter((sql) => table.test(sql)).length,
  };
}

/** The settings version, once the engine can tell it (PostgreSQL first starts listening). */
async function versionOf(d: Db): Promise<number> {
  await msUntil(async () => d.settings.version() !== undefined);
  const v = d.settings.version();
  if (v === undefined) throw new Error(`${ENGINE}: no settings version after 5 s`);
  return v;
}

// These tests write events themselves, without an app: they register what writes their deliveries, as createApp does.
registerSubscribers();

describe(`settings kept in memory (${ENGINE})`, () => {
  it('a token is looked up once while nothing changes, and a revocation here is obeyed before it is answered', async () => {
    const made = await createProgram(db, { name: 'Acme', siteUrl: 'https://acme.test' }, now);
    const c = counted(db);
    await versionOf(c.db);
    for (let i = 0; i < 5; i++) expect((await authenticate(c.db, made.tokens.secret))?.program.id).toBe(made.program.id);
    expect(c.reads(/FROM tokens t JOIN programs/)).toBe(1);

    const extra = await issueToken(db, made.program.id, 'secret', now);
    expect(await authenticate(c.db, extra.token)).toBeDefined();
    await revokeProgramToken(db, made.program.id, extra.row.id, now);
    // No wait at all: the revocation's own promise resolved after this process knew.
    expect(await authenticate(c.db, extra.token)).toBeUndefined();
    expect((await authenticate(c.db, made.tokens.secret))?.kind).toBe('secret');
  });

  it('a program changed here is read afresh at once: its origins and the program behind its tokens', async () => {
    const made = await createProgram(db, { name: 'Acme', siteUrl: 'https://acme.test' }, now);
    await versionOf(db);
    expect(await allowsOrigin(db, made.program.id, 'https://acme.test')).toBe(true);
    expect(await allowsOrigin(db, made.program.id, 'https://www.acme.test')).toBe(false);
    expect((await authenticate(db, made.tokens.publishable))?.program.commission_rate_bps).toBe(2000);
    await updateProgram(
      db,
      made.program.id,
      { addOrigins: ['https://www.acme.test'], removeOrigins: ['https://acme.test'], commissionRateBps: 1500 },
      now,
    );
    expect(await allowsOrigin(db, made.program.id, 'https://www.acme.test')).toBe(true);
    expect(await allowsOrigin(db, made.program.id, 'https://acme.test')).toBe(false);
    expect((await authenticate(db, made.tokens.publishable))?.program.commission_rate_bps).toBe(1500);
  });

  it("another process's revocation is obeyed within a second, and reads stop while nothing changes", async () => {
    const made = await createProgram(db, { name: 'Acme', siteUrl: 'https://acme.test' }, now);
    // A second connection to the same database, as the CLI or another server has.
    other = await openMigrated(database.url, now);
    const c = counted(db);
    await versionOf(c.db);
    expect(await authenticate(c.db, made.tokens.secret)).toBeDefined();
    const before = c.reads(/FROM tokens t JOIN programs/);
    // Nothing changed, nothing read.
    expect(await pastAnyPoll(db, () => authenticate(c.db, made.tokens.secret))).toBeDefined();
    expect(c.reads(/FROM tokens t JOIN programs/)).toBe(before);

    const [row] = await other.all<{ id: string }>("SELECT id FROM tokens WHERE program_id = ? AND kind = 'secret'", [made.program.id]);
    await revokeProgramToken(other, made.program.id, row!.id, now);
    const ms = await msUntil(async () => (await authenticate(c.db, made.tokens.secret)) === undefined);
    expect(ms).toBeLessThan(1000);
  });

  it('a change made here moves the clock once, not again when its own notification comes back', async () => {
    const made = await createProgram(db, { name: 'Acme', siteUrl: 'https://acme.test' }, now);
    const before = await versionOf(db);
    await issueToken(db, made.program.id, 'secret', now);
    expect(db.settings.version()).toBe(before + 1); // at once, before anyone else is answered
    // Past SQLite's poll, and past PostgreSQL's NOTIFY of it coming back to this process.
    expect(await pastAnyPoll(db, () => db.settings.version())).toBe(before + 1);
  });

  it('a rolled-back change leaves the kept settings trusted no longer than it must, and never wrong', async () => {
    const made = await createProgram(db, { name: 'Acme', siteUrl: 'https://acme.test' }, now);
    await versionOf(db);
    expect(await authenticate(db, made.tokens.secret)).toBeDefined();
    await expect(
      db.transaction(async (tx) => {
        await tx.run('UPDATE tokens SET revoked_at = ? WHERE program_id = ?', [now, made.program.id]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await authenticate(db, made.tokens.secret)).toBeDefined();
  });

  it("a program's webhook endpoints are read once per change: an endpoint added or disabled here counts from the next event", async () => {
    const made = await createProgram(db, { name: 'Acme', siteUrl: 'https://acme.test' }, now);
    const c = counted(db);
    await versionOf(c.db);
    const deliveriesOf = async (ids: string[]) =>
      (await db.all<{ endpoint_id: string }>('SELECT endpoint_id FROM webhook_deliveries ORDER BY endpoint_id')).filter((d) =>
        ids.includes(d.endpoint_id),
      );
    const event = () => c.db.transaction((tx) => emit(tx, made.program.id, 'referral.created', referralData(), now));
    const policy = { ...DEFAULT_OUTBOUND, allowHttp: true, allowPrivate: true };

    await event();
    await event();
    expect(c.reads(/FROM webhook_endpoints WHERE program_id = \? AND enabled = 1/)).toBe(1);
    const endpoint = await createEndpoint(db, made.program.id, { url: 'http://127.0.0.1:9/hook' }, policy, now);
    const first = await event();
    expect(await deliveriesOf([endpoint.id])).toHaveLength(1);
    await updateEndpoint(db, made.program.id, endpoint.id, { enabled: false }, policy, now);
    await event();
    await event();
    expect(await deliveriesOf([endpoint.id])).toHaveLength(1);
    expect(c.reads(/FROM webhook_endpoints WHERE program_id = \? AND enabled = 1/)).toBe(3);
    expect(first.type).toBe('referral.created');
  });

  it("a link's partnership is read once, and a decline or a partner's new address here counts from the next conversion", async () => {
    const made = await createProgram(db, { name: 'Acme', siteUrl: 'https://acme.test' }, now);
    const partner = await createPartner(db, made.program.id, { name: 'Alice', email: 'alice@partner.test' }, now);
    const partnership = await createPartnership(db, made.program.id, { partner_id: partner.id, state: 'accepted' }, now);
    const c = counted(db);
    await versionOf(c.db);
    const convert = (email: string) =>
      recordConversion(c.db, made.program.id, { email, gr_id: `g-${email}`, pk: partnership.key }, now).then(
        (r) => (r.created ? 'created' : 'repeat'),
        (err: { code?: string }) => err.code,
      );
    for (let i = 0; i < 4; i++) expect(await convert(`person${i}@customer.test`)).toBe('created');
    expect(c.reads(/JOIN slugs s ON/)).toBe(1);
    // The partner now uses the next customer's address: that would be a self-referral.
    await updatePartner(db, made.program.id, partner.id, { email: 'bob@customer.test' }, now);
    expect(await convert('bob@customer.test')).toBe('self_referral');
    await updatePartnership(db, made.program.id, partnership.id, { state: 'declined' }, now);
    expect(await convert('carol@customer.test')).toBe('partnership_declined');
    expect(c.reads(/JOIN slugs s ON/)).toBe(3);
  });
});
