// One build for the repository. The collector is bundled to ESM with its dependencies
// left external; type errors fail the build.
import typescript from '@rollup/plugin-typescript';
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';

const collectorPkg = JSON.parse(readFileSync('packages/collector/package.json', 'utf8'));
const external = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  ...Object.keys(collectorPkg.dependencies ?? {}),
];

export default [
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
