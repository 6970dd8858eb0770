// `/about`: a small page that names the service and its version and links to what there
// is besides the dashboard (which `/` opens): the demo (when it is on), the API document
// and the docs. And a favicon, so browsers do not log a 404 for it on every page.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import { fail } from '../../platform/errors.js';
import { escapeHtml } from '../../platform/html.js';
import { pagePolicy } from '../../platform/http/security-headers.js';

// Found by package name, so the source (tests) and the bundle (dist/) agree.
const PACKAGE_JSON = createRequire(import.meta.url).resolve('@tally/collector/package.json');
const VERSION: string = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')).version;

/** The repository's own docs, served as text beside the page; absent when embedded elsewhere. */
const DOCS_DIR = `${join(dirname(PACKAGE_JSON), '..', '..', 'docs')}/`;
const DOCS = ['api.md', 'tracker.md', 'decisions/README.md', 'webhooks.md', 'stripe.md', 'portal.md'] as const;

/** Every doc served: the main ones, decisions.md (which points to the folder) and one file per decision. */
function servedDocs(): string[] {
  const decisions = existsSync(`${DOCS_DIR}decisions`)
    ? readdirSync(`${DOCS_DIR}decisions`)
        .filter((n) => n.endsWith('.md'))
        .map((n) => `decisions/${n}`)
    : [];
  return [...DOCS, 'decisions.md', ...decisions].filter((name, i, all) => all.indexOf(name) === i && existsSync(DOCS_DIR + name));
}

// A 32×32 PNG (a white T on teal), in an ICO container: every browser reads PNG icons.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAXklEQVR42mNgwAF48/L+UxMzEAOobSlJjqGX5VgdQW/LMRwxsh0wUJbDHYFPklpg1AGjDiDbAaQ4jia5YNQBow4YdcCoA0YdMOoAujhgtFU8KBww4F2zQdE5HajuOQDKM2UhQ2gcrgAAAABJRU5ErkJggg==',
  'base64',
);
const ICO = (() => {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(32, 6); // width
  header.writeUInt8(32, 7); // height
  header.writeUInt16LE(1, 10); // planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(PNG.length, 14);
  header.writeUInt32LE(22, 18); // where the image starts
  return Buffer.concat([header, PNG]);
})();

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; color: #1d2433; background: #fff; }
  h1 { font-size: 1.6rem; margin-bottom: 0; } .version { color: #5b6478; margin-top: .25rem; }
  a { color: #0b5f5f; } li { margin: .35rem 0; }
  @media (prefers-color-scheme: dark) { body { color: #e6e9ef; background: #15181e; } a { color: #6fd0d0; } .version { color: #a3abbd; } }
`;

export function homePage(opts: { demo: boolean; docs: readonly string[] }): string {
  const links = [
    opts.demo ? '<li><a href="/demo/">The demo shop</a>: follow a referral link and sign up, as your visitors will.</li>' : '',
    '<li><a href="/openapi.json">The API document</a> (OpenAPI 3.1): every <code>/v1</code> route, its parameters and bodies.</li>',
    ...opts.docs.map((name) => `<li><a href="/docs/${escapeHtml(name)}">docs/${escapeHtml(name)}</a></li>`),
    '<li><a href="/healthz">/healthz</a> and <a href="/readyz">/readyz</a>: liveness and database readiness.</li>',
  ].filter(Boolean);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tally</title><link rel="icon" href="/favicon.ico"><style>${STYLE}</style></head>
<body><main><h1>Tally</h1><p class="version">affiliate-program collector, version ${escapeHtml(VERSION)}</p>
<p>This server records referrals and conversions and answers the <code>/v1</code> API with your program's tokens.</p>
<ul>${links.join('\n')}</ul></main></body></html>
`;
}

export function mountHome(router: Router, opts: { demo: boolean }): void {
  const docs = DOCS.filter((name) => existsSync(DOCS_DIR + name));
  const html = homePage({ demo: opts.demo, docs });
  const policy = pagePolicy({ scripts: [], styles: [STYLE] });
  router.get('/about', (ctx) => {
    ctx.set('Content-Security-Policy', policy);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  });
  router.get('/favicon.ico', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = 'image/x-icon';
    ctx.body = ICO;
  });
  // Only names found at start are served; each is read when first asked for, then kept.
  const served = new Set(servedDocs());
  const texts = new Map<string, Buffer>();
  router.get('/docs/{*name}', (ctx) => {
    const name = ctx.path.slice('/docs/'.length);
    if (!served.has(name)) throw fail('not_found', `no file ${ctx.path}`);
    let text = texts.get(name);
    if (!text) {
      text = readFileSync(DOCS_DIR + name);
      texts.set(name, text);
    }
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = text;
  });
}
