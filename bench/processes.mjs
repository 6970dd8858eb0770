// The servers under test, each in its own process, so that its CPU and memory are its
// own and autocannon (in the bench's process) competes with it the same way for every
// target. Output goes to a file, as a deployment's logs would, not through a pipe the
// bench would have to drain.

import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The collector under test: the built one here, or BENCH_TALLY's (another build's bin/tally.js, to compare two builds in turn). */
export const TALLY = process.env.BENCH_TALLY ?? fileURLToPath(new URL('../packages/collector/bin/tally.js', import.meta.url));
export const BASELINE = fileURLToPath(new URL('./baseline-server.mjs', import.meta.url));

/**
 * Starts `node args…` with its output in `logPath` and waits until the output matches
 * `ready`; resolves to the process, the match and the output read so far.
 */
export async function start(args, { env = {}, logPath, ready, nodeArgs = [] }) {
  const fd = openSync(logPath, 'w');
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  let exited = null;
  child.on('exit', (code, signal) => (exited = signal ?? code));
  for (let waited = 0; waited < 30_000; waited += 50) {
    const output = readFileSync(logPath, 'utf8');
    const match = ready.exec(output);
    if (match) return { child, match, output };
    if (exited !== null) throw new Error(`${args.join(' ')} exited (${exited}):\n${output}`);
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not start:\n${readFileSync(logPath, 'utf8')}`);
}

/** The process's peak resident set so far, in MB (Linux: VmHWM). */
export function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  return Math.round(kb / 1024);
}

/**
 * CPU time the process has used so far, in ms (Linux: utime + stime, at 100 ticks a
 * second). Divided by the requests served, it is steadier than req/s on a shared machine:
 * it counts the work, not the time others left us.
 */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The machine's CPU ticks so far, busy and in all (Linux /proc/stat), for how busy it was between two reads. */
export function machineTicks() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0); // idle and iowait
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * From now until the returned function is called with the requests served: the server's
 * CPU per request (all its processes, in µs: the work, whatever the machine's load), and
 * how busy all the machine's cores were (the server, the database, the client, anything else).
 */
export function usage(pids) {
  const cpuBefore = pids.map(cpuMs);
  const machineBefore = machineTicks();
  return (requests) => {
    const machineAfter = machineTicks();
    const cpu = pids.reduce((sum, pid, i) => sum + cpuMs(pid) - cpuBefore[i], 0);
    return {
      cpuUsPerReq: requests ? Math.round((cpu * 1000) / requests) : undefined,
      machineBusy: Math.round((100 * (machineAfter.busy - machineBefore.busy)) / Math.max(machineAfter.total - machineBefore.total, 1)),
    };
  };
}

/** SIGTERM, and wait for the exit (the collector finishes in-flight requests first). */
export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** `tally serve` on a free port, with rate limits off; resolves to its URL and first-start tokens. */
export async function startCollector(databaseUrl, logPath, nodeArgs = [], env = {}) {
  const { child, match, output } = await start([TALLY, 'serve'], {
    env: { DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'info', RATE_LIMIT_TOKEN: '0', RATE_LIMIT_IP: '0', ...env },
    logPath,
    ready: /listening on (http:\/\/\S+)/,
    nodeArgs,
  });
  return {
    child,
    url: match[1],
    secret: /tly_sec_[0-9A-Za-z]{38}/.exec(output)?.[0],
    publishable: /tly_pub_[0-9A-Za-z]{38}/.exec(output)?.[0],
  };
}
