// The API the dashboard is built on: the program's settings, its tokens, the payments and
// clicks lists, and payouts as calls. Everything here works with a secret token too.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../packages/collector/src/platform/csv.js';
import { expectError, seedPartner, startCollector, T0, type Collector } from './harness.js';
import { ownerSession } from './session.js';

let c: Collector;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(async () => {
  await c?.close();
});

describe('/v1/program', () => {
  it('reads and changes the settings; a new allowed origin takes effect for the snippet at once', async () => {
    const read = await c.call('GET', '/v1/program');
    expect(read.body.data).toMatchObject({
      id: c.programId,
      type: 'program',
      attributes: { name: 'My program', cookie_days: 60, commission_rate_bps: 2000 },
    });
    const { key } = await seedPartner(c);
    const convert = (email: string) =>
      c.call('POST', '/v1/tracking/conversion', {
        token: c.publishable,
        headers: { origin: 'https://shop.example' },
        body: { email, gr_id: 'g', pk: key },
      });
    expectError(await convert('before@buyer.test'), 403, 'origin_not_allowed');

    const origins = [...read.body.data.attributes.allowed_origins, 'https://shop.example'];
    const changed = await c.call('PATCH', '/v1/program', {
      body: {
        name: 'Acme partners',
        site_url: 'https://shop.example/',
        allowed_origins: origins,
        commission_rate_bps: 1500,
        cookie_days: 90,
      },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.attributes).toMatchObject({
      name: 'Acme partners',
      site_url: 'https://shop.example/',
      commission_rate_bps: 1500,
      cookie_days: 90,
    });
    expect([...changed.body.data.attributes.allowed_origins].sort()).toEqual([...origins].sort());
    expect((await convert('after@buyer.test')).status).toBe(201);

    // The whole list replaces the old one; an empty one would silence the snippet.
    expectError(await c.call('PATCH', '/v1/program', { body: { allowed_origins: [] } }), 422, 'invalid_field');
    expectError(await c.call('PATCH', '/v1/program', { body: { cookie_days: 0 } }), 422, 'invalid_field');
    const narrowed = await c.call('PATCH', '/v1/program', { body: { allowed_origins: ['https://shop.example'] } });
    expect(narrowed.body.data.attributes.allowed_origins).toEqual(['https://shop.example']);
  });

  it('is the caller program, whoever asks', async () => {
    const other = await c.otherProgram();
    const theirs = await c.call('GET', '/v1/program', { token: other.secret });
    expect(theirs.body.data.id).toBe(other.id);
    expect(theirs.body.data.attributes.name).toBe('Other');
  });
});

describe('/v1/tokens', () => {
  it('issues a token shown once, lists hints only, and revokes at once', async () => {
    const made = await c.call('POST', '/v1/tokens', { body: { kind: 'secret' } });
    expect(made.status).toBe(201);
    const token: string = made.body.data.attributes.token;
    expect(token).toMatch(/^tly_sec_/);
    expect((await c.call('GET', '/v1/partners', { token })).status).toBe(200);

    const list = await c.call('GET', '/v1/tokens');
    expect(JSON.stringify(list.body)).not.toContain(token);
    const listed = list.body.data.find((t: { id: string }) => t.id === made.body.data.id);
    expect(listed.attributes).toMatchObject({ kind: 'secret', hint: token.slice(0, 12) });

    expect((await c.call('DELETE', `/v1/tokens/${made.body.data.id}`)).status).toBe(204);
    expectError(await c.call('GET', '/v1/partners', { token }), 401, 'unauthorized');
    expect((await c.call('DELETE', `/v1/tokens/${made.body.data.id}`)).status).toBe(204); // again: nothing changes
  });

  it("another program's token is not there", async () => {
    const other = await c.otherProgram();
    const theirs = await c.call('POST', '/v1/tokens', { token: other.secret, body: { kind: 'publishable' } });
    expectError(await c.call('DELETE', `/v1/tokens/${theirs.body.data.id}`), 404, 'not_found');
    expect((await c.call('GET', '/v1/tokens')).body.data.map((t: { id: string }) => t.id)).not.toContain(theirs.body.data.id);
  });
});

describe('payments and clicks lists', () => {
  it('list newest first, filtered, and only the caller program', async () => {
    const p = await seedPartner(c);
    const other = await seedPartner(c);
    for (const [gr, who] of [
      ['v1', p],
      ['v2', p],
      ['v3', other],
    ] as const) {
      expect((await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: gr, pk: who.key } })).status).toBe(202);
    }
    const conv = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'lists@buyer.test', gr_id: 'v1', pk: p.key },
    });
    for (const [key, amount] of [
      ['l1', 1000],
      ['l2', 2500],
    ] as const) {
      c.clock.now += 10;
      await c.call('POST', '/v1/payments', { body: { amount, currency: 'USD', idempotency_key: key, referral_id: conv.body.data.id } });
    }
    const payments = await c.call('GET', `/v1/payments?referral_id_eq=${conv.body.data.id}`);
    expect(payments.body.data.map((x: { attributes: { amount: number } }) => x.attributes.amount)).toEqual([2500, 1000]);
    expect(payments.body.meta.pagination).toEqual({ page: 1, per_page: 25, has_more: false });
    const onePer = await c.call('GET', `/v1/payments?referral_id_eq=${conv.body.data.id}&per_page=1`);
    expect(onePer.body.meta.pagination.has_more).toBe(true);

    const clicks = await c.call('GET', `/v1/clicks?partnership_id_eq=${p.partnershipId}`);
    expect(clicks.body.data.map((x: { attributes: { gr_id: string } }) => x.attributes.gr_id).sort()).toEqual(['v1', 'v2']);
    const one = await c.call('GET', `/v1/clicks/${clicks.body.data[0].id}`);
    expect(one.body.data.relationships.partnership.data.id).toBe(p.partnershipId);

    const theirs = await c.otherProgram();
    expect((await c.call('GET', '/v1/clicks', { token: theirs.secret })).body.data).toEqual([]);
    expectError(await c.call('GET', `/v1/clicks/${clicks.body.data[0].id}`, { token: theirs.secret }), 404, 'not_found');
    expectError(await c.call('GET', `/v1/payments/${payments.body.data[0].id}`, { token: theirs.secret }), 404, 'not_found');
  });

  it('refuses filters it does not have, as every list does', async () => {
    expectError(await c.call('GET', '/v1/clicks?email_eq=a@b.test'), 400, 'unknown_parameter');
    expectError(await c.call('GET', '/v1/payments?created_at_lt=yesterday'), 400, 'invalid_parameter');
  });
});

describe('payouts as API calls', () => {
  it('shows what is owed, exports a batch, serves its PayPal file, and marks it paid from the session', async () => {
    const x = await startCollector();
    try {
      const alice = await seedPartner(x, { name: 'Alice', paypal_email: 'alice@pay.test' });
      const carol = await seedPartner(x, { name: 'Carol' });
      for (const [who, amount] of [
        [alice, 1234],
        [alice, 66],
        [carol, 700],
      ] as const) {
        await x.call('POST', '/v1/commissions', { body: { partner_id: who.partnerId, amount, currency: 'USD' } });
      }
      const owed = await x.call('GET', '/v1/payouts/owed');
      expect(owed.body.data).toEqual([
        {
          partner_id: alice.partnerId,
          name: 'Alice',
          paypal_email: 'alice@pay.test',
          currency: 'USD',
          amount: 1300,
          commissions: 2,
          minimum: 1,
          due: true,
        },
        {
          partner_id: carol.partnerId,
          name: 'Carol',
          paypal_email: null,
          currency: 'USD',
          amount: 700,
          commissions: 1,
          minimum: 1,
          due: false,
        },
      ]);

      const owner = await ownerSession(x);
      const made = await owner.call('POST', '/v1/payout_batches', { body: {} });
      expect(made.status).toBe(201);
      expect(made.body.meta.skipped).toEqual([{ partner_id: carol.partnerId, name: 'Carol', currency: 'USD', reason: 'no paypal_email' }]);
      const [batch] = made.body.data;
      expect(batch.attributes).toMatchObject({ currency: 'USD', state: 'open', amount: 1300, commissions: 2, partners: 1, created_at: T0 });
      // Held by the batch: a second export has nothing new, and Alice is owed nothing more.
      const again = await owner.call('POST', '/v1/payout_batches', { body: {} });
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual([]);
      expect((await x.call('GET', '/v1/payouts/owed')).body.data.map((o: { name: string }) => o.name)).toEqual(['Carol']);

      const file = await owner.call('GET', `/v1/payout_batches/${batch.id}/file`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(file.headers.get('content-disposition')).toBe(`attachment; filename="tally-payouts-USD-${batch.id}.csv"`);
      const rows = parseCsv(file.body);
      expect(rows).toEqual([
        ['alice@pay.test', '13.00', 'USD', '', `Commission payout, partner ${alice.partnerId}, batch ${batch.id}`, 'PAYPAL'],
      ]);

      const paid = await owner.call('POST', `/v1/payout_batches/${batch.id}/paid`);
      expect(paid.body.data.attributes).toMatchObject({ state: 'paid', paid_at: T0 });
      const states = (await x.call('GET', `/v1/commissions?partner_id_eq=${alice.partnerId}`)).body.data.map(
        (cm: { attributes: { state: string } }) => cm.attributes.state,
      );
      expect(states).toEqual(['paid', 'paid']);
      // Paid once: neither again, nor cancelled, nor its file.
      expectError(await owner.call('POST', `/v1/payout_batches/${batch.id}/paid`), 409, 'conflict');
      expectError(await owner.call('POST', `/v1/payout_batches/${batch.id}/cancel`), 409, 'conflict');
      expectError(await owner.call('GET', `/v1/payout_batches/${batch.id}/file`), 409, 'conflict');
      expect((await x.call('GET', '/v1/payout_batches')).body.data.map((b: { id: string }) => b.id)).toEqual([batch.id]);
    } finally {
      await x.close();
    }
  });

  it("cancels a batch, freeing its commissions; another program's batch is not there", async () => {
    const alice = await seedPartner(c, { name: 'Alicia', paypal_email: 'alicia@pay.test' });
    await c.call('POST', '/v1/commissions', { body: { partner_id: alice.partnerId, amount: 500, currency: 'EUR' } });
    const made = await c.call('POST', '/v1/payout_batches', { body: { currency: 'EUR' } });
    const id = made.body.data[0].id;
    // Still pending (the spec's state), and naming the batch that holds it.
    const held = (await c.call('GET', `/v1/commissions?partner_id_eq=${alice.partnerId}`)).body.data[0].attributes;
    expect(held).toMatchObject({ state: 'pending', payout_batch_id: id });
    const other = await c.otherProgram();
    for (const [method, path] of [
      ['GET', ''],
      ['GET', '/file'],
      ['POST', '/paid'],
      ['POST', '/cancel'],
    ] as const) {
      expectError(await c.call(method, `/v1/payout_batches/${id}${path}`, { token: other.secret }), 404, 'not_found');
    }
    const cancelled = await c.call('POST', `/v1/payout_batches/${id}/cancel`);
    expect(cancelled.body.data.attributes.state).toBe('cancelled');
    const freed = (await c.call('GET', `/v1/commissions?partner_id_eq=${alice.partnerId}`)).body.data[0].attributes;
    expect(freed.state).toBe('pending');
    expect(freed).not.toHaveProperty('payout_batch_id');
    const owed = await c.call('GET', '/v1/payouts/owed');
    expect(owed.body.data).toContainEqual(expect.objectContaining({ partner_id: alice.partnerId, amount: 500, currency: 'EUR' }));
  });
});
