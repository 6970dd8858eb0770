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

it("prints the first start's tokens on stderr, and only JSON log lines on stdout", async () => {
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
  // The first owner's one-time sign-in link, on the terminal only, like the tokens.
  expect(stderr).toMatch(/Sign in to the dashboard \(once, within 24 hours\): http:\/\/\S+\/dashboard\/welcome#[\w-]{43}\n/);
  expect(stdout).not.toContain('tly_');
  expect(stdout).not.toContain('welcome#');
  const lines = stdout.split('\n').filter(Boolean);
  expect(lines.length).toBeGreaterThan(0); // the request's log line, flushed at the stop
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
});

it("writes a request's log line within a moment, while the server keeps running", async () => {
  const child = spawn(process.execPath, [TALLY, 'serve'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: database.url },
  });
  try {
    let stderr = '';
    const url = await new Promise<string>((resolve) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m?.[1]) resolve(m[1]);
      });
    });
    let stdout = '';
    const logged = new Promise<void>((resolve) => {
      child.stdout.on('data', (d) => {
        stdout += d;
        if (stdout.includes('"/healthz"') || stdout.includes('/healthz')) resolve();
      });
    });
    const sent = Date.now();
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    // Within FLUSH_AFTER_MS (100 ms) and a margin for a busy machine; not at the stop.
    await Promise.race([logged, new Promise((_, reject) => setTimeout(() => reject(new Error('no log line within 2 s')), 2_000))]);
    expect(Date.now() - sent).toBeLessThan(2_000);
    expect(JSON.parse(stdout.split('\n')[0]!)).toMatchObject({ msg: expect.any(String) });
  } finally {
    child.kill('SIGTERM');
  }
});
