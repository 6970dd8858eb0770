// Which way imports may point, checked in CI (npm run lint:deps). The collector stands in
// layers (docs/architecture.md, "Layout"): platform/ (config, log, errors, the HTTP
// framework, both database engines, outbound requests, mail) knows no business; core/ is
// the vocabulary every module speaks (ids, money, e-mail, slugs, state machines); api/ is
// what a route is and who may call it; modules/<capability>/ own their routes, service,
// SQL (repo.ts) and presentation; app.ts, server.ts and cli.ts put them together. In a
// module, routes.ts, *-routes.ts, schemas.ts and cli.ts face the outside; the rest is the
// domain, which never imports HTTP.

const SRC = '^packages/collector/src/';
const ENTRY = `${SRC}(app|server|cli|index)\\.ts$`;
const HTTP_SIDE = `${SRC}modules/[^/]+/(routes|[a-z-]+-routes|schemas|http|cli)\\.ts$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'platform-knows-no-business',
      comment: 'The platform is the machinery underneath: it imports no module, no API contract, no vocabulary of ours.',
      severity: 'error',
      from: { path: `${SRC}platform/` },
      to: { path: [`${SRC}(core|api|modules|cli)/`, ENTRY] },
    },
    {
      name: 'core-on-platform',
      comment: 'The shared vocabulary stands on the platform alone.',
      severity: 'error',
      from: { path: `${SRC}core/` },
      to: { path: [`${SRC}(api|modules|cli)/`, ENTRY] },
    },
    {
      name: 'domain-without-http',
      comment: "A module's rules, SQL and presentation know nothing of requests: no API contract, no HTTP framework, no Koa, no CLI.",
      severity: 'error',
      from: { path: `${SRC}modules/`, pathNot: [HTTP_SIDE, `${SRC}modules/site/`] },
      to: { path: [`${SRC}(api|cli)/`, `${SRC}platform/http/`, `${SRC}platform/cli`, '(^|/)node_modules/(koa|@koa)/', ENTRY, HTTP_SIDE] },
    },
    {
      name: 'entry-points-mounted-once',
      comment: "A module's routes and commands are mounted by app.ts and cli.ts; what two modules' routes share lives in a schemas.ts.",
      severity: 'error',
      from: { pathNot: ENTRY },
      to: { path: `${SRC}modules/[^/]+/(routes|[a-z-]+-routes|cli)\\.ts$` },
    },
    {
      name: 'modules-under-flows',
      comment:
        'Flows (a conversion, a payment, a review decision…) orchestrate modules in one transaction; a module never calls a flow: it emits an event, and a reaction (flows/reactions.ts) subscribes.',
      severity: 'error',
      from: { path: `${SRC}(modules|events|core|platform)/`, pathNot: [HTTP_SIDE, `${SRC}modules/site/`] },
      to: { path: `${SRC}flows/` },
    },
    {
      name: 'events-under-modules',
      comment: 'The events layer knows no module: subscribers register from the composition root (subscribers.ts).',
      severity: 'error',
      from: { path: `${SRC}events/` },
      to: { path: [`${SRC}(modules|flows|api|cli)/`, ENTRY] },
    },
    {
      name: 'repo-is-sql',
      comment:
        "A repository is the SQL of its module's tables: the database, the vocabulary, its module's model (pure types) and other repositories (row types, the statistics' deltas), nothing above.",
      severity: 'error',
      from: { path: `${SRC}modules/[^/]+/(repo|[a-z-]+-repo)\\.ts$` },
      to: { path: `${SRC}(api|cli|modules)/`, pathNot: `${SRC}modules/[^/]+/(repo|[a-z-]+-repo|model)\\.ts$` },
    },
    {
      name: 'api-not-routes',
      comment: 'The API contract serves the routes; it does not know them.',
      severity: 'error',
      from: { path: `${SRC}api/` },
      to: { path: [HTTP_SIDE, ENTRY, `${SRC}cli/`] },
    },
    {
      name: 'migrations-frozen',
      comment: 'A migration is frozen: it imports nothing of the application (only its own type).',
      severity: 'error',
      from: { path: `${SRC}platform/db/migrations/` },
      to: { pathNot: `${SRC}platform/db/migrations/` },
    },
    {
      name: 'web-common-shared',
      comment: "The web apps' shared code imports neither app.",
      severity: 'error',
      from: { path: '^packages/web/src/common/' },
      to: { path: '^packages/web/src/(dashboard|portal|embed)/' },
    },
    {
      name: 'web-embed-apart',
      comment: 'The embedded portal shares only common/ (and the dashboard stylesheet, by the build).',
      severity: 'error',
      from: { path: '^packages/web/src/embed/' },
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
      name: 'client-alone',
      comment: "The published client ships alone: its types come from /openapi.json, never from the collector's or the web apps' sources.",
      severity: 'error',
      from: { path: '^packages/client/' },
      to: { path: '^packages/(collector|web|tracker)/' },
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
