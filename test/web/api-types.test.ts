// The API's types are generated from /openapi.json, for the dashboard and for the typed client;
// a route or schema changed without regenerating them fails here (npm run api-types writes them again).

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, without types of its own.
import { apiTypes, CLIENT_TYPES_FILE, clientTypes, TYPES_FILE } from '../../scripts/api-types.mjs';

it('packages/web/src/api.d.ts is what /openapi.json generates', async () => {
  const committed = readFileSync(TYPES_FILE as string, 'utf8');
  const fresh = (await apiTypes()) as string;
  expect(committed === fresh, 'packages/web/src/api.d.ts is stale: run npm run api-types').toBe(true);
  // Every operation's answer is typed: no operation is left without content.
  expect(fresh).toContain('"/v1/stats"');
  expect(fresh).toContain('referral_link: string;');
});

it("packages/client/src/api.d.ts is what /openapi.json generates, naming the API's version", async () => {
  const committed = readFileSync(CLIENT_TYPES_FILE as string, 'utf8');
  const fresh = (await clientTypes()) as string;
  expect(committed === fresh, 'packages/client/src/api.d.ts is stale: run npm run api-types').toBe(true);
  expect(fresh).toMatch(/^\/\/ API version \d+\.\d+\.\d+\.$/m);
  // The error codes are the API's own, so a client can switch on them.
  expect(fresh).toContain('"referral_exists"');
});
