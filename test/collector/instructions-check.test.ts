// The guard CI runs after the tests (`npm run bench:check`, bench/instructions.mjs): a tracking
// route counted more than 10 % over bench/instructions.json fails it, naming the route. Shown
// here with `--compare`, which judges a run's report as --check judges its own, so no
// valgrind is needed: the committed figures against a copy with one of them lowered by 20 %.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../bench/instructions.mjs', import.meta.url));
const committed = JSON.parse(readFileSync(new URL('../../bench/instructions.json', import.meta.url), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'tally-instructions-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A run that counted exactly the committed figures, with the committed settings. */
const report = (instructions: Record<string, number>) => ({
  ...committed,
  rows: Object.entries(instructions).map(([name, figure]) => ({ name, instructions: figure })),
});

/** `--compare` of `run` against `recorded`, each written to a file of its own. */
function compare(run: object, recorded: object) {
  const runFile = join(dir, 'run.json');
  const recordedFile = join(dir, 'recorded.json');
  writeFileSync(runFile, JSON.stringify(run));
  writeFileSync(recordedFile, JSON.stringify(recorded));
  const done = spawnSync(process.execPath, [SCRIPT, '--compare', runFile], {
    env: { ...process.env, BENCH_INSTR_RECORDED: recordedFile },
    encoding: 'utf8',
  });
  return { code: done.status, out: done.stdout + done.stderr };
}

it('the committed figures record every tracking route, counted with the check’s settings', () => {
  expect(Object.keys(committed.instructions)).toEqual(
    expect.arrayContaining(['collector: conversion', 'collector: new click', 'collector: repeated click']),
  );
  expect(committed.leftOut.length).toBeGreaterThan(0);
  const same = compare(report(committed.instructions), committed);
  expect(same.code, same.out).toBe(0);
  expect(same.out).toContain('every tracking route within 10 %');
});

it('a tracking route 25 % over its recorded figure (recorded lowered by 20 %) fails, named with both figures and the growth', () => {
  const route = 'collector: conversion';
  const now = committed.instructions[route] as number;
  const lowered = Math.round(now * 0.8);
  const failed = compare(report(committed.instructions), {
    ...committed,
    instructions: { ...committed.instructions, [route]: lowered },
  });
  expect(failed.code).toBe(1);
  const n = (x: number) => x.toLocaleString('en-US');
  expect(failed.out).toContain(`GREW: ${route}: ${n(now)} instructions/request, recorded ${n(lowered)} (+25.0 %`);
  // Only that route grew: the others are at their recorded figures.
  expect(failed.out.match(/GREW:/g)).toHaveLength(1);
});

it('a growth within the margin passes, and figures counted with other settings are refused', () => {
  const grownABit = Object.fromEntries(
    Object.entries(committed.instructions as Record<string, number>).map(([name, figure]) => [name, Math.round(figure * 1.09)]),
  );
  expect(compare(report(grownABit), committed).code).toBe(0);
  const other = compare({ ...report(committed.instructions), requests: committed.requests + 1 }, committed);
  expect(other.code).not.toBe(0);
  expect(other.out).toContain('run with the same BENCH_INSTR_WARMUP, BENCH_INSTR_REQUESTS');
});
