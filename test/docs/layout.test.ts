// The map in docs/architecture.md names every folder of the collector's modules and
// platform, and nothing that is gone: a module added or renamed without its line fails.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = `${ROOT}packages/collector/src`;
const map = readFileSync(`${ROOT}docs/architecture.md`, 'utf8');
const layout = map.slice(map.indexOf('## Layout'), map.indexOf('## The rules'));
const folders = (dir: string) =>
  readdirSync(`${SRC}/${dir}`, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

describe('the architecture map', () => {
  it('names every module, and only modules that exist', () => {
    const modules = folders('modules');
    expect(modules.length).toBeGreaterThan(10);
    for (const m of modules) expect(layout, `modules/${m}/ is missing from docs/architecture.md`).toMatch(new RegExp(`^ {4}${m}/ `, 'm'));
    const named = [...layout.matchAll(/^ {4}([a-z-]+)\/ /gm)].map((m) => m[1]);
    const platform = folders('platform');
    expect(named.filter((n) => !modules.includes(n!) && !platform.includes(n!))).toEqual([]);
  });

  it('names every top-level folder of the sources', () => {
    for (const f of folders('')) expect(layout, `${f}/ is missing from docs/architecture.md`).toMatch(new RegExp(`^ {2}${f}/(\\s|$)`, 'm'));
  });
});
