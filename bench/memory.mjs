// Memory and start (issue 47): how long `tally serve` takes from spawn to listening on an
// empty database, its resident set once started, its peak under the conversion load, and
// whether that stays flat over a soak (BENCH_SOAK_SECONDS, 60 by default; 600 for the
// issue's ten minutes). Run alone with `node --import tsx bench/memory.mjs`, or as part
// of `npm run bench` (BENCH_ONLY=memory).

import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { landing, nextAddress, seedLandings } from './landings.mjs';
import { peakRssMb, startCollector, stop } from './processes.mjs';

const SOAK = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const STARTS = 3;
/** Conversions a second the seeded landings allow for (the rest reuse click ids, still new people). */
const LANDINGS_PER_SECOND = 2000;

/** The process's resident set now, in MB (Linux: VmRSS). */
const rssMb = (pid) => Math.round(Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Spawn to "listening" on a new, empty database (migrations included), and the RSS a second later; STARTS times. */
async function starts(work) {
  const runs = [];
  for (let i = 0; i < STARTS; i++) {
    const began = performance.now();
    const c = await startCollector(join(work, `start-${i}.db`), join(work, `start-${i}.log`));
    const ms = Math.round(performance.now() - began);
    await sleep(1000);
    runs.push({ ms, rssMb: rssMb(c.child.pid) });
    await stop(c.child);
  }
  return runs;
}

/**
 * Realistic conversions (each click landed before, each from its own address) at 50
 * connections for SOAK seconds; the RSS sampled every 5 s. Flat: the last quarter's
 * mean within 10 % of the second quarter's (the first is the heap still growing to its size).
 */
async function soak(work) {
  const path = join(work, 'soak.db');
  const c = await startCollector(path, join(work, 'soak.log'), [], { TRUST_PROXY: '1' });
  try {
    const auth = { authorization: `Bearer ${c.secret}`, 'content-type': 'application/json' };
    const post = (p, body) => fetch(`${c.url}${p}`, { method: 'POST', headers: auth, body: JSON.stringify(body) }).then((r) => r.json());
    const partner = await post('/v1/partners', { name: 'Soak partner', email: 'partner@soak.test' });
    const partnership = await post('/v1/partnerships', { partner_id: partner.data.id, state: 'accepted' });
    const landings = LANDINGS_PER_SECOND * SOAK;
    await seedLandings(path, partnership.data.id, landings);
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${c.publishable}`,
      origin: new URL(c.url).origin,
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    };
    let n = 0;
    const key = partnership.data.attributes.key;
    const request = {
      method: 'POST',
      headers,
      setupRequest: (req) => ({
        ...req,
        headers: { ...req.headers, 'x-forwarded-for': nextAddress() },
        body: JSON.stringify({ email: `soak${n}@bench.test`, gr_id: landing(n++ % landings), pk: key }),
      }),
    };
    const samples = [];
    const sampler = setInterval(() => samples.push(rssMb(c.child.pid)), 5000);
    const result = await new Promise((resolve, reject) =>
      autocannon({ url: `${c.url}/v1/tracking/conversion`, connections: 50, duration: SOAK, requests: [request] }, (err, r) =>
        err ? reject(err) : resolve(r),
      ),
    );
    clearInterval(sampler);
    const bad = result.non2xx + result.errors + result.timeouts;
    if (bad > 0) throw new Error(`soak: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
    const q = Math.max(1, Math.floor(samples.length / 4));
    const mean = (xs) => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1));
    const second = mean(samples.slice(q, 2 * q));
    const last = mean(samples.slice(-q));
    return {
      seconds: SOAK,
      requests: result.requests.total,
      peakMb: peakRssMb(c.child.pid),
      samplesMb: samples,
      secondQuarterMb: second,
      lastQuarterMb: last,
      flat: last <= second * 1.1,
    };
  } finally {
    await stop(c.child);
  }
}

/** Start, RSS after start, under load, and over the soak. */
export async function memoryRows(work) {
  const started = await starts(work);
  const soaked = await soak(work);
  const report = {
    startMs: median(started.map((s) => s.ms)),
    rssAfterStartMb: median(started.map((s) => s.rssMb)),
    rssUnderLoadMb: soaked.peakMb,
    starts: started,
    soak: soaked,
  };
  console.log(
    `memory: start to ready ${report.startMs} ms (${started.map((s) => s.ms).join(', ')}), RSS after start ${report.rssAfterStartMb} MB, ` +
      `under the conversion load ${report.rssUnderLoadMb} MB peak; soak ${SOAK} s: ${soaked.secondQuarterMb} → ${soaked.lastQuarterMb} MB (${soaked.flat ? 'flat' : 'GROWING'})`,
  );
  return report;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const work = mkdtempSync(join(tmpdir(), 'tally-memory-'));
  try {
    await memoryRows(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
