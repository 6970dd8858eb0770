// `tally stats check`, run as a separate process: agreement exits 0; a kept total that
// no record explains exits 1 and names it; --repair rebuilds; an unknown program is a
// usage error.

import { afterEach, beforeEach, expect, it } from 'vitest';
import { testDatabase, withDb, type TestDatabase } from './database.js';
import { tally } from './processes.js';

let database: TestDatabase;
let env: Record<string, string>;
beforeEach(async () => {
  database = await testDatabase();
  env = { DATABASE_URL: database.url };
});
afterEach(async () => {
  await database.drop();
});

it('exits 1 on a difference, names it, and --repair makes the totals equal a recount again', async () => {
  const made = await tally(['programs', 'create', '--name', 'Acme', '--site-url', 'https://acme.test/', '--json'], env);
  const programId = (JSON.parse(made.stdout) as { program: { id: string } }).program.id;
  const clean = await tally(['stats', 'check', '--program', programId], env);
  expect([clean.code, clean.stdout.trim()]).toEqual([0, 'The kept totals equal a recount of the records.']);

  // A click counted for a partner who never had one, as a lost or doubled delta would leave it.
  await withDb(env.DATABASE_URL!, (db) =>
    db.run("INSERT INTO stat_deltas (program_id, partner_id, bucket, currency, clicks) VALUES (?, 'ghost', 1740823200, '', 1)", [
      programId,
    ]),
  );
  const found = await tally(['stats', 'check'], env);
  expect(found.code).toBe(1);
  expect(found.stderr).toContain(`partner ${programId} ghost 1740823200 : kept 1,0,0,0,0,0,0, counted nothing`);
  expect(found.stderr).toContain('tally: 1 difference(s) between the kept totals and a recount');

  // The ghost is in March 2025: a check from April on does not look there.
  const later = await tally(['stats', 'check', '--since', '2025-04'], env);
  expect([later.code, later.stdout.trim()]).toEqual([0, 'The kept totals equal a recount of the records.']);
  const sloppy = await tally(['stats', 'check', '--since', '2025-4'], env);
  expect(sloppy.code).toBe(2);
  expect(sloppy.stderr).toContain('--since takes a month as YYYY-MM, such as 2026-11, not 2025-4');

  const repaired = await tally(['stats', 'check', '--program', programId, '--repair'], env);
  expect(repaired.code).toBe(0);
  expect(repaired.stdout).toContain('Rebuilt the totals; 1 difference(s) were found.');
  expect((await tally(['stats', 'check'], env)).code).toBe(0);

  const unknown = await tally(['stats', 'check', '--program', 'no-such-program'], env);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('no program no-such-program');
});
