// @tally/client's build, as npm would pack it (npm test builds first; on its own, after npm
// run build): ESM and its declarations, the API's types beside them, importing only
// openapi-fetch and Node.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import * as sources from '../../packages/client/src/index.js';

const CLIENT = fileURLToPath(new URL('../../packages/client/', import.meta.url));
const read = (path: string) => readFileSync(`${CLIENT}${path}`, 'utf8');

it('exports what the sources export, with the declarations and the API types beside it', async () => {
  // By its path at run time: the typecheck runs on clones that have not built.
  const dist: Record<string, unknown> = await import(`${CLIENT}dist/index.js`);
  expect(Object.keys(dist).sort()).toEqual(Object.keys(sources).sort());
  expect(Object.keys(sources).sort()).toEqual(['TallyError', 'WebhookVerificationError', 'createTally', 'unwrap', 'verifyWebhook']);
  const files = readdirSync(`${CLIENT}dist`);
  for (const f of ['index.js', 'index.d.ts', 'api.d.ts', 'client.d.ts', 'errors.d.ts', 'webhooks.d.ts']) expect(files).toContain(f);
  expect(read('dist/api.d.ts')).toBe(read('src/api.d.ts'));
  const imports = [...read('dist/index.js').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
  expect(imports.sort()).toEqual(['node:crypto', 'openapi-fetch']);
});
