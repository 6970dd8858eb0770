// The collector's module graph, from dependency-cruiser's file graph collapsed to layers
// and modules: which module imports which (domain files only: a module's routes, schemas,
// http.ts and cli.ts face the outside and are mounted by the composition root), the cycles
// among them (strongly connected components), and imports into another module's repo.ts.
// `npm run lint:modules` fails on a cycle or a foreign repo import; `--print` draws the graph.

import { cruise } from 'dependency-cruiser';

const SRC = 'packages/collector/src/';
const OUTSIDE = /^modules\/[^/]+\/(routes|[a-z-]+-routes|schemas|http|cli)\.ts$/;
const REPO = /^modules\/[^/]+\/(repo|[a-z-]+-repo)\.ts$/;

/** The unit a file belongs to: `modules/<name>` or `flows/<name>`, else its layer. */
export function unitOf(file) {
  const rel = file.slice(SRC.length);
  const m = /^(modules|flows)\/([^/.]+)/.exec(rel);
  if (m) return `${m[1]}/${m[2]}`;
  return rel.split('/')[0].replace(/\.ts$/, '');
}

export async function moduleGraph() {
  const result = await cruise([SRC], {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/|\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  });
  const edges = new Map(); // "a -> b" => count
  const foreignRepo = [];
  for (const mod of result.output.modules) {
    if (!mod.source.startsWith(SRC)) continue;
    const rel = mod.source.slice(SRC.length);
    if (!rel.startsWith('modules/') || OUTSIDE.test(rel)) continue;
    const from = unitOf(mod.source);
    for (const dep of mod.dependencies) {
      if (!dep.resolved.startsWith(SRC)) continue;
      const to = unitOf(dep.resolved);
      if (to === from) continue;
      if (!to.startsWith('modules/') && !to.startsWith('flows/')) continue;
      edges.set(`${from} -> ${to}`, (edges.get(`${from} -> ${to}`) ?? 0) + 1);
      if (REPO.test(dep.resolved.slice(SRC.length))) foreignRepo.push(`${rel} -> ${dep.resolved.slice(SRC.length)}`);
    }
  }
  const units = new Set([...edges.keys()].flatMap((e) => e.split(' -> ')));
  const out = new Map([...units].map((u) => [u, []]));
  for (const e of edges.keys()) {
    const [a, b] = e.split(' -> ');
    out.get(a).push(b);
  }
  return { edges, foreignRepo, cycles: stronglyConnected(out).filter((c) => c.length > 1) };
}

/** Tarjan's algorithm: the graph's strongly connected components. */
function stronglyConnected(out) {
  let index = 0;
  const stack = [];
  const seen = new Map();
  const low = new Map();
  const onStack = new Set();
  const components = [];
  const visit = (v) => {
    seen.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of out.get(v) ?? []) {
      if (!seen.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), seen.get(w)));
    }
    if (low.get(v) === seen.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component.sort());
    }
  };
  for (const v of out.keys()) if (!seen.has(v)) visit(v);
  return components;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { edges, foreignRepo, cycles } = await moduleGraph();
  const imports = [...edges.values()].reduce((a, b) => a + b, 0);
  if (process.argv.includes('--print')) {
    for (const [e, n] of [...edges].sort()) console.log(`${e.replaceAll('modules/', '')} (${n})`);
  }
  console.log(
    `modules: ${edges.size} module-to-module edges, ${imports} imports across modules, ${foreignRepo.length} into another module's repo`,
  );
  for (const f of foreignRepo) console.error(`foreign repo import: ${f}`);
  for (const c of cycles) console.error(`module cycle: ${c.map((u) => u.replace('modules/', '')).join(' ')}`);
  if (foreignRepo.length || cycles.length) {
    console.error('A module may import another module only one way, and never its repo.ts (docs/architecture.md).');
    process.exit(1);
  }
}
