// The `tally` CLI: in process for the commands (main() with the test's own environment
// and output, running the sources), and the built binary where a process is the point:
// `tally serve`, signals, kill -9, and one smoke test of the binary itself.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { main } from '../../packages/collector/src/cli.js';

export const TALLY = fileURLToPath(new URL('../../packages/collector/bin/tally.js', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A command run in process, as the binary would run it with `env` added to the environment and `stdin` as its input. */
export async function tally(args: string[], env: Record<string, string> = {}, stdin = ''): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    env: { ...process.env, ...env },
    stdout: {
      write(text: string, done?: (err?: Error | null) => void) {
        stdout += text;
        done?.(null);
        return true;
      },
    },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: () => stdin,
  });
  return { code, stdout, stderr };
}

/** The built binary, in a process of its own. */
export function tallyBinary(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TALLY, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Served {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `tally serve` on a free port and resolves once it listens. */
export function serve(env: Record<string, string>): Promise<Served> {
  const child = spawn(process.execPath, [TALLY, 'serve'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'silent', ...env },
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 15_000);
    const onData = (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: m[1], output: () => out, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

/** Stops the servers still running (SIGTERM) and waits for each to exit. */
export async function stopServers(...servers: Array<Served | undefined>): Promise<void> {
  for (const s of servers) {
    if (s?.child.exitCode === null) {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  }
}

/** The tokens a first start prints once. */
export function tokensIn(output: string) {
  return {
    secret: /tly_sec_[0-9A-Za-z]{38}/.exec(output)?.[0],
    publishable: /tly_pub_[0-9A-Za-z]{38}/.exec(output)?.[0],
  };
}

/**
 * Sends headers and half a body now; `written` resolves once the server has read the
 * headers (its `100 Continue`, so the request is in flight, not waiting in a socket) and
 * the half has been sent; `finish()` sends the rest; `reply` is the answer.
 */
export function halfSent(url: string, token: string, body: string) {
  let finish = () => {};
  let markWritten = () => {};
  const written = new Promise<void>((resolve) => (markWritten = resolve));
  const reply = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          expect: '100-continue',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.on('continue', () => req.write(body.slice(0, half), () => markWritten()));
    req.flushHeaders();
    finish = () => req.end(body.slice(half));
  });
  return { reply, written, finish: () => finish() };
}
