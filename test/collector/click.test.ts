// POST /v1/tracking/click (docs/api.md §13).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

const click = (body: unknown) => c.call('POST', '/v1/tracking/click', { token: c.publishable, body });
const clickCount = async () => (await c.running.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM clicks'))?.n ?? -1;

describe('POST /v1/tracking/click', () => {
  it('answers 202 naming the cookie domain, and stores the click', async () => {
    const { key, partnershipId } = await seedPartner(c);
    const reply = await click({ gr_id: 'v1', pk: key, url: 'https://shop.test/?red=x', referrer: 'https://blog.test/' });
    expect(reply.status).toBe(202);
    expect(reply.body).toEqual({ data: { cookie_domain: 'shop.test', discount: null } });
    const row = await c.running.db.get<Record<string, unknown>>('SELECT * FROM clicks');
    expect(row).toMatchObject({ partnership_id: partnershipId, gr_id: 'v1', pk: key, url: 'https://shop.test/?red=x' });
  });

  it('counts a repeat of the same gr_id and pk within 30 minutes once', async () => {
    const { key } = await seedPartner(c);
    await click({ gr_id: 'v1', pk: key });
    c.clock.now += 29 * 60;
    expect((await click({ gr_id: 'v1', pk: key })).status).toBe(202);
    expect(await clickCount()).toBe(1);
    c.clock.now += 2 * 60; // 31 minutes after the first
    await click({ gr_id: 'v1', pk: key });
    expect(await clickCount()).toBe(2);
    await click({ gr_id: 'v2', pk: key });
    expect(await clickCount()).toBe(3);
  });

  it('a repeat still makes its partnership the latest for gr_id attribution', async () => {
    const a = await seedPartner(c);
    const b = await seedPartner(c);
    await click({ gr_id: 'v1', pk: a.key });
    c.clock.now += 60;
    await click({ gr_id: 'v1', pk: b.key });
    c.clock.now += 60;
    await click({ gr_id: 'v1', pk: a.key }); // a repeat of the first, within 30 minutes
    const conv = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'x@y.test', gr_id: 'v1' },
    });
    expect(conv.body.data.relationships.partnership.data.id).toBe(a.partnershipId);
  });

  it('an unknown slug gets 422 unattributed; a declined partnership 422 partnership_declined', async () => {
    expectError(await click({ gr_id: 'v1', pk: 'nobody' }), 422, 'unattributed');
    const declined = await seedPartner(c, { state: 'declined' });
    expectError(await click({ gr_id: 'v1', pk: declined.key }), 422, 'partnership_declined');
    expect(await clickCount()).toBe(0);
  });

  it('validates its fields', async () => {
    expect(expectError(await click({ pk: 'x' }), 422, 'missing_field').source).toEqual({ pointer: '/gr_id' });
    expect(expectError(await click({ gr_id: 'x' }), 422, 'missing_field').source).toEqual({ pointer: '/pk' });
    const long = await click({ gr_id: 'x', pk: 'y', url: `https://x.test/${'a'.repeat(2048)}` });
    expect(expectError(long, 422, 'invalid_field').source).toEqual({ pointer: '/url' });
  });
});
