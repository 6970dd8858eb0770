// `npm start` under a process manager: SIGTERM or SIGINT to npm must stop the server and
// free its port. npm passes the signal to its script's shell; the script execs node, so
// the server itself receives it (a shell in between would die and leave node running).

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { testDatabase, type TestDatabase } from './database.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let database: TestDatabase;
beforeEach(async () => {
  database = await testDatabase();
});
afterEach(async () => {
  await database.drop();
});

it.each(['SIGTERM', 'SIGINT'] as const)(
  '%s to npm start stops the server and frees its port',
  async (signal) => {
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: database.url },
    });
    let output = '';
    const exited = new Promise<void>((resolve) => npm.on('close', () => resolve()));
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d;
        const m = /listening on (http:\/\/\S+)/.exec(output);
        if (m?.[1]) resolve(m[1]);
      };
      npm.stdout.on('data', onData);
      npm.stderr.on('data', onData);
      void exited.then(() => reject(new Error(`npm start exited early:\n${output}`)));
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    npm.kill(signal);
    await exited;
    // The port is closed: nothing is left running that answers it.
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  },
  30_000,
);
