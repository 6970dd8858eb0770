// One build for the repository: the tracker (a minified script-tag IIFE, an ES module
// for bundlers, and its types), the collector (ESM, dependencies left external), and the
// web apps, the dashboard and the partner portal (Preact, bundled with their libraries,
// content-hashed for long caching).
// Type errors fail the build.
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import zlib, { brotliCompressSync, gzipSync } from 'node:zlib';
import { builtinModules } from 'node:module';

const collectorPkg = JSON.parse(readFileSync('packages/collector/package.json', 'utf8'));
const external = [...builtinModules, ...builtinModules.map((m) => `node:${m}`), ...Object.keys(collectorPkg.dependencies ?? {})];

const trackerTs = (declarations) =>
  typescript({
    tsconfig: 'packages/tracker/tsconfig.json',
    include: ['packages/tracker/src/**/*.ts'],
    compilerOptions: {
      noEmit: false,
      noEmitOnError: true,
      outDir: 'packages/tracker/dist',
      ...(declarations ? { declaration: true, declarationDir: 'packages/tracker/dist' } : {}),
    },
  });

// Squeezes the snippet for its 1 KiB goal; the names it mangles are local only.
const squeeze = terser({
  ecma: 2020,
  compress: { passes: 3, unsafe_arrows: true, unsafe_methods: true, pure_getters: true },
  mangle: { toplevel: true },
  format: { comments: false },
});

// Rollup ends every file with a newline; under gzip that last byte costs three.
const noFinalNewline = {
  name: 'no-final-newline',
  generateBundle(_, bundle) {
    for (const file of Object.values(bundle)) if (file.type === 'chunk') file.code = file.code.trimEnd();
  },
};

const hash8 = (text) => createHash('sha256').update(text).digest('hex').slice(0, 8);

/**
 * A web app's shell: its CSS (its own files and uPlot's) as one hashed file, and the
 * common index.html naming the app's title, hashed entry and stylesheet, so the HTML is
 * the only file that is not cached for a year. No inline script or style: the page's CSP
 * allows none.
 */
const webShell = (app, title, styles) => ({
  name: 'web-shell',
  // Hashed names change with every edit: last build's files would pile up beside this one's.
  buildStart() {
    rmSync(`packages/web/dist/${app}`, { recursive: true, force: true });
  },
  generateBundle(_, bundle) {
    const css = [
      ...styles.map((s) => readFileSync(`packages/web/src/${s}`, 'utf8')),
      readFileSync('node_modules/uplot/dist/uPlot.min.css', 'utf8'),
    ].join('\n');
    const cssName = `assets/${app}-${hash8(css)}.css`;
    this.emitFile({ type: 'asset', fileName: cssName, source: css });
    const entry = Object.values(bundle).find((f) => f.type === 'chunk' && f.isEntry);
    const html = readFileSync('packages/web/src/common/index.html', 'utf8')
      .replace('<!--title-->', title)
      .replace('<!--styles-->', `<link rel="stylesheet" href="/${app}/${cssName}">`)
      .replace('<!--scripts-->', `<script type="module" src="/${app}/${entry.fileName}"></script>`);
    this.emitFile({ type: 'asset', fileName: 'index.html', source: html });
  },
  // Each file's gzip and brotli beside it, made once here: the collector serves them as
  // they are instead of compressing at every start (platform/http/static-file.ts).
  writeBundle(options, bundle) {
    for (const file of Object.values(bundle)) {
      const body = Buffer.from(file.type === 'chunk' ? file.code : file.source);
      writeFileSync(`${options.dir}/${file.fileName}.gz`, gzipSync(body, { level: 9 }));
      writeFileSync(
        `${options.dir}/${file.fileName}.br`,
        brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
    }
  },
});

/** A web app's build: Preact and its libraries bundled, content-hashed for long caching. */
const webApp = (app, title, styles) => ({
  input: { [app]: `packages/web/src/${app}/main.tsx` },
  output: {
    dir: `packages/web/dist/${app}`,
    format: 'es',
    entryFileNames: 'assets/[name]-[hash].js',
    chunkFileNames: 'assets/[name]-[hash].js',
    plugins: [terser({ ecma: 2020, format: { comments: false } })],
  },
  plugins: [
    nodeResolve({ browser: true }),
    typescript({
      tsconfig: 'packages/web/tsconfig.json',
      // csv.ts: the collector's CSV rules, which the dashboard's downloads share with the payout
      // file. A source outside packages/web makes packages/ the root of what TypeScript emits;
      // said outright, the plugin finds each emitted file, and its patterns stay the repository's.
      include: ['packages/web/src/**/*.ts', 'packages/web/src/**/*.tsx', 'packages/collector/src/platform/csv.ts'],
      filterRoot: '.',
      compilerOptions: { noEmit: false, noEmitOnError: true, outDir: `packages/web/dist/${app}`, rootDir: '..' },
    }),
    webShell(app, title, styles),
  ],
});

// The generated API types are a .d.ts, which TypeScript reads but never emits: the client's
// declarations import them, so they go beside them.
const clientTypes = {
  name: 'client-api-types',
  buildStart() {
    rmSync('packages/client/dist', { recursive: true, force: true });
  },
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'api.d.ts', source: readFileSync('packages/client/src/api.d.ts', 'utf8') });
  },
};

const builds = [
  {
    input: 'packages/tracker/src/snippet.ts',
    output: { file: 'packages/tracker/dist/tracker.js', format: 'iife', strict: false, plugins: [squeeze, noFinalNewline] },
    plugins: [trackerTs(false)],
  },
  {
    input: 'packages/tracker/src/index.ts',
    output: { dir: 'packages/tracker/dist', entryFileNames: 'index.mjs', format: 'es' },
    plugins: [trackerTs(true)],
  },
  {
    input: {
      cli: 'packages/collector/src/cli.ts',
      index: 'packages/collector/src/index.ts',
    },
    external: (id) => external.some((dep) => id === dep || id.startsWith(`${dep}/`)),
    output: { dir: 'packages/collector/dist', format: 'es', sourcemap: true },
    plugins: [
      typescript({
        tsconfig: './tsconfig.json',
        include: ['packages/collector/src/**/*.ts'],
        compilerOptions: { noEmit: false, noEmitOnError: true, sourceMap: true, outDir: 'packages/collector/dist' },
      }),
    ],
  },
  {
    // The typed client (packages/client): ESM and its declarations, openapi-fetch left to npm.
    input: 'packages/client/src/index.ts',
    external: (id) => id === 'openapi-fetch' || id.startsWith('node:'),
    output: { dir: 'packages/client/dist', format: 'es', entryFileNames: 'index.js' },
    plugins: [
      typescript({
        tsconfig: 'packages/client/tsconfig.json',
        include: ['packages/client/src/**/*.ts'],
        filterRoot: '.',
        compilerOptions: { noEmit: false, noEmitOnError: true, declaration: true, outDir: 'packages/client/dist', rootDir: 'src' },
      }),
      clientTypes,
    ],
  },
  webApp('dashboard', 'Tally dashboard', ['dashboard/style.css']),
  // The portal shares the dashboard's look: its stylesheet, and a few rules of its own.
  webApp('portal', 'Tally partner portal', ['dashboard/style.css', 'portal/style.css']),
  // The embedded portal (docs/embed.md): the same look, compact, inside other sites' iframes.
  webApp('embed', 'Tally partner embed', ['dashboard/style.css', 'embed/style.css']),
];

// `--environment ONLY:collector` builds the collector alone: npm run api-types needs it
// before the dashboard, whose types it writes, can build.
export default process.env.ONLY ? builds.filter((b) => JSON.stringify(b.input).includes(`packages/${process.env.ONLY}/`)) : builds;
