import { defineConfig } from 'vitest/config';

// Collector files that test SQLite's own machinery: its WAL fsync, group commit,
// pragmas and faults, and its file backup. PostgreSQL's counterparts live in
// test/postgres/ (a dead server, racing starts) and in server.test.ts (synchronous_commit).
// (query-plans.test.ts runs on both: each engine is asked for its own plans.)
const SQLITE_ONLY = [
  'test/collector/durability.test.ts',
  'test/collector/group-commit.test.ts',
  'test/collector/unavailable.test.ts',
  'test/collector/backup.test.ts',
  'test/collector/sqlite-lock.test.ts',
  // The CLI's commands reach the store through the same domain on either engine; spawning
  // thirteen processes is half a minute, spent once. The CLI on PostgreSQL is the users',
  // stats', Stripe's and the PostgreSQL tier's own (engine.test.ts) CLI tests.
  'test/collector/webhooks-cli.test.ts',
  'test/collector/cli.test.ts',
  'test/collector/cli-binary.test.ts',
  // The importers' platforms; their write path runs on both engines in imports-engines.test.ts.
  'test/collector/imports.test.ts',
];

// The HTTP edge: framing, hostile bodies, headers, CORS, assets, the log line, the banner and
// npm's signals. All of it happens before a statement is sent, so the second engine would
// run the same code again (about 15 s of the PostgreSQL tier).
const EDGE = [
  'test/collector/input.test.ts',
  'test/collector/cors.test.ts',
  'test/collector/headers.test.ts',
  'test/collector/assets.test.ts',
  'test/collector/home.test.ts',
  'test/collector/logs.test.ts',
  'test/collector/banner.test.ts',
  'test/collector/npm-start.test.ts',
];

// Pure rules: no database, so nothing an engine could change. They run once, on the sqlite side.
const PURE = [
  'test/collector/csv.test.ts',
  'test/collector/datetime.test.ts',
  'test/collector/day-starts.test.ts',
  'test/collector/time-zones.test.ts',
  'test/collector/zone-cache.test.ts',
  'test/collector/connections.test.ts',
  'test/collector/demo-switch.test.ts',
  'test/collector/rewards-evaluate.test.ts',
  // The bench's instruction guard, judging figures in files.
  'test/collector/instructions-check.test.ts',
  // The client package's types, its manifest and README: no collector at all.
  'test/client/types.test.ts',
  'test/client/package.test.ts',
  'test/client/dist.test.ts',
];

// The tiers (CONTRIBUTING.md, "Tests"). `npm run test:fast` (TALLY_TEST_TIER=fast) runs the unit and
// API tiers on SQLite, in process: no browser, no PostgreSQL, no process started, no
// timing of the real clock. `npm test` runs everything: both engines, the processes,
// Chromium and Firefox.
const PROCESSES = [
  'test/collector/banner.test.ts',
  'test/collector/crash.test.ts',
  'test/collector/npm-start.test.ts',
  'test/collector/webhooks-crash.test.ts',
  'test/collector/payout-crash.test.ts',
  'test/collector/backpressure.test.ts',
  'test/collector/unavailable.test.ts',
  'test/collector/sqlite-lock.test.ts',
  'test/collector/durability.test.ts',
  'test/collector/server.test.ts',
  'test/collector/stripe-cli.test.ts',
  'test/collector/webhooks-cli.test.ts',
  'test/collector/cli-binary.test.ts',
  'test/collector/instructions-check.test.ts',
  // The delivery loop's retries, timed by the real clock.
  'test/collector/webhooks.test.ts',
  // The client's examples, each run as a program of its own (tsx).
  'test/client/examples.test.ts',
  // The client's build, which test:fast does not make.
  'test/client/dist.test.ts',
];
const FAST = process.env.TALLY_TEST_TIER === 'fast';
// The API tier's files share one module registry per worker: each file still starts its own
// servers on its own databases, and none changes module state for another, while loading
// the collector's sources anew for every file took most of the run (65 of 118 s).
const ISOLATE = false;

export default defineConfig({
  test: {
    // Each file starts its own servers on port 0 with its own database.
    pool: 'forks',
    // Transformed sources kept in node_modules/.experimental-vitest-cache: each project's
    // workers load the same collector, and a second run transforms almost nothing (measured:
    // the SQLite tier's transform 10.8 → 2.9 s, its run 100 → 95 s).
    experimental: { fsModuleCache: true },
    // Two files at a time, whatever the cores (vitest would take one fewer than the 2 a CI
    // machine has): most of a file's time is spent waiting on PostgreSQL, a browser, a
    // child process or a timer, so the second file fills the first's waits. Serial, the
    // suite took 18 minutes; CI has 20 in all.
    maxWorkers: 2,
    // A test that runs CLI processes one after another takes 10 s alone and two or three
    // times that when the 2-core machine is busy: a minute before one is called hung.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: FAST
      ? [
          {
            extends: true,
            test: {
              name: 'fast',
              include: ['test/collector/**/*.test.ts', 'test/client/**/*.test.ts', 'test/docs/**/*.test.ts'],
              exclude: PROCESSES,
              isolate: ISOLATE,
            },
          },
        ]
      : [
          {
            extends: true,
            test: {
              name: 'sqlite',
              include: ['test/collector/**/*.test.ts', 'test/client/**/*.test.ts', 'test/docs/**/*.test.ts'],
              isolate: ISOLATE,
            },
          },
          {
            // Browsers, the snippet in jsdom and the web client. One module registry per worker,
            // as the API tier: a fresh one per file loaded the collector's sources again for
            // each (about 3 s a file, 28 files). Nothing here changes module state another file
            // reads: each e2e file starts its own collector and opens its own browser contexts
            // (Chromium itself is one per worker, stack.ts's launchChromium), the snippet's tests
            // make their own jsdom windows, and api-client.test.ts, the web client's one
            // importer, stubs fetch before importing it and unstubs it after.
            extends: true,
            test: {
              name: 'browser',
              include: ['test/e2e/**/*.test.ts', 'test/tracker/**/*.test.ts', 'test/web/**/*.test.ts'],
              isolate: ISOLATE,
            },
          },
          {
            // The collector's whole behaviour again, on PostgreSQL (a schema per test),
            // plus what only several processes on one database can show.
            extends: true,
            test: {
              name: 'postgres',
              include: ['test/collector/**/*.test.ts', 'test/client/**/*.test.ts', 'test/postgres/**/*.test.ts'],
              exclude: [...SQLITE_ONLY, ...PURE, ...EDGE],
              isolate: ISOLATE,
              env: { TALLY_TEST_ENGINE: 'postgres' },
              globalSetup: ['test/postgres/setup.ts'],
            },
          },
        ],
  },
});
