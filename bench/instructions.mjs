// Instructions per request, counted by valgrind's callgrind (this VM has no hardware
// counters for `perf stat`): CPU time on a shared machine moved ±30 % run to run, an
// instruction count does not depend on what else the machine runs (docs/performance.md).
//
// Each server runs under callgrind with fixed V8 flags (V8_FLAGS: compilation on the main
// thread, so optimised code arrives after the same work every run) and its instrumentation
// off: start and each target's WARMUP requests run at a few times native speed, not fifty.
// Then instrumentation on, REQUESTS requests, a dump whose total is divided by REQUESTS,
// and off again. The bare stack is counted the same way in the same run. V8's optimising
// compiler and garbage collector are left out of the count (LEFT_OUT).
//
//   node --import tsx bench/instructions.mjs            prints the figures, writes bench/results/instructions.json
//   node --import tsx bench/instructions.mjs --check    and fails when a tracking route grew > 10 % over bench/instructions.json
//   node --import tsx bench/instructions.mjs --record   and writes them to bench/instructions.json (say why in the commit)
//   node --import tsx bench/instructions.mjs --compare [FILE]   a run's report (the last one) against them, counting nothing
//
// BENCH_INSTR_REQUESTS, BENCH_INSTR_WARMUP, BENCH_INSTR_CONNECTIONS, BENCH_INSTR_ONLY (a
// substring of target names, comma-separated), BENCH_INSTR_V8 (the flags) and
// BENCH_INSTR_LEFT_OUT change a run; BENCH_INSTR_RECORDED names the recorded file;
// BENCH_INSTR_PROFILE=1 keeps each target's counts in bench/results/<target>.callgrind.

import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { BASELINE, TALLY } from './processes.mjs';

const REQUESTS = Number(process.env.BENCH_INSTR_REQUESTS ?? 500);
const WARMUP = Number(process.env.BENCH_INSTR_WARMUP ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_INSTR_CONNECTIONS ?? 1);
/** Substrings of the targets to count, none for all; --check adds the recorded targets' names. */
const only = (process.env.BENCH_INSTR_ONLY ?? '').split(',').filter(Boolean);
const PROFILE = process.env.BENCH_INSTR_PROFILE === '1';
export const V8_FLAGS = (process.env.BENCH_INSTR_V8 ?? '--single-threaded --max-semi-space-size=16').split(' ').filter(Boolean);
/**
 * Functions whose instructions are not counted (callgrind's --toggle-collect, `;`-separated): V8's
 * optimising compiler and its garbage collector, half to two thirds of the window, which ran
 * inside it or not as timing had it (a 12-40 % spread between runs, docs/performance.md).
 */
export const LEFT_OUT = (
  process.env.BENCH_INSTR_LEFT_OUT ??
  'v8::internal::Compiler::CompileOptimized(*;v8::internal::Heap::CollectGarbage(*;v8::internal::IncrementalMarking::Step(*'
)
  .split(';')
  .filter(Boolean);
/** A tracking route may grow this much over its recorded figure before --check fails. */
export const MARGIN = 0.1;
/** The figures --check compares with; BENCH_INSTR_RECORDED names another file (to show the check failing, say). */
const RECORDED = process.env.BENCH_INSTR_RECORDED ?? fileURLToPath(new URL('./instructions.json', import.meta.url));
const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
mkdirSync(RESULTS, { recursive: true });
const wanted = (name) => only.length === 0 || only.some((part) => name.includes(part));

/** `node args…` under callgrind, its output in `logPath`; resolves once the output matches `ready`. */
async function underCallgrind(args, { env = {}, logPath, ready, dir }) {
  const fd = openSync(logPath, 'w');
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--dump-instr=no',
      '--dump-line=no',
      '--instr-atstart=no',
      ...LEFT_OUT.map((fn) => `--toggle-collect=${fn}`),
      // After the toggles: each --toggle-collect turns collection off at start, which would count only those functions.
      '--collect-atstart=yes',
      `--callgrind-out-file=${join(dir, 'callgrind.out.%p')}`,
      process.execPath,
      ...V8_FLAGS,
      ...args,
    ],
    { env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] },
  );
  closeSync(fd);
  let exited = null;
  child.on('exit', (code, signal) => (exited = signal ?? code));
  for (let waited = 0; waited < 900_000; waited += 100) {
    const output = readFileSync(logPath, 'utf8');
    const match = ready.exec(output);
    if (match) return { child, match, output, dir };
    if (exited !== null) throw new Error(`${args.join(' ')} exited under callgrind (${exited}):\n${output}`);
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not start under callgrind:\n${readFileSync(logPath, 'utf8')}`);
}

const control = (server, ...args) => execFileSync('callgrind_control', [...args, String(server.child.pid)], { stdio: 'ignore' });

/** Dumps the counts since the last dump and resolves to their total (instructions). */
function dump(server) {
  const before = new Set(readdirSync(server.dir));
  control(server, '--dump');
  const file = readdirSync(server.dir).find((f) => !before.has(f) && f.startsWith(`callgrind.out.${server.child.pid}.`));
  if (!file) throw new Error('callgrind wrote no dump');
  const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(server.dir, file), 'utf8'));
  if (!totals) throw new Error(`no totals in ${file}`);
  return { total: Number(totals[1]), file: join(server.dir, file) };
}

async function stopServer(server) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/**
 * Sends `count` requests, `CONNECTIONS` at a time on kept-alive sockets; `next(i)` gives
 * request i's { path, headers, body }. Any status but `expect` fails the run.
 */
async function send(base, count, next, expect) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const url = new URL(base);
  let issued = 0;
  const one = (i) =>
    new Promise((resolve, reject) => {
      const { path, headers, body } = next(i);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path,
          method: 'POST',
          agent,
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === expect ? resolve() : reject(new Error(`${path}: ${res.statusCode}, expected ${expect}`)),
          );
        },
      );
      // A kept-alive socket the server closed as idle while callgrind held it (a dump, instrumentation switched):
      // the request never reached it, so it is sent again (Node's documented pattern for reusedSocket).
      req.on('error', (err) => (req.reusedSocket && err.code === 'ECONNRESET' ? one(i).then(resolve, reject) : reject(err)));
      req.end(body);
    });
  const lane = async () => {
    while (issued < count) await one(issued++);
  };
  try {
    await Promise.all(Array.from({ length: CONNECTIONS }, lane));
  } finally {
    agent.destroy();
  }
}

/** Warm-up uninstrumented, then the measured requests with instrumentation on: instructions per request. */
async function count(server, name, target) {
  const started = performance.now();
  const load = loadavg()[0];
  await send(server.url, WARMUP, (i) => target.next(i), target.expect);
  // Zeroed once on: without it a dump after the first one of a process carried a wrapped-around total.
  control(server, '--instr=on');
  control(server, '--zero');
  await send(server.url, REQUESTS, (i) => target.next(WARMUP + i), target.expect);
  const { total, file } = dump(server);
  control(server, '--instr=off');
  const perRequest = Math.round(total / REQUESTS);
  // Kept for callgrind_annotate: native frames by name (SQLite, libuv, V8's builtins), JIT code as addresses.
  if (PROFILE) copyFileSync(file, join(RESULTS, `${name.replace(/[^a-z0-9]+/gi, '-')}.callgrind`));
  const row = {
    name,
    instructions: perRequest,
    requests: REQUESTS,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    load1: load,
  };
  console.log(`${name.padEnd(52)} ${String(perRequest).padStart(10)} instructions/request  (${row.seconds} s, load ${load.toFixed(2)})`);
  return row;
}

const json = { 'content-type': 'application/json' };

/** The bare stack's insert: a body like a conversion's, each with a new e-mail. */
const bareTarget = {
  expect: 201,
  next: (i) => ({ path: '/', headers: json, body: JSON.stringify({ email: `person${i}@bench.test`, gr_id: `g${i}`, pk: 'p1' }) }),
};

async function bare(name, args, dir) {
  const server = await underCallgrind([BASELINE, ...args], { logPath: join(dir, 'bare.log'), ready: /listening (\d+)/, dir });
  server.url = `http://127.0.0.1:${server.match[1]}`;
  try {
    return await count(server, name, bareTarget);
  } finally {
    await stopServer(server);
  }
}

/** One address per request (behind TRUST_PROXY=1), as landings.mjs's nextAddress. */
const address = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/**
 * The tracking targets on one collector: a conversion whose click landed before, each
 * from its own address; a new click; a repeated click; a flood of conversions from one
 * address naming click ids that never landed. Landings for the conversions and the
 * repeats are seeded first (landings.mjs).
 */
async function collector(label, databaseUrl, dir, kinds = ['conversion', 'click', 'repeat', 'flood']) {
  const names = {
    conversion: `${label}: conversion`,
    click: `${label}: new click`,
    repeat: `${label}: repeated click`,
    flood: `${label}: one-address flood`,
  };
  const chosen = Object.entries(names).filter(([what, n]) => kinds.includes(what) && wanted(n));
  if (chosen.length === 0) return [];
  const server = await underCallgrind([TALLY, 'serve'], {
    // Callgrind slows the server fifty-fold: its request timeouts would answer 408 to requests it had not read yet.
    env: {
      DATABASE_URL: databaseUrl,
      PORT: '0',
      LOG_LEVEL: 'info',
      RATE_LIMIT_TOKEN: '0',
      RATE_LIMIT_IP: '0',
      TRUST_PROXY: '1',
      HEADERS_TIMEOUT_MS: '3600000',
      REQUEST_TIMEOUT_MS: '3600000',
    },
    logPath: join(dir, `${label}.log`),
    ready: /listening on (http:\/\/\S+)/,
    dir,
  });
  server.url = server.match[1];
  try {
    const secret = /tly_sec_[0-9A-Za-z]{38}/.exec(server.output)?.[0];
    const publishable = /tly_pub_[0-9A-Za-z]{38}/.exec(server.output)?.[0];
    const post = (path, body) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${secret}` },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    const partner = await post('/v1/partners', { name: 'Bench partner', email: 'partner@bench.test' });
    const partnership = await post('/v1/partnerships', { partner_id: partner.data.id, state: 'accepted' });
    const key = partnership.data.attributes.key;
    const { seedLandings, landing } = await import('./landings.mjs');
    await seedLandings(databaseUrl, partnership.data.id, 2 * (WARMUP + REQUESTS));
    const browser = {
      ...json,
      authorization: `Bearer ${publishable}`,
      origin: new URL(server.url).origin,
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    };
    // Addresses and e-mails differ between targets: each target's requests are new to the collector.
    const from = (base, i, body) => ({ headers: { ...browser, 'x-forwarded-for': address(base + i) }, body: JSON.stringify(body) });
    const targets = {
      conversion: {
        expect: 201,
        next: (i) => ({ path: '/v1/tracking/conversion', ...from(0, i, { email: `person${i}@bench.test`, gr_id: landing(i), pk: key }) }),
      },
      click: {
        expect: 202,
        next: (i) => ({
          path: '/v1/tracking/click',
          ...from(1 << 20, i, {
            gr_id: `visitor-${i}`,
            pk: key,
            url: `https://shop.bench.test/pricing?red=${key}`,
            referrer: 'https://partner.bench.test/post',
          }),
        }),
      },
      repeat: {
        expect: 202,
        next: (i) => ({
          path: '/v1/tracking/click',
          ...from(2 << 20, i, {
            gr_id: landing(WARMUP + REQUESTS + i),
            pk: key,
            url: `https://shop.bench.test/?red=${key}`,
            referrer: 'https://partner.bench.test/',
          }),
        }),
      },
      flood: {
        expect: 201,
        next: (i) => ({
          path: '/v1/tracking/conversion',
          headers: { ...browser, 'x-forwarded-for': '192.0.2.1' },
          body: JSON.stringify({ email: `flood${i}@bench.test`, gr_id: `unknown-${i}`, pk: key }),
        }),
      },
    };
    const rows = [];
    for (const [what, name] of chosen) rows.push(await count(server, name, targets[what]));
    return rows;
  } finally {
    await stopServer(server);
  }
}

/** The rows of one run: the bare stacks and the collector on SQLite, then on PostgreSQL when one answers. */
export async function instructionRows() {
  const dir = mkdtempSync(join(tmpdir(), 'tally-instructions-'));
  try {
    const rows = [];
    if (wanted('bare-sqlite')) rows.push(await bare('bare-sqlite', ['sqlite', join(dir, 'bare.db'), 'off'], dir));
    rows.push(...(await collector('collector', join(dir, 'collector.db'), dir)));
    if (['bare-pg', 'collector-pg'].some(wanted)) {
      const { freshSchema, postgresReady } = await import('./postgres.mjs');
      if (await postgresReady()) {
        if (wanted('bare-pg')) {
          const base = await freshSchema();
          try {
            rows.push(await bare('bare-pg', ['postgres', base.url], dir));
          } finally {
            await base.drop();
          }
        }
        {
          const schema = await freshSchema();
          try {
            rows.push(...(await collector('collector-pg', schema.url, dir, ['conversion'])));
          } finally {
            await schema.drop();
          }
        }
      }
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each collector row over its engine's bare row. */
export function ratios(rows) {
  const of = (name) => rows.find((r) => r.name === name)?.instructions;
  return Object.fromEntries(
    rows
      .filter((r) => r.name.startsWith('collector'))
      .map((r) => {
        const bareRow = of(r.name.startsWith('collector-pg') ? 'bare-pg' : 'bare-sqlite');
        return [r.name, bareRow ? Math.round((r.instructions / bareRow) * 100) / 100 : undefined];
      }),
  );
}

/** The tracking rows that grew more than MARGIN over the recorded figures. */
export function grown(rows, recorded) {
  return rows
    .filter((r) => r.name.startsWith('collector'))
    .map((r) => ({ name: r.name, now: r.instructions, was: recorded[r.name] }))
    .filter((r) => r.was !== undefined && r.now > r.was * (1 + MARGIN));
}

/** What a run was counted with: figures counted otherwise are not compared. */
const settingsOf = (run) => JSON.stringify([run.warmup, run.requests, run.connections, run.v8, run.leftOut ?? []]);

/** The recorded figures, refused when missing or counted with other settings than `run`'s. */
function recordedFigures(run) {
  if (!existsSync(RECORDED)) throw new Error(`no ${RECORDED}: record one with --record`);
  const recorded = JSON.parse(readFileSync(RECORDED, 'utf8'));
  if (settingsOf(recorded) !== settingsOf(run))
    throw new Error(
      `${RECORDED} was counted with ${recorded.warmup} + ${recorded.requests} requests at ${recorded.connections} connections, ` +
        `V8 flags ${recorded.v8.join(' ')}, leaving out ${(recorded.leftOut ?? []).join(' ') || 'nothing'}: run with the same ` +
        'BENCH_INSTR_WARMUP, BENCH_INSTR_REQUESTS, BENCH_INSTR_CONNECTIONS, BENCH_INSTR_V8 and BENCH_INSTR_LEFT_OUT',
    );
  return recorded.instructions;
}

/** Prints each tracking route that grew over the recorded figures; false when one did. */
function compare(run) {
  const over = grown(run.rows, recordedFigures(run));
  const n = (x) => x.toLocaleString('en-US');
  for (const r of over)
    console.log(
      `GREW: ${r.name}: ${n(r.now)} instructions/request, recorded ${n(r.was)} ` +
        `(+${((r.now / r.was - 1) * 100).toFixed(1)} %, over the ${MARGIN * 100} % allowed)`,
    );
  if (over.length === 0) console.log(`every tracking route within ${MARGIN * 100} % of ${RECORDED}`);
  // A growth meant (a feature that costs what it costs) is recorded again, with the reason in the commit.
  else console.log(`if that growth is meant: npm run bench:instructions -- --record, and say why in the commit`);
  return over.length === 0;
}

async function main() {
  const [mode, file] = process.argv.slice(2);
  // --compare FILE: a run already made (bench/results/instructions.json) against the recorded figures, counting nothing.
  if (mode === '--compare') {
    process.exitCode = compare(JSON.parse(readFileSync(file ?? join(RESULTS, 'instructions.json'), 'utf8'))) ? 0 : 1;
    return;
  }
  const settings = { requests: REQUESTS, warmup: WARMUP, connections: CONNECTIONS, v8: V8_FLAGS, leftOut: LEFT_OUT };
  // The check counts the recorded tracking routes, no more: the bare stack is not compared, and would only lengthen CI.
  if (mode === '--check' && only.length === 0)
    only.push(...Object.keys(recordedFigures(settings)).filter((name) => name.startsWith('collector')));
  else if (mode === '--check') recordedFigures(settings);
  const rows = await instructionRows();
  const report = { at: new Date().toISOString(), ...settings, rows, overBare: ratios(rows) };
  for (const [name, value] of Object.entries(report.overBare))
    if (value !== undefined) console.log(`${name.padEnd(52)} ${String(value ?? '-').padStart(10)} × bare`);
  writeFileSync(join(RESULTS, 'instructions.json'), `${JSON.stringify(report, null, 2)}\n`);
  if (mode === '--record') {
    const instructions = Object.fromEntries(rows.map((r) => [r.name, r.instructions]));
    writeFileSync(RECORDED, `${JSON.stringify({ ...settings, node: process.version, instructions }, null, 2)}\n`);
    console.log(`recorded in ${RECORDED}`);
  }
  if (mode === '--check' && !compare(report)) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
