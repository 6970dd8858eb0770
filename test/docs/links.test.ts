// Every relative link in the repository's Markdown must work in a fresh clone: it must
// name a tracked file or folder inside the repository, and an anchor into a Markdown
// file must name one of its headings as GitHub renders them. Links that leave the
// repository (a sibling folder such as ../design/) work only on the machine that wrote them, so they fail too.
// Links with a scheme (https:, mailto:) are not fetched: this test never uses the network.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Link {
  line: number;
  target: string;
}

/** Fenced code blocks become empty lines, so line numbers stay right and their text is not read. */
function withoutFences(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker) {
      fence = marker;
      return '';
    }
    if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      return '';
    }
    return line;
  });
}

const INLINE = /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const REFERENCE = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;
const HTML = /<(?:a|img)\b[^>]*?\s(?:href|src)\s*=\s*"([^"]*)"/gi;

/** The link targets of a Markdown text, outside code blocks and code spans. */
function linksIn(markdown: string): Link[] {
  const links: Link[] = [];
  withoutFences(markdown).forEach((raw, i) => {
    // A code span shows a link's syntax; it is not a link.
    const line = raw.replace(/(`+)[^`]*?\1/g, '');
    const add = (target: string) => links.push({ line: i + 1, target: target.replace(/^<|>$/g, '') });
    const ref = REFERENCE.exec(line);
    if (ref?.[1]) add(ref[1]);
    for (const m of line.matchAll(INLINE)) add(m[1] ?? '');
    for (const m of line.matchAll(HTML)) add(m[1] ?? '');
  });
  return links;
}

/** The text a heading shows: code spans keep their content, link and emphasis marks go. */
function headingText(source: string): string {
  return source
    .split(/(`+[^`]*?`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part.replace(/^`+|`+$/g, '')
        : part
            .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
            .replace(/<[^>]+>/g, '')
            .replace(/[*~]/g, '')
            .replace(/(^|[^\p{L}\p{N}])_+|_+(?=[^\p{L}\p{N}]|$)/gu, '$1'),
    )
    .join('');
}

/** GitHub's anchor for a heading text: lower case, punctuation dropped, spaces as dashes. */
function slug(text: string): string {
  return headingText(text)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: its headings' slugs (repeats get -1, -2…) and explicit ids. */
function anchorsIn(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\b[^>]*?\s(?:name|id)\s*=\s*"([^"]+)"/gi)) anchors.add(m[1] ?? '');
  }
  return anchors;
}

interface Repository {
  /** Tracked files, relative to the root, with forward slashes. */
  files: ReadonlySet<string>;
  read(path: string): string;
}

/** Why a link from `from` to `target` would be broken in a clone, or undefined when it works. */
function problemWith(repo: Repository, from: string, target: string): string | undefined {
  if (target === '') return 'the link is empty';
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined; // another site
  const hash = target.indexOf('#');
  const pathPart = (hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
  const anchor = hash < 0 ? undefined : target.slice(hash + 1);
  if (pathPart.startsWith('/')) return 'an absolute path: on GitHub it leaves the repository; use a relative link';
  let path: string;
  try {
    // `#anchor` alone points into the file itself.
    path = pathPart === '' ? from : posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(pathPart))).replace(/\/$/, '');
  } catch {
    return 'the link is not valid percent-encoding';
  }
  if (path === '..' || path.startsWith('../')) return 'it leaves the repository, so a clone does not have it';
  const isFile = repo.files.has(path);
  const isFolder = path === '.' || [...repo.files].some((f) => f.startsWith(`${path}/`));
  if (!isFile && !isFolder) return `${path} is not in the repository`;
  if (anchor === undefined || !isFile || !path.endsWith('.md')) return undefined;
  const wanted = decodeURIComponent(anchor);
  if (!anchorsIn(repo.read(path)).has(wanted)) return `${path} has no heading with the anchor #${wanted}`;
  return undefined;
}

/** Every broken link of one Markdown file, as "file:line: target: why". */
function brokenLinks(repo: Repository, file: string): string[] {
  return linksIn(repo.read(file)).flatMap(({ line, target }) => {
    const problem = problemWith(repo, file, target);
    return problem ? [`${file}:${line}: ${target}: ${problem}`] : [];
  });
}

function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  return out.split('\0').filter(Boolean);
}

describe('the link checker', () => {
  const fake = (files: Record<string, string>): Repository => ({
    files: new Set(Object.keys(files)),
    read: (path) => files[path] ?? '',
  });
  const repo = fake({
    'README.md': '',
    'docs/api.md': '# The API\n\n## 3. Authentication\n\n## Errors\n## Errors\n### `state_eq` and _friends_\n<a id="custom"></a>\n',
    'docs/img/logo.png': '',
    'packages/collector/src/app.ts': '',
  });

  it('finds inline, image, reference and HTML links, and skips code', () => {
    const text = [
      'See [the API](docs/api.md "title") and ![logo](<docs/img/logo.png>).',
      '`[not a link](nowhere.md)` and [x](a_(b).md)',
      '```md',
      '[inside a fence](nowhere.md)',
      '```',
      '[ref]: docs/api.md#errors',
      '<a href="docs/">docs</a>',
    ].join('\n');
    expect(linksIn(text)).toEqual([
      { line: 1, target: 'docs/api.md' },
      { line: 1, target: 'docs/img/logo.png' },
      { line: 2, target: 'a_(b).md' },
      { line: 6, target: 'docs/api.md#errors' },
      { line: 7, target: 'docs/' },
    ]);
  });

  it('makes anchors as GitHub does', () => {
    expect(slug('3. Authentication')).toBe('3-authentication');
    expect(slug("The snippet on the page's main thread (tracker.md: under 1 ms), 2026-11-22")).toBe(
      'the-snippet-on-the-pages-main-thread-trackermd-under-1-ms-2026-11-22',
    );
    expect(slug('`state_eq` and _friends_')).toBe('state_eq-and-friends');
    expect(slug('Scaling out: several processes on PostgreSQL')).toBe('scaling-out-several-processes-on-postgresql');
    expect([...anchorsIn(repo.read('docs/api.md'))]).toEqual([
      'the-api',
      '3-authentication',
      'errors',
      'errors-1',
      'state_eq-and-friends',
      'custom',
    ]);
  });

  it('accepts files, folders, anchors and other sites', () => {
    for (const target of [
      'docs/api.md',
      './docs/api.md',
      'docs/',
      'docs',
      'packages/collector/src/app.ts',
      'docs/api.md#errors-1',
      'docs/api.md#3-authentication',
      'docs/api.md#custom',
      'https://example.com/x.md',
      'mailto:a@b.test',
      'packages/collector/src/app.ts#L10',
    ]) {
      expect(problemWith(repo, 'README.md', target), target).toBeUndefined();
    }
    expect(problemWith(repo, 'docs/api.md', '#errors')).toBeUndefined();
    expect(problemWith(repo, 'docs/api.md', '../README.md')).toBeUndefined();
  });

  it('refuses a missing file, a link out of the repository, an absolute path and a missing anchor', () => {
    expect(problemWith(repo, 'README.md', 'docs/tracker.md')).toMatch(/not in the repository/);
    expect(problemWith(repo, 'README.md', '../outside-the-clone/api.md')).toMatch(/leaves the repository/);
    expect(problemWith(repo, 'docs/api.md', '../../x.md')).toMatch(/leaves the repository/);
    expect(problemWith(repo, 'README.md', '/docs/api.md')).toMatch(/absolute path/);
    expect(problemWith(repo, 'README.md', 'docs/api.md#authentication')).toMatch(/no heading with the anchor #authentication/);
    expect(problemWith(repo, 'docs/api.md', '#Errors')).toMatch(/no heading/);
    expect(problemWith(repo, 'README.md', '')).toMatch(/empty/);
  });
});

describe('links in the Markdown of a clone', () => {
  const files = trackedFiles();
  const repo: Repository = { files: new Set(files), read: (path) => readFileSync(`${ROOT}/${path}`, 'utf8') };
  const markdown = files.filter((f) => f.endsWith('.md'));

  it('there is Markdown to check', () => {
    expect(markdown).toContain('README.md');
  });

  it.each(markdown)('%s', (file) => {
    expect(brokenLinks(repo, file)).toEqual([]);
  });
});
