// Promotion codes (docs/codes.md) through the API: a code credits its partner's sale where
// no link did, a referred customer using another partner's code under both program
// settings, disabled codes, declined partnerships, a partner's own code, and codes that
// differ only in case. One collector for the file, a program per test.

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { integrityProblems } from './database.js';
import { expectError, seedPartner } from './harness.js';
import { partnerPortal } from './session.js';
import { type Json, type Program, programsKit } from './programs-kit.js';
import { checkoutSession, invoice, newSecret, postEvent, stripeEvent, stripeId } from './stripe-fixtures.js';

const kit = programsKit();
const { api, ok } = kit;

/** A program with two accepted partners, Maya (code MAYA) and Leo (linked customers). */
async function program() {
  const p = await kit.c.otherProgram();
  const maya = await seedPartner(kit.c, { token: p.secret, email: `maya-${p.id}@partners.test` });
  const leo = await seedPartner(kit.c, { token: p.secret });
  const code = (await ok(p, 'POST', '/v1/discount_codes', { partnership_id: maya.partnershipId, code: 'MAYA' })).data;
  return { ...p, maya, leo, code };
}

const pay = (p: Program, email: string, more: Json = {}) =>
  api(p, 'POST', '/v1/payments', { amount: 10_000, currency: 'USD', idempotency_key: randomUUID(), referral_email: email, ...more });

const commissionPartner = (reply: { body: Json }) => reply.body.included[0].attributes.partner_id;

describe('a code credits its partner', () => {
  it("a sale with only a code (no link, no click) makes the customer the code's partner's referral, and pays them", async () => {
    const p = await program();
    const reply = await pay(p, 'podcast-listener@buyers.test', { discount_code: 'maya' });
    expect(reply.status).toBe(201);
    expect(commissionPartner(reply)).toBe(p.maya.partnerId);
    const [referral] = (await ok(p, 'GET', '/v1/referrals?email_eq=podcast-listener@buyers.test')).data;
    expect(referral.relationships.partnership.data.id).toBe(p.maya.partnershipId);
    // The next payment needs no code: the customer is Maya's.
    expect(commissionPartner(await pay(p, 'podcast-listener@buyers.test'))).toBe(p.maya.partnerId);
    const used = (await ok(p, 'GET', '/v1/events?type_eq=discount_code.used')).data;
    expect(used).toHaveLength(1);
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
  });

  it("a conversion with a code and no link credits the code's partner; a link still wins over a code", async () => {
    const p = await program();
    const byCode = await kit.c.call('POST', '/v1/tracking/conversion', {
      token: p.publishable,
      body: { email: 'coded@buyers.test', gr_id: randomUUID(), discount_code: 'Maya' },
    });
    expect(byCode.status).toBe(201);
    expect(byCode.body.data.relationships.partnership.data.id).toBe(p.maya.partnershipId);
    const byLink = await kit.c.call('POST', '/v1/tracking/conversion', {
      token: p.publishable,
      body: { email: 'linked@buyers.test', gr_id: randomUUID(), pk: p.leo.key, discount_code: 'MAYA' },
    });
    expect(byLink.body.data.relationships.partnership.data.id).toBe(p.leo.partnershipId);
  });
});

describe("a referred customer using another partner's code", () => {
  async function referredByLeo(p: Awaited<ReturnType<typeof program>>, email: string) {
    const made = await kit.c.call('POST', '/v1/tracking/conversion', {
      token: p.publishable,
      body: { email, gr_id: randomUUID(), pk: p.leo.key },
    });
    expect(made.status).toBe(201);
  }

  it('by default the referral stands: Leo is paid', async () => {
    const p = await program();
    await referredByLeo(p, 'loyal@buyers.test');
    expect(commissionPartner(await pay(p, 'loyal@buyers.test', { discount_code: 'MAYA' }))).toBe(p.leo.partnerId);
  });

  it('when the program lets the code win, Maya is paid for that payment; the totals still equal a recount', async () => {
    const p = await program();
    await ok(p, 'PATCH', '/v1/program', { code_wins: true });
    await referredByLeo(p, 'switched@buyers.test');
    expect(commissionPartner(await pay(p, 'switched@buyers.test', { discount_code: 'MAYA' }))).toBe(p.maya.partnerId);
    expect(commissionPartner(await pay(p, 'switched@buyers.test'))).toBe(p.leo.partnerId);
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
  });
});

describe('codes that credit nothing', () => {
  it('a disabled code, or one of a declined partnership, credits nothing: a code-only sale has no referral', async () => {
    const p = await program();
    await ok(p, 'PATCH', `/v1/discount_codes/${p.code.id}`, { enabled: false });
    expectError(await pay(p, 'late@buyers.test', { discount_code: 'MAYA' }), 422, 'unknown_referral');
    expect((await ok(p, 'GET', '/v1/events?type_eq=discount_code.disabled')).data).toHaveLength(1);
    await ok(p, 'PATCH', `/v1/discount_codes/${p.code.id}`, { enabled: true });
    await ok(p, 'PATCH', `/v1/partnerships/${p.maya.partnershipId}`, { state: 'declined' });
    expectError(await pay(p, 'late@buyers.test', { discount_code: 'MAYA' }), 422, 'unknown_referral');
  });

  it("a partner's own code is refused as a self-referral, under both settings", async () => {
    const p = await program();
    const own = `maya-${p.id}@partners.test`;
    expectError(await pay(p, own, { discount_code: 'MAYA' }), 422, 'self_referral');
    await kit.c.call('POST', '/v1/tracking/conversion', { token: p.publishable, body: { email: own, gr_id: randomUUID(), pk: p.leo.key } });
    await ok(p, 'PATCH', '/v1/program', { code_wins: true });
    expectError(await pay(p, own, { discount_code: 'MAYA' }), 422, 'self_referral');
  });

  it("another program's code is unknown here", async () => {
    const p = await program();
    const other = await program();
    await ok(other, 'POST', '/v1/discount_codes', { partnership_id: other.leo.partnershipId, code: 'ONLY-THEIRS' });
    expectError(await pay(p, 'stranger@buyers.test', { discount_code: 'ONLY-THEIRS' }), 422, 'unknown_referral');
    expectError(await api(p, 'GET', `/v1/discount_codes/${other.code.id}`), 404, 'not_found');
  });
});

describe('making codes', () => {
  it('a code is unique in its program whatever its case, and in the allowed characters', async () => {
    const p = await program();
    const taken = expectError(
      await api(p, 'POST', '/v1/discount_codes', { partnership_id: p.leo.partnershipId, code: 'maya' }),
      409,
      'conflict',
    );
    expect(taken.detail).toMatch(/: choose another$/);
    expectError(await api(p, 'POST', '/v1/discount_codes', { partnership_id: p.leo.partnershipId, code: 'LÉO' }), 422, 'invalid_field');
    expectError(await api(p, 'POST', '/v1/discount_codes', { partnership_id: p.leo.partnershipId, code: 'a b' }), 422, 'invalid_field');
    const other = await program();
    // The same code in another program is another code.
    expect((await api(other, 'POST', '/v1/discount_codes', { partnership_id: other.leo.partnershipId, code: 'LEO20' })).status).toBe(201);
    expect((await api(p, 'POST', '/v1/discount_codes', { partnership_id: p.leo.partnershipId, code: 'leo20' })).status).toBe(201);
    const listed = (await ok(p, 'GET', '/v1/discount_codes?code_eq=LEO20')).data;
    expect(listed.map((x: Json) => x.attributes.code)).toEqual(['leo20']);
  });

  it('a discount belongs to a group or to the program, and a code may name it', async () => {
    const p = await program();
    const discount = (
      await ok(p, 'POST', '/v1/discounts', {
        name: '20 % for 3 months',
        kind: 'percent',
        amount: 2000,
        duration: { kind: 'months', months: 3 },
      })
    ).data;
    expect(discount.attributes).toMatchObject({ group_id: null, kind: 'percent', amount: 2000, duration: { kind: 'months', months: 3 } });
    expectError(
      await api(p, 'POST', '/v1/discounts', { name: 'x', kind: 'amount', amount: 500, duration: { kind: 'once' } }),
      422,
      'missing_field',
    );
    expectError(
      await api(p, 'POST', '/v1/discounts', { name: 'x', kind: 'percent', amount: 20_000, duration: { kind: 'once' } }),
      422,
      'invalid_field',
    );
    const code = (
      await ok(p, 'POST', '/v1/discount_codes', { partnership_id: p.leo.partnershipId, code: 'LEO-20', discount_id: discount.id })
    ).data;
    expect(code.attributes).toMatchObject({ code: 'LEO-20', discount_id: discount.id, enabled: true, created_by: 'owner' });
    expect((await ok(p, 'GET', '/v1/events?type_eq=discount_code.created')).data).toHaveLength(2);
  });
});

describe("the discount a partner's link brings", () => {
  const clickAnswer = async (p: Program, key: string) => {
    const reply = await kit.c.call('POST', '/v1/tracking/click', {
      token: p.publishable,
      body: { gr_id: `gr-${Math.random()}`, pk: key, url: 'https://shop.test/' },
    });
    expect(reply.status).toBe(202);
    return reply.body.data.discount;
  };

  it("a click's answer names it: the partner's group's, else the program's, else none; a change shows at once", async () => {
    const p = await program();
    expect(await clickAnswer(p, p.maya.key)).toBeNull();
    await ok(p, 'POST', '/v1/discounts', { name: 'Everyone', kind: 'percent', amount: 1000, duration: { kind: 'once' } });
    expect(await clickAnswer(p, p.maya.key)).toEqual({
      name: 'Everyone',
      kind: 'percent',
      amount: 1000,
      currency: null,
      duration: { kind: 'once' },
    });
    const vip = (await ok(p, 'POST', '/v1/groups', { name: 'VIP' })).data;
    await ok(p, 'PATCH', `/v1/partnerships/${p.maya.partnershipId}`, { group_id: vip.id });
    await ok(p, 'POST', '/v1/discounts', {
      name: 'VIP',
      kind: 'amount',
      amount: 500,
      currency: 'EUR',
      group_id: vip.id,
      duration: { kind: 'months', months: 3 },
    });
    expect(await clickAnswer(p, p.maya.key)).toMatchObject({
      name: 'VIP',
      amount: 500,
      currency: 'EUR',
      duration: { kind: 'months', months: 3 },
    });
    expect((await clickAnswer(p, p.leo.key)).name).toBe('Everyone');
  });
});

describe('codes made on acceptance and by partners', () => {
  /** A portal session of the partner, through their invitation. */
  const portalCookie = async (p: Program, partnerId: string): Promise<string> => (await partnerPortal(kit.c, p.secret, partnerId)).cookie;

  it('a partnership gets a code when it is accepted, once, with the prefix', async () => {
    const p = await program();
    await ok(p, 'PATCH', '/v1/program', { auto_codes: true, code_prefix: 'acme-' });
    const zoe = await seedPartner(kit.c, { token: p.secret, name: 'Zoe', state: 'pending' });
    const codesOf = async (id: string) =>
      (await ok(p, 'GET', `/v1/discount_codes?partnership_id_eq=${id}`)).data.map((x: Json) => [
        x.attributes.code,
        x.attributes.created_by,
      ]);
    expect(await codesOf(zoe.partnershipId)).toEqual([]);
    await ok(p, 'PATCH', `/v1/partnerships/${zoe.partnershipId}`, { state: 'accepted' });
    expect(await codesOf(zoe.partnershipId)).toEqual([[`ACME-${zoe.key.toUpperCase()}`, 'auto']]);
    await ok(p, 'PATCH', `/v1/partnerships/${zoe.partnershipId}`, { state: 'declined' });
    await ok(p, 'PATCH', `/v1/partnerships/${zoe.partnershipId}`, { state: 'accepted' });
    expect(await codesOf(zoe.partnershipId)).toHaveLength(1);
    // A partnership made accepted gets one at once.
    const ann = await seedPartner(kit.c, { token: p.secret, name: 'Ann' });
    expect(await codesOf(ann.partnershipId)).toEqual([[`ACME-${ann.key.toUpperCase()}`, 'auto']]);
  });

  it('a partner makes their own code in the portal, only as the program allows', async () => {
    const p = await program();
    const cookie = await portalCookie(p, p.maya.partnerId);
    const portal = (method: string, path: string, body?: unknown) =>
      kit.c.call(method, `/v1/portal/partnerships/${p.maya.partnershipId}${path}`, {
        token: null,
        headers: { cookie, origin: kit.c.url },
        body,
      });
    expectError(await portal('POST', '/codes', { code: 'MAYA20' }), 403, 'forbidden');
    await ok(p, 'PATCH', '/v1/program', { partner_codes: true, code_prefix: 'MAYA', code_max_length: 8 });
    expectError(await portal('POST', '/codes', { code: 'SAVE20' }), 422, 'invalid_field');
    expectError(await portal('POST', '/codes', { code: 'MAYA-SPRING' }), 422, 'invalid_field');
    expect((await portal('POST', '/codes', { code: 'maya20' })).status).toBe(201);
    expect((await portal('GET', '/codes')).body.data.map((x: Json) => [x.attributes.code, x.attributes.created_by])).toEqual([
      ['maya20', 'partner'],
      ['MAYA', 'owner'],
    ]);
    // Another partner's partnership is not theirs to make codes for.
    expectError(
      await kit.c.call('POST', `/v1/portal/partnerships/${p.leo.partnershipId}/codes`, {
        token: null,
        headers: { cookie, origin: kit.c.url },
        body: { code: 'MAYA9' },
      }),
      404,
      'not_found',
    );
  });

  it('twenty parallel requests for own codes make five, the cap, on either engine', async () => {
    const p = await program();
    const cookie = await portalCookie(p, p.maya.partnerId);
    await ok(p, 'PATCH', '/v1/program', { partner_codes: true, code_prefix: '' });
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        kit.c.call('POST', `/v1/portal/partnerships/${p.maya.partnershipId}/codes`, {
          token: null,
          headers: { cookie, origin: kit.c.url },
          body: { code: `RACE${i}` },
        }),
      ),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(5);
    for (const refused of replies.filter((r) => r.status !== 201)) expectError(refused, 409, 'conflict');
    const own = (await ok(p, 'GET', `/v1/discount_codes?partnership_id_eq=${p.maya.partnershipId}`)).data.filter(
      (x: Json) => x.attributes.created_by === 'partner',
    );
    expect(own).toHaveLength(5);
  });
});

describe("through Stripe's promotion codes", () => {
  /** The program connected to Stripe, and Maya's code linked to its promotion code in Stripe. */
  async function withStripe() {
    const p = await program();
    const secret = newSecret();
    const added = await ok(p, 'POST', '/v1/integrations/stripe/secrets', { secret });
    const url = kit.c.url + new URL(added.meta.endpoint_url).pathname;
    const promo = `promo_${randomUUID().replace(/-/g, '').slice(0, 14)}`;
    await ok(p, 'PATCH', `/v1/discount_codes/${p.code.id}`, { stripe_promotion_code_id: promo });
    const send = async (type: string, object: Json) => {
      const reply = await postEvent(url, stripeEvent(type, object, { created: kit.c.clock.now }), secret, { timestamp: kit.c.clock.now });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body;
    };
    return { ...p, promo, send };
  }
  const paidTo = async (p: Program) =>
    (await ok(p, 'GET', '/v1/commissions')).data.map((x: Json) => [x.attributes.partner_id, x.attributes.amount]);

  it("a Checkout with a partner's promotion code and no referral credits the partner", async () => {
    const p = await withStripe();
    await p.send('checkout.session.completed', checkoutSession({ amount: 5000, email: 'viewer@buyers.test', promotionCodes: [p.promo] }));
    expect(await paidTo(p)).toEqual([[p.maya.partnerId, 1000]]);
    expect((await ok(p, 'GET', '/v1/events?type_eq=discount_code.used')).data).toHaveLength(1);
  });

  it('invoices name it in both shapes Stripe uses: the expanded discounts, and the one discount of older versions', async () => {
    const p = await withStripe();
    for (const [email, discountShape] of [
      ['new@buyers.test', 'expanded'],
      ['old@buyers.test', 'legacy'],
    ] as const) {
      await p.send(
        'invoice.paid',
        invoice({ customer: stripeId('cus'), email, amountPaid: 2000, promotionCodes: [p.promo], discountShape }),
      );
    }
    expect(await paidTo(p)).toEqual([
      [p.maya.partnerId, 400],
      [p.maya.partnerId, 400],
    ]);
  });

  it('a first invoice the code made free earns nothing, and the paid renewal without the code pays the partner', async () => {
    const p = await withStripe();
    const customer = stripeId('cus');
    const subscription = stripeId('sub');
    const free = await p.send(
      'invoice.paid',
      invoice({ customer, email: 'trial@buyers.test', amountPaid: 0, subscription, promotionCodes: [p.promo] }),
    );
    expect(free.data.attributes.outcome).toBe('linked');
    expect(await paidTo(p)).toEqual([]);
    await p.send('invoice.paid', invoice({ customer, email: 'trial@buyers.test', amountPaid: 3000, subscription }));
    expect(await paidTo(p)).toEqual([[p.maya.partnerId, 600]]);
  });

  it("a referred customer's invoice with another partner's code pays the referral's partner, or the code's where it wins", async () => {
    const p = await withStripe();
    for (const wins of [false, true]) {
      await ok(p, 'PATCH', '/v1/program', { code_wins: wins });
      const email = `referred-${wins}@buyers.test`;
      await kit.c.call('POST', '/v1/tracking/conversion', { token: p.publishable, body: { email, gr_id: randomUUID(), pk: p.leo.key } });
      await p.send('invoice.paid', invoice({ customer: stripeId('cus'), email, amountPaid: 1000, promotionCodes: [p.promo] }));
    }
    expect(await paidTo(p)).toEqual(
      expect.arrayContaining([
        [p.leo.partnerId, 200],
        [p.maya.partnerId, 200],
      ]),
    );
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
  });
});
