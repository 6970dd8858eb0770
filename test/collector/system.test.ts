// The routes outside /v1: health, readiness and the OpenAPI document.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../../packages/collector/src/app.js';
import { expectError, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

describe('health', () => {
  it('/healthz and /readyz answer without a token', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const reply = await c.call('GET', path, { token: null });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ status: 'ok' });
    }
  });

  it('/readyz fails when the database does not answer, /healthz does not', async () => {
    await c.running.db.close();
    const ready = await c.call('GET', '/readyz', { token: null });
    expectError(ready, 503, 'unavailable');
    expect(ready.headers.get('retry-after')).toBe('1');
    expect((await c.call('GET', '/healthz', { token: null })).status).toBe(200);
  });
});

describe('/openapi.json', () => {
  it('is an OpenAPI 3.1 document of every /v1 route, needing no token', async () => {
    const reply = await c.call('GET', '/openapi.json', { token: null });
    expect(reply.status).toBe(200);
    const doc = reply.body;
    expect(doc.openapi).toBe('3.1.0');
    for (const r of ROUTES) {
      const path = r.path.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[path]?.[r.method], `${r.method} ${path}`).toBeDefined();
    }
    const count = Object.values(doc.paths).reduce((n: number, ops) => n + Object.keys(ops as object).length, 0);
    expect(count).toBe(ROUTES.length);
  });

  it('describes bodies from the validating schemas and lists from their filters', async () => {
    const doc = (await c.call('GET', '/openapi.json', { token: null })).body;
    const conversion = doc.paths['/v1/tracking/conversion'].post;
    const schema = conversion.requestBody.content['application/json'].schema;
    expect(schema.required.sort()).toEqual(['email', 'gr_id']);
    expect(schema.properties.gr_id).toMatchObject({ type: 'string', minLength: 1, maxLength: 128 });
    expect(schema.properties.uid.anyOf ?? [schema.properties.uid]).toContainEqual(
      expect.objectContaining({ maxLength: 255 }),
    );
    expect(conversion.security).toContainEqual({ publishableToken: [] });
    const listNames = doc.paths['/v1/commissions'].get.parameters.map((p: { name: string }) => p.name);
    expect(listNames).toEqual([
      'state_eq',
      'partner_id_eq',
      'created_at_lt',
      'created_at_gt',
      'state_set_at_lt',
      'state_set_at_gt',
      'page',
      'per_page',
    ]);
    const perPage = doc.paths['/v1/partners'].get.parameters.find((p: { name: string }) => p.name === 'per_page');
    expect(perPage.schema).toMatchObject({ maximum: 50, default: 25 });
  });
});
