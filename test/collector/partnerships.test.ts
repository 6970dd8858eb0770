// Partnership writes, keys and competitor slugs, and the state machine.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

async function partner(name: string): Promise<string> {
  const r = await c.call('POST', '/v1/partners', { body: { name, email: `${name.length}${Math.random()}@p.test` } });
  return r.body.data.id;
}
const createPs = (body: unknown) => c.call('POST', '/v1/partnerships', { body });
const patch = (id: string, body: unknown) => c.call('PATCH', `/v1/partnerships/${id}`, { body });
const convert = (pk: string, email = `${Math.random()}@buyer.test`, token = c.publishable) =>
  c.call('POST', '/v1/tracking/conversion', { token, body: { email, gr_id: 'g', pk } });

describe('POST /v1/partnerships', () => {
  it('creates a pending partnership by the company, with a key made from the partner name', async () => {
    const partnerId = await partner("Zoë O'Brien");
    const reply = await createPs({ partner_id: partnerId });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('location')).toBe(`/v1/partnerships/${reply.body.data.id}`);
    expect(reply.body.data.attributes).toEqual({
      state: 'pending',
      key: 'zoe-o-brien',
      competitor_slugs: [],
      created_by: 'company',
      group_id: expect.any(String),
      referral_link: 'http://localhost:8787/demo/?red=zoe-o-brien',
      // The commission rules: null until set, for the program's own.
      recurring_months: null,
      hold_days: null,
      minimum_payout: null,
      state_set_at: c.clock.now,
      created_at: c.clock.now,
      updated_at: c.clock.now,
    });
    expect(reply.body.data.relationships.partner.data).toEqual({ id: partnerId, type: 'partner' });
  });

  it('makes keys unique with -2, -3 when names collide', async () => {
    const keys = [];
    for (let i = 0; i < 3; i++) keys.push((await createPs({ partner_id: await partner('Sam') })).body.data.attributes.key);
    expect(keys).toEqual(['sam', 'sam-2', 'sam-3']);
  });

  it('takes an explicit key, state, creator, rate and competitor slugs, all normalized', async () => {
    const reply = await createPs({
      partner_id: await partner('X'),
      key: 'My-Key',
      state: 'accepted',
      created_by: 'partner',
      commission_rate_bps: 1500,
      competitor_slugs: ['Old1', 'old1', 'my-key', 'old2'],
    });
    expect(reply.status).toBe(201);
    expect(reply.body.data.attributes).toMatchObject({
      key: 'my-key',
      state: 'accepted',
      created_by: 'partner',
      commission_rate_bps: 1500,
      competitor_slugs: ['old1', 'old2'],
    });
  });

  it('refuses slugs that credit another partnership: 409 conflict with the pointer', async () => {
    await createPs({ partner_id: await partner('A'), key: 'alpha', competitor_slugs: ['legacy'] });
    const byKey = await createPs({ partner_id: await partner('B'), key: 'legacy' });
    expect(expectError(byKey, 409, 'conflict').source).toEqual({ pointer: '/key' });
    const bySlug = await createPs({ partner_id: await partner('C'), competitor_slugs: ['alpha'] });
    expect(expectError(bySlug, 409, 'conflict').source).toEqual({ pointer: '/competitor_slugs' });
  });

  it('refuses a second partnership for the same partner, and an unknown partner', async () => {
    const id = await partner('A');
    await createPs({ partner_id: id });
    expectError(await createPs({ partner_id: id }), 409, 'conflict');
    const err = expectError(await createPs({ partner_id: '01900000-0000-7000-8000-000000000000' }), 422, 'unknown_partner');
    expect(err.source).toEqual({ pointer: '/partner_id' });
  });

  it('validates its fields', async () => {
    const id = await partner('A');
    expectError(await createPs({}), 422, 'missing_field');
    expectError(await createPs({ partner_id: id, key: 'a' }), 422, 'invalid_field');
    expectError(await createPs({ partner_id: id, key: 'has space' }), 422, 'invalid_field');
    expectError(await createPs({ partner_id: id, key: '-dash-first' }), 422, 'invalid_field');
    expectError(await createPs({ partner_id: id, state: 'paid' }), 422, 'invalid_field');
    expectError(await createPs({ partner_id: id, created_by: 'robot' }), 422, 'invalid_field');
    expectError(await createPs({ partner_id: id, commission_rate_bps: 10001 }), 422, 'invalid_field');
    expectError(await createPs({ partner_id: id, commission_rate_bps: 1.5 }), 422, 'invalid_field');
    const bad = await createPs({ partner_id: id, competitor_slugs: ['ok', 7] });
    expect(expectError(bad, 422, 'invalid_field').source).toEqual({ pointer: '/competitor_slugs/1' });
  });
});

describe('PATCH /v1/partnerships/:id state machine', () => {
  const allowed: Array<[string, string]> = [
    ['pending', 'accepted'],
    ['pending', 'declined'],
    ['accepted', 'declined'],
    ['declined', 'accepted'],
  ];
  const refused: Array<[string, string]> = [
    ['pending', 'pending'],
    ['accepted', 'pending'],
    ['accepted', 'accepted'],
    ['declined', 'pending'],
    ['declined', 'declined'],
  ];

  it.each(allowed)('%s → %s is allowed and sets state_set_at and updated_at', async (from, to) => {
    const p = await seedPartner(c, { state: from });
    c.clock.now += 100;
    const reply = await patch(p.partnershipId, { state: to });
    expect(reply.status).toBe(200);
    expect(reply.body.data.attributes).toMatchObject({
      state: to,
      state_set_at: c.clock.now,
      updated_at: c.clock.now,
      created_at: c.clock.now - 100,
    });
  });

  it.each(refused)('%s → %s is refused with 409 invalid_transition, and nothing changes', async (from, to) => {
    const p = await seedPartner(c, { state: from });
    const before = await c.call('GET', `/v1/partnerships/${p.partnershipId}`);
    c.clock.now += 100;
    expectError(await patch(p.partnershipId, { state: to }), 409, 'invalid_transition');
    expect((await c.call('GET', `/v1/partnerships/${p.partnershipId}`)).body).toEqual(before.body);
  });

  it('declining stops new conversions; accepting again restores them', async () => {
    const p = await seedPartner(c);
    await patch(p.partnershipId, { state: 'declined' });
    // The reason is told to the secret token; the public one hears only that nothing was recorded.
    expectError(await convert(p.key, undefined, c.secret), 422, 'partnership_declined');
    expectError(await convert(p.key), 422, 'unattributed');
    await patch(p.partnershipId, { state: 'accepted' });
    expect((await convert(p.key)).status).toBe(201);
  });
});

describe('PATCH /v1/partnerships/:id slugs and rate', () => {
  it('a new key credits the partnership and the old one no longer does', async () => {
    const p = await seedPartner(c);
    const reply = await patch(p.partnershipId, { key: 'fresh-key' });
    expect(reply.body.data.attributes.key).toBe('fresh-key');
    expect(reply.body.data.attributes.referral_link).toBe('http://localhost:8787/demo/?red=fresh-key');
    expectError(await convert(p.key), 422, 'unattributed');
    expect((await convert('fresh-key')).body.data.relationships.partnership.data.id).toBe(p.partnershipId);
  });

  it('replaces competitor slugs, refusing ones in use elsewhere', async () => {
    const a = await seedPartner(c);
    const b = await seedPartner(c);
    const reply = await patch(a.partnershipId, { competitor_slugs: ['via-a'] });
    expect(reply.body.data.attributes.competitor_slugs).toEqual(['via-a']);
    expect((await convert('via-a')).status).toBe(201);
    expectError(await patch(b.partnershipId, { competitor_slugs: ['via-a'] }), 409, 'conflict');
    expectError(await patch(b.partnershipId, { key: 'via-a' }), 409, 'conflict');
    await patch(a.partnershipId, { competitor_slugs: [] });
    expectError(await convert('via-a'), 422, 'unattributed');
  });

  it('sets and clears the commission rate', async () => {
    const p = await seedPartner(c);
    expect((await patch(p.partnershipId, { commission_rate_bps: 0 })).body.data.attributes.commission_rate_bps).toBe(0);
    const cleared = await patch(p.partnershipId, { commission_rate_bps: null });
    expect(cleared.body.data.attributes).not.toHaveProperty('commission_rate_bps');
  });
});
