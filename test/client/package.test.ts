// @tally/client as it is published: its manifest (the API's version, Node's ESM, its one
// dependency) and its README, whose every TypeScript block is an example file that
// examples.test.ts runs. Its built dist/ is dist.test.ts's.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openApiDocument, ROUTES } from '../../packages/collector/src/index.js';

const CLIENT = fileURLToPath(new URL('../../packages/client/', import.meta.url));
const read = (path: string) => readFileSync(`${CLIENT}${path}`, 'utf8');
const manifest = JSON.parse(read('package.json'));

describe('the manifest', () => {
  it("is @tally/client at the API's version, ESM for Node 20 and newer, with dist and the README only", () => {
    expect(manifest.name).toBe('@tally/client');
    expect(manifest.version).toBe(openApiDocument(ROUTES).info.version);
    expect(read('src/api.d.ts')).toContain(`// API version ${manifest.version}.`);
    expect(manifest).toMatchObject({
      type: 'module',
      license: 'Apache-2.0',
      engines: { node: '>=20' },
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
      files: ['dist', 'README.md'],
    });
    expect(manifest.private).toBeUndefined();
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
  });
});

describe('the README', () => {
  const readme = read('README.md');
  const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  const examples = readdirSync(`${CLIENT}examples`).filter((f) => f.endsWith('.ts'));
  const tests = readFileSync(fileURLToPath(new URL('./examples.test.ts', import.meta.url)), 'utf8');

  it('shows each example file whole, and no TypeScript that is not one', () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
    const files = examples.map((f) => read(`examples/${f}`));
    for (const [i, text] of files.entries()) expect(blocks, `examples/${examples[i]} is not in the README as it is`).toContain(text);
    for (const block of blocks) expect(files, `a block of the README is no example file:\n${block}`).toContain(block);
  });

  it('runs each example in examples.test.ts', () => {
    for (const f of examples)
      expect(tests, `examples.test.ts does not run ${f}`).toContain(`run('${f}'`.replace("run('webhook", "start('webhook"));
  });
});
