// Summarizes a --cpu-prof profile: self time by function and by package, the top N.
// Usage: node bench/profile-summary.mjs bench/results/conversions.cpuprofile [N]

import { readFileSync } from 'node:fs';

const [file, top = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: profile-summary.mjs FILE.cpuprofile [N]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

/** Where a function lives: a package under node_modules, our source, or node itself. */
function place(url) {
  if (!url) return '(native)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.includes('/packages/collector/') || url.includes('/builds/')) return 'collector';
  if (url.startsWith('node:')) return 'node';
  return url;
}

const fns = new Map();
const places = new Map();
for (const [id, us] of self) {
  const { callFrame: f } = byId.get(id);
  const key = `${f.functionName || '(anonymous)'} ${place(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
  places.set(place(f.url), (places.get(place(f.url)) ?? 0) + us);
}
const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
console.log(`${(total / 1000).toFixed(0)} ms sampled\n\nby package:`);
for (const [k, us] of [...places].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${pct(us)}  ${k}`);
console.log('\nby function (self time):');
for (const [k, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`${pct(us)}  ${k}`);
