// One build for the repository: the tracker (a minified script-tag IIFE, an ES module
// for bundlers, and its types) and the collector (ESM, dependencies left external).
// Type errors fail the build.
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';

const collectorPkg = JSON.parse(readFileSync('packages/collector/package.json', 'utf8'));
const external = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  ...Object.keys(collectorPkg.dependencies ?? {}),
];

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

export default [
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
];
