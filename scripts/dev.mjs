// npm run dev: the build of rollup.config.mjs in watch mode, and the collector run from
// it, restarted after every rebuild. The collector reads the web apps' files (and the
// snippet) once, at start, so a restart is what makes a change to them show: a UI change
// shows on the next reload, a collector change is live once the server is back.
// The web bundles are left unminified here: terser is most of their rebuild time.

import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { watch } from 'rollup';

const { default: builds } = await import('../rollup.config.mjs');

const isWeb = (build) => JSON.stringify(build.input).includes('packages/web/');
// The stylesheets and the page shell are read by the build, not imported: watched by name.
const shellFiles = readdirSync('packages/web/src', { recursive: true })
  .filter((f) => /\.(css|html)$/.test(f))
  .map((f) => `packages/web/src/${f}`);
const watchShell = {
  name: 'dev-watch-shell',
  buildStart() {
    for (const f of shellFiles) this.addWatchFile(f);
  },
};
const unminified = (output) => ({ ...output, plugins: (output.plugins ?? []).filter((p) => p.name !== 'terser') });

const configs = builds.map((build) =>
  isWeb(build)
    ? {
        ...build,
        plugins: [...build.plugins, watchShell],
        output: Array.isArray(build.output) ? build.output.map(unminified) : unminified(build.output),
        watch: { clearScreen: false },
      }
    : { ...build, watch: { clearScreen: false } },
);

const say = (line) => process.stderr.write(`[dev] ${line}\n`);

let server;
/** Stops the running collector: SIGTERM, then SIGKILL if it is still finishing requests after 2 s. */
function stop() {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

// One restart at a time: a rebuild finishing during a restart waits for it.
let restarting = Promise.resolve();
const restart = () =>
  (restarting = restarting.then(async () => {
    await stop();
    server = spawn(process.execPath, ['--enable-source-maps', 'packages/collector/bin/tally.js', 'serve'], { stdio: 'inherit' });
    server.once('exit', (code, signal) => {
      if (signal === null && code !== 0) say(`the collector stopped (exit ${code}); it starts again after the next successful rebuild`);
    });
  }));

let failed = false;
const watcher = watch(configs);
watcher.on('event', (event) => {
  if (event.code === 'START') failed = false;
  else if (event.code === 'BUNDLE_END') {
    say(`built ${[event.output].flat().join(', ')} in ${event.duration} ms`);
    void event.result.close();
  } else if (event.code === 'ERROR') {
    failed = true;
    say(`build failed, the collector keeps running the last good build:\n${event.error.message}`);
    void event.result?.close();
  } else if (event.code === 'END' && !failed) {
    say(server ? 'restarting the collector' : 'starting the collector');
    void restart();
  }
});

const quit = async () => {
  await watcher.close();
  await stop();
  process.exit(0);
};
process.once('SIGINT', quit);
process.once('SIGTERM', quit);
