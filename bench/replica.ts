// Lists and statistics with a streaming replica (docs/scaling.md, section 3): a primary
// and a hot standby of the bench's own (test/postgres/cluster.ts), a collector in this
// process reading from the replica, against one reading from the primary alone. One
// connection, each request timed to the microsecond; the caller writes (a new partner)
// before every tenth read, so some reads must wait for the replica to replay that write or
// go to the primary. Reports each read's p50 and p99 and the share the replica answered.

import { createProgram } from '../packages/collector/src/flows/program.js';
import { createLogger } from '../packages/collector/src/platform/log.js';
import { startServer, type RunningServer } from '../packages/collector/src/server.js';
import { startCluster } from '../test/postgres/cluster.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const READS = [
  '/v1/referrals',
  '/v1/partners',
  '/v1/stats?from=2026-01-01&to=2026-12-31&interval=month',
  '/v1/stats/partners?from=2026-01-01&to=2026-12-31',
];
const WRITE_EVERY = 10;

export interface ReplicaRow {
  name: string;
  p50: number;
  p99: number;
  requests: number;
  /** Reads the replica answered, of those it could have. */
  replicaShare?: number;
}

async function serve(primary: string, replica: string | undefined): Promise<RunningServer> {
  return startServer(
    {
      port: 0,
      host: '127.0.0.1',
      databaseUrl: primary,
      databaseReplicaUrl: replica,
      logLevel: 'silent',
      publicUrl: 'http://localhost:8787',
      mailFrom: 'Tally <tally@bench.example>',
    },
    createLogger('silent'),
    { background: false },
  );
}

/** A partner and 500 conversions, through the API, for the lists and statistics to read. */
async function seed(server: RunningServer, secret: string): Promise<void> {
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ data: { id: string; attributes: { key: string } } }>);
  const partner = await post('/v1/partners', { name: 'Replica partner', email: 'replica@partners.bench' });
  const partnership = await post('/v1/partnerships', { partner_id: partner.data.id, state: 'accepted' });
  for (let i = 0; i < 500; i += 50)
    await Promise.all(
      Array.from({ length: 50 }, (_, k) =>
        post('/v1/tracking/conversion', { email: `reader${i + k}@bench.test`, gr_id: `g${i + k}`, pk: partnership.data.attributes.key }),
      ),
    );
}

async function readLoop(server: RunningServer, secret: string, name: string): Promise<ReplicaRow> {
  const headers = { authorization: `Bearer ${secret}` };
  let n = 0;
  const step = async (): Promise<number | undefined> => {
    n++;
    if (n % WRITE_EVERY === 0) {
      await fetch(`${server.url}/v1/partners`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Writer ${n}`, email: `writer${n}-${Math.random()}@partners.bench` }),
      }).then((r) => r.arrayBuffer());
    }
    const started = performance.now();
    const res = await fetch(`${server.url}${READS[n % READS.length]}`, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
    return performance.now() - started;
  };
  const timed = async (seconds: number) => {
    const times: number[] = [];
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) times.push((await step())!);
    return times;
  };
  await timed(WARMUP);
  const before = server.db.stats().replicaReads;
  const times = (await timed(SECONDS)).sort((a, b) => a - b);
  const after = server.db.stats().replicaReads;
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 100) / 100;
  const row: ReplicaRow = { name, p50: at(0.5), p99: at(0.99), requests: times.length };
  if (before && after) {
    const replica = after.replica - before.replica;
    const primary = after.primary - before.primary;
    row.replicaShare = Math.round((1000 * replica) / Math.max(1, replica + primary)) / 10;
  }
  console.log(
    `${name.padEnd(64)} ${String(Math.round(times.length / SECONDS)).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms${
      row.replicaShare === undefined ? '' : `  replica answered ${row.replicaShare} %`
    }`,
  );
  return row;
}

export async function replicaRows(wanted: (name: string) => boolean): Promise<ReplicaRow[]> {
  const names = [
    'replica: lists and statistics, primary alone (1 connection)',
    'replica: lists and statistics, with a replica (1 connection)',
  ];
  if (!names.some(wanted)) return [];
  const cluster = await startCluster();
  const rows: ReplicaRow[] = [];
  try {
    const alone = await serve(cluster.primary.url(), undefined);
    try {
      const secret = alone.firstProgram!.tokens.secret;
      await seed(alone, secret);
      await cluster.caughtUp();
      if (wanted(names[0]!)) rows.push(await readLoop(alone, secret, names[0]!));
    } finally {
      await alone.close();
    }
    const withReplica = await serve(cluster.primary.url(), cluster.replica.url());
    try {
      // A program of its own on the same database: the first start printed its tokens once.
      const made = await createProgram(withReplica.db, { name: 'Bench', siteUrl: 'https://bench.example/' }, Math.floor(Date.now() / 1000));
      await seed(withReplica, made.tokens.secret);
      await cluster.caughtUp();
      if (wanted(names[1]!)) rows.push(await readLoop(withReplica, made.tokens.secret, names[1]!));
    } finally {
      await withReplica.close();
    }
  } finally {
    await cluster.close();
  }
  return rows;
}
