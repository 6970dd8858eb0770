// Fraud review (docs/review.md), on both engines: each signal with a fixture that trips it
// and a near miss that does not; the attack an outside check found (a partner recording
// 200 conversions through the publishable token, then a Stripe payment by one of those
// people); and an owner's decisions with their effect on payouts, the portal, webhooks and
// the kept totals. Client addresses come from X-Forwarded-For (TRUST_PROXY=1).

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { integrityProblems } from './database.js';
import { expectError, seedPartner } from './harness.js';
import { type Json, type Program, programsKit } from './programs-kit.js';
import { invoice, newSecret, postEvent, stripeEvent, stripeId } from './stripe-fixtures.js';

const kit = programsKit({ limits: { perToken: 0, perIp: 0, authFailures: 0, trustProxy: 1 } });
const { ok } = kit;

const HOUR = 3600;
let n = 0;

/** A landing on the partner's link from `from`, as the snippet records it; resolves to its click id. */
async function click(p: Program, key: string, o: { from?: string; url?: string; grId?: string } = {}): Promise<string> {
  const grId = o.grId ?? `g-${++n}-${randomUUID().slice(0, 6)}`;
  const reply = await kit.c.call('POST', '/v1/tracking/click', {
    token: p.publishable,
    body: { gr_id: grId, pk: key, url: o.url ?? 'https://shop.test/' },
    headers: { 'x-forwarded-for': o.from ?? '198.51.100.1' },
  });
  expect(reply.status).toBe(202);
  return grId;
}

/** A conversion through the public tracker from `from`; resolves to the referral as the owner sees it. */
async function convert(p: Program, key: string, email: string, o: { grId?: string; from?: string } = {}): Promise<Json> {
  const grId = o.grId ?? (await click(p, key, { from: o.from }));
  const reply = await kit.c.call('POST', '/v1/tracking/conversion', {
    token: p.publishable,
    body: { email, gr_id: grId, pk: key },
    headers: { 'x-forwarded-for': o.from ?? '198.51.100.1', 'user-agent': 'Mozilla/5.0 (test)' },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  // The public answer tells nothing of review: a flood must not learn what it tripped.
  expect(reply.body.data.attributes.review).toBeUndefined();
  return (await ok(p, 'GET', `/v1/referrals/${reply.body.data.id}`)).data;
}

const signalsOf = (referral: Json): string[] => (referral.attributes.review_reasons ?? []).map((f: Json) => f.signal);

async function program(signals: Json = {}) {
  const p = await kit.c.otherProgram();
  if (Object.keys(signals).length > 0) await ok(p, 'PATCH', '/v1/program', { review_signals: signals });
  const partner = await seedPartner(kit.c, { token: p.secret, paypal_email: `pay-${randomUUID().slice(0, 8)}@partners.test` });
  return { ...p, partner };
}

describe('signals, each with a near miss', () => {
  it('no landing: a made-up click id is held; a conversion after a landing, or from the company’s server, is not', async () => {
    const p = await program();
    const made = await convert(p, p.partner.key, 'madeup@shop.test', { grId: `never-seen-${randomUUID()}` });
    expect(made.attributes.review).toBe('held');
    expect(signalsOf(made)).toEqual(['no_click']);
    expect(made.attributes.review_reasons[0].explain).toMatch(/never seen on a landing/);
    expect((await convert(p, p.partner.key, 'landed@shop.test')).attributes.review ?? null).toBeNull();
    const server = await ok(p, 'POST', '/v1/tracking/conversion', {
      email: 'server@shop.test',
      gr_id: 'from-our-server',
      pk: p.partner.key,
    });
    expect(server.data.attributes.review ?? null).toBeNull();
  });

  it('a household of four converting on one evening is not flagged; six people from one address in an hour are', async () => {
    const p = await program();
    for (const [i, who] of ['mum', 'dad', 'kid1', 'kid2'].entries()) {
      kit.c.clock.now += i === 0 ? 0 : 50 * 60;
      expect((await convert(p, p.partner.key, `${who}@home.test`, { from: '203.0.113.7' })).attributes.review ?? null).toBeNull();
    }
    const q = await program();
    const results: Json[] = [];
    for (let i = 1; i <= 6; i++) results.push(await convert(q, q.partner.key, `person${i}@office.test`, { from: '203.0.113.8' }));
    expect(results.slice(0, 5).map((r) => r.attributes.review ?? null)).toEqual([null, null, null, null, null]);
    expect(signalsOf(results[5]!)).toEqual(['address_burst']);
    // Another address is another story.
    expect((await convert(q, q.partner.key, 'elsewhere@office.test', { from: '203.0.113.9' })).attributes.review ?? null).toBeNull();
  });

  it('two people on one browser are not flagged; a third with the same click id is', async () => {
    const p = await program();
    const grId = await click(p, p.partner.key);
    expect((await convert(p, p.partner.key, 'one@couple.test', { grId })).attributes.review ?? null).toBeNull();
    expect((await convert(p, p.partner.key, 'two@couple.test', { grId })).attributes.review ?? null).toBeNull();
    expect(signalsOf(await convert(p, p.partner.key, 'three@couple.test', { grId }))).toEqual(['browser_burst']);
  });

  it("a customer whose address reaches another partner's of the program, in any spelling, is flagged; a near name is not", async () => {
    const p = await program();
    await seedPartner(kit.c, { token: p.secret, email: 'John.Smith@gmail.com', paypal_email: 'payouts@smith.test' });
    expect(signalsOf(await convert(p, p.partner.key, 'johnsmith+promo@GoogleMail.com'))).toEqual(['partner_address']);
    expect(signalsOf(await convert(p, p.partner.key, 'Payouts+x@smith.test'))).toEqual(['partner_address']);
    expect((await convert(p, p.partner.key, 'john.smith2@gmail.com')).attributes.review ?? null).toBeNull();
  });

  it("another program's partners and payout addresses hold nothing: an owner learns nothing of them by converting them", async () => {
    const elsewhere = await kit.c.otherProgram();
    const wallet = `wallet-${randomUUID().slice(0, 6)}@pay.test`;
    await seedPartner(kit.c, { token: elsewhere.secret, email: 'Jane.Doe@gmail.com', paypal_email: wallet });
    await seedPartner(kit.c, { token: elsewhere.secret, paypal_email: 'payouts@doe.test' });
    const p = await kit.c.otherProgram();
    // Its own partner paid to the other program's partner's wallet: not shared within this program.
    const mine = await seedPartner(kit.c, { token: p.secret, paypal_email: wallet });
    for (const email of ['janedoe@gmail.com', 'payouts@doe.test', 'buyer@shop.test']) {
      // The owner's own secret token, as the attack would send it.
      const sent = await ok(p, 'POST', '/v1/tracking/conversion', { email, gr_id: `probe-${randomUUID()}`, pk: mine.key });
      expect(sent.data.attributes.review ?? null, email).toBeNull();
    }
  });

  it('a disposable domain is flagged (from the maintained list); an ordinary one is not', async () => {
    const p = await program();
    expect(signalsOf(await convert(p, p.partner.key, 'someone@mailinator.com'))).toEqual(['disposable_email']);
    expect((await convert(p, p.partner.key, 'someone@shop.test')).attributes.review ?? null).toBeNull();
  });

  it('paid-ad click ids on the landing are flagged only where the program forbids paid ads', async () => {
    const allowed = await program();
    const adUrl = 'https://shop.test/?via=x&gclid=EAIaIQobChMI';
    const plain = await click(allowed, allowed.partner.key, { url: adUrl });
    expect((await convert(allowed, allowed.partner.key, 'ad1@shop.test', { grId: plain })).attributes.review ?? null).toBeNull();
    const forbids = await program({ paid_ads: true });
    expect((await ok(forbids, 'GET', '/v1/program')).data.attributes.review_signals).toMatchObject({ paid_ads: true, no_click: true });
    const ad = await click(forbids, forbids.partner.key, { url: `${adUrl}&fbclid=abc` });
    const flagged = await convert(forbids, forbids.partner.key, 'ad2@shop.test', { grId: ad });
    expect(signalsOf(flagged)).toEqual(['paid_ads']);
    expect(flagged.attributes.review_reasons[0].explain).toMatch(/gclid, fbclid/);
    const organic = await click(forbids, forbids.partner.key, { url: 'https://shop.test/?via=x' });
    expect((await convert(forbids, forbids.partner.key, 'organic@shop.test', { grId: organic })).attributes.review ?? null).toBeNull();
  });

  it("a payout address several partners share flags their conversions; a partner's own is fine", async () => {
    const p = await kit.c.otherProgram();
    const shared = `wallet-${randomUUID().slice(0, 6)}@pay.test`;
    const a = await seedPartner(kit.c, { token: p.secret, paypal_email: shared });
    await seedPartner(kit.c, { token: p.secret, paypal_email: shared });
    const solo = await seedPartner(kit.c, { token: p.secret, paypal_email: `solo-${randomUUID().slice(0, 6)}@pay.test` });
    expect(signalsOf(await convert(p, a.key, 'buyer-a@shop.test'))).toEqual(['shared_payout']);
    expect((await convert(p, solo.key, 'buyer-b@shop.test')).attributes.review ?? null).toBeNull();
  });

  it('where the program turns it on, a first payment within seconds of the landing is held; one minutes later is not', async () => {
    const p = await program({ quick_payment: true });
    const pay = async (email: string, after: number) => {
      const referral = await convert(p, p.partner.key, email);
      kit.c.clock.now += after;
      const paid = await ok(p, 'POST', '/v1/payments', {
        amount: 10_000,
        currency: 'USD',
        referral_id: referral.id,
        idempotency_key: randomUUID(),
      });
      return paid.included[0].attributes;
    };
    const quick = await pay('bot@shop.test', 3);
    expect(quick.review).toBe('held');
    expect(quick.review_reasons.map((f: Json) => f.signal)).toEqual(['quick_payment']);
    expect((await pay('human@shop.test', 180)).review ?? null).toBeNull();
  });

  it('where the program turns it on, an address that made 100 new clicks in the hour is held; 99 are not', async () => {
    const p = await program({ click_rate: true });
    const flood = async (from: string, clicks: number) => {
      let last = '';
      for (let i = 0; i < clicks; i++) last = await click(p, p.partner.key, { from });
      return convert(p, p.partner.key, `after-${clicks}@shop.test`, { grId: last, from });
    };
    expect(signalsOf(await flood('192.0.2.10', 100))).toEqual(['click_rate']);
    expect((await flood('192.0.2.11', 99)).attributes.review ?? null).toBeNull();
  });

  it("a partner whose payments are refunded far more often than the program's is held; one a little above is not", async () => {
    const p = await kit.c.otherProgram();
    /** `count` sales of a partner, the first `refunded` of them refunded in full; resolves to the partner's key. */
    const sales = async (count: number, refunded: number) => {
      const partner = await seedPartner(kit.c, { token: p.secret, paypal_email: `r-${randomUUID().slice(0, 8)}@pay.test` });
      for (let i = 0; i < count; i++) {
        // Each from an address of their own: many people, not one address's burst.
        const referral = await convert(p, partner.key, `r${i}-${randomUUID().slice(0, 6)}@shop.test`, { from: `10.1.${count}.${i}` });
        const key = randomUUID();
        await ok(p, 'POST', '/v1/payments', { amount: 1_000, currency: 'USD', referral_id: referral.id, idempotency_key: key });
        // payment_id is the payment's idempotency key.
        if (i < refunded) await ok(p, 'POST', '/v1/refunds', { payment_id: key });
      }
      return partner.key;
    };
    await sales(40, 0);
    const honest = await sales(10, 2);
    const returns = await sales(10, 5);
    const next = async (key: string) => {
      const referral = await convert(p, key, `next-${randomUUID().slice(0, 6)}@shop.test`, { from: `10.2.0.${++n % 250}` });
      return (
        await ok(p, 'POST', '/v1/payments', { amount: 1_000, currency: 'USD', referral_id: referral.id, idempotency_key: randomUUID() })
      ).included[0].attributes;
    };
    const held = await next(returns);
    expect(held.review_reasons.map((f: Json) => f.signal)).toEqual(['refund_rate']);
    expect(held.review_reasons[0].explain).toMatch(/50 % of the partner's latest 10 payments/);
    expect((await next(honest)).review ?? null).toBeNull();
  });

  it('a signal the program turned off holds nothing', async () => {
    const p = await program({ disposable_email: false });
    expect((await convert(p, p.partner.key, 'someone@mailinator.com')).attributes.review ?? null).toBeNull();
  });
});

/** Connects the program to Stripe; resolves to a sender of signed events. */
async function stripe(p: Program) {
  const secret = newSecret();
  const added = await ok(p, 'POST', '/v1/integrations/stripe/secrets', { secret });
  const url = kit.c.url + new URL(added.meta.endpoint_url).pathname;
  return async (type: string, object: Json) => {
    const reply = await postEvent(url, stripeEvent(type, object, { created: kit.c.clock.now }), secret, { timestamp: kit.c.clock.now });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data.attributes;
  };
}

describe('the attack: 200 conversions through the publishable token, then a Stripe payment by one of them', () => {
  it('no payable commission comes of it, and the owner sees why', async () => {
    const p = await program();
    const send = await stripe(p);
    for (let i = 0; i < 200; i++) {
      const reply = await kit.c.call('POST', '/v1/tracking/conversion', {
        token: p.publishable,
        body: { email: `victim${i}@people.test`, gr_id: `fake-${i}-${randomUUID()}`, pk: p.partner.key },
        headers: { 'x-forwarded-for': '192.0.2.66' },
      });
      expect(reply.status).toBe(201);
    }
    const held = (await ok(p, 'GET', '/v1/referrals?review_eq=held&per_page=50')).data;
    expect(held).toHaveLength(50);
    expect((await ok(p, 'GET', '/v1/referrals?review_eq=held&per_page=50&page=4')).data).toHaveLength(50);
    expect(signalsOf(held[0]!)).toEqual(['no_click', 'address_burst']);
    // One of those people later pays through Stripe, never having seen the partner's link.
    const outcome = await send('invoice.paid', invoice({ customer: stripeId('cus'), amountPaid: 50_000, email: 'victim7@people.test' }));
    expect(outcome.outcome).toBe('credited');
    const [commission] = (await ok(p, 'GET', '/v1/commissions')).data;
    expect(commission.attributes).toMatchObject({ state: 'pending', review: 'held' });
    // The referral's own reasons, and the e-mail match's.
    expect(commission.attributes.review_reasons.map((f: Json) => f.signal)).toEqual(['no_click', 'address_burst', 'email_match']);
    const batches = await ok(p, 'POST', '/v1/payout_batches', {});
    expect(batches.data).toEqual([]);
    // The owner's webhooks heard of each held referral (its commission was held as its referral was).
    const heldEvents = (await ok(p, 'GET', '/v1/events?type_eq=review.held&per_page=1')).data;
    expect(heldEvents[0].attributes.data).toMatchObject({ type: 'referral', attributes: { review: 'held' } });
    const evidence = (await ok(p, 'GET', `/v1/referrals/${commission.attributes.referral_id}/evidence`)).data.attributes;
    expect(evidence).toMatchObject({ click: null, seconds_from_click: null, same_address_referrals: 199, email: 'victim7@people.test' });
    expect(evidence.address_tag).toMatch(/^[0-9a-f]{8}$/);
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
  });

  it("Stripe's e-mail match of a referral without a landing holds its commission; one a landing made pays", async () => {
    const p = await program();
    const send = await stripe(p);
    // The company's server recorded this one, with no landing before it: not judged as a visitor, but no landing either.
    await ok(p, 'POST', '/v1/tracking/conversion', { email: 'no-landing@shop.test', gr_id: 'server-side', pk: p.partner.key });
    await convert(p, p.partner.key, 'landed@shop.test');
    // A person pays later than a script would (the quick-payment signal).
    kit.c.clock.now += HOUR;
    await send('invoice.paid', invoice({ customer: stripeId('cus'), amountPaid: 10_000, email: 'no-landing@shop.test' }));
    await send('invoice.paid', invoice({ customer: stripeId('cus'), amountPaid: 10_000, email: 'landed@shop.test' }));
    const byEmail = new Map<string, Json>();
    for (const c of (await ok(p, 'GET', '/v1/commissions')).data) {
      const r = (await ok(p, 'GET', `/v1/referrals/${c.attributes.referral_id}`)).data;
      byEmail.set(r.attributes.email, c.attributes);
    }
    expect(byEmail.get('no-landing@shop.test')).toMatchObject({ review: 'held' });
    expect(byEmail.get('no-landing@shop.test')!.review_reasons[0].explain).toMatch(/e-mail alone/);
    expect(byEmail.get('landed@shop.test')!.review ?? null).toBeNull();
    // Held by its own signal: the webhooks hear of the commission.
    const held = (await ok(p, 'GET', '/v1/events?type_eq=review.held')).data.map((e: Json) => e.attributes.data.type);
    expect(held).toEqual(['commission']);
  });
});

describe("an owner's decisions", () => {
  /**
   * A held referral (a disposable address) whose payment earned a held commission; or, with
   * `own`, a referral not held whose commission its own signal held (a program's quick payment).
   */
  async function heldSale(p: Program & { partner: { key: string } }, email: string, own = false) {
    const referral = await convert(p, p.partner.key, email);
    expect(referral.attributes.review ?? null).toBe(own ? null : 'held');
    const paid = await ok(p, 'POST', '/v1/payments', {
      amount: 10_000,
      currency: 'USD',
      referral_id: referral.id,
      idempotency_key: randomUUID(),
    });
    expect(paid.included[0].attributes.review).toBe('held');
    return { referral, commissionId: paid.included[0].id as string };
  }

  it('approve: the held money becomes payable and the next payout takes it; recorded with who and when', async () => {
    const p = await program();
    const sale = await heldSale(p, 'approve.me@mailinator.com');
    expect((await ok(p, 'POST', '/v1/payout_batches', {})).data).toEqual([]);
    // Nor is it marked paid by hand while held.
    expectError(await kit.api(p, 'PATCH', `/v1/commissions/${sale.commissionId}`, { state: 'paid' }), 409, 'invalid_transition');
    const decided = await ok(p, 'POST', '/v1/review_decisions', {
      referral_id: sale.referral.id,
      decision: 'approve',
      reason: 'a real customer: we spoke',
    });
    expect(decided.data.attributes).toMatchObject({ decision: 'approve', decided_by: 'a secret token', partner_id: p.partner.partnerId });
    expect((await ok(p, 'GET', `/v1/commissions/${sale.commissionId}`)).data.attributes.review).toBe('approved');
    expect((await ok(p, 'GET', `/v1/referrals/${sale.referral.id}`)).data.attributes.review).toBe('approved');
    const batches = await ok(p, 'POST', '/v1/payout_batches', {});
    expect(batches.data).toHaveLength(1);
    expect((await ok(p, 'GET', '/v1/events?type_eq=review.decided')).data).toHaveLength(1);
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
    // Decided once: a second decision is refused.
    expectError(
      await kit.api(p, 'POST', '/v1/review_decisions', { referral_id: sale.referral.id, decision: 'reject', reason: 'again' }),
      409,
      'invalid_transition',
    );
  });

  it('reject: the held commission is rejected with the reason, and the kept totals equal a recount', async () => {
    const p = await program();
    const sale = await heldSale(p, 'reject.me@mailinator.com');
    await ok(p, 'POST', '/v1/review_decisions', { referral_id: sale.referral.id, decision: 'reject', reason: 'a throwaway address' });
    const commission = (await ok(p, 'GET', `/v1/commissions/${sale.commissionId}`)).data.attributes;
    expect(commission).toMatchObject({ state: 'rejected', reject_reason: 'a throwaway address', review: 'rejected' });
    expect((await ok(p, 'GET', `/v1/referrals/${sale.referral.id}`)).data.attributes).toMatchObject({
      state: 'rejected',
      review: 'rejected',
    });
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
  });

  it('ban: every pending commission of the partner rejected, the partnership declined, the link credits nothing more', async () => {
    const p = await program();
    const clean = await convert(p, p.partner.key, 'clean@shop.test');
    const paid = await ok(p, 'POST', '/v1/payments', {
      amount: 5_000,
      currency: 'USD',
      referral_id: clean.id,
      idempotency_key: randomUUID(),
    });
    const sale = await heldSale(p, 'ban.me@mailinator.com');
    await ok(p, 'POST', '/v1/review_decisions', { referral_id: sale.referral.id, decision: 'ban', reason: 'fake sign-ups' });
    const states = (await ok(p, 'GET', '/v1/commissions')).data.map((c: Json) => [c.id, c.attributes.state, c.attributes.reject_reason]);
    expect(states).toEqual(
      expect.arrayContaining([
        [paid.included[0].id, 'rejected', 'banned: fake sign-ups'],
        [sale.commissionId, 'rejected', 'banned: fake sign-ups'],
      ]),
    );
    expect((await ok(p, 'GET', `/v1/partnerships/${p.partner.partnershipId}`)).data.attributes.state).toBe('declined');
    const after = await kit.c.call('POST', '/v1/tracking/conversion', {
      token: p.publishable,
      body: { email: 'later@shop.test', gr_id: `after-ban-${randomUUID()}`, pk: p.partner.key },
    });
    expect(after.status).toBeGreaterThanOrEqual(400);
    expect((await ok(p, 'GET', '/v1/review_decisions')).data.map((d: Json) => d.attributes.decision)).toEqual(['ban']);
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
  });

  it('20 parallel approvals and rejections of one held referral: one decides, the others are refused, no rejected money payable', async () => {
    const p = await program();
    const sale = await heldSale(p, 'race.me@mailinator.com');
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        kit.api(p, 'POST', '/v1/review_decisions', {
          referral_id: sale.referral.id,
          decision: i % 2 === 0 ? 'approve' : 'reject',
          reason: `decision ${i}`,
        }),
      ),
    );
    const won = replies.filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== 201)) expectError(r, 409, 'invalid_transition');
    const approved = won[0]!.body.data.attributes.decision === 'approve';
    const referral = (await ok(p, 'GET', `/v1/referrals/${sale.referral.id}`)).data.attributes;
    const commission = (await ok(p, 'GET', `/v1/commissions/${sale.commissionId}`)).data.attributes;
    expect(referral.review).toBe(approved ? 'approved' : 'rejected');
    expect(commission).toMatchObject(approved ? { state: 'pending', review: 'approved' } : { state: 'rejected', review: 'rejected' });
    expect((await ok(p, 'POST', '/v1/payout_batches', {})).data).toHaveLength(approved ? 1 : 0);
    expect((await ok(p, 'GET', '/v1/review_decisions')).data).toHaveLength(1);
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
  });

  it('20 parallel approvals and rejections of one commission held by its own signal: one decides', async () => {
    const p = await program({ quick_payment: true });
    const id = (await heldSale(p, 'quick.race@shop.test', true)).commissionId;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        kit.api(p, 'POST', '/v1/review_decisions', { commission_id: id, decision: i % 2 ? 'approve' : 'reject', reason: `no. ${i}` }),
      ),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== 201)) expectError(r, 409, 'invalid_transition');
    const after = (await ok(p, 'GET', `/v1/commissions/${id}`)).data.attributes;
    expect([after.state, after.review]).toEqual(after.review === 'approved' ? ['pending', 'approved'] : ['rejected', 'rejected']);
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
  });

  it('a ban racing 19 payments of its partner: every commission made is rejected, none is left payable, the partnership declined', async () => {
    const p = await program();
    const sale = await heldSale(p, 'ban.race@mailinator.com');
    // The payments are another customer's of the same partner: nothing held, so only the ban stops them.
    const other = await convert(p, p.partner.key, 'ban.race.other@home.test');
    expect(other.attributes.review ?? null).toBeNull();
    const pay = () =>
      kit.api(p, 'POST', '/v1/payments', { amount: 1_000, currency: 'USD', referral_id: other.id, idempotency_key: randomUUID() });
    const ban = () => kit.api(p, 'POST', '/v1/review_decisions', { referral_id: sale.referral.id, decision: 'ban', reason: 'a ring' });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => (i === 10 ? ban() : pay())));
    expect(replies[10]!.status).toBe(201);
    // A payment before the ban made a commission the ban rejected; one after it was refused.
    for (const r of replies.filter((_, i) => i !== 10)) if (r.status !== 201) expectError(r, 422, 'partnership_declined');
    const states = (await ok(p, 'GET', '/v1/commissions?per_page=50')).data.map((c: Json) => c.attributes.state);
    expect(states.length).toBeGreaterThan(0);
    expect(states.filter((s: string) => s !== 'rejected')).toEqual([]);
    expect((await ok(p, 'GET', `/v1/partnerships/${p.partner.partnershipId}`)).data.attributes.state).toBe('declined');
    expect((await ok(p, 'POST', '/v1/payout_batches', {})).data).toEqual([]);
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
  });

  it('a commission held by its own signal (a quick payment) is decided from the queue: approved, it is payable; rejected, not', async () => {
    const p = await program({ quick_payment: true });
    const held = async (email: string) => {
      const sale = await heldSale(p, email, true);
      return { referralId: sale.referral.id as string, id: sale.commissionId };
    };
    const a = await held('quick.a@shop.test');
    const b = await held('quick.b@shop.test');
    // The queue lists both.
    const queue = (await ok(p, 'GET', '/v1/commissions?review_eq=held')).data.map((c: Json) => c.id);
    expect(queue.sort()).toEqual([a.id, b.id].sort());
    // Its referral is not held: deciding the referral is refused, naming the commission is not.
    expectError(
      await kit.api(p, 'POST', '/v1/review_decisions', { referral_id: a.referralId, decision: 'approve', reason: 'x' }),
      409,
      'invalid_transition',
    );
    expectError(await kit.api(p, 'POST', '/v1/review_decisions', { decision: 'approve', reason: 'x' }), 422, 'missing_field');
    const both = { referral_id: a.referralId, commission_id: a.id, decision: 'approve', reason: 'x' };
    expectError(await kit.api(p, 'POST', '/v1/review_decisions', both), 422, 'invalid_field');
    const approved = await ok(p, 'POST', '/v1/review_decisions', { commission_id: a.id, decision: 'approve', reason: 'a real buyer' });
    expect(approved.data.attributes).toMatchObject({ commission_id: a.id, referral_id: a.referralId, decision: 'approve' });
    await ok(p, 'POST', '/v1/review_decisions', { commission_id: b.id, decision: 'reject', reason: 'a script' });
    expect((await ok(p, 'GET', `/v1/commissions/${a.id}`)).data.attributes).toMatchObject({ state: 'pending', review: 'approved' });
    expect((await ok(p, 'GET', `/v1/commissions/${b.id}`)).data.attributes).toMatchObject({
      state: 'rejected',
      review: 'rejected',
      reject_reason: 'a script',
    });
    // Its referral stays as it was.
    expect((await ok(p, 'GET', `/v1/referrals/${b.referralId}`)).data.attributes.state).toBe('paid');
    const updated = (await ok(p, 'GET', '/v1/events?type_eq=commission.updated')).data.map((e: Json) => e.attributes.data);
    expect(updated.map((c: Json) => [c.id, c.attributes.review])).toEqual(
      expect.arrayContaining([
        [a.id, 'approved'],
        [b.id, 'rejected'],
      ]),
    );
    expect((await ok(p, 'GET', '/v1/events?type_eq=review.decided')).data).toHaveLength(2);
    const batch = (await ok(p, 'POST', '/v1/payout_batches', {})).data;
    expect(batch).toHaveLength(1);
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
  });

  it('the portal says "under review" without the evidence', async () => {
    const p = await program();
    await heldSale(p, 'portal.view@mailinator.com');
    const invited = await kit.c.call('POST', `/v1/partners/${p.partner.partnerId}/invitation`, { token: p.secret });
    const token = String(invited.body.meta.link).split('#')[1];
    const redeemed = await kit.c.call('POST', '/v1/portal/auth/redeem', {
      token: null,
      body: { token, password: 'a long partner password' },
    });
    const cookie = redeemed.headers.get('set-cookie')!.split(';')[0]!;
    const mine = await kit.c.call('GET', `/v1/portal/partnerships/${p.partner.partnershipId}/commissions`, {
      token: null,
      headers: { cookie, origin: kit.c.url },
    });
    expect(mine.body.data[0].attributes.under_review).toBe(true);
    expect(JSON.stringify(mine.body)).not.toMatch(/disposable|review_reasons|mailinator/);
  });
});
