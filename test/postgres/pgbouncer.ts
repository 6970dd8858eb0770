// A PgBouncer of the test run's own, in transaction pooling mode in front of the test
// server: Debian's `pgbouncer` package, started on a free port with a config written here.
// Logins are looked up in the server's own pg_shadow (auth_query), so the role each test
// schema gets (database.ts) logs in without a file to keep.
//
// A test may name the [databases] entries instead (each with its pool mode) and point
// them at another server later, as an operator does at a failover: repoint() rewrites the
// config and RELOADs it on the admin console.

import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './cluster.js';

const HOW = 'The PostgreSQL suite runs through PgBouncer: on Debian, `apt-get install -y pgbouncer`, or set TALLY_TEST_POOLED_URL.';

export interface PgBouncer {
  /** The test database through the pooler, as the server's superuser. */
  url: string;
  /** The pooler's port on 127.0.0.1. */
  port: number;
  /**
   * Every [databases] entry to the server at `host`:`port` from now on: the config is
   * rewritten and RELOADed, and this resolves once SHOW DATABASES names the new server.
   * Server connections to the old one are closed; clients stay connected.
   */
  repoint(host: string, port: number): Promise<void>;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /**
   * [databases] entries by the name clients ask for, each to `dbname` (its own name unless
   * given) on the server, in its pool mode (transaction unless given); `serverUrl`'s database
   * must be one of them (the start is checked through it). Without: `*`, every database of
   * the server, in transaction mode.
   */
  databases?: Record<string, { dbname?: string; poolMode?: 'session' | 'transaction' }>;
  /** [pgbouncer] settings over this file's (server_login_retry, query_wait_timeout…). */
  settings?: Record<string, string | number>;
}

function binary(): string {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin']) {
    if (dir && existsSync(join(dir, 'pgbouncer'))) return join(dir, 'pgbouncer');
  }
  throw new Error(`pgbouncer is not installed. ${HOW}`);
}

export async function startPgBouncer(serverUrl: string, options: PgBouncerOptions = {}): Promise<PgBouncer> {
  const exe = binary();
  const server = new URL(serverUrl);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tally-pgbouncer-'));
  // PgBouncer refuses to run as root; as root it is told to become postgres, who must read these.
  chmodSync(dir, 0o755);
  const superuser = decodeURIComponent(server.username) || 'postgres';
  writeFileSync(join(dir, 'users.txt'), `"${superuser}" ""\n`, { mode: 0o644 });
  const settings: Record<string, string | number> = {
    listen_addr: '127.0.0.1',
    listen_port: port,
    unix_socket_dir: '',
    pool_mode: 'transaction',
    auth_type: 'trust',
    auth_file: join(dir, 'users.txt'),
    auth_user: superuser,
    auth_query: 'SELECT usename, passwd FROM pg_shadow WHERE usename = $1',
    // The admin console (RELOAD, SHOW DATABASES), for repoint().
    admin_users: superuser,
    // One pool per test role: small, and closed soon after its test, so that the server's
    // 100 connections are never all held by finished tests' idle pools.
    default_pool_size: 10,
    max_db_connections: 60,
    server_idle_timeout: 2,
    max_client_conn: 900,
    ...options.settings,
  };
  const write = (host: string, serverPort: string) => {
    const entries = options.databases
      ? Object.entries(options.databases).map(
          ([name, e]) => `${name} = host=${host} port=${serverPort} dbname=${e.dbname ?? name} pool_mode=${e.poolMode ?? 'transaction'}`,
        )
      : [`* = host=${host} port=${serverPort}`];
    writeFileSync(
      join(dir, 'pgbouncer.ini'),
      ['[databases]', ...entries, '[pgbouncer]', ...Object.entries(settings).map(([k, v]) => `${k} = ${v}`), ''].join('\n'),
      { mode: 0o644 },
    );
  };
  write(server.hostname, server.port || '5432');
  const asRoot = userInfo().uid === 0 ? ['-u', 'postgres'] : [];
  const child: ChildProcess = spawn(exe, [...asRoot, join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const url = Object.assign(new URL(serverUrl), { port: String(port) }).toString();
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM'); // immediate shutdown: every test is done
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const repoint = async (host: string, serverPort: number) => {
    write(host, String(serverPort));
    const adminUrl = Object.assign(new URL(url), { pathname: '/pgbouncer', username: superuser, password: '' }).toString();
    const client = new pg.Client({ connectionString: adminUrl });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query('RELOAD'); // the admin console speaks the simple protocol only: no parameters
      if (!options.databases) return; // `*`: the databases it makes from now on
      for (let i = 0; ; i++) {
        const rows = (await client.query<{ name: string; host: string; port: number }>('SHOW DATABASES')).rows;
        const ours = rows.filter((r) => options.databases && r.name in options.databases);
        if (ours.length > 0 && ours.every((r) => r.host === host && Number(r.port) === serverPort)) return;
        if (i >= 100) throw new Error(`PgBouncer did not take the new server: ${JSON.stringify(ours)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) break;
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return { url, port, stop, repoint };
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await stop();
  throw new Error(`PgBouncer did not start (${exe}): ${output.trim()}. ${HOW}`);
}
