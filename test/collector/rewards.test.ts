// Partner groups and their rewards (docs/rewards.md) through the API and Stripe's signed
// events: the program's rate as its default group's reward, a lead and a sale on one
// customer, a rate for one product, "50 % for 12 months, then 20 %", a promotion to VIP
// after the fifth paying customer, refunds and clawbacks, and the partnership's own terms.
// One collector for the file, a program per test.

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addMonths } from '../../packages/collector/src/core/payout-terms.js';
import { integrityProblems } from './database.js';
import { expectError, seedPartner } from './harness.js';
import { type Json, leadReward, type Program, programsKit } from './programs-kit.js';
import { invoice, newSecret, postEvent, stripeEvent, stripeId } from './stripe-fixtures.js';

const DAY = 86_400;

const kit = programsKit();
const { api, ok } = kit;

/** A program of its own, with one accepted partner. */
async function program(): Promise<Program & { partner: { partnerId: string; partnershipId: string; key: string } }> {
  const p = await kit.c.otherProgram();
  return { ...p, partner: await seedPartner(kit.c, { token: p.secret }) };
}

async function group(p: Program, body: Json, rewards: Json[] = []): Promise<string> {
  const made = (await ok(p, 'POST', '/v1/groups', body)).data.id as string;
  for (const r of rewards) await ok(p, 'POST', `/v1/groups/${made}/rewards`, r);
  return made;
}

async function convert(p: Program, key: string, email: string): Promise<string> {
  // A landing first, as the snippet records it: a public conversion without one is held for review.
  const grId = randomUUID();
  await kit.c.call('POST', '/v1/tracking/click', { token: p.publishable, body: { gr_id: grId, pk: key } });
  const reply = await kit.c.call('POST', '/v1/tracking/conversion', {
    token: p.publishable,
    body: { email, gr_id: grId, pk: key },
  });
  expect(reply.status).toBe(201);
  return reply.body.data.id;
}

/** Pays for the customer now and returns the payment's commission. */
async function pay(p: Program, email: string, amount: number, more: Json = {}): Promise<Json> {
  const body = { amount, currency: 'USD', idempotency_key: randomUUID(), referral_email: email, ...more };
  const reply = await ok(p, 'POST', '/v1/payments', body);
  return reply.included[0].attributes;
}

const commissionsOf = async (p: Program, partnerId: string): Promise<Json[]> =>
  (await ok(p, 'GET', `/v1/commissions?partner_id_eq=${partnerId}`)).data.map((d: Json) => ({ id: d.id, ...d.attributes }));

const PERCENT = (bps: number, duration: Json = { kind: 'lifetime' }, conditions?: Json) => ({
  event: 'sale',
  kind: 'percentage',
  amount: bps,
  duration,
  ...(conditions ? { conditions } : {}),
});

describe("the program's own terms", () => {
  it("are its default group's base reward: the rate and recurring limit read and write it, and only through the program", async () => {
    const p = await program();
    const groups = (await ok(p, 'GET', '/v1/groups')).data;
    expect(groups.map((g: Json) => [g.attributes.name, g.attributes.default])).toEqual([['Default', true]]);
    const [base] = (await ok(p, 'GET', '/v1/rewards')).data;
    expect(base.attributes).toMatchObject({ event: 'sale', kind: 'percentage', amount: 2000, base: true, duration: { kind: 'lifetime' } });
    expect(base.attributes.description).toBe("20 % of each payment, for the customer's lifetime");

    await ok(p, 'PATCH', '/v1/program', { commission_rate_bps: 1500, recurring_months: 12 });
    const after = (await ok(p, 'GET', `/v1/rewards/${base.id}`)).data.attributes;
    expect(after).toMatchObject({ amount: 1500, duration: { kind: 'months', months: 12 } });
    expect((await ok(p, 'GET', '/v1/program')).data.attributes).toMatchObject({ commission_rate_bps: 1500, recurring_months: 12 });

    expectError(await api(p, 'PATCH', `/v1/rewards/${base.id}`, PERCENT(3000)), 409, 'conflict');
    expectError(await api(p, 'DELETE', `/v1/rewards/${base.id}`), 409, 'conflict');
    expectError(await api(p, 'DELETE', `/v1/groups/${groups[0].id}`), 409, 'conflict');
    // A program that never opens its groups pays as before: 15 % of each payment.
    const email = 'plain@buyers.test';
    await convert(p, p.partner.key, email);
    expect(await pay(p, email, 10_000)).toMatchObject({
      amount: 1500,
      reward_id: base.id,
      reward_description: '15 % of the first payment',
    });
  });

  it('a rate of 0, or a share that rounds to nothing, makes a pending commission at 0 as before, and its payment stays refundable', async () => {
    const p = await program();
    await convert(p, p.partner.key, 'cent@buyers.test');
    expect(await pay(p, 'cent@buyers.test', 1)).toMatchObject({ amount: 0, state: 'pending' });
    await ok(p, 'PATCH', '/v1/program', { commission_rate_bps: 0 });
    const key = randomUUID();
    const zero = (
      await ok(p, 'POST', '/v1/payments', { amount: 5000, currency: 'USD', idempotency_key: key, referral_email: 'cent@buyers.test' })
    ).included[0].attributes;
    expect(zero).toMatchObject({ amount: 0, state: 'pending', reward_description: '0 % of a renewal, month 1 (for life)' });
    expect((await api(p, 'POST', '/v1/refunds', { payment_id: key })).status).toBe(200);
  });

  it("the partnership's own rate still wins over its group's rewards, with no reward named", async () => {
    const p = await program();
    const vip = await group(p, { name: 'VIP' }, [PERCENT(3000)]);
    await ok(p, 'PATCH', `/v1/partnerships/${p.partner.partnershipId}`, { group_id: vip, commission_rate_bps: 1000 });
    await convert(p, p.partner.key, 'own@buyers.test');
    const earned = await pay(p, 'own@buyers.test', 10_000);
    expect(earned.amount).toBe(1000);
    expect(earned.reward_id).toBeUndefined();
  });
});

describe('rewards per event', () => {
  it('a lead reward and a sale reward on one customer: the sign-up earns once, the payment its share', async () => {
    const p = await program();
    const leads = await group(p, { name: 'Leads' }, [
      { event: 'lead', kind: 'flat', amount: 500, currency: 'USD' },
      PERCENT(2500, { kind: 'once' }),
    ]);
    await ok(p, 'PATCH', `/v1/partnerships/${p.partner.partnershipId}`, { group_id: leads });
    const email = 'lead@buyers.test';
    const gr = randomUUID();
    const first = await kit.c.call('POST', '/v1/tracking/conversion', {
      token: p.publishable,
      body: { email, gr_id: gr, pk: p.partner.key },
    });
    const referral = first.body.data.id;
    // A retry of the same conversion makes nothing more.
    const retry = await kit.c.call('POST', '/v1/tracking/conversion', {
      token: p.publishable,
      body: { email, gr_id: gr, pk: p.partner.key },
    });
    expect([first.status, retry.status]).toEqual([201, 200]);
    const [lead] = await commissionsOf(p, p.partner.partnerId);
    expect(lead).toMatchObject({
      amount: 500,
      currency: 'USD',
      state: 'pending',
      referral_id: referral,
      reward_description: 'USD 5.00 for a sign-up',
    });

    expect(await pay(p, email, 10_000)).toMatchObject({ amount: 2500, reward_description: '25 % of the first payment' });
    // "once": the renewal earns nothing, and says why.
    expect(await pay(p, email, 10_000)).toMatchObject({
      amount: 0,
      state: 'rejected',
      reject_reason: 'only the first payment earns this reward',
    });
    expect((await commissionsOf(p, p.partner.partnerId)).map((x) => x.amount).sort()).toEqual([0, 2500, 500]);
    const owed = (await ok(p, 'GET', '/v1/stats/partners?from=2025-01-01&to=2025-12-31')).data;
    expect(owed.find((r: Json) => r.id === p.partner.partnerId)?.attributes.owed).toEqual({ USD: 3000 });
  });

  it("a lead reward on the customer's country or metadata pays what the company's server tells; a page's claim is not read", async () => {
    const p = await program();
    const [defaultGroup] = (await ok(p, 'GET', '/v1/groups')).data;
    await ok(
      p,
      'POST',
      `/v1/groups/${defaultGroup.id}/rewards`,
      leadReward(500, { field: 'customer_country', op: 'in', value: ['DE', 'AT'] }),
    );
    await ok(
      p,
      'POST',
      `/v1/groups/${defaultGroup.id}/rewards`,
      leadReward(700, { field: 'metadata', key: 'plan', op: 'eq', value: 'pro' }),
    );
    const signUp = async (token: string, email: string, more: Json) => {
      const grId = randomUUID();
      await kit.c.call('POST', '/v1/tracking/click', { token: p.publishable, body: { gr_id: grId, pk: p.partner.key } });
      const reply = await kit.c.call('POST', '/v1/tracking/conversion', {
        token,
        body: { email, gr_id: grId, pk: p.partner.key, ...more },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      const id = reply.body.data.id;
      return (await commissionsOf(p, p.partner.partnerId)).filter((x) => x.referral_id === id).map((x) => x.amount);
    };
    expect(await signUp(p.secret, 'de@buyers.test', { customer_country: 'de' })).toEqual([500]);
    expect(await signUp(p.secret, 'pro@buyers.test', { customer_country: 'FR', metadata: { plan: 'pro' } })).toEqual([700]);
    expect(await signUp(p.secret, 'fr@buyers.test', { customer_country: 'FR' })).toEqual([]);
    // Anyone has the publishable token: a visitor naming a country would choose what the partner earns.
    expect(await signUp(p.publishable, 'page@buyers.test', { customer_country: 'DE', metadata: { plan: 'pro' } })).toEqual([]);
    expectError(
      await kit.c.call('POST', '/v1/tracking/conversion', {
        token: p.secret,
        body: { email: 'bad@buyers.test', gr_id: randomUUID(), pk: p.partner.key, customer_country: 'Germany' },
      }),
      422,
      'invalid_field',
    );

    // A payment with a code, whose customer no referral names, makes the sign-up with the payment's country and metadata.
    await ok(p, 'POST', '/v1/discount_codes', { partnership_id: p.partner.partnershipId, code: 'LEADS' });
    const coded = await ok(p, 'POST', '/v1/payments', {
      amount: 10_000,
      currency: 'USD',
      idempotency_key: randomUUID(),
      referral_email: 'coded@buyers.test',
      discount_code: 'leads',
      customer_country: 'AT',
    });
    const codedReferral = coded.data.relationships.referral.data.id;
    const earned = (await commissionsOf(p, p.partner.partnerId)).filter((x) => x.referral_id === codedReferral).map((x) => x.amount);
    expect(earned.sort((a, b) => a - b)).toEqual([500, 2000]);
  });

  it('a lead reward pays only an accepted partnership', async () => {
    const p = await program();
    const [defaultGroup] = (await ok(p, 'GET', '/v1/groups')).data;
    await ok(p, 'POST', `/v1/groups/${defaultGroup.id}/rewards`, { event: 'lead', kind: 'flat', amount: 500, currency: 'USD' });
    const pending = await seedPartner(kit.c, { token: p.secret, state: 'pending' });
    await convert(p, pending.key, 'early@buyers.test');
    expect(await commissionsOf(p, pending.partnerId)).toEqual([]);
  });

  it('a product-specific rate: the payment of that product earns it, any other the base rate', async () => {
    const p = await program();
    const [defaultGroup] = (await ok(p, 'GET', '/v1/groups')).data;
    const pro = { op: 'and', items: [{ field: 'product_id', op: 'eq', value: 'prod_pro' }] };
    await ok(p, 'POST', `/v1/groups/${defaultGroup.id}/rewards`, PERCENT(5000, { kind: 'lifetime' }, pro));
    await convert(p, p.partner.key, 'pro@buyers.test');
    expect(await pay(p, 'pro@buyers.test', 4900, { product_id: 'prod_pro' })).toMatchObject({ amount: 2450 });
    expect(await pay(p, 'pro@buyers.test', 4900, { product_id: 'prod_basic' })).toMatchObject({ amount: 980 });
    expect(await pay(p, 'pro@buyers.test', 4900)).toMatchObject({ amount: 980 });
  });

  it('"50 % for 12 months, then 20 %": month 12 still earns 50 %, the thirteenth 20 %', async () => {
    const p = await program();
    const [defaultGroup] = (await ok(p, 'GET', '/v1/groups')).data;
    await ok(p, 'POST', `/v1/groups/${defaultGroup.id}/rewards`, PERCENT(5000, { kind: 'months', months: 12 }));
    await convert(p, p.partner.key, 'year@buyers.test');
    const first = kit.c.clock.now;
    expect(await pay(p, 'year@buyers.test', 1000)).toMatchObject({ amount: 500, reward_description: '50 % of the first payment' });
    kit.c.clock.now = addMonths(first, 11);
    expect(await pay(p, 'year@buyers.test', 1000)).toMatchObject({ amount: 500, reward_description: '50 % of a renewal, month 12 of 12' });
    kit.c.clock.now = addMonths(first, 12);
    expect(await pay(p, 'year@buyers.test', 1000)).toMatchObject({ amount: 200 });
    kit.c.clock.now = first;
  });

  it('conditions in a group are checked, and a bad reward is refused with the field at fault', async () => {
    const p = await program();
    const [defaultGroup] = (await ok(p, 'GET', '/v1/groups')).data;
    const err = expectError(await api(p, 'POST', `/v1/groups/${defaultGroup.id}/rewards`, { ...PERCENT(20_000) }), 422, 'invalid_field');
    expect(err.source?.pointer ?? err.meta?.field ?? JSON.stringify(err)).toMatch(/amount/);
    expectError(
      await api(p, 'POST', `/v1/groups/${defaultGroup.id}/rewards`, { event: 'lead', kind: 'percentage', amount: 100 }),
      422,
      'invalid_field',
    );
    const usd = { event: 'lead', kind: 'flat', amount: 100, currency: 'USD' };
    await ok(p, 'POST', `/v1/groups/${defaultGroup.id}/rewards`, usd);
    expectError(await api(p, 'POST', `/v1/groups/${defaultGroup.id}/rewards`, { ...usd, currency: 'EUR' }), 422, 'invalid_field');
    expectError(await api(p, 'POST', '/v1/groups/nope/rewards', usd), 404, 'not_found');
  });
});

describe('where people read it', () => {
  it('previews what a partner of the group earns for a payment in a given month', async () => {
    const p = await program();
    const trial = await group(p, { name: 'Trial' }, [
      PERCENT(5000, { kind: 'months', months: 12 }),
      PERCENT(2000),
      PERCENT(6000, { kind: 'lifetime' }, { op: 'and', items: [{ field: 'product_id', op: 'eq', value: 'prod_team' }] }),
    ]);
    const preview = async (body: Json) => (await ok(p, 'POST', `/v1/groups/${trial}/preview`, body)).data.attributes;
    expect(await preview({ amount: 4900, currency: 'USD', month: 3 })).toMatchObject({
      amount: 2450,
      description: '50 % of a renewal, month 3 of 12',
    });
    expect(await preview({ amount: 4900, currency: 'USD', month: 13 })).toMatchObject({ amount: 980 });
    expect(await preview({ amount: 4900, currency: 'USD', month: 13, product_id: 'prod_team' })).toMatchObject({ amount: 2940 });
    const empty = await group(p, { name: 'Empty' });
    expect(
      await (await api(p, 'POST', `/v1/groups/${empty}/preview`, { amount: 100, currency: 'USD', month: 1 })).body.data.attributes,
    ).toMatchObject({
      amount: 0,
      reward_id: null,
    });
    expectError(await api(p, 'POST', '/v1/groups/nope/preview', { amount: 100, currency: 'USD', month: 1 }), 404, 'not_found');
    // Any case in, upper case out: the empty group answers with the body's currency, the others with the payment's.
    expect(await preview({ amount: 4900, currency: 'usd', month: 3 })).toMatchObject({ amount: 2450, currency: 'USD' });
    expect((await ok(p, 'POST', `/v1/groups/${empty}/preview`, { amount: 100, currency: 'eur', month: 1 })).data.attributes.currency).toBe(
      'EUR',
    );
  });

  it('the public page lists the groups that take applications, in words; an application joins the group its page names', async () => {
    const p = await program();
    const slug = `rw-${randomUUID().slice(0, 8)}`;
    await ok(p, 'PATCH', '/v1/program', { slug, page_enabled: true });
    await group(p, { name: 'Creators', slug: 'creators', auto_accept: true }, [
      { event: 'lead', kind: 'flat', amount: 300, currency: 'EUR' },
    ]);
    await group(p, { name: 'Hidden', takes_applications: false });
    const page = (await kit.c.call('GET', `/v1/public/programs/${slug}`, { token: null })).body.data.attributes;
    // Each reward in English words, and as its terms, which the partners' pages say in their own language.
    const terms = (t: Json) => ({ currency: null, duration: { kind: 'once' }, conditions: null, daily_cap: null, ...t });
    const lifetime = terms({ event: 'sale', kind: 'percentage', amount: 2000, duration: { kind: 'lifetime' } });
    const lead = terms({ event: 'lead', kind: 'flat', amount: 300, currency: 'EUR' });
    expect(page.groups).toEqual([
      {
        slug: 'default',
        name: 'Default',
        rewards: ["20 % of each payment, for the customer's lifetime"],
        terms: [lifetime],
        auto_accept: false,
      },
      { slug: 'creators', name: 'Creators', rewards: ['EUR 3.00 per sign-up'], terms: [lead], auto_accept: true },
    ]);
    const application = { name: 'Maya', email: `maya-${slug}@creators.test`, password: 'a long partner password', group: 'creators' };
    const applied = await kit.c.call('POST', `/v1/public/programs/${slug}/applications`, { token: null, body: application });
    expect(applied.status).toBe(201);
    expect(applied.body.data.attributes.state).toBe('accepted');
    const cookie = applied.headers.get('set-cookie')!.split(';')[0]!;
    const portal = await kit.c.call('GET', '/v1/portal/partnerships', { token: null, headers: { cookie } });
    expect(portal.body.data[0].attributes.group).toEqual({
      name: 'Creators',
      rewards: ['EUR 3.00 per sign-up'],
      terms: [lead],
      own_rate: false,
    });
    const hidden = await kit.c.call('POST', `/v1/public/programs/${slug}/applications`, {
      token: null,
      body: { ...application, email: `other-${slug}@creators.test`, group: 'hidden' },
    });
    expectError(hidden, 404, 'not_found');
    // The default group taking no applications: one that names no group is refused, saying why.
    const [defaultGroup] = (await ok(p, 'GET', '/v1/groups?slug_eq=default')).data;
    await ok(p, 'PATCH', `/v1/groups/${defaultGroup.id}`, { takes_applications: false });
    const unnamed = await kit.c.call('POST', `/v1/public/programs/${slug}/applications`, {
      token: null,
      body: { ...application, email: `third-${slug}@creators.test`, group: undefined },
    });
    expectError(unnamed, 422, 'missing_field');
  });
});

describe('click rewards', () => {
  it('pays each ended day once: its unique visitors times the amount, up to the daily cap; never a row per click', async () => {
    const p = await program();
    await group(p, { name: 'Clicks' }, [{ event: 'click', kind: 'flat', amount: 10, currency: 'USD', daily_cap: 50 }]);
    const [clicksGroup] = (await ok(p, 'GET', '/v1/groups?name_eq=Clicks')).data;
    // The partnership's own holding period wins over its group's, for a day of clicks too.
    await ok(p, 'PATCH', `/v1/partnerships/${p.partner.partnershipId}`, { group_id: clicksGroup.id, hold_days: 2 });
    const start = kit.c.clock.now;
    const day = Math.floor(start / DAY) * DAY + DAY; // a whole UTC day ahead
    const click = async (at: number, visitor: string) => {
      kit.c.clock.now = at;
      const reply = await kit.c.call('POST', '/v1/tracking/click', { token: p.publishable, body: { gr_id: visitor, pk: p.partner.key } });
      expect(reply.status).toBeLessThan(300);
    };
    // Day 1: eight visitors, one of them three times; day 2: three.
    for (let i = 0; i < 8; i++) await click(day + 3600 + i * 60, `day1-${i}`);
    await click(day + 7200, 'day1-0');
    await click(day + 7300, 'day1-0');
    for (let i = 0; i < 3; i++) await click(day + DAY + 3600 + i * 60, `day2-${i}`);
    // Day 2 is not over yet: only day 1 is paid.
    kit.c.clock.now = day + DAY + 7200;
    expect(await kit.c.running.work.payClicks()).toBe(1);
    kit.c.clock.now = day + 2 * DAY + 60;
    expect(await kit.c.running.work.payClicks()).toBe(1);
    expect(await kit.c.running.work.payClicks()).toBe(0);
    const earned = (await commissionsOf(p, p.partner.partnerId)).map((x) => [x.amount, x.reward_description, x.payable_at]);
    expect(earned.sort()).toEqual(
      [
        [50, 'USD 0.50 for 8 unique visitors (the daily cap)', day + 3 * DAY],
        [30, 'USD 0.30 for 3 unique visitors', day + 4 * DAY],
      ].sort(),
    );
    // The kept totals equal a recount of the records.
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
    kit.c.clock.now = start;
  });
});

/** A program whose sign-ups earn 600 and whose partners move to Gold at 1,000 of commissions in 30 days. */
async function leadsToGold() {
  const p = await program();
  const gold = await group(p, { name: 'Gold' });
  const [defaultGroup] = (await ok(p, 'GET', '/v1/groups?slug_eq=default')).data;
  await ok(p, 'POST', `/v1/groups/${defaultGroup.id}/rewards`, { event: 'lead', kind: 'flat', amount: 600, currency: 'USD' });
  const rule = { to_group_id: gold, metric: 'commissions', currency: 'USD', threshold: 1000, window_days: 30 };
  await ok(p, 'PATCH', `/v1/groups/${defaultGroup.id}`, { move_rules: [rule] });
  const groupOf = async () => (await ok(p, 'GET', `/v1/partnerships/${p.partner.partnershipId}`)).data.attributes.group_id;
  return { p, gold, defaultGroup, rule, groupOf };
}

describe('moves between groups', () => {
  it('promotes the partner to VIP after the fifth paying customer, once; the next payment earns the VIP rate', async () => {
    const p = await program();
    const vip = await group(p, { name: 'VIP' }, [PERCENT(3000)]);
    const [defaultGroup] = (await ok(p, 'GET', '/v1/groups?slug_eq=default')).data;
    await ok(p, 'PATCH', `/v1/groups/${defaultGroup.id}`, { move_rules: [{ to_group_id: vip, metric: 'customers', threshold: 5 }] });
    const earned: number[] = [];
    for (let i = 1; i <= 6; i++) {
      await convert(p, p.partner.key, `c${i}@buyers.test`);
      earned.push((await pay(p, `c${i}@buyers.test`, 10_000)).amount);
      const partnership = (await ok(p, 'GET', `/v1/partnerships/${p.partner.partnershipId}`)).data.attributes;
      expect(partnership.group_id, `after customer ${i}`).toBe(i >= 5 ? vip : defaultGroup.id);
    }
    expect(earned).toEqual([2000, 2000, 2000, 2000, 2000, 3000]);
    expect((await pay(p, 'c1@buyers.test', 10_000)).amount).toBe(3000);
    const moves = (await ok(p, 'GET', `/v1/group_moves?partnership_id_eq=${p.partner.partnershipId}`)).data;
    expect(moves.map((m: Json) => m.attributes)).toEqual([
      expect.objectContaining({ from_group_id: defaultGroup.id, to_group_id: vip, moved_by: 'rule', reason: 'customers reached 5' }),
    ]);
    const events = (await ok(p, 'GET', '/v1/events?type_eq=partnership.group_changed')).data;
    expect(events).toHaveLength(1);
    expect(events[0].attributes.data.attributes.group_id).toBe(vip);
  });

  it('two payments at once that together cross the threshold move the partnership', async () => {
    const p = await program();
    const vip = await group(p, { name: 'VIP Partners' });
    expect((await ok(p, 'GET', `/v1/groups/${vip}`)).data.attributes.slug).toBe('vip-partners');
    const [defaultGroup] = (await ok(p, 'GET', '/v1/groups?slug_eq=default')).data;
    await ok(p, 'PATCH', `/v1/groups/${defaultGroup.id}`, { move_rules: [{ to_group_id: vip, metric: 'customers', threshold: 2 }] });
    await convert(p, p.partner.key, 'one@buyers.test');
    await convert(p, p.partner.key, 'two@buyers.test');
    await Promise.all([pay(p, 'one@buyers.test', 1000), pay(p, 'two@buyers.test', 1000)]);
    expect((await ok(p, 'GET', `/v1/partnerships/${p.partner.partnershipId}`)).data.attributes.group_id).toBe(vip);
  });

  it('a commission entered by hand, or a lead reward, may cross a rule on commissions: the partner moves then', async () => {
    const { p, gold, defaultGroup, rule, groupOf } = await leadsToGold();
    await convert(p, p.partner.key, 'first@buyers.test');
    expect(await groupOf()).toBe(defaultGroup.id); // 600 of 1,000
    await convert(p, p.partner.key, 'second@buyers.test');
    expect(await groupOf()).toBe(gold); // 1,200: moved by the lead's commission

    const q = await program();
    const silver = await group(q, { name: 'Silver' });
    const [qDefault] = (await ok(q, 'GET', '/v1/groups?slug_eq=default')).data;
    await ok(q, 'PATCH', `/v1/groups/${qDefault.id}`, { move_rules: [{ ...rule, to_group_id: silver }] });
    await ok(q, 'POST', '/v1/commissions', { partner_id: q.partner.partnerId, amount: 1000, currency: 'USD' });
    expect((await ok(q, 'GET', `/v1/partnerships/${q.partner.partnershipId}`)).data.attributes.group_id).toBe(silver);
  });

  it('a rule on revenue written "jpy" counts JPY payments: the code is stored upper case, as every total is', async () => {
    const p = await program();
    const gold = await group(p, { name: 'Gold' });
    const [defaultGroup] = (await ok(p, 'GET', '/v1/groups?slug_eq=default')).data;
    const rule = { to_group_id: gold, metric: 'revenue', currency: 'jpy', threshold: 5000 };
    const patched = await ok(p, 'PATCH', `/v1/groups/${defaultGroup.id}`, { move_rules: [rule] });
    expect(patched.data.attributes.move_rules[0].currency).toBe('JPY');
    await convert(p, p.partner.key, 'yen@buyers.test');
    await pay(p, 'yen@buyers.test', 5000, { currency: 'jpy' });
    expect((await ok(p, 'GET', `/v1/partnerships/${p.partner.partnershipId}`)).data.attributes.group_id).toBe(gold);
  });

  it("an owner moves a partner by hand, recorded; the group's holding period applies to what it earns next", async () => {
    const p = await program();
    const slow = await group(p, { name: 'Slow', hold_days: 30, minimum_payout: { USD: 10_000 } });
    await ok(p, 'PATCH', `/v1/partnerships/${p.partner.partnershipId}`, { group_id: slow });
    const [move] = (await ok(p, 'GET', '/v1/group_moves')).data;
    expect(move.attributes).toMatchObject({ to_group_id: slow, moved_by: 'owner', reason: 'moved by an owner' });
    expect((await ok(p, 'GET', `/v1/partnerships?group_id_eq=${slow}`)).data.map((x: Json) => x.id)).toEqual([p.partner.partnershipId]);
    // The group has no sale reward: its partner's payments earn nothing, and say so.
    await convert(p, p.partner.key, 'slow@buyers.test');
    expect(await pay(p, 'slow@buyers.test', 10_000)).toMatchObject({
      amount: 0,
      reject_reason: 'no reward of the group "Slow" applies to this payment',
    });
    await ok(p, 'POST', `/v1/groups/${slow}/rewards`, PERCENT(1000));
    const earned = await pay(p, 'slow@buyers.test', 10_000);
    expect(earned.payable_at).toBe(kit.c.clock.now + 30 * DAY);
    // Below the group's minimum payout: the export leaves it.
    kit.c.clock.now += 31 * DAY;
    const exported = await ok(p, 'POST', '/v1/payout_batches', {});
    expect(exported.data).toEqual([]);
    kit.c.clock.now -= 31 * DAY;
    // A group with partnerships in it stays; an empty one goes.
    expectError(await api(p, 'DELETE', `/v1/groups/${slow}`), 409, 'conflict');
    const empty = await group(p, { name: 'Empty' });
    expect((await api(p, 'DELETE', `/v1/groups/${empty}`)).status).toBe(204);
  });

  it("a move rule names a group of the program's, and two groups do not share a slug", async () => {
    const p = await program();
    const other = await kit.c.otherProgram();
    const theirs = (await kit.c.call('POST', '/v1/groups', { token: other.secret, body: { name: 'Theirs' } })).body.data.id;
    const rule = { to_group_id: theirs, metric: 'revenue', currency: 'USD', threshold: 100_000 };
    expectError(await api(p, 'POST', '/v1/groups', { name: 'Gold', move_rules: [rule] }), 422, 'invalid_field');
    expectError(await api(p, 'POST', '/v1/groups', { name: 'Gold', move_rules: [{ ...rule, currency: undefined }] }), 422, 'invalid_field');
    await group(p, { name: 'Gold' });
    expectError(await api(p, 'POST', '/v1/groups', { name: 'gold' }), 409, 'conflict');
    expectError(await api(p, 'GET', `/v1/groups/${theirs}`), 404, 'not_found');
  });
});

describe('money held for review', () => {
  /** A sign-up with a made-up click id, as a flood of fake sign-ups sends it: held (no landing). */
  async function heldSignup(p: Program, key: string, email: string): Promise<string> {
    const reply = await kit.c.call('POST', '/v1/tracking/conversion', {
      token: p.publishable,
      body: { email, gr_id: `made-up-${randomUUID()}`, pk: key },
    });
    expect(reply.status).toBe(201);
    expect((await ok(p, 'GET', `/v1/referrals/${reply.body.data.id}`)).data.attributes.review).toBe('held');
    return reply.body.data.id;
  }
  const decide = (p: Program, referralId: string, decision: string) =>
    ok(p, 'POST', '/v1/review_decisions', { referral_id: referralId, decision, reason: `${decision}d in review` });

  it('held sign-ups move nobody, nor do rejected ones; approved, they count and the move rules are weighed then', async () => {
    const { p, gold, defaultGroup, groupOf } = await leadsToGold();
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await heldSignup(p, p.partner.key, `fake${i}@buyers.test`));
    expect(await groupOf()).toBe(defaultGroup.id); // 1,800 held: nothing counted
    await decide(p, held[0]!, 'reject');
    await decide(p, held[1]!, 'approve');
    expect(await groupOf()).toBe(defaultGroup.id); // 600 approved of 1,000
    await decide(p, held[2]!, 'approve');
    expect(await groupOf()).toBe(gold); // 1,200 approved: moved by the approval
    const moves = (await ok(p, 'GET', `/v1/group_moves?partnership_id_eq=${p.partner.partnershipId}`)).data;
    expect(moves.map((m: Json) => m.attributes.reason)).toEqual(['commissions USD reached 1000 in 30 days']);
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
  });

  it("held and rejected customers count in no reward's conditions; an approved one does", async () => {
    const p = await program();
    const [defaultGroup] = (await ok(p, 'GET', '/v1/groups?slug_eq=default')).data;
    const twoCustomers = { op: 'and', items: [{ field: 'partner_customers', op: 'gte', value: 2 }] };
    await ok(p, 'POST', `/v1/groups/${defaultGroup.id}/rewards`, PERCENT(5000, { kind: 'lifetime' }, twoCustomers));
    const h1 = await heldSignup(p, p.partner.key, 'held1@buyers.test');
    const h2 = await heldSignup(p, p.partner.key, 'held2@buyers.test');
    expect((await pay(p, 'held1@buyers.test', 10_000)).review).toBe('held');
    expect((await pay(p, 'held2@buyers.test', 10_000)).review).toBe('held');
    await decide(p, h1, 'reject');
    await convert(p, p.partner.key, 'real1@buyers.test');
    // Counted: no customer (one held, one rejected): the program's 20 %.
    expect((await pay(p, 'real1@buyers.test', 10_000)).amount).toBe(2000);
    await decide(p, h2, 'approve');
    await convert(p, p.partner.key, 'real2@buyers.test');
    // Counted: real1 and the approved held2.
    expect((await pay(p, 'real2@buyers.test', 10_000)).amount).toBe(5000);
  });
});

describe('refunds and clawbacks', () => {
  it('a refund of a paid commission claws back under the same reward; a refund of a pending flat one rejects it', async () => {
    const p = await program();
    const flat = await group(p, { name: 'Flat' }, [
      { event: 'sale', kind: 'flat', amount: 700, currency: 'USD', duration: { kind: 'lifetime' } },
    ]);
    const email = 'refund@buyers.test';
    await convert(p, p.partner.key, email);
    const key = randomUUID();
    const paid = (await ok(p, 'POST', '/v1/payments', { amount: 10_000, currency: 'USD', idempotency_key: key, referral_email: email }))
      .included[0];
    await ok(p, 'PATCH', `/v1/partners/${p.partner.partnerId}`, { paypal_email: 'payee@partners.test' });
    const [batch] = (await ok(p, 'POST', '/v1/payout_batches', {})).data;
    await ok(p, 'POST', `/v1/payout_batches/${batch.id}/paid`);
    const refunded = await ok(p, 'POST', '/v1/refunds', { payment_id: key });
    const clawback = refunded.included.find((x: Json) => x.attributes.clawback_of === paid.id).attributes;
    expect(clawback).toMatchObject({ amount: -2000, reward_id: paid.attributes.reward_id });
    expect(clawback.reward_description).toBe('Clawback of 20 % of the first payment');

    await ok(p, 'PATCH', `/v1/partnerships/${p.partner.partnershipId}`, { group_id: flat });
    const flatKey = randomUUID();
    const second = (
      await ok(p, 'POST', '/v1/payments', { amount: 10_000, currency: 'USD', idempotency_key: flatKey, referral_email: email })
    ).included[0].attributes;
    expect(second).toMatchObject({ amount: 700, reward_description: 'USD 7.00 for a renewal, month 1 (for life)' });
    const undone = (await ok(p, 'POST', '/v1/refunds', { payment_id: flatKey })).data.attributes;
    expect(undone).toMatchObject({ state: 'rejected', reject_reason: 'refunded' });
  });
});

/** The program connected to Stripe: where its signed events go. */
async function stripeEndpoint(p: Program): Promise<{ url: string; secret: string }> {
  const secret = newSecret();
  const added = await ok(p, 'POST', '/v1/integrations/stripe/secrets', { secret });
  return { url: kit.c.url + new URL(added.meta.endpoint_url).pathname, secret };
}

describe("through Stripe's signed events", () => {
  it('"50 % for 12 months, then 20 %" over a subscription\'s invoices, by the dates Stripe says they were paid', async () => {
    const p = await program();
    const { url, secret } = await stripeEndpoint(p);
    const [defaultGroup] = (await ok(p, 'GET', '/v1/groups')).data;
    await ok(p, 'POST', `/v1/groups/${defaultGroup.id}/rewards`, PERCENT(5000, { kind: 'months', months: 12 }));
    const email = 'subscriber@buyers.test';
    await convert(p, p.partner.key, email);
    const customer = stripeId('cus');
    const subscription = stripeId('sub');
    const first = kit.c.clock.now;
    for (const paidAt of [first, addMonths(first, 11), addMonths(first, 12)]) {
      const inv = invoice({ customer, email, amountPaid: 4900, subscription, paidAt });
      const reply = await postEvent(url, stripeEvent('invoice.paid', inv, { created: kit.c.clock.now }), secret, {
        timestamp: kit.c.clock.now,
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
    const earned = (await commissionsOf(p, p.partner.partnerId)).sort((a, b) => a.created_at - b.created_at || a.id.localeCompare(b.id));
    expect(earned.map((x) => [x.amount, x.reward_description])).toEqual([
      [2450, '50 % of the first payment'],
      [2450, '50 % of a renewal, month 12 of 12'],
      [980, '20 % of a renewal, month 13 (for life)'],
    ]);
  });

  it("an invoice's product and the customer's country choose the reward", async () => {
    const p = await program();
    const { url, secret } = await stripeEndpoint(p);
    const [defaultGroup] = (await ok(p, 'GET', '/v1/groups')).data;
    const proInGermany = {
      op: 'and',
      items: [
        { field: 'product_id', op: 'eq', value: 'prod_pro' },
        { field: 'customer_country', op: 'in', value: ['DE', 'AT'] },
      ],
    };
    await ok(p, 'POST', `/v1/groups/${defaultGroup.id}/rewards`, PERCENT(4000, { kind: 'lifetime' }, proInGermany));
    const email = 'stripe@buyers.test';
    await convert(p, p.partner.key, email);
    const customer = stripeId('cus');
    const send = async (country: string) => {
      const inv = invoice({
        customer,
        email,
        amountPaid: 5000,
        lines: [{ price: stripeId('price'), product: 'prod_pro' }],
        customerCountry: country,
      });
      const reply = await postEvent(url, stripeEvent('invoice.paid', inv, { created: kit.c.clock.now }), secret, {
        timestamp: kit.c.clock.now,
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    };
    await send('DE');
    await send('FR');
    const amounts = (await commissionsOf(p, p.partner.partnerId)).map((x) => x.amount).sort((a, b) => a - b);
    expect(amounts).toEqual([1000, 2000]);
  });
});
