// Payments create commissions; refunds reject them (docs/api.md §18).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

let keys = 0;
const pay = (body: Record<string, unknown>) =>
  c.call('POST', '/v1/payments', { body: { currency: 'USD', idempotency_key: `pay-${++keys}`, ...body } });

/** A converted referral for a fresh partner; returns ids and the email used. */
async function referral(opts: { email?: string; uid?: string; partnershipRate?: number; state?: string } = {}) {
  const p = await seedPartner(c, { ...(opts.state ? { state: opts.state } : {}) });
  if (opts.partnershipRate !== undefined) {
    await c.call('PATCH', `/v1/partnerships/${p.partnershipId}`, { body: { commission_rate_bps: opts.partnershipRate } });
  }
  const email = opts.email ?? `${Math.random().toString(36).slice(2)}@buyer.test`;
  // A landing first, as the snippet records it: a public conversion without one is held for review.
  const grId = `g-${email}`;
  if (p.key && (opts.state ?? 'accepted') === 'accepted') {
    await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: grId, pk: p.key } });
  }
  const conv = await c.call('POST', '/v1/tracking/conversion', {
    token: c.publishable,
    body: { email, gr_id: grId, pk: p.key, ...(opts.uid ? { uid: opts.uid } : {}) },
  });
  expect(conv.status).toBe(201);
  return { ...p, referralId: conv.body.data.id as string, email };
}

describe('POST /v1/payments', () => {
  it('creates the payment and one pending commission for the partner, and moves the referral to paid', async () => {
    const r = await referral();
    const reply = await pay({ amount: 10000, currency: 'usd', referral_id: r.referralId, idempotency_key: 'ch_1' });
    expect(reply.status).toBe(201);
    const payment = reply.body.data;
    expect(reply.headers.get('location')).toBe(`/v1/payments/${payment.id}`);
    expect(payment.type).toBe('payment');
    expect(payment.attributes).toMatchObject({ amount: 10000, currency: 'USD', idempotency_key: 'ch_1' });
    const commissionId = payment.relationships.commission.data.id;
    const commission = await c.call('GET', `/v1/commissions/${commissionId}`);
    expect(commission.body.data.attributes).toMatchObject({
      state: 'pending',
      amount: 2000, // the program's default rate, 20%
      currency: 'USD',
      partner_id: r.partnerId,
      referral_id: r.referralId,
    });
    expect(reply.body.included[0]).toEqual(commission.body.data);
    expect((await c.call('GET', `/v1/referrals/${r.referralId}`)).body.data.attributes.state).toBe('paid');
    expect((await c.call('GET', `/v1/payments/${payment.id}`)).body.data).toEqual(payment);
  });

  it('finds the referral by normalized email and by uid as well', async () => {
    const byEmail = await referral({ email: 'Ann@Buyer.test' });
    const a = await pay({ amount: 500, referral_email: ' Ann@BUYER.TEST ' });
    expect(a.status).toBe(201);
    expect(a.body.data.relationships.referral.data.id).toBe(byEmail.referralId);
    const byUid = await referral({ uid: 'cus_77' });
    const b = await pay({ amount: 500, referral_uid: 'cus_77' });
    expect(b.body.data.relationships.referral.data.id).toBe(byUid.referralId);
  });

  it('a second payment earns a second commission and keeps the referral paid', async () => {
    const r = await referral();
    await pay({ amount: 1000, referral_id: r.referralId });
    const second = await pay({ amount: 3000, referral_id: r.referralId });
    expect(second.status).toBe(201);
    const list = await c.call('GET', `/v1/commissions?partner_id_eq=${r.partnerId}`);
    expect(list.body.data.map((x: { attributes: { amount: number } }) => x.attributes.amount)).toEqual([600, 200]);
    expect((await c.call('GET', `/v1/referrals/${r.referralId}`)).body.data.attributes.state).toBe('paid');
  });

  describe('rates and rounding, half up to the cent', () => {
    it("the program's rate, at and around the .5 boundary", async () => {
      expect((await c.call('PATCH', '/v1/program', { body: { commission_rate_bps: 2500 } })).status).toBe(200);
      const r = await referral();
      const cases: Array<[number, number]> = [
        [1, 0], // 0.25
        [2, 1], // 0.5, up
        [3, 1], // 0.75
        [6, 2], // 1.5, up
        [10, 3], // 2.5, up
        [14, 4], // 3.5, up
        [123456789, 30864197], // 30864197.25
      ];
      for (const [amount, expected] of cases) {
        const reply = await pay({ amount, referral_id: r.referralId });
        expect(reply.body.included[0].attributes.amount, `${amount} at 25%`).toBe(expected);
      }
      expect((await c.call('PATCH', '/v1/program', { body: { commission_rate_bps: 2499 } })).status).toBe(200);
      expect((await pay({ amount: 2, referral_id: r.referralId })).body.included[0].attributes.amount).toBe(0); // 0.4998
    });

    it("the partnership's own rate wins over the program's", async () => {
      const r = await referral({ partnershipRate: 1500 });
      const cases: Array<[number, number]> = [
        [9, 1], // 1.35
        [10, 2], // 1.5, up
        [30, 5], // 4.5, up
        [1000, 150],
      ];
      for (const [amount, expected] of cases) {
        expect((await pay({ amount, referral_id: r.referralId })).body.included[0].attributes.amount, `${amount} at 15%`).toBe(expected);
      }
      const zero = await referral({ partnershipRate: 0 });
      expect((await pay({ amount: 99999, referral_id: zero.referralId })).body.included[0].attributes.amount).toBe(0);
    });

    it('stays exact for the largest amount', async () => {
      const r = await referral({ partnershipRate: 3333 });
      const reply = await pay({ amount: 1e12, referral_id: r.referralId });
      expect(reply.body.included[0].attributes.amount).toBe(333300000000);
    });
  });

  describe('idempotency', () => {
    it('the same key and body again: 200 with the same payment, and no second commission', async () => {
      const r = await referral();
      const body = { amount: 4999, currency: 'EUR', referral_id: r.referralId, idempotency_key: 'order-1' };
      const first = await c.call('POST', '/v1/payments', { body });
      c.clock.now += 30;
      const again = await c.call('POST', '/v1/payments', { body: { ...body, currency: 'eur' } });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect((await c.call('GET', '/v1/commissions')).body.data).toHaveLength(1);
    });

    it('the same key with another body: 409 idempotency_conflict, and nothing changes', async () => {
      const r = await referral();
      const other = await referral();
      const body = { amount: 4999, currency: 'USD', referral_id: r.referralId, idempotency_key: 'order-2' };
      const first = await c.call('POST', '/v1/payments', { body });
      for (const changed of [{ amount: 5000 }, { currency: 'EUR' }, { referral_id: other.referralId }]) {
        const err = expectError(await c.call('POST', '/v1/payments', { body: { ...body, ...changed } }), 409, 'idempotency_conflict');
        expect(err.meta).toEqual({ payment_id: first.body.data.id });
      }
      expect((await c.call('GET', '/v1/commissions')).body.data).toHaveLength(1);
    });

    it('20 concurrent identical payments create exactly one payment and one commission', async () => {
      const r = await referral();
      const body = { amount: 10000, currency: 'USD', referral_id: r.referralId, idempotency_key: 'race-1' };
      const replies = await Promise.all(Array.from({ length: 20 }, () => c.call('POST', '/v1/payments', { body })));
      expect(replies.map((x) => x.status).sort((a, b) => a - b)).toEqual([...Array(19).fill(200), 201]);
      expect(new Set(replies.map((x) => x.body.data.id)).size).toBe(1);
      expect((await c.call('GET', '/v1/commissions')).body.data).toHaveLength(1);
      const count = await c.running.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM payments');
      expect(count?.n).toBe(1);
    });
  });

  describe('refusals', () => {
    it('an unknown referral: 422 unknown_referral, pointing at how it was named', async () => {
      for (const [field, value] of [
        ['referral_id', '01900000-0000-7000-8000-000000000000'],
        ['referral_email', 'nobody@buyer.test'],
        ['referral_uid', 'cus_none'],
      ]) {
        const err = expectError(await pay({ amount: 100, [field!]: value }), 422, 'unknown_referral');
        expect(err.source).toEqual({ pointer: `/${field}` });
      }
    });

    it('a partnership that is not accepted: 422 partnership_declined, and no commission', async () => {
      const r = await referral({ state: 'pending' });
      expectError(await pay({ amount: 100, referral_id: r.referralId }), 422, 'partnership_declined');
      await c.call('PATCH', `/v1/partnerships/${r.partnershipId}`, { body: { state: 'declined' } });
      expectError(await pay({ amount: 100, referral_id: r.referralId }), 422, 'partnership_declined');
      expect((await c.call('GET', '/v1/commissions')).body.data).toEqual([]);
      expect((await c.call('GET', `/v1/referrals/${r.referralId}`)).body.data.attributes.state).toBe('converted');
    });

    it('a rejected referral earns nothing: 409 invalid_transition', async () => {
      const r = await referral();
      await c.call('PATCH', `/v1/referrals/${r.referralId}`, { body: { state: 'rejected' } });
      expectError(await pay({ amount: 100, referral_id: r.referralId }), 409, 'invalid_transition');
    });

    it('the referral must be named exactly one way', async () => {
      const r = await referral();
      expectError(await pay({ amount: 100 }), 422, 'missing_field');
      expectError(await pay({ amount: 100, referral_id: r.referralId, referral_email: r.email }), 422, 'invalid_field');
    });

    it('validates amount, currency and key', async () => {
      const r = await referral();
      for (const bad of [{ amount: 0 }, { amount: 1.5 }, { amount: -5 }, { amount: '100' }, { amount: 1e13 }]) {
        expect(expectError(await pay({ referral_id: r.referralId, ...bad }), 422, 'invalid_field').source).toEqual({ pointer: '/amount' });
      }
      for (const currency of ['US', 'US1', 'dollars']) {
        expect(expectError(await pay({ amount: 1, referral_id: r.referralId, currency }), 422, 'invalid_field').source).toEqual({
          pointer: '/currency',
        });
      }
      expectError(
        await c.call('POST', '/v1/payments', { body: { amount: 1, currency: 'USD', referral_id: r.referralId } }),
        422,
        'missing_field',
      );
    });
  });
});

describe('POST /v1/refunds', () => {
  it("rejects the payment's commission with reason refunded, and answers a repeat the same", async () => {
    const r = await referral();
    const payment = await pay({ amount: 5000, referral_id: r.referralId, idempotency_key: 'ch_refund' });
    c.clock.now += 60;
    const refund = await c.call('POST', '/v1/refunds', { body: { payment_id: 'ch_refund' } });
    expect(refund.status).toBe(200);
    expect(refund.body.data.id).toBe(payment.body.data.relationships.commission.data.id);
    expect(refund.body.data.attributes).toMatchObject({ state: 'rejected', reject_reason: 'refunded', state_set_at: c.clock.now });
    const again = await c.call('POST', '/v1/refunds', { body: { payment_id: 'ch_refund' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(refund.body);
  });

  it('an unknown payment: 422', async () => {
    const err = expectError(await c.call('POST', '/v1/refunds', { body: { payment_id: 'ch_none' } }), 422, 'invalid_field');
    expect(err.source).toEqual({ pointer: '/payment_id' });
  });

  it('a commission already paid out: it stays paid, and a pending negative commission claws the refunded share back', async () => {
    const r = await referral();
    const payment = await pay({ amount: 5000, referral_id: r.referralId, idempotency_key: 'ch_paid' });
    const commissionId = payment.body.data.relationships.commission.data.id;
    await c.call('PATCH', `/v1/commissions/${commissionId}`, { body: { state: 'paid' } });
    const reply = await c.call('POST', '/v1/refunds', { body: { payment_id: 'ch_paid' } });
    expect(reply.status).toBe(200);
    expect(reply.body.data.attributes.state).toBe('paid');
    expect(reply.body.included).toHaveLength(1);
    const clawback = reply.body.included[0].attributes;
    expect(clawback).toMatchObject({ state: 'pending', amount: -1000, clawback_of: commissionId, partner_id: r.partnerId });
    // A repeat claws back nothing more.
    const again = await c.call('POST', '/v1/refunds', { body: { payment_id: 'ch_paid' } });
    expect(again.body.included.map((x: { id: string }) => x.id)).toEqual([reply.body.included[0].id]);
    expect((await c.call('GET', `/v1/commissions/${commissionId}`)).body.data.attributes.state).toBe('paid');
  });

  it('a partial refund reduces a pending commission in proportion; the running total never counts twice', async () => {
    const r = await referral();
    const payment = await pay({ amount: 5000, referral_id: r.referralId, idempotency_key: 'ch_part' });
    const commissionId = payment.body.data.relationships.commission.data.id;
    const first = await c.call('POST', '/v1/refunds', { body: { payment_id: 'ch_part', amount_refunded: 1000 } });
    expect(first.status).toBe(200);
    expect(first.body.data.attributes).toMatchObject({ state: 'pending', amount: 800 });
    const same = await c.call('POST', '/v1/refunds', { body: { payment_id: 'ch_part', amount_refunded: 1000 } });
    expect(same.body.data.attributes.amount).toBe(800);
    const more = await c.call('POST', '/v1/refunds', { body: { payment_id: 'ch_part', amount_refunded: 2500 } });
    expect(more.body.data.attributes.amount).toBe(500);
    const all = await c.call('POST', '/v1/refunds', { body: { payment_id: 'ch_part' } });
    expect(all.body.data.attributes).toMatchObject({ state: 'rejected', reject_reason: 'refunded' });
    expect((await c.call('GET', `/v1/commissions/${commissionId}`)).body.data.attributes.state).toBe('rejected');
  });

  it('the partner keeps the unrefunded share rounded half up: 999 earned, half refunded, keeps 500 (a clawback takes 499)', async () => {
    const r = await referral({ partnershipRate: 1000 });
    const pending = await pay({ amount: 9990, referral_id: r.referralId, idempotency_key: 'ch_half' });
    expect(pending.body.included[0].attributes.amount).toBe(999);
    const reduced = await c.call('POST', '/v1/refunds', { body: { payment_id: 'ch_half', amount_refunded: 4995 } });
    expect(reduced.body.data.attributes).toMatchObject({ state: 'pending', amount: 500 });

    const paid = await pay({ amount: 9990, referral_id: r.referralId, idempotency_key: 'ch_half_paid' });
    await c.call('PATCH', `/v1/commissions/${paid.body.included[0].id}`, { body: { state: 'paid' } });
    const clawed = await c.call('POST', '/v1/refunds', { body: { payment_id: 'ch_half_paid', amount_refunded: 4995 } });
    expect(clawed.body.included.map((x: { attributes: { amount: number } }) => x.attributes.amount)).toEqual([-499]);
  });
});

describe('POST /v1/commissions (one-off)', () => {
  it('creates a pending commission, with the currency in upper case', async () => {
    const { partnerId } = await seedPartner(c);
    const reply = await c.call('POST', '/v1/commissions', { body: { partner_id: partnerId, amount: 2500, currency: 'eur' } });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('location')).toBe(`/v1/commissions/${reply.body.data.id}`);
    expect(reply.body.data.attributes).toEqual({
      state: 'pending',
      amount: 2500,
      currency: 'EUR',
      partner_id: partnerId,
      payable_at: c.clock.now,
      on_hold: false,
      tier: 1,
      state_set_at: c.clock.now,
      created_at: c.clock.now,
      updated_at: c.clock.now,
    });
  });

  it('refuses an unknown partner, an unknown referral, and a referral of another partner', async () => {
    const a = await referral();
    const b = await seedPartner(c);
    const post = (body: Record<string, unknown>) => c.call('POST', '/v1/commissions', { body: { amount: 1, currency: 'USD', ...body } });
    expectError(await post({ partner_id: '01900000-0000-7000-8000-000000000000' }), 422, 'unknown_partner');
    expectError(await post({ partner_id: b.partnerId, referral_id: '01900000-0000-7000-8000-000000000000' }), 422, 'unknown_referral');
    expectError(await post({ partner_id: b.partnerId, referral_id: a.referralId }), 422, 'invalid_field');
    expect((await post({ partner_id: a.partnerId, referral_id: a.referralId })).status).toBe(201);
  });

  it('a partner with commissions cannot be deleted: 409 conflict', async () => {
    const { partnerId } = await seedPartner(c);
    await c.call('POST', '/v1/commissions', { body: { partner_id: partnerId, amount: 1, currency: 'USD' } });
    expectError(await c.call('DELETE', `/v1/partners/${partnerId}`), 409, 'conflict');
  });
});

describe('tenancy', () => {
  it("program B cannot see or refund program A's payments", async () => {
    const b = await c.otherProgram();
    const r = await referral();
    const payment = await pay({ amount: 100, referral_id: r.referralId, idempotency_key: 'ch_a' });
    expectError(await c.call('GET', `/v1/payments/${payment.body.data.id}`, { token: b.secret }), 404, 'not_found');
    expectError(await c.call('POST', '/v1/refunds', { token: b.secret, body: { payment_id: 'ch_a' } }), 422, 'invalid_field');
    expectError(
      await c.call('POST', '/v1/payments', {
        token: b.secret,
        body: { amount: 1, currency: 'USD', idempotency_key: 'x', referral_id: r.referralId },
      }),
      422,
      'unknown_referral',
    );
  });
});
