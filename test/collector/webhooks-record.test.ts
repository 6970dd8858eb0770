// A delivery the receiver took must not be sent again because the database was away for a
// moment when its attempt was to be recorded (a failover: docs/scaling.md, section 5).
// deliverOne retries the recording while its claim holds the delivery, and gives up (the
// claim then expires, and the delivery is sent again, at least once) only past the lease.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverOne, type DeliveryOptions } from '../../packages/collector/src/modules/webhooks/deliver.js';
import { emit } from '../../packages/collector/src/events/emit.js';
import { referralData } from './event-data.js';
import { registerSubscribers } from '../../packages/collector/src/subscribers.js';
import { claimDue } from '../../packages/collector/src/modules/webhooks/repo.js';
import { createEndpoint } from '../../packages/collector/src/modules/webhooks/service.js';
import { createProgram } from '../../packages/collector/src/flows/program.js';
import type { Db } from '../../packages/collector/src/platform/db/db.js';
import { openMigrated } from '../../packages/collector/src/platform/db/open.js';
import { unavailable } from '../../packages/collector/src/platform/db/unavailable.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { DEFAULT_OUTBOUND } from '../../packages/collector/src/platform/outbound.js';
import { testDatabase, type TestDatabase } from './database.js';

const now = 1_760_000_000;
let database: TestDatabase;
let db: Db;

beforeEach(async () => {
  database = await testDatabase();
  db = await openMigrated(database.url, now);
});
afterEach(async () => {
  await db.close();
  await database.drop();
});

/** `db` whose next `failures` transactions fail as a database that cannot be reached does. */
function away(inner: Db, failures: number): Db & { tries: () => number } {
  let tries = 0;
  return Object.assign(Object.create(inner) as Db, {
    transaction: ((fn) => {
      tries++;
      return tries <= failures ? Promise.reject(unavailable()) : inner.transaction(fn);
    }) as Db['transaction'],
    tries: () => tries,
  });
}

async function claimed(leaseSeconds: number) {
  const made = await createProgram(db, { name: 'Acme', siteUrl: 'https://acme.test' }, now);
  await createEndpoint(
    db,
    made.program.id,
    { url: 'http://127.0.0.1:9/hook' },
    { ...DEFAULT_OUTBOUND, allowHttp: true, allowPrivate: true },
    now,
  );
  await db.transaction((tx) => emit(tx, made.program.id, 'referral.created', referralData(), now));
  const [d] = await db.transaction((tx) => claimDue(tx, now, now + leaseSeconds, 10));
  return d!;
}

function options(on: Db, sent: string[]): DeliveryOptions {
  return {
    db: on,
    log: createLogger('silent'),
    now: () => now,
    send: async (url) => {
      sent.push(url);
      return { status: 200, body: 'ok', durationMs: 3 };
    },
    concurrency: 1,
    leaseSeconds: 12,
    pollMs: 0,
  };
}

const stateOf = async () => db.all<{ state: string; attempts: number }>('SELECT state, attempts FROM webhook_deliveries');

// These tests write events themselves, without an app: they register what writes their deliveries, as createApp does.
registerSubscribers();

describe('recording an attempt while the database is away', () => {
  it('is retried while the claim holds: sent once, recorded once', async () => {
    const d = await claimed(12);
    const sent: string[] = [];
    const flaky = away(db, 3);
    await deliverOne(options(flaky, sent), d);
    expect(sent).toHaveLength(1);
    expect(flaky.tries()).toBe(4);
    expect(await stateOf()).toEqual([{ state: 'succeeded', attempts: 1 }]);
  });

  it('gives up once the claim would run out: the delivery stays due, to be sent again', async () => {
    const d = await claimed(2); // a lease of 2 s leaves a second of retries
    const sent: string[] = [];
    const gone = away(db, Number.POSITIVE_INFINITY);
    await expect(deliverOne(options(gone, sent), d)).rejects.toMatchObject({ code: 'unavailable' });
    expect(sent).toHaveLength(1);
    expect(gone.tries()).toBeGreaterThan(1);
    expect(await stateOf()).toEqual([{ state: 'pending', attempts: 0 }]);
  });
});
