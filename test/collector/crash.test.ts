// Crashes and shutdowns under load, against the real `tally serve` process:
// - kill -9 in the middle of concurrent conversions: after a restart every acknowledged
//   conversion is in the database, PRAGMA integrity_check is ok, and nothing is doubled;
// - SIGTERM with many requests in flight: every one of them is answered and stored.

import { afterEach, beforeEach, expect, it } from 'vitest';
import { ENGINE, integrityProblems, testDatabase, withDb, type TestDatabase } from './database.js';
import { halfSent, serve, tokensIn, type Served } from './processes.js';

const RUNS = Number(process.env.KILL_RUNS ?? 3);
const WORKERS = 24;

let database: TestDatabase;
let env: Record<string, string>;
let running: Served | undefined;
beforeEach(async () => {
  database = await testDatabase();
  // Limits off: the load comes from one address.
  env = { DATABASE_URL: database.url, RATE_LIMIT_IP: '0', RATE_LIMIT_TOKEN: '0' };
});
afterEach(async () => {
  if (running?.child.exitCode === null) {
    running.child.kill('SIGKILL');
    await running.exited;
  }
  await database.drop();
});

/** Starts the server; on the first start, also a partner to credit. */
async function start(first: boolean) {
  running = await serve(env);
  if (!first) return { url: running.url };
  const { secret, publishable } = tokensIn(running.output());
  const call = async (path: string, body: unknown) =>
    (await (
      await fetch(running!.url + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as { data: { id: string; attributes: { key: string } } };
  const partner = await call('/v1/partners', { name: 'Crash', email: 'crash@p.test' });
  const partnership = await call('/v1/partnerships', { partner_id: partner.data.id, state: 'accepted' });
  return { url: running.url, publishable: publishable!, key: partnership.data.attributes.key };
}

async function stored(): Promise<{ emails: string[]; problems: unknown[] }> {
  const rows = await withDb(env.DATABASE_URL!, (db) => db.all<{ email: string }>('SELECT email FROM referrals'));
  return { emails: rows.map((r) => r.email), problems: await integrityProblems(env.DATABASE_URL!) };
}

it(`kill -9 under concurrent conversions loses no acknowledged one (${RUNS} runs)`, async () => {
  const { publishable, key } = await start(true);
  const acknowledged = new Set<string>();
  let sent = 0;
  for (let run = 0; run < RUNS; run++) {
    const url = run === 0 ? running!.url : (await start(false)).url;
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const email = `r${run}w${w}i${i}@kill.test`;
        sent++;
        try {
          const res = await fetch(`${url}/v1/tracking/conversion`, {
            method: 'POST',
            headers: { authorization: `Bearer ${publishable}`, 'content-type': 'application/json' },
            body: JSON.stringify({ email, gr_id: `g-${email}`, pk: key }),
          });
          if (res.status === 201 || res.status === 200) acknowledged.add(email);
          else if (res.status < 500) throw new Error(`refused ${res.status}: ${await res.text()}`);
        } catch (err) {
          if (String(err).includes('refused')) throw err;
          return; // the connection died with the server: not acknowledged
        }
      }
    };
    // Killed once this run has a number of acknowledged conversions (a different one each
    // run), so the kill always lands among requests in flight, however fast the machine.
    const target = acknowledged.size + 20 + run * 15;
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    for (const deadline = Date.now() + 15_000; acknowledged.size < target && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 10));
    }
    running!.child.kill('SIGKILL');
    await running!.exited;
    stop = true;
    await load;
  }
  // A restart on the same database recovers it (SQLite: its WAL); then it is checked.
  await start(false);
  running!.child.kill('SIGTERM');
  await running!.exited;
  const { emails, problems } = await stored();
  console.log(`kill test (${ENGINE}): ${RUNS} runs, ${sent} conversions sent, ${acknowledged.size} acknowledged, ${emails.length} stored`);
  expect(problems).toEqual([]);
  expect(acknowledged.size).toBeGreaterThan(RUNS * 20);
  expect([...acknowledged].filter((e) => !emails.includes(e))).toEqual([]);
  expect(new Set(emails).size).toBe(emails.length);
});

it('SIGTERM with 50 requests in flight answers and stores every one, then refuses new connections', async () => {
  const { url, publishable, key } = await start(true);
  if (!publishable || !key) throw new Error('the first start prints the tokens');
  const emails = Array.from({ length: 50 }, (_, i) => `flight${i}@term.test`);
  const inFlight = emails.map((email) =>
    halfSent(`${url}/v1/tracking/conversion`, publishable, JSON.stringify({ email, gr_id: `g-${email}`, pk: key })),
  );
  await Promise.all(inFlight.map((r) => r.written)); // each one's headers read by the server
  running!.child.kill('SIGTERM');
  // No new connections once the signal is handled: poll until one is refused.
  let refused = false;
  for (const deadline = Date.now() + 5_000; !refused && Date.now() < deadline; ) {
    refused = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) }).then(
      () => false,
      () => true,
    );
  }
  expect(refused).toBe(true);
  for (const r of inFlight) r.finish();
  const replies = await Promise.all(inFlight.map((r) => r.reply));
  expect(replies.map((r) => r.status)).toEqual(emails.map(() => 201));
  expect(await running!.exited).toBe(0);
  expect((await stored()).emails.sort()).toEqual([...emails].sort());
});
