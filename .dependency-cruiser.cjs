// Which way imports may point, checked in CI (npm run lint:deps). The collector's layers:
// routes (HTTP in, JSON out) → domain (the rules) → store (the SQL) → the database;
// views present records as the API shows them, with no HTTP; http/ is the framework the
// routes stand on. The domain never imports HTTP, the store nothing above it, and the
// web apps' shared code nothing of either app.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-without-http',
      comment: 'The rules know nothing of requests: no routes, no HTTP framework, no CLI, no server.',
      severity: 'error',
      from: { path: '^packages/collector/src/domain/' },
      to: { path: '^packages/collector/src/(http|routes|cli)/|^packages/collector/src/(app|server|cli)\\.ts$' },
    },
    {
      name: 'store-below-everything',
      comment: 'The SQL of the tables: it may use the database and plain helpers, nothing that uses it.',
      severity: 'error',
      from: { path: '^packages/collector/src/store/' },
      to: { path: '^packages/collector/src/(domain|http|routes|views|cli)/|^packages/collector/src/(app|server|cli)\\.ts$' },
    },
    {
      name: 'views-are-pure',
      comment: 'Presenting a record is a pure function: no HTTP, no routes, no rules.',
      severity: 'error',
      from: { path: '^packages/collector/src/views/' },
      to: { path: '^packages/collector/src/(http|routes|domain|cli)/' },
    },
    {
      name: 'http-below-routes',
      comment: 'The HTTP framework serves the routes; it does not know them.',
      severity: 'error',
      from: { path: '^packages/collector/src/http/' },
      to: { path: '^packages/collector/src/(routes|cli)/|^packages/collector/src/(app|server|cli)\\.ts$' },
    },
    {
      name: 'routes-not-cli',
      severity: 'error',
      from: { path: '^packages/collector/src/routes/' },
      to: { path: '^packages/collector/src/cli/|^packages/collector/src/(server|cli)\\.ts$' },
    },
    {
      name: 'migrations-frozen',
      comment: 'A migration is frozen: it imports nothing of the application (only its own type).',
      severity: 'error',
      from: { path: '^packages/collector/src/platform/db/migrations/' },
      to: { pathNot: '^packages/collector/src/platform/db/migrations/' },
    },
    {
      name: 'web-common-shared',
      comment: "The web apps' shared code imports neither app.",
      severity: 'error',
      from: { path: '^packages/web/src/common/' },
      to: { path: '^packages/web/src/(dashboard|portal)/' },
    },
    {
      name: 'web-apps-apart',
      comment: 'The dashboard and the portal share only common/.',
      severity: 'error',
      from: { path: '^packages/web/src/portal/' },
      to: { path: '^packages/web/src/dashboard/(?!style\\.css)' },
    },
    {
      name: 'tracker-alone',
      comment: 'The snippet ships alone: nothing of the collector or the web apps.',
      severity: 'error',
      from: { path: '^packages/tracker/src/' },
      to: { path: '^packages/(collector|web)/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle makes two files one: split what they share into a third.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/|\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
