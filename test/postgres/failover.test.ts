// The failover drill (docs/scaling.md): a primary with a synchronous streaming replica,
// a PgBouncer in front (`tally` in transaction pooling for DATABASE_URL, `tally_session`
// in session pooling for each process's LISTEN, DATABASE_DIRECT_URL), two `tally serve`
// processes on it sending webhooks to a receiver, and conversions arriving steadily at
// both. Mid-load the primary dies (immediate shutdown), the replica is promoted and
// PgBouncer is pointed at it and reloaded, as an operator would; nothing is done to the
// processes. Every acknowledged conversion must be in the promoted database, both
// processes must serve writes again on their own, and no webhook may be sent by two
// processes at once (the outbox's claims were replicated before they were acted on), and
// none twice: a delivery whose success could not be recorded while the primary was away
// is recorded once the promoted server answers, within its claim's lease (deliver.ts).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, stopServers, tokensIn, type Served } from '../collector/processes.js';
import { startReceiver, type Receiver } from '../collector/receiver.js';
import { type Cluster, startCluster } from './cluster.js';
import { type PgBouncer, startPgBouncer } from './pgbouncer.js';

/** Conversions each process is sent per second. */
const RATE = 20;
/** Load before the primary dies, and after writes succeed again. */
const BEFORE_MS = 2000;
const AFTER_MS = 2500;
/**
 * The webhook deadline, short so that a claim's lease (2 × it + 10 s, server.ts) ends
 * within the test: a delivery whose success was not recorded is then sent again here.
 */
const WEBHOOK_TIMEOUT_MS = 1000;
const LEASE_MS = (2 * Math.ceil(WEBHOOK_TIMEOUT_MS / 1000) + 10) * 1000;
/**
 * PgBouncer's server_login_retry, in seconds. After a failed login to the dead primary it
 * waits this long before trying a server again, the repointed one too (a RELOAD does not
 * cut it short), and logins and queries wait meanwhile: measured here, refused writes last
 * about 16 s at its default of 15, 1.3 s at 1 and 0.5 s at 0.2.
 */
const LOGIN_RETRY_SECONDS = 1;

let cluster: Cluster;
let bouncer: PgBouncer;
let receiver: Receiver;
let a: Served;
let b: Served;
let publishable: string;
let key: string;

interface Sent {
  email: string;
  via: 'a' | 'b';
  sentAt: number;
  answeredAt: number;
  /** 0: no HTTP answer (the connection failed, or the request timed out). */
  status: number;
}

const ok = (s: Sent) => s.status >= 200 && s.status < 300;

async function call(to: Served, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(to.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  // any: each caller reads what it expects.
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}

beforeAll(async () => {
  const t0 = Date.now();
  cluster = await startCluster({ synchronous: true });
  console.log(`failover: primary and synchronous replica started in ${(cluster.startedInMs / 1000).toFixed(2)} s`);
  bouncer = await startPgBouncer(cluster.primary.url('tally'), {
    databases: { tally: { poolMode: 'transaction' }, tally_session: { dbname: 'tally', poolMode: 'session' } },
    settings: { server_login_retry: LOGIN_RETRY_SECONDS },
  });
  receiver = await startReceiver();
  const pooled = (db: string) => `postgres://postgres@127.0.0.1:${bouncer.port}/${db}`;
  const env = {
    DATABASE_URL: pooled('tally'),
    DATABASE_DIRECT_URL: pooled('tally_session'),
    RATE_LIMIT_IP: '0',
    RATE_LIMIT_TOKEN: '0',
    WEBHOOK_ALLOW_HTTP: '1',
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
    LOG_LEVEL: 'warn',
  };
  a = await serve(env);
  b = await serve(env);
  const tokens = tokensIn(a.output());
  const secret = tokens.secret!;
  publishable = tokens.publishable!;
  // Review's visitor signals would hold conversions sent from one address without landings.
  const off = { no_click: false, address_burst: false, browser_burst: false };
  expect((await call(a, 'PATCH', '/v1/program', secret, { review_signals: off })).status).toBe(200);
  const partner = await call(a, 'POST', '/v1/partners', secret, { name: 'Drill', email: 'drill@p.test' });
  const partnership = await call(b, 'POST', '/v1/partnerships', secret, { partner_id: partner.body.data.id, state: 'accepted' });
  expect(partnership.status).toBe(201);
  key = partnership.body.data.attributes.key;
  const endpoint = await call(a, 'POST', '/v1/webhook_endpoints', secret, {
    url: `${receiver.url}/drill`,
    event_types: ['referral.created'],
  });
  expect(endpoint.status).toBe(201);
  console.log(`failover: set up in ${((Date.now() - t0) / 1000).toFixed(2)} s`);
});

afterAll(async () => {
  await stopServers(a, b);
  await receiver?.close();
  await bouncer?.stop();
  await cluster?.close();
});

it('the primary dies under load: the replica is promoted, PgBouncer repointed, no acknowledged write lost', async () => {
  const pids = [a.child.pid, b.child.pid];
  // Webhooks in flight, by event id: the same one twice at once would be two processes holding one claim.
  const inFlight = new Map<string, number>();
  const overlaps: string[] = [];
  const arrivals = new Map<string, number[]>();
  receiver.answer.set('/drill', (r) => {
    const id = r.headers['webhook-id']!;
    arrivals.set(id, [...(arrivals.get(id) ?? []), Date.now()]);
    const n = (inFlight.get(id) ?? 0) + 1;
    if (n > 1) overlaps.push(id);
    inFlight.set(id, n);
    setTimeout(() => inFlight.set(id, (inFlight.get(id) ?? 1) - 1), 20);
    return { status: 200, delayMs: 20 };
  });

  const sent: Sent[] = [];
  const pending = new Set<Promise<void>>();
  let n = 0;
  const convert = (to: Served, via: 'a' | 'b') => {
    const email = `drill${n++}@failover.test`;
    const sentAt = Date.now();
    const p = fetch(`${to.url}/v1/tracking/conversion`, {
      method: 'POST',
      headers: { authorization: `Bearer ${publishable}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email, gr_id: `g-${email}`, pk: key }),
      signal: AbortSignal.timeout(20_000),
    })
      .then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      })
      .catch(() => 0)
      .then((status) => {
        sent.push({ email, via, sentAt, answeredAt: Date.now(), status });
      });
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  const timers = [setInterval(() => convert(a, 'a'), 1000 / RATE), setInterval(() => convert(b, 'b'), 1000 / RATE)];
  const stopLoad = () => timers.forEach(clearInterval);

  try {
    await new Promise((r) => setTimeout(r, BEFORE_MS));
    const before = sent.filter(ok).length;
    expect(before).toBeGreaterThan(0);

    // The switch, as an operator runs it.
    const killedAt = Date.now();
    await cluster.killPrimary();
    const promoteMs = await cluster.promote();
    await bouncer.repoint('127.0.0.1', cluster.replica.port);
    const repointedAt = Date.now();
    console.log(
      `failover: primary killed; replica promoted in ${(promoteMs / 1000).toFixed(2)} s; PgBouncer repointed ${((repointedAt - killedAt) / 1000).toFixed(2)} s after the kill`,
    );

    // Load goes on until each process has acknowledged a conversion sent after the kill, and a while longer.
    const deadline = Date.now() + 30_000;
    const recovered = (via: 'a' | 'b') => sent.some((s) => s.via === via && ok(s) && s.sentAt >= killedAt);
    while (!(recovered('a') && recovered('b'))) {
      for (const [name, p] of [
        ['a', a],
        ['b', b],
      ] as const) {
        if (p.child.exitCode !== null || p.child.signalCode !== null)
          throw new Error(`process ${name} exited during the failover: ${p.output().slice(-1500)}`);
      }
      if (Date.now() > deadline) throw new Error('writes did not succeed again within 30 s of the kill');
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, AFTER_MS));
    stopLoad();
    await Promise.all([...pending]);

    // Refused writes: from the first refused answer to the first acknowledgement of a
    // request sent after it.
    const refused = sent.filter((s) => !ok(s)).sort((x, y) => x.answeredAt - y.answeredAt);
    const firstRefused = refused[0];
    const firstAfter = firstRefused
      ? sent.filter((s) => ok(s) && s.sentAt >= firstRefused.answeredAt).sort((x, y) => x.answeredAt - y.answeredAt)[0]
      : undefined;
    const refusedSeconds = firstRefused && firstAfter ? (firstAfter.answeredAt - firstRefused.answeredAt) / 1000 : 0;
    // From the kill to the first acknowledgement of a conversion sent after it: what a client waited, refused or held.
    const firstSince = sent.filter((s) => ok(s) && s.sentAt >= killedAt).sort((x, y) => x.answeredAt - y.answeredAt)[0]!;
    const slowest = Math.max(...sent.map((s) => s.answeredAt - s.sentAt));
    const statuses = new Map<number, number>();
    for (const s of refused) statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);

    // Every acknowledged conversion is in the promoted database.
    const acknowledged = sent.filter(ok);
    const stored = new Set((await cluster.query<{ email: string }>(cluster.replica, 'SELECT email FROM referrals')).map((r) => r.email));
    const lost = acknowledged.filter((s) => !stored.has(s.email));

    // Webhooks: every delivery of the promoted database ends succeeded (a claim whose
    // success was lost with the primary is sent again when its lease ends).
    const states = async () =>
      cluster.query<{ state: string; n: number }>(
        cluster.replica,
        'SELECT state, COUNT(*)::int AS n FROM webhook_deliveries GROUP BY state',
      );
    const drainDeadline = Date.now() + 30_000;
    while ((await states()).some((s) => s.state === 'pending') && Date.now() < drainDeadline) await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, 100)); // the last answers' bookkeeping
    const events = new Set(
      (
        await cluster.query<{ event_id: string }>(
          cluster.replica,
          "SELECT d.event_id FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.type = 'referral.created'",
        )
      ).map((r) => r.event_id),
    );
    const got = receiver.received.filter((r) => r.path === '/drill').map((r) => r.headers['webhook-id']!);
    const times = new Map<string, number>();
    for (const id of got) times.set(id, (times.get(id) ?? 0) + 1);
    const duplicates = [...times.values()].reduce((sum, k) => sum + (k - 1), 0);
    const phantom = [...times.keys()].filter((id) => !events.has(id));
    const undelivered = [...events].filter((id) => !times.has(id));
    // A repeat: the same event sent again, by the delivery loop once its claim's lease ended.
    const repeats = [...arrivals.values()].filter((at) => at.length > 1).map((at) => (at[1]! - at[0]!) / 1000);

    // Each process listens for settings changes again, on the promoted server, through the session pool.
    const listening = async () =>
      (
        await cluster.query<{ n: number }>(
          cluster.replica,
          "SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE query = 'LISTEN tally_settings' AND datname = 'tally'",
        )
      )[0]!.n;
    for (let i = 0; i < 100 && (await listening()) < 2; i++) await new Promise((r) => setTimeout(r, 100));

    console.log(
      `failover: ${refusedSeconds.toFixed(2)} s of refused writes, ${acknowledged.length} acknowledged, ${lost.length} lost, ${duplicates} duplicate deliveries`,
    );
    console.log(
      `failover: ${sent.length} conversions sent (${before} acknowledged before the kill), ${refused.length} refused (${[...statuses]
        .map(([s, k]) => `${k} × ${s || 'no answer'}`)
        .join(
          ', ',
        )}); first acknowledgement of one sent after the kill ${((firstSince.answeredAt - killedAt) / 1000).toFixed(2)} s after it; slowest answer ${(slowest / 1000).toFixed(2)} s; ${stored.size} referrals stored; webhooks: ${events.size} events, ${times.size} delivered, ${got.length} deliveries, ${overlaps.length} sent by two processes at once, ${repeats.length} sent again (${repeats.map((g) => `${g.toFixed(1)} s`).join(', ') || 'none'} after the first: the lease is ${LEASE_MS / 1000} s); deliveries ${JSON.stringify(await states())}; ${await listening()} processes listening`,
    );

    expect(lost.map((s) => s.email)).toEqual([]);
    // Neither process was restarted, and each serves writes again.
    expect([a.child.exitCode, b.child.exitCode]).toEqual([null, null]);
    expect([a.child.pid, b.child.pid]).toEqual(pids);
    for (const via of ['a', 'b'] as const)
      expect(sent.filter((s) => s.via === via && ok(s) && s.sentAt >= repointedAt).length).toBeGreaterThan(0);
    // A write refused is answered 503 (or not at all while the pooler drops connections), never a 500.
    expect(refused.filter((s) => s.status !== 503 && s.status !== 0)).toEqual([]);
    // The claims survived: no event was sent by two processes at once, none that the promoted database does not hold.
    expect(overlaps).toEqual([]);
    // None sent twice because of the switch: its success was recorded within its claim's lease.
    expect(repeats).toEqual([]);
    expect(duplicates).toBe(0);
    expect(phantom).toEqual([]);
    expect(undelivered).toEqual([]);
    expect((await states()).filter((s) => s.state !== 'succeeded')).toEqual([]);
    expect(await listening()).toBe(2);
  } catch (err) {
    console.log(`process a:\n${a.output().slice(-3000)}\nprocess b:\n${b.output().slice(-3000)}`);
    throw err;
  } finally {
    stopLoad();
    await Promise.all([...pending]);
  }
}, 90_000);
