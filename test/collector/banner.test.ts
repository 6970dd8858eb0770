// `tally serve` speaks to two readers: stdout carries JSON log lines for machines (log
// shippers collect it), stderr the banner for the person who started it. The first
// start's tokens go only to the person.

import { spawn } from 'node:child_process';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { testDatabase, type TestDatabase } from './database.js';
import { TALLY } from './processes.js';

let database: TestDatabase;
beforeEach(async () => {
  database = await testDatabase();
});
afterEach(async () => {
  await database.drop();
});

it('prints the first start\'s tokens on stderr, and only JSON log lines on stdout', async () => {
  const child = spawn(process.execPath, [TALLY, 'serve'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: database.url },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  const exited = new Promise((resolve) => child.on('close', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m?.[1]) resolve(m[1]);
    });
    void exited.then(() => reject(new Error(`exited:\n${stderr}`)));
  });
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  child.kill('SIGTERM');
  await exited;

  expect(stderr).toMatch(/secret token: +tly_sec_/);
  expect(stderr).toMatch(/publishable token: +tly_pub_/);
  expect(stdout).not.toContain('tly_');
  const lines = stdout.split('\n').filter(Boolean);
  expect(lines.length).toBeGreaterThan(0); // the request's log line, flushed at the stop
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
});
