// Partner writes (docs/api.md §14).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

const create = (body: unknown) => c.call('POST', '/v1/partners', { body });

describe('POST /v1/partners', () => {
  it('creates a partner: 201, Location, and the record with the account email as given', async () => {
    const reply = await create({ name: 'Ada', email: 'ada@partners.test', paypal_email: 'ada@paypal.test' });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('location')).toBe(`/v1/partners/${reply.body.data.id}`);
    expect(reply.body.data).toEqual({
      id: reply.body.data.id,
      type: 'partner',
      attributes: {
        name: 'Ada',
        email: 'ada@partners.test',
        paypal_email: 'ada@paypal.test',
        created_at: c.clock.now,
        updated_at: c.clock.now,
      },
    });
    const fetched = await c.call('GET', `/v1/partners/${reply.body.data.id}`);
    expect(fetched.body).toEqual(reply.body);
  });

  it('leaves paypal_email out when there is none', async () => {
    const reply = await create({ name: 'Ada', email: 'ada@partners.test' });
    expect(reply.body.data.attributes).not.toHaveProperty('paypal_email');
  });

  it('refuses a second partner with the same normalized email: 409 conflict', async () => {
    await create({ name: 'Ada', email: 'ada@partners.test' });
    const err = expectError(await create({ name: 'Other', email: ' ada@PARTNERS.test' }), 409, 'conflict');
    expect(err.source).toEqual({ pointer: '/email' });
    expect((await create({ name: 'Other', email: 'Ada@partners.test' })).status).toBe(201);
  });

  it('one address in two Unicode forms is one address: composed (NFC) before it is compared', async () => {
    const made = await create({ name: 'Zoë', email: 'zo\u00eb@partners.test', paypal_email: 'zo\u00eb@pay.test' });
    expect(made.status).toBe(201);
    const err = expectError(await create({ name: 'Other', email: 'zoe\u0308@partners.test' }), 409, 'conflict');
    expect(err.source).toEqual({ pointer: '/email' });
    const found = await c.call('GET', `/v1/partners?paypal_email_eq=${encodeURIComponent('zoe\u0308@pay.test')}`);
    expect(found.body.data.map((p: { id: string }) => p.id)).toEqual([made.body.data.id]);
    // As sent, all the same.
    expect(made.body.data.attributes.paypal_email).toBe('zo\u00eb@pay.test');
  });

  it('validates its fields', async () => {
    expect(expectError(await create({ email: 'a@b.test' }), 422, 'missing_field').source).toEqual({ pointer: '/name' });
    expect(expectError(await create({ name: 'A' }), 422, 'missing_field').source).toEqual({ pointer: '/email' });
    expectError(await create({ name: '   ', email: 'a@b.test' }), 422, 'invalid_field');
    expectError(await create({ name: 'A', email: 'not-an-email' }), 422, 'invalid_email');
    expectError(await create({ name: 'A', email: 'a@b.test', paypal_email: 'x' }), 422, 'invalid_email');
    expectError(await create({ name: 7, email: 'a@b.test' }), 422, 'invalid_field');
  });
});

describe('PATCH /v1/partners/:id', () => {
  it('changes only the given fields and moves updated_at', async () => {
    const made = await create({ name: 'Ada', email: 'ada@partners.test', paypal_email: 'ada@paypal.test' });
    const id = made.body.data.id;
    c.clock.now += 30;
    const reply = await c.call('PATCH', `/v1/partners/${id}`, { body: { name: 'Ada L.' } });
    expect(reply.status).toBe(200);
    expect(reply.body.data.attributes).toEqual({
      name: 'Ada L.',
      email: 'ada@partners.test',
      paypal_email: 'ada@paypal.test',
      created_at: c.clock.now - 30,
      updated_at: c.clock.now,
    });
    const cleared = await c.call('PATCH', `/v1/partners/${id}`, { body: { paypal_email: null } });
    expect(cleared.body.data.attributes).not.toHaveProperty('paypal_email');
  });

  it('a changed email is what email_eq finds, and it must stay unique', async () => {
    const a = await create({ name: 'A', email: 'a@partners.test' });
    await create({ name: 'B', email: 'b@partners.test' });
    await c.call('PATCH', `/v1/partners/${a.body.data.id}`, { body: { email: 'new@partners.test' } });
    const found = await c.call('GET', '/v1/partners?email_eq=new%40partners.test');
    expect(found.body.data.map((p: { id: string }) => p.id)).toEqual([a.body.data.id]);
    const dup = await c.call('PATCH', `/v1/partners/${a.body.data.id}`, { body: { email: 'b@PARTNERS.TEST' } });
    expect(dup.status).toBe(409);
    expectError(dup, 409, 'conflict');
  });

  it('404 for an unknown partner', async () => {
    expectError(await c.call('PATCH', '/v1/partners/01900000-0000-7000-8000-000000000000', { body: { name: 'X' } }), 404, 'not_found');
  });
});

describe('DELETE /v1/partners/:id', () => {
  it('deletes a partner without history, with its partnership, and frees its key', async () => {
    const p = await seedPartner(c, { name: 'Gone' });
    const reply = await c.call('DELETE', `/v1/partners/${p.partnerId}`);
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    expectError(await c.call('GET', `/v1/partners/${p.partnerId}`), 404, 'not_found');
    expectError(await c.call('GET', `/v1/partnerships/${p.partnershipId}`), 404, 'not_found');
    expectError(await c.call('DELETE', `/v1/partners/${p.partnerId}`), 404, 'not_found');
    const again = await seedPartner(c, { name: 'Gone' });
    expect(again.key).toBe(p.key);
  });

  it('refuses a partner with referrals: 409 conflict, and keeps everything', async () => {
    const p = await seedPartner(c);
    await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'buyer@x.test', gr_id: 'g', pk: p.key },
    });
    expectError(await c.call('DELETE', `/v1/partners/${p.partnerId}`), 409, 'conflict');
    expect((await c.call('GET', `/v1/partners/${p.partnerId}`)).status).toBe(200);
    expect((await c.call('GET', `/v1/partnerships/${p.partnershipId}`)).status).toBe(200);
  });
});
