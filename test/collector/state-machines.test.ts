// Every allowed and every refused move of the commission and referral state machines
// (the partnership's are in partnerships.test.ts).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canMove } from '../../packages/collector/src/core/state-machines.js';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

async function commissionIn(state: 'pending' | 'paid' | 'rejected'): Promise<string> {
  const { partnerId } = await seedPartner(c);
  const made = await c.call('POST', '/v1/commissions', { body: { partner_id: partnerId, amount: 1500, currency: 'usd' } });
  expect(made.status).toBe(201);
  const id = made.body.data.id;
  if (state !== 'pending') {
    const body = state === 'paid' ? { state } : { state, reject_reason: 'duplicate order' };
    expect((await c.call('PATCH', `/v1/commissions/${id}`, { body })).status).toBe(200);
  }
  return id;
}

describe('commission', () => {
  it('pending → paid sets paid_at, state_set_at and updated_at, and no reject_reason', async () => {
    const id = await commissionIn('pending');
    c.clock.now += 60;
    const reply = await c.call('PATCH', `/v1/commissions/${id}`, { body: { state: 'paid' } });
    expect(reply.status).toBe(200);
    expect(reply.body.data.attributes).toMatchObject({
      state: 'paid',
      paid_at: c.clock.now,
      state_set_at: c.clock.now,
      updated_at: c.clock.now,
      created_at: c.clock.now - 60,
    });
    expect(reply.body.data.attributes).not.toHaveProperty('reject_reason');
  });

  it('pending → rejected sets reject_reason, and no paid_at', async () => {
    const id = await commissionIn('pending');
    c.clock.now += 60;
    const reply = await c.call('PATCH', `/v1/commissions/${id}`, { body: { state: 'rejected', reject_reason: 'fraud' } });
    expect(reply.status).toBe(200);
    expect(reply.body.data.attributes).toMatchObject({ state: 'rejected', reject_reason: 'fraud', state_set_at: c.clock.now });
    expect(reply.body.data.attributes).not.toHaveProperty('paid_at');
  });

  const refused: Array<['pending' | 'paid' | 'rejected', string]> = [
    ['pending', 'pending'],
    ['paid', 'paid'],
    ['paid', 'rejected'],
    ['paid', 'pending'],
    ['rejected', 'rejected'],
    ['rejected', 'paid'],
    ['rejected', 'pending'],
  ];
  it.each(refused)('%s → %s is refused with 409 invalid_transition, and nothing changes', async (from, to) => {
    const id = await commissionIn(from);
    const before = await c.call('GET', `/v1/commissions/${id}`);
    c.clock.now += 60;
    const body = to === 'rejected' ? { state: to, reject_reason: 'again' } : { state: to };
    expectError(await c.call('PATCH', `/v1/commissions/${id}`, { body }), 409, 'invalid_transition');
    expect((await c.call('GET', `/v1/commissions/${id}`)).body).toEqual(before.body);
  });

  it('rejecting needs a reason; a reason goes only with rejected', async () => {
    const id = await commissionIn('pending');
    const err = expectError(await c.call('PATCH', `/v1/commissions/${id}`, { body: { state: 'rejected' } }), 422, 'missing_field');
    expect(err.source).toEqual({ pointer: '/reject_reason' });
    expectError(await c.call('PATCH', `/v1/commissions/${id}`, { body: { state: 'paid', reject_reason: 'x' } }), 422, 'invalid_field');
    expectError(await c.call('PATCH', `/v1/commissions/${id}`, { body: { state: 'lost' } }), 422, 'invalid_field');
    expectError(await c.call('PATCH', `/v1/commissions/${id}`, { body: {} }), 422, 'missing_field');
    expect((await c.call('GET', `/v1/commissions/${id}`)).body.data.attributes.state).toBe('pending');
  });
});

describe('referral', () => {
  type State = 'converted' | 'paid' | 'churned' | 'rejected';
  const path: Record<State, State[]> = { converted: [], paid: ['paid'], churned: ['paid', 'churned'], rejected: ['rejected'] };

  async function referralIn(state: State): Promise<string> {
    const { key } = await seedPartner(c);
    const conv = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: `${Math.random()}@buyer.test`, gr_id: 'g', pk: key },
    });
    const id = conv.body.data.id;
    for (const step of path[state]) {
      expect((await c.call('PATCH', `/v1/referrals/${id}`, { body: { state: step } })).status).toBe(200);
    }
    return id;
  }

  const allowed: Array<[State, State]> = [
    ['converted', 'paid'],
    ['paid', 'churned'],
    ['converted', 'rejected'],
    ['paid', 'rejected'],
    ['churned', 'rejected'],
  ];
  it.each(allowed)('%s → %s is allowed and sets state_set_at and updated_at', async (from, to) => {
    const id = await referralIn(from);
    c.clock.now += 60;
    const reply = await c.call('PATCH', `/v1/referrals/${id}`, { body: { state: to } });
    expect(reply.status).toBe(200);
    expect(reply.body.data.attributes).toMatchObject({ state: to, state_set_at: c.clock.now, updated_at: c.clock.now });
  });

  const all: State[] = ['converted', 'paid', 'churned', 'rejected'];
  const refused = all.flatMap((from) =>
    all.filter((to) => !allowed.some(([f, t]) => f === from && t === to)).map((to) => [from, to] as [State, State]),
  );
  it('the domain allows exactly the moves listed here, and no other', () => {
    for (const from of all) {
      for (const to of all) {
        const listed = allowed.some(([f, t]) => f === from && t === to);
        expect(canMove('referral', from, to), `${from} → ${to}`).toBe(listed);
      }
    }
  });
  it.each(refused)('%s → %s is refused with 409 invalid_transition', async (from, to) => {
    const id = await referralIn(from);
    expectError(await c.call('PATCH', `/v1/referrals/${id}`, { body: { state: to } }), 409, 'invalid_transition');
    expect((await c.call('GET', `/v1/referrals/${id}`)).body.data.attributes.state).toBe(from);
  });
});
