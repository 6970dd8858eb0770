// The app over a database handle the test opened itself, with driver options the
// server does not expose (a short busy limit, a small queue bound), on a real HTTP
// server on port 0. harness.ts's startCollector opens the database as the server does.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../packages/collector/src/app.js';
import { createProgram } from '../../packages/collector/src/flows/program.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import type { Db } from '../../packages/collector/src/platform/db/db.js';
import { migrate } from '../../packages/collector/src/platform/db/migrate.js';
import type { Reply } from './harness.js';

export interface Served {
  url: string;
  secret: string;
  /** With the program's secret token; every answer of these routes is JSON. */
  call(method: string, path: string, body?: unknown): Promise<Reply>;
  /** Stops the server; the database stays open, the test's to close. */
  close(): Promise<void>;
}

export async function serve(db: Db): Promise<Served> {
  await migrate(db, 1);
  const secret = (await createProgram(db, { name: 'P', siteUrl: 'https://p.test' }, 1)).tokens.secret;
  const server = createServer(createApp({ db, log: createLogger('silent') }).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    secret,
    async call(method, path, body) {
      const res = await fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, headers: res.headers, body: await res.json() };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Polls `ready` until it holds, or fails after `ms`: waiting on a state, not sleeping a guess. */
export async function until(ready: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`not ready after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Milliseconds until `ok()` first holds, asked every 5 ms; Infinity if it never does within `ms`. */
export async function msUntil(ok: () => Promise<boolean>, ms = 5000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < ms) {
    if (await ok()) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Infinity;
}

/** The reply and how long it took, in ms. */
export async function timed<T>(op: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await op();
  return { value, ms: performance.now() - started };
}
