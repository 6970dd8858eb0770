// A PostgreSQL primary and a streaming replica of a test's own, on this machine: the
// server's initdb in a temp folder (trust authentication on the unix socket and
// 127.0.0.1, replication included), then `pg_basebackup -R` of it as a hot standby on
// another free port, optionally synchronous (synchronous_standby_names = '*' on the
// primary: a commit is acknowledged once the standby has flushed it). The test may stop,
// kill and start the primary, promote the replica, read its replay position and lag,
// pause its replay so that it lags on purpose, and stop it. Nothing touches the system
// cluster. close() stops both servers and removes their folders.
//
// PostgreSQL refuses to run as root: as root (CI) every server program runs as the
// `postgres` user, in a folder that user owns.

import { execFile, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const HOW =
  'The replica and failover tests make PostgreSQL clusters of their own: on Debian, `apt-get install -y postgresql` ' +
  '(initdb, pg_ctl and pg_basebackup under /usr/lib/postgresql/<version>/bin), or set TALLY_TEST_PG_BIN.';

/** The superuser initdb makes, whoever runs it. */
export const SUPERUSER = 'postgres';

/** Where initdb, pg_ctl and pg_basebackup are: TALLY_TEST_PG_BIN, else the newest of Debian's, else PATH. */
export function pgBin(): string {
  const given = process.env.TALLY_TEST_PG_BIN;
  if (given) return given;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'pg_basebackup')))
      .sort((x, y) => Number(y) - Number(x));
    if (versions[0]) return join(root, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'pg_basebackup')) && existsSync(join(dir, 'initdb'))) return dir;
  }
  throw new Error(`initdb and pg_basebackup were not found. ${HOW}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** As root, who the server programs run as: the `postgres` user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, SUPERUSER], { encoding: 'utf8' });
  const [u, g] = [id('-u'), id('-g')];
  if (u.status !== 0 || g.status !== 0) throw new Error(`running as root, PostgreSQL needs the user "${SUPERUSER}" to run as. ${HOW}`);
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
}

export interface Server {
  /** Its data folder; its unix socket is there too. */
  dir: string;
  port: number;
  /** A URL to `database` on it over 127.0.0.1, as the superuser. */
  url(database?: string): string;
  /** Whether its postmaster runs (as far as this harness started and stopped it). */
  running(): boolean;
}

export interface ClusterOptions {
  /** synchronous_standby_names = '*' on the primary: an acknowledged commit is on the replica too. */
  synchronous?: boolean;
  /** The database made on the primary (and so on the replica): `tally` unless given. */
  database?: string;
  /** More postgresql.conf lines for both servers. */
  settings?: Record<string, string | number>;
}

export interface Cluster {
  primary: Server;
  replica: Server;
  /** The database made on the primary. */
  database: string;
  /** How long startCluster took, in milliseconds: both servers, streaming. */
  startedInMs: number;
  /** A query on a server, on a connection of its own (simple protocol when without parameters). */
  query<T extends pg.QueryResultRow>(on: Server, sql: string, params?: unknown[], database?: string): Promise<T[]>;
  /** Fast shutdown of the primary (clients disconnected, a checkpoint). */
  stopPrimary(): Promise<void>;
  /** Immediate shutdown of the primary: every process quits at once, no checkpoint, as a crash. */
  killPrimary(): Promise<void>;
  startPrimary(): Promise<void>;
  /** `pg_ctl promote` on the replica; resolves once it accepts writes. Milliseconds it took. */
  promote(): Promise<number>;
  /** The WAL position the replica has replayed (pg_last_wal_replay_lsn), as `0/3000060`. */
  replayLsn(): Promise<string | null>;
  /** The primary's current WAL position (pg_current_wal_lsn). */
  primaryLsn(): Promise<string>;
  /**
   * How far the replica's replay is behind the primary: WAL bytes (primary's current
   * position less the replica's replayed one), and the primary's own measure of seconds
   * (pg_stat_replication.replay_lag; 0 when the replica is caught up or it has none).
   */
  lag(): Promise<{ bytes: number; seconds: number }>;
  /**
   * The replica stops replaying (it still receives and flushes WAL, so a synchronous
   * primary still commits): its reads stay where they are and it lags on purpose.
   */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the replica has replayed the primary's position at the call, or throws after `timeoutMs`. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /**
   * Fast shutdown of the replica. With `synchronous`, the primary's commits then wait
   * for it (as they would in production): start it again before writing.
   */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** Both servers stopped (immediate) and their folders removed. */
  close(): Promise<void>;
}

/** Clusters not closed yet, stopped at exit if a test forgot or crashed. */
const open = new Set<() => void>();
let exitHook = false;

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const started = Date.now();
  const bin = pgBin();
  const as = runAs();
  const database = options.database ?? 'tally';
  const base = mkdtempSync(join(tmpdir(), 'tally-cluster-'));
  if (as) chownSync(base, as.uid, as.gid);
  const log = join(base, 'log');
  mkdirSync(log, { mode: 0o755 });
  if (as) chownSync(log, as.uid, as.gid);

  const run = (program: string, args: string[], timeoutMs = 30_000): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile(
        join(bin, program),
        args,
        {
          ...(as ?? {}),
          cwd: base,
          timeout: timeoutMs,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', PGUSER: SUPERUSER, TZ: 'UTC' },
        },
        (err, stdout, stderr) => {
          if (err) reject(new Error(`${program} ${args.join(' ')} failed: ${err.message}\n${stdout}${stderr}`));
          else resolve(stdout + stderr);
        },
      );
    });

  const makeServer = (name: string, port: number): Server & { up: boolean; logFile: string } => {
    const dir = join(base, name);
    const server = {
      dir,
      port,
      up: false,
      logFile: join(log, `${name}.log`),
      url: (db = database) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${db}`,
      running: () => server.up,
    };
    return server;
  };
  const conf = (server: Server, lines: Record<string, string | number>) =>
    appendFileSync(
      join(server.dir, 'postgresql.conf'),
      `\n# tally test cluster\n${Object.entries(lines)
        .map(([k, v]) => `${k} = ${typeof v === 'number' ? v : `'${v}'`}`)
        .join('\n')}\n`,
    );

  const pgCtl = (server: Server, args: string[], timeoutMs?: number) => run('pg_ctl', ['-D', server.dir, ...args], timeoutMs);
  const tail = (server: { logFile: string }) => {
    try {
      return readFileSync(server.logFile, 'utf8').slice(-2000);
    } catch {
      return '';
    }
  };
  const start = async (server: Server & { up: boolean; logFile: string }) => {
    try {
      await pgCtl(server, ['start', '-w', '-t', '30', '-l', server.logFile]);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${tail(server)}`);
    }
    server.up = true;
  };
  const stop = async (server: Server & { up: boolean }, mode: 'fast' | 'immediate') => {
    if (!existsSync(join(server.dir, 'postmaster.pid'))) {
      server.up = false;
      return;
    }
    await pgCtl(server, ['stop', '-w', '-t', '30', '-m', mode]);
    server.up = false;
  };

  const query = async <T extends pg.QueryResultRow>(on: Server, sql: string, params?: unknown[], db = database): Promise<T[]> => {
    const client = new pg.Client({ connectionString: on.url(db), connectionTimeoutMillis: 5000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primary = makeServer('primary', primaryPort);
  const replica = makeServer('replica', replicaPort);

  // Stops whatever runs, at exit too, and removes the folders.
  const teardown = () => {
    for (const s of [replica, primary]) {
      if (existsSync(join(s.dir, 'postmaster.pid'))) {
        spawnSync(join(bin, 'pg_ctl'), ['-D', s.dir, 'stop', '-w', '-m', 'immediate'], { ...(as ?? {}), stdio: 'ignore' });
      }
      s.up = false;
    }
    rmSync(base, { recursive: true, force: true });
  };
  open.add(teardown);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const t of open) t();
    });
  }

  try {
    // -N: the new cluster's files are not fsynced by initdb (the server itself keeps fsync on).
    await run('initdb', ['-D', primary.dir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '-N', '--no-instructions']);
    const common = {
      listen_addresses: '127.0.0.1',
      wal_level: 'replica',
      max_wal_senders: 5,
      max_replication_slots: 5,
      hot_standby: 'on',
      shared_buffers: '16MB',
      max_connections: 100,
      wal_keep_size: '64MB',
      logging_collector: 'off',
      log_min_messages: 'warning',
      ...options.settings,
    };
    conf(primary, { ...common, port: primary.port, unix_socket_directories: primary.dir });
    await start(primary);
    await query(primary, `CREATE DATABASE "${database.replace(/"/g, '""')}"`, undefined, 'postgres');
    // The replica: a base backup over the primary's socket; -R writes its primary_conninfo
    // and standby.signal, -X stream brings the WAL written meanwhile, -c fast does not wait
    // for the next checkpoint.
    await run('pg_basebackup', [
      '-h',
      primary.dir,
      '-p',
      String(primary.port),
      '-U',
      SUPERUSER,
      '-D',
      replica.dir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    // Its own port and socket; no synchronous standby of its own, or a promoted replica
    // would wait for ever on every commit.
    conf(replica, { port: replica.port, unix_socket_directories: replica.dir, synchronous_standby_names: '' });
    await start(replica);
    if (options.synchronous) {
      await query(primary, "ALTER SYSTEM SET synchronous_standby_names = '*'", undefined, 'postgres');
      await query(primary, 'SELECT pg_reload_conf()', undefined, 'postgres');
    }
    // Streaming (and, with `synchronous`, counted as the synchronous standby).
    const deadline = Date.now() + 20_000;
    for (;;) {
      const rows = await query<{ state: string; sync_state: string }>(
        primary,
        'SELECT state, sync_state FROM pg_stat_replication',
        [],
        'postgres',
      );
      const ready = rows.some((r) => r.state === 'streaming' && (!options.synchronous || r.sync_state === 'sync'));
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`the replica is not streaming: ${JSON.stringify(rows)}\n${tail(replica)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  } catch (err) {
    open.delete(teardown);
    teardown();
    throw err;
  }

  const single = async <T extends pg.QueryResultRow>(on: Server, sql: string): Promise<T> => (await query<T>(on, sql))[0]!;
  const replayLsn = async () => (await single<{ l: string | null }>(replica, 'SELECT pg_last_wal_replay_lsn()::text AS l')).l;
  const primaryLsn = async () => (await single<{ l: string }>(primary, 'SELECT pg_current_wal_lsn()::text AS l')).l;

  return {
    primary,
    replica,
    database,
    startedInMs: Date.now() - started,
    query,
    stopPrimary: () => stop(primary, 'fast'),
    killPrimary: () => stop(primary, 'immediate'),
    startPrimary: () => start(primary),
    async promote() {
      const from = Date.now();
      await pgCtl(replica, ['promote', '-w', '-t', '30']);
      for (;;) {
        const row = await single<{ r: boolean }>(replica, 'SELECT pg_is_in_recovery() AS r').catch(() => ({ r: true }));
        if (!row.r) break;
        if (Date.now() - from > 30_000) throw new Error(`the replica was not promoted\n${tail(replica)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return Date.now() - from;
    },
    replayLsn,
    primaryLsn,
    async lag() {
      const [at, replayed] = [await primaryLsn(), await replayLsn()];
      const row = await single<{ bytes: string; seconds: number | null }>(
        primary,
        `SELECT pg_wal_lsn_diff('${at}', ${replayed ? `'${replayed}'` : `'0/0'`})::text AS bytes,
                (SELECT EXTRACT(EPOCH FROM max(replay_lag))::float8 FROM pg_stat_replication) AS seconds`,
      );
      return { bytes: Math.max(0, Number(row.bytes)), seconds: row.seconds ?? 0 };
    },
    async pauseReplay() {
      await query(replica, 'SELECT pg_wal_replay_pause()');
      for (let i = 0; i < 500; i++) {
        const row = await single<{ s: string }>(replica, 'SELECT pg_get_wal_replay_pause_state() AS s');
        if (row.s === 'paused') return;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error('the replica did not pause its replay');
    },
    async resumeReplay() {
      await query(replica, 'SELECT pg_wal_replay_resume()');
    },
    async caughtUp(timeoutMs = 10_000) {
      const target = await primaryLsn();
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const row = await single<{ ok: boolean }>(replica, `SELECT pg_last_wal_replay_lsn() >= '${target}'::pg_lsn AS ok`);
        if (row.ok) return;
        if (Date.now() > deadline) throw new Error(`the replica did not replay ${target} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    stopReplica: () => stop(replica, 'fast'),
    startReplica: () => start(replica),
    async close() {
      open.delete(teardown);
      teardown();
    },
  };
}
