// The built `tally` binary in a process of its own: its exit code and its output, as a
// shell sees them (the commands themselves: cli.test.ts, in process).

import { expect, it } from 'vitest';
import { testDatabase } from './database.js';
import { tallyBinary } from './processes.js';

it('the built binary runs a command in a process of its own, with its exit code and output', async () => {
  const help = await tallyBinary(['--help']);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('tally: the Tally collector and its administration');
  const database = await testDatabase();
  try {
    const env = { DATABASE_URL: database.url };
    const listed = await tallyBinary(['programs', 'list', '--json'], env);
    expect(listed.code).toBe(0);
    expect(Array.isArray(JSON.parse(listed.stdout))).toBe(true);
    const wrong = await tallyBinary(['programs', 'list', '--nope'], env);
    expect([wrong.code, wrong.stderr.trim().split('\n').length]).toEqual([2, 1]);
  } finally {
    await database.drop();
  }
});
