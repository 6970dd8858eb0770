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

describe('POST /v1/tracking/conversion', () => {
  it('records a conversion credited by the partnership key: 201, Location, the referral record', async () => {
    const { partnershipId, key } = await seedPartner(c);
    const reply = await convert({ email: 'Jane.Doe@Example.COM', gr_id: 'g-1', pk: key, uid: 'user-7' });
    expect(reply.status).toBe(201);
    const data = reply.body.data;
    expect(reply.headers.get('location')).toBe(`/v1/referrals/${data.id}`);
    expect(data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(data.type).toBe('referral');
    expect(data.attributes).toEqual({
      email: 'Jane.Doe@Example.COM',
      uid: 'user-7',
      state: 'converted',
      state_set_at: c.clock.now,
      created_at: c.clock.now,
      updated_at: c.clock.now,
    });
    expect(data.relationships.partnership.data).toEqual({ id: partnershipId, type: 'partnership' });

    const listed = await c.call('GET', '/v1/referrals');
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([data.id]);
  });

  it('answers a retry (same person, same gr_id) with 200 and the same, unchanged record', async () => {
    const { key } = await seedPartner(c);
    const first = await convert({ email: 'a@b.test', gr_id: 'g-1', pk: key });
    c.clock.now += 60;
    const again = await convert({ email: '  a@B.TEST ', gr_id: 'g-1', pk: key, uid: 'later' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(`/v1/referrals/${first.body.data.id}`);
    expect((await c.call('GET', '/v1/referrals')).body.data).toHaveLength(1);
  });

  it('tells a secret token the same person with another gr_id is 409 referral_exists, naming the first referral', async () => {
    const { key } = await seedPartner(c);
    const other = await seedPartner(c);
    const first = await convert({ email: 'a@b.test', gr_id: 'g-1', pk: key });
    const second = await convert({ email: 'a@B.test', gr_id: 'g-2', pk: other.key }, c.secret);
    const err = expectError(second, 409, 'referral_exists');
    expect(err.meta).toEqual({ referral_id: first.body.data.id });
    expect(err.detail).toBe(
      'this person was already referred, and the first referral stands (meta.referral_id): record their payments with POST /v1/payments',
    );
    const referral = await c.call('GET', `/v1/referrals/${first.body.data.id}`);
    expect(referral.body.data.relationships.partnership.data.id).not.toBe(other.partnershipId);
  });

  it('keeps the local part of an address case-sensitive when matching people', async () => {
    const { key } = await seedPartner(c);
    expect((await convert({ email: 'Ann@x.test', gr_id: 'g-1', pk: key })).status).toBe(201);
    expect((await convert({ email: 'ann@x.test', gr_id: 'g-2', pk: key })).status).toBe(201);
  });

  it('credits a competitor slug when no key matches', async () => {
    const { partnerId } = await seedPartner(c, { name: 'Slugged' });
    const partner2 = await c.call('POST', '/v1/partners', { body: { name: 'Migrated', email: 'm@partners.test' } });
    const ps = await c.call('POST', '/v1/partnerships', {
      body: { partner_id: partner2.body.data.id, state: 'accepted', competitor_slugs: ['OldSlug'] },
    });
    expect(ps.status).toBe(201);
    const reply = await convert({ email: 'c@d.test', gr_id: 'g-1', pk: 'oldslug' });
    expect(reply.status).toBe(201);
    expect(reply.body.data.relationships.partnership.data.id).toBe(ps.body.data.id);
    expect(partnerId).not.toBe(partner2.body.data.id);
  });

  it('credits the partnership of the latest click with that gr_id when pk is absent or unknown', async () => {
    const a = await seedPartner(c);
    const b = await seedPartner(c);
    expect((await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: 'v1', pk: a.key } })).status).toBe(202);
    c.clock.now += 10;
    expect((await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: 'v1', pk: b.key } })).status).toBe(202);
    const byClick = await convert({ email: 'e@f.test', gr_id: 'v1' });
    expect(byClick.status).toBe(201);
    expect(byClick.body.data.relationships.partnership.data.id).toBe(b.partnershipId);
    const unknownPk = await convert({ email: 'g@h.test', gr_id: 'v1', pk: 'no-such-slug' });
    expect(unknownPk.body.data.relationships.partnership.data.id).toBe(b.partnershipId);
  });

  it('answers 422 unattributed when neither pk nor gr_id leads to a partnership', async () => {
    await seedPartner(c);
    expectError(await convert({ email: 'a@b.test', gr_id: 'never-clicked' }), 422, 'unattributed');
    expectError(await convert({ email: 'a@b.test', gr_id: 'x', pk: 'nobody' }), 422, 'unattributed');
    expect((await c.call('GET', '/v1/referrals')).body.data).toEqual([]);
  });

  it('tells a secret token 422 partnership_declined for a declined partnership, and accepts a pending one', async () => {
    const declined = await seedPartner(c, { state: 'declined' });
    expectError(await convert({ email: 'a@b.test', gr_id: 'x', pk: declined.key }, c.secret), 422, 'partnership_declined');
    const pending = await seedPartner(c, { state: 'pending' });
    expect((await convert({ email: 'a@b.test', gr_id: 'x', pk: pending.key })).status).toBe(201);
  });

  it('refuses a partner referring themself by account or payout address: 422 self_referral', async () => {
    const { key } = await seedPartner(c, { email: 'Self@Partner.test', paypal_email: 'pay@partner.test' });
    const err = expectError(await convert({ email: 'Self@PARTNER.test', gr_id: 'x', pk: key }, c.secret), 422, 'self_referral');
    expect(err.source).toEqual({ pointer: '/email' });
    expectError(await convert({ email: ' pay@Partner.TEST', gr_id: 'x', pk: key }, c.secret), 422, 'self_referral');
  });

  it('sees a partner through case, a +tag and Unicode forms of either address: 422 self_referral', async () => {
    const { key } = await seedPartner(c, { email: 'alice@partner.test', paypal_email: 'Zo\u00eb.Pay@alice.test' });
    const lookalikes = [
      'ALICE@partner.test',
      'alice+x@partner.test',
      'Alice+promo+2@PARTNER.test',
      'zo\u00eb.pay@alice.test',
      'ZOE\u0308.PAY+refund@Alice.Test', // e + combining diaeresis: ë decomposed (NFD)
    ];
    for (const email of lookalikes) {
      const err = expectError(await convert({ email, gr_id: 'x', pk: key }, c.secret), 422, 'self_referral');
      expect(err.source, email).toEqual({ pointer: '/email' });
    }
    expect((await c.call('GET', '/v1/referrals')).body.data).toEqual([]);
    // Other people at the same domains are customers like any other.
    for (const email of ['alicex@partner.test', 'bob+alice@partner.test', 'zoe.pay@alice.test']) {
      expect((await convert({ email, gr_id: `g-${email}`, pk: key })).status, email).toBe(201);
    }
  });

  it('ignores unknown body fields, so a newer snippet never loses a conversion', async () => {
    const { key } = await seedPartner(c);
    const reply = await convert({ email: 'a@b.test', gr_id: 'x', pk: key, future_field: { nested: true } });
    expect(reply.status).toBe(201);
    expect(reply.body.data.attributes).not.toHaveProperty('future_field');
  });

  it('accepts null for the optional fields', async () => {
    const { key } = await seedPartner(c);
    const reply = await convert({ email: 'a@b.test', gr_id: 'x', pk: key, uid: null });
    expect(reply.status).toBe(201);
    expect(reply.body.data.attributes).not.toHaveProperty('uid');
  });

  describe('field errors, each with its pointer', () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['email missing', { gr_id: 'x' }, 'missing_field', '/email'],
      ['gr_id missing', { email: 'a@b.test' }, 'missing_field', '/gr_id'],
      ['email not a string', { email: 42, gr_id: 'x' }, 'invalid_field', '/email'],
      ['email null', { email: null, gr_id: 'x' }, 'invalid_field', '/email'],
      ['email without @', { email: 'ab.test', gr_id: 'x' }, 'invalid_email', '/email'],
      ['email with two @', { email: 'a@b@c.test', gr_id: 'x' }, 'invalid_email', '/email'],
      ['email with a space inside', { email: 'a b@c.test', gr_id: 'x' }, 'invalid_email', '/email'],
      ['email with a control character', { email: 'a\u0007b@c.test', gr_id: 'x' }, 'invalid_email', '/email'],
      ['email over 254 characters', { email: `${'a'.repeat(250)}@b.test`, gr_id: 'x' }, 'invalid_email', '/email'],
      ['email with an empty local part', { email: '@b.test', gr_id: 'x' }, 'invalid_email', '/email'],
      ['gr_id empty', { email: 'a@b.test', gr_id: '' }, 'invalid_field', '/gr_id'],
      ['gr_id over 128', { email: 'a@b.test', gr_id: 'g'.repeat(129) }, 'invalid_field', '/gr_id'],
      ['gr_id a number', { email: 'a@b.test', gr_id: 7 }, 'invalid_field', '/gr_id'],
      ['pk over 128', { email: 'a@b.test', gr_id: 'x', pk: 'p'.repeat(129) }, 'invalid_field', '/pk'],
      ['pk an object', { email: 'a@b.test', gr_id: 'x', pk: {} }, 'invalid_field', '/pk'],
      ['uid over 255', { email: 'a@b.test', gr_id: 'x', uid: 'u'.repeat(256) }, 'invalid_field', '/uid'],
      ['uid an array', { email: 'a@b.test', gr_id: 'x', uid: ['u'] }, 'invalid_field', '/uid'],
    ];
    it.each(cases)('%s', async (_name, body, code, pointer) => {
      const err = expectError(await convert(body), 422, code);
      expect(err.source).toEqual({ pointer });
    });

    it('reports every bad field at once', async () => {
      const reply = await convert({ email: 'nope', gr_id: '' });
      expect(reply.status).toBe(422);
      expect(reply.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual(['/email', '/gr_id']);
    });
  });

  describe('bodies that are not a JSON object', () => {
    const post = (raw: string, contentType: string | null = 'application/json') =>
      c.call('POST', '/v1/tracking/conversion', {
        token: c.publishable,
        raw,
        headers: contentType ? { 'content-type': contentType } : {},
      });

    it('malformed JSON gets 400 malformed_json', async () => {
      expectError(await post('{"email": "a@b.test",'), 400, 'malformed_json');
    });
    it('a JSON array, string or number at the top gets 400 malformed_json', async () => {
      for (const raw of ['[]', '"a@b.test"', '42', 'null']) expectError(await post(raw), 400, 'malformed_json');
    });
    it('an empty body gets 400 malformed_json', async () => {
      expectError(await post(''), 400, 'malformed_json');
    });
    it('another content type gets 415 unsupported_media_type', async () => {
      expectError(await post('email=a@b.test&gr_id=x', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
      expectError(await post('{"email":"a@b.test","gr_id":"x"}', 'text/plain'), 415, 'unsupported_media_type');
      expectError(await post('{"email":"a@b.test","gr_id":"x"}', null), 415, 'unsupported_media_type');
    });
    it('accepts application/json with a charset', async () => {
      const { key } = await seedPartner(c);
      const reply = await post(JSON.stringify({ email: 'a@b.test', gr_id: 'x', pk: key }), 'application/json; charset=utf-8');
      expect(reply.status).toBe(201);
    });
    it('a body over 16 KiB gets 413 payload_too_large, and one just under is read', async () => {
      const { key } = await seedPartner(c);
      const padded = (size: number) => {
        const base = JSON.stringify({ email: 'a@b.test', gr_id: 'x', pk: key, pad: '' });
        return base.replace('"pad":""', `"pad":"${'p'.repeat(size - base.length)}"`);
      };
      expect(padded(16 * 1024 + 1).length).toBe(16 * 1024 + 1);
      expectError(await post(padded(16 * 1024 + 1)), 413, 'payload_too_large');
      expect((await post(padded(16 * 1024))).status).toBe(201);
    });
  });
});
