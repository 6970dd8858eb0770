// The README is a first page a newcomer reads whole: short, naming every module, and
// pointing to where the rest went (the self-hosting manual, the API, CONTRIBUTING.md).
// Tally is under the Apache License 2.0: the full text, and every package.json says so.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const readme = read('README.md');
const modules = readdirSync(`${ROOT}packages/collector/src/modules`, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
/** The `## ` headings of a Markdown file. */
const headings = (markdown: string) => [...markdown.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);

describe('the README', () => {
  it('is a first page: at most 12,000 bytes', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12_000);
  });

  it('names every module folder of the collector', () => {
    expect(modules.length).toBeGreaterThan(10);
    for (const m of modules) expect(readme, `modules/${m}/ is missing from README.md`).toMatch(new RegExp(`\`${m}\``));
  });

  it('shows the dashboard and links the self-hosting manual, the API reference and CONTRIBUTING.md', () => {
    expect(readme).toMatch(/!\[[^\]]+\]\(docs\/dashboard-overview\.png\)/);
    for (const target of ['docs/self-hosting.md', 'docs/api.md', 'CONTRIBUTING.md', 'docs/architecture.md', 'LICENSE']) {
      expect(readme, target).toContain(`](${target}`);
    }
  });

  it('keeps the walk-through and its two commands', () => {
    expect(readme).toContain('## Five minutes: from a referral link to a conversion');
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
  });
});

describe('the self-hosting manual', () => {
  const manual = () => read('docs/self-hosting.md');

  it('covers configuration, deployment, scaling, backups and upgrades', () => {
    const sections = headings(manual()).join('\n');
    for (const topic of [/^Configuration/m, /^Deploying/m, /^Scaling/m, /^Backups/m, /^Upgrading/m]) expect(sections).toMatch(topic);
  });

  it('documents every variable the collector reads', () => {
    const config = read('packages/collector/src/platform/config.ts');
    const schema = config.slice(config.indexOf('z\n  .object({'), config.indexOf('.refine('));
    const variables = [...schema.matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
    expect(variables.length).toBeGreaterThan(20);
    for (const v of variables) expect(manual(), `${v} is missing from docs/self-hosting.md`).toMatch(new RegExp(`^\\| \`${v}\` \\|`, 'm'));
  });
});

describe('CONTRIBUTING.md', () => {
  it('has the architecture, the test tiers, the lint rules, how to add each kind of part, and the decision records', () => {
    const guide = read('CONTRIBUTING.md');
    const sections = headings(guide);
    for (const wanted of [
      'The architecture in brief',
      'Tests',
      'Lint rules',
      'Adding a module',
      'Adding a billing platform',
      'Adding an e-mail',
      'Decision records',
    ]) {
      expect(sections, wanted).toContain(wanted);
    }
    expect(guide).toContain('](docs/architecture.md');
    for (const prerequisite of ['PostgreSQL', 'PgBouncer', 'Chromium', 'Firefox ESR', 'npm run test:fast', '.ci/run']) {
      expect(guide).toContain(prerequisite);
    }
  });
});

describe('the licence', () => {
  it('LICENSE is the whole Apache License 2.0, with its appendix', () => {
    const text = read('LICENSE');
    expect(text).toMatch(/^\s+Apache License\n\s+Version 2\.0, January 2004\n\s+http:\/\/www\.apache\.org\/licenses\/\n/);
    for (let section = 1; section <= 9; section++) expect(text).toMatch(new RegExp(`^\\s+${section}\\. [A-Z]`, 'm'));
    expect(text).toContain('END OF TERMS AND CONDITIONS');
    expect(text).toContain('APPENDIX: How to apply the Apache License to your work.');
    expect(text.length).toBeGreaterThan(11_000);
  });

  it('every package.json and its entry in package-lock.json says Apache-2.0', () => {
    const lock = JSON.parse(read('package-lock.json')).packages as Record<string, { license?: string }>;
    const workspaces = readdirSync(`${ROOT}packages`).map((p) => `packages/${p}`);
    expect(workspaces.length).toBe(4);
    for (const dir of ['', ...workspaces]) {
      const manifest = JSON.parse(read(`${dir ? `${dir}/` : ''}package.json`));
      expect(manifest.license, `${dir || '.'}/package.json`).toBe('Apache-2.0');
      expect(lock[dir]?.license, `package-lock.json's "${dir}"`).toBe('Apache-2.0');
    }
  });

  it('the README says so', () => {
    expect(readme).toMatch(/Apache License 2\.0.*\]\(LICENSE\)|\]\(LICENSE\).*Apache License 2\.0/);
  });
});
