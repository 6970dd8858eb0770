// Issue 47, part 3: every page at a big program's size (bench/big-seed.mjs), on SQLite and
// on PostgreSQL. At 10 connections: every list route's page 1 (default, and numbered
// `page=1`) and a page by cursor deep in the list. At one connection: statistics for 90
// days, the leaderboard, and the portal home of the partner with the most data. Cold: the
// overview's requests as the dashboard sends them, on a collector just started, over
// several starts. Then `tally stats check`, the CSV export of a million commissions
// against a small one (peak RSS), and a payout run over every partner (time, peak RSS),
// on a copy, since it changes the data. BENCH_ONLY=big runs it alone.

import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { BIG, bigPostgres, bigSqlite, END } from './big-seed.mjs';
import { peakRssMb, startCollector, stop, TALLY, usage } from './processes.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = 10;
const COLD_STARTS = Number(process.env.BENCH_COLD_STARTS ?? 5);
const day = (t) => new Date(t * 1000).toISOString().slice(0, 10);
/**
 * The seeded clicks end at END, in the past, and span a year: under the default 90 days'
 * retention each collector started here would purge 100,000 more of them, in batches that
 * on SQLite hold its event loop (the overview's cold requests waited 600 ms behind them).
 */
const KEEP_CLICKS = { CLICK_RETENTION_DAYS: '0' };
/** The last 90 days of the clicks, as the dashboard asks for them. */
const RANGE = `from=${day(END - 90 * 86_400)}&to=${day(END - 86_400)}&tz=Europe/Paris`;
const MIDDLE = new Date((END - 45 * 86_400) * 1000).toISOString().replace('.000', '');

/** Each list: its route, and the table its deep cursor is read from (the record half-way down). */
const LISTS = [
  ['clicks', 'clicks'],
  ['referrals', 'referrals'],
  ['commissions', 'commissions'],
  ['partners', 'partners'],
  ['partnerships', 'partnerships'],
  ['commissions?partner_id_eq={top}', 'commissions'],
  ['referrals?state_eq=converted', 'referrals'],
  ['commissions?state_eq=pending', 'commissions'],
  ['payments', null],
  ['payout_runs', null],
];

function cannon(url, request, seconds) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: seconds, ...request }, (err, r) => (err ? reject(err) : resolve(r)));
  });
}

/** One target at 10 connections: p50, p99, CPU per request of the collector; refuses any failure. */
async function loaded(name, c, path, headers) {
  const request = { requests: [{ method: 'GET', path, headers }] };
  if (WARMUP > 0) await cannon(c.url, request, WARMUP);
  const used = usage([c.child.pid]);
  const r = await cannon(c.url, request, SECONDS);
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  const { cpuUsPerReq, machineBusy } = used(r.requests.total);
  const row = {
    name,
    connections: CONNECTIONS,
    reqPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpuUsPerReq,
    machineBusy,
  };
  print(row);
  return row;
}

/** `once()` over and over at one connection for SECONDS, timed here to the microsecond. */
async function sequential(name, once, pid) {
  const run = async (seconds) => {
    const times = [];
    for (const end = performance.now() + seconds * 1000; performance.now() < end; ) {
      const started = performance.now();
      await once();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b);
  };
  if (WARMUP > 0) await run(WARMUP);
  const used = usage([pid]);
  const times = await run(SECONDS);
  const row = { name, connections: 1, ...quantiles(times), ...used(times.length) };
  print(row);
  return row;
}

const round = (ms) => Math.round(ms * 100) / 100;
const quantiles = (sorted) => ({
  p50: round(sorted[Math.floor(sorted.length / 2)]),
  p99: round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]),
  max: round(sorted.at(-1)),
  n: sorted.length,
});
const print = (row) =>
  console.log(
    row.name.padEnd(72) +
      (row.p50 === undefined ? '' : ` p50 ${String(row.p50).padStart(7)} ms  p99 ${String(row.p99).padStart(7)} ms`) +
      (row.cpuUsPerReq === undefined ? '' : `  CPU ${row.cpuUsPerReq} µs/req  machine ${row.machineBusy}% busy`) +
      (row.peakRssMb === undefined ? '' : `  peak RSS ${row.peakRssMb} MB`) +
      (row.seconds === undefined ? '' : `  ${row.seconds} s`) +
      (row.bytes === undefined ? '' : `  ${row.bytes} B`) +
      (row.error === undefined ? '' : `  ${row.error}`),
  );

/** GET with the secret token; throws on anything but 200. */
async function get(c, path, headers) {
  const res = await fetch(`${c.url}${path}`, { headers });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${Buffer.from(body).toString().slice(0, 300)}`);
  return body;
}
const json = async (c, path, headers) => JSON.parse(Buffer.from(await get(c, path, headers)).toString());

/** The overview's requests (packages/web/src/dashboard/pages/overview.tsx), all at once as the page sends them. */
const OVERVIEW = [
  '/v1/partnerships?state_eq=pending&per_page=50',
  `/v1/stats?${RANGE}&interval=day`,
  `/v1/stats?from=${day(END - 180 * 86_400)}&to=${day(END - 91 * 86_400)}&tz=Europe/Paris&interval=day`,
  `/v1/stats/partners?${RANGE}&sort=revenue&per_page=5`,
  '/v1/referrals?per_page=5',
  '/v1/commissions?per_page=5',
];

/** The overview's requests on a collector just started, `COLD_STARTS` times: the slowest request of each start, and the start itself. */
async function coldOverview(label, databaseUrl, secret, work) {
  const headers = { authorization: `Bearer ${secret}` };
  const firsts = [];
  const starts = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    const began = performance.now();
    const c = await startCollector(databaseUrl, join(work, `big-cold-${i}.log`), [], KEEP_CLICKS);
    starts.push(performance.now() - began);
    try {
      const t = performance.now();
      await Promise.all(OVERVIEW.map((p) => get(c, p, headers)));
      firsts.push(performance.now() - t);
    } finally {
      await stop(c.child);
    }
  }
  const rows = [
    { name: `${label}: overview's requests, cold (all ${OVERVIEW.length} at once)`, ...quantiles(firsts.sort((a, b) => a - b)) },
    { name: `${label}: start until listening`, ...quantiles(starts.sort((a, b) => a - b)) },
  ];
  rows.forEach(print);
  return rows;
}

/** A portal session of `partnerId` through their invitation: the cookie and origin its calls need. */
async function portalSession(c, secret, partnerId) {
  const invited = await fetch(`${c.url}/v1/partners/${partnerId}/invitation`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
  });
  const link = String((await invited.json()).meta.link).split('#')[1];
  const redeemed = await fetch(`${c.url}/v1/portal/auth/redeem`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: link, password: 'a long partner password' }),
  });
  if (redeemed.status !== 200) throw new Error(`portal redeem: ${redeemed.status} ${await redeemed.text()}`);
  return { cookie: redeemed.headers.get('set-cookie').split(';')[0], origin: c.url };
}

/** Peak RSS of a fresh collector over one streamed answer of `path`, and its time and size. */
async function oneAnswer(name, databaseUrl, work, path, request) {
  const c = await startCollector(databaseUrl, join(work, 'big-one.log'), [], KEEP_CLICKS);
  try {
    const before = peakRssMb(c.child.pid);
    const started = performance.now();
    // fetch's own limit for the answer's headers is 300 s: one that long is a finding, not a crash of the bench.
    const res = await fetch(`${c.url}${path}`, request(c)).catch((err) => {
      const row = {
        name,
        error: `no answer after ${round((performance.now() - started) / 1000)} s (${err.cause?.code ?? err.message})`,
        peakRssMb: peakRssMb(c.child.pid),
      };
      print(row);
      return row;
    });
    if (!(res instanceof Response)) return res;
    let bytes = 0;
    for await (const chunk of res.body) bytes += chunk.length;
    if (res.status >= 300) throw new Error(`${name}: ${res.status}`);
    const row = {
      name,
      seconds: round((performance.now() - started) / 1000),
      bytes,
      rssAtStartMb: before,
      peakRssMb: peakRssMb(c.child.pid),
    };
    print(row);
    return row;
  } finally {
    await stop(c.child);
  }
}

/** Ids for the cursors and filters, from the database itself: each list's record half-way down, the partner with the most commissions. */
async function probes(engine, databaseUrl, programId) {
  const half = (t) =>
    `SELECT id FROM ${t} WHERE program_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${Math.floor((t === 'clicks' ? BIG.clicks : t === 'commissions' ? BIG.commissions : t === 'referrals' ? BIG.referrals : BIG.partners) / 2)}`;
  const top = 'SELECT partner_id FROM commissions WHERE program_id = $1 GROUP BY partner_id ORDER BY COUNT(*) DESC LIMIT 1';
  const tables = ['clicks', 'referrals', 'commissions', 'partners', 'partnerships'];
  if (engine === 'sqlite') {
    const db = new Database(databaseUrl, { readonly: true });
    try {
      const one = (sql) => db.prepare(sql.replace('$1', '?')).pluck().get(programId);
      return { deep: Object.fromEntries(tables.map((t) => [t, one(half(t))])), top: one(top) };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const one = async (sql) => Object.values((await client.query(sql, [programId])).rows[0])[0];
    const deep = {};
    for (const t of tables) deep[t] = await one(half(t));
    return { deep, top: await one(top) };
  } finally {
    await client.end();
  }
}

/** How many of the program's kept windows (modules/stats/windows.ts) are still being built. */
async function windowsBuilding(engine, databaseUrl, programId) {
  const sql = 'SELECT COUNT(*) AS n FROM stat_windows WHERE program_id = $1 AND building = 1';
  if (engine === 'sqlite') {
    const db = new Database(databaseUrl, { readonly: true });
    try {
      return db.prepare(sql.replace('$1', '?')).pluck().get(programId);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Number((await client.query(sql, [programId])).rows[0].n);
  } finally {
    await client.end();
  }
}

/**
 * The leaderboard's range asked for once, then its kept window built in the background by
 * the collector's fold (at most 200 ms a second): the time until it is whole is a row too.
 */
async function windowsBuilt(label, engine, c, databaseUrl, programId, headers) {
  const started = performance.now();
  await get(c, `/v1/stats/partners?${RANGE}&sort=commissions&per_page=5`, headers);
  const deadline = started + 30 * 60_000;
  do await new Promise((resolve) => setTimeout(resolve, 2000));
  while ((await windowsBuilding(engine, databaseUrl, programId)) > 0 && performance.now() < deadline);
  const row = { name: `${label}: the leaderboard's window built in the background`, seconds: round((performance.now() - started) / 1000) };
  print(row);
  return row;
}

/** Every row for one engine. */
async function engineRows(engine, seed, work, wanted) {
  const label = `big ${engine}`;
  const databaseUrl = engine === 'sqlite' ? seed.path : seed.url;
  const headers = { authorization: `Bearer ${seed.secret}` };
  const { deep, top } = await probes(engine, databaseUrl, seed.programId);
  const rows = [];
  const c = await startCollector(databaseUrl, join(work, `big-${engine}.log`), [], KEEP_CLICKS);
  try {
    for (const [route, table] of LISTS) {
      const path = `/v1/${route.replace('{top}', top)}`;
      const join_ = path.includes('?') ? '&' : '?';
      const name = (what) => `${label}: GET /v1/${route} ${what}`;
      if (wanted(name('page 1'))) rows.push(await loaded(name('page 1'), c, path, headers));
      if (wanted(name('page=1'))) rows.push(await loaded(name('page=1'), c, `${path}${join_}page=1&per_page=50`, headers));
      if (table && wanted(name('by cursor')))
        rows.push(await loaded(name('by cursor'), c, `${path}${join_}starting_after=${deep[table]}&per_page=50`, headers));
    }
    if (wanted(`${label}: GET /v1/stats/partners`) || wanted(`${label}: overview`))
      rows.push(await windowsBuilt(label, engine, c, databaseUrl, seed.programId, headers));
    for (const [what, path] of [
      ['GET /v1/stats 90 days by day', `/v1/stats?${RANGE}&interval=day`],
      ['GET /v1/stats/partners 90 days (leaderboard)', `/v1/stats/partners?${RANGE}&sort=commissions&per_page=5`],
      ['GET /v1/stats/partners 90 days by revenue', `/v1/stats/partners?${RANGE}&sort=revenue&per_page=5`],
    ]) {
      const name = `${label}: ${what}`;
      if (wanted(name)) rows.push(await sequential(name, () => get(c, path, headers), c.child.pid));
    }
    const portal = `${label}: portal home of the partner with the most data`;
    if (wanted(portal)) {
      const session = await portalSession(c, seed.secret, top);
      const ps = await json(c, '/v1/portal/partnerships', { cookie: session.cookie });
      const id = ps.data[0].id;
      const h = { cookie: session.cookie, origin: session.origin };
      const home = [
        '/v1/portal/account',
        '/v1/portal/partnerships?per_page=50',
        `/v1/portal/partnerships/${id}/stats?${RANGE}&interval=day`,
      ];
      rows.push(await sequential(portal, () => Promise.all(home.map((p) => get(c, p, h))), c.child.pid));
    }
  } finally {
    await stop(c.child);
  }
  if (wanted(`${label}: overview`)) rows.push(...(await coldOverview(label, databaseUrl, seed.secret, work)));
  if (wanted(`${label}: tally stats check`)) {
    const started = performance.now();
    execFileSync(process.execPath, [TALLY, 'stats', 'check'], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: 'ignore' });
    const row = { name: `${label}: tally stats check`, seconds: round((performance.now() - started) / 1000) };
    print(row);
    rows.push(row);
  }
  const exportRequest = () => ({ headers: { authorization: `Bearer ${seed.secret}` } });
  if (wanted(`${label}: CSV export`)) {
    rows.push(
      await oneAnswer(
        `${label}: CSV export, one partner's commissions`,
        databaseUrl,
        work,
        `/v1/commissions/export?partner_id_eq=${deep.partners}`,
        exportRequest,
      ),
    );
    rows.push(
      await oneAnswer(
        `${label}: CSV export, a million commissions`,
        databaseUrl,
        work,
        `/v1/commissions/export?created_at_gt=${MIDDLE}`,
        exportRequest,
      ),
    );
  }
  if (wanted(`${label}: payout run`)) rows.push(await payoutRun(label, engine, seed, databaseUrl, work));
  return rows;
}

/** POST /v1/payout_runs over every partner, on a copy of the SQLite file; on PostgreSQL last, and the cached schema is dropped after it. */
async function payoutRun(label, engine, seed, databaseUrl, work) {
  const copy = engine === 'sqlite' ? join(work, 'big-payout.db') : databaseUrl;
  if (engine === 'sqlite') copyFileSync(databaseUrl, copy);
  try {
    return await oneAnswer(`${label}: payout run over every partner`, copy, work, '/v1/payout_runs', () => ({
      method: 'POST',
      headers: { authorization: `Bearer ${seed.secret}` },
    }));
  } finally {
    if (engine === 'sqlite') rmSync(copy, { force: true });
    else await seed.spoil();
  }
}

/** Issue 47's goals for the big program, per engine: [what, the rows it reads, the figure, the goal]. */
const GOALS = [
  ['list page 1 and by cursor at 10 connections: worst p99 (ms)', (r) => / GET .*(page 1|by cursor)$/.test(r.name), (r) => r.p99, 5],
  ['numbered page 1 at 10 connections: worst p99 (ms)', (r) => / GET .* page=1$/.test(r.name), (r) => r.p99, 10],
  ['statistics, 90 days: p99 (ms)', (r) => r.name.includes('/v1/stats 90'), (r) => r.p99, 50],
  ['leaderboard, 90 days: worst p99 (ms)', (r) => r.name.includes('/v1/stats/partners'), (r) => r.p99, 50],
  ["overview's requests, cold: slowest of the starts (ms)", (r) => r.name.includes('overview'), (r) => r.max, 300],
  ['portal home, the partner with the most data: p99 (ms)', (r) => r.name.includes('portal home'), (r) => r.p99, 50],
  ['tally stats check (s)', (r) => r.name.endsWith('tally stats check'), (r) => r.seconds, 60],
];

/** Each goal's worst figure per engine, met or not; printed and returned. */
function goals(rows) {
  const out = [];
  for (const engine of ['sqlite', 'postgres']) {
    for (const [what, picks, figure, goal] of GOALS) {
      const values = rows.filter((r) => r.name.startsWith(`big ${engine}:`) && picks(r)).map(figure);
      if (values.length === 0) continue;
      const value = Math.max(...values);
      out.push({ engine, what, value, goal: `≤ ${goal}`, met: value <= goal });
      console.log(
        `${`${engine}: ${what}`.padEnd(72)} ${String(value).padStart(9)}   ≤ ${String(goal).padEnd(5)} ${value <= goal ? 'yes' : 'NO'}`,
      );
    }
  }
  return out;
}

export async function bigRows(work, wanted) {
  // An engine runs when BENCH_ONLY names it (`big`, `big sqlite`) or one of its targets.
  const parts = (process.env.BENCH_ONLY ?? '').split(',');
  const engines = ['sqlite', 'postgres'].filter((e) => wanted(`big ${e}: `) || parts.some((p) => p.startsWith(`big ${e}: `)));
  if (engines.length === 0) return { rows: [], goals: [] };
  const load = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  const rows = [];
  for (const engine of engines) {
    const seed = engine === 'sqlite' ? await bigSqlite() : await bigPostgres();
    if (!seed) continue;
    rows.push({ name: `big ${engine}: seed`, seconds: seed.seedSeconds, cached: seed.cached, load: load() });
    rows.push(...(await engineRows(engine, seed, work, wanted)), { name: `big ${engine}: load average after`, load: load() });
  }
  console.log('');
  return { rows, goals: goals(rows) };
}
