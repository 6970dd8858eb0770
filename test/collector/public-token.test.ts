// The publishable token is public: whoever reads the company's page has it. With it, the
// conversion route must not be an oracle for who is a referred customer or a partner.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

const convert = (body: unknown, token = c.publishable) => c.call('POST', '/v1/tracking/conversion', { token, body });

describe('a conversion with the publishable token', () => {
  it('answers a known customer exactly as an unknown, unattributed one, and never names a referral', async () => {
    const { key } = await seedPartner(c);
    const first = await convert({ email: 'known@customer.test', gr_id: 'g-1', pk: key });
    expect(first.status).toBe(201);

    const unknown = await convert({ email: 'stranger@customer.test', gr_id: 'probe' });
    const known = await convert({ email: 'known@customer.test', gr_id: 'probe' });
    const knownWithLink = await convert({ email: 'known@CUSTOMER.test', gr_id: 'probe-2', pk: key });
    expectError(unknown, 422, 'unattributed');
    for (const reply of [known, knownWithLink]) {
      expect(reply.status).toBe(unknown.status);
      expect(reply.body).toEqual(unknown.body);
      expect(reply.headers.get('location')).toBeNull();
      expect(JSON.stringify(reply.body)).not.toContain(first.body.data.id);
    }
  });

  it("answers a partner's own address as it answers anything not recorded", async () => {
    const { key } = await seedPartner(c, { email: 'alice@partner.test', paypal_email: 'pay@alice.test' });
    const unknown = await convert({ email: 'stranger@customer.test', gr_id: 'probe' });
    for (const email of ['alice@partner.test', 'pay@alice.test']) {
      const reply = await convert({ email, gr_id: 'probe', pk: key });
      expect(reply.status).toBe(422);
      expect(reply.body).toEqual(unknown.body);
    }
  });

  it("answers through a declined partnership's link exactly as through none, known customer or not", async () => {
    const { key } = await seedPartner(c);
    const declined = await seedPartner(c, { state: 'declined' });
    await convert({ email: 'known@customer.test', gr_id: 'g-1', pk: key });
    const unknown = await convert({ email: 'stranger@customer.test', gr_id: 'probe' });
    for (const email of ['known@customer.test', 'new@customer.test']) {
      const reply = await convert({ email, gr_id: 'probe-3', pk: declined.key });
      expect(reply.status).toBe(422);
      expect(reply.body).toEqual(unknown.body);
    }
    // The secret token still says why.
    expectError(await convert({ email: 'new@customer.test', gr_id: 'x', pk: declined.key }, c.secret), 422, 'partnership_declined');
  });

  it('still answers its own retry with 200 and the record (it holds the click id)', async () => {
    const { key } = await seedPartner(c);
    const first = await convert({ email: 'a@customer.test', gr_id: 'g-1', pk: key });
    const again = await convert({ email: 'a@customer.test', gr_id: 'g-1', pk: key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('leaves the secret token its precise answers', async () => {
    const { key } = await seedPartner(c, { email: 'alice@partner.test' });
    const first = await convert({ email: 'known@customer.test', gr_id: 'g-1', pk: key });
    const exists = expectError(await convert({ email: 'known@customer.test', gr_id: 'other' }, c.secret), 409, 'referral_exists');
    expect(exists.meta).toEqual({ referral_id: first.body.data.id });
    expectError(await convert({ email: 'alice@partner.test', gr_id: 'x', pk: key }, c.secret), 422, 'self_referral');
    const unattributed = expectError(await convert({ email: 'b@customer.test', gr_id: 'nothing' }, c.secret), 422, 'unattributed');
    expect(unattributed.source).toEqual({ pointer: '/gr_id' });
  });
});
