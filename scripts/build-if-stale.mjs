// `npm test`'s build, skipped when nothing it reads changed since it last ran: `npm ci`
// has just built (the prepare script) on a clean clone, and a second rollup of the same
// sources is 40 s of a 2-core machine. Stale when any file the build reads (the packages'
// sources, the rollup config, the lockfile, the tsconfigs) is newer than the time the build
// last wrote to any of its output folders (old chunks rollup leaves there do not count), or
// when one is missing; then `npm run build`, as make would.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const OUTPUTS = ['packages/collector/dist', 'packages/tracker/dist', 'packages/web/dist', 'packages/client/dist'];
const INPUTS = ['packages/collector/src', 'packages/collector/bin', 'packages/tracker/src', 'packages/web/src', 'packages/client/src'];
const INPUT_FILES = [
  'rollup.config.mjs',
  'package-lock.json',
  'package.json',
  'tsconfig.json',
  'packages/tracker/tsconfig.json',
  'packages/web/tsconfig.json',
  'packages/client/tsconfig.json',
];

/** Every file under `dir`, with its modification time. */
function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield statSync(path).mtimeMs;
  }
}

function stale() {
  const outputs = OUTPUTS.map((d) => join(root, d));
  if (!outputs.every((d) => existsSync(d))) return 'a build output is missing';
  // Each folder's newest file: when the last build wrote it.
  const written = Math.min(...outputs.map((d) => Math.max(...files(d))));
  if (!Number.isFinite(written)) return 'a build output is empty';
  const read = Math.max(
    ...INPUTS.flatMap((d) => [...files(join(root, d))]),
    ...INPUT_FILES.map((f) => join(root, f))
      .filter(existsSync)
      .map((f) => statSync(f).mtimeMs),
  );
  return read > written ? 'sources changed since the last build' : undefined;
}

const why = stale();
if (why === undefined) {
  console.log('build: up to date (nothing it reads changed since it ran)');
} else {
  console.log(`build: ${why}`);
  const run = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
