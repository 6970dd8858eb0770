// Two-tier referrals (docs/two-tier.md) over the API: a recruit applies through a recruiter's
// link, and each of the recruit's commissions pays the recruiter a share through the one
// commission path, which follows the source down when it is refunded or rejected.

import { describe, expect, it } from 'vitest';
import { expectError, seedPartner, startCollector, type Reply } from './harness.js';
import { read, startSmtp } from './smtp.js';
import { put as putMethod } from '../../packages/collector/src/modules/payout-methods/repo.js';
import { chosen } from '../../packages/collector/src/modules/payout-methods/service.js';
import { type Json, type Program, programsKit } from './programs-kit.js';

const kit = programsKit();

let pages = 0;
/** A program of its own with its page up, applications accepted at once, and two-tier referrals as `settings` says. */
async function program(settings: Json = {}): Promise<Program & { slug: string }> {
  const p = await kit.c.otherProgram();
  const slug = `tiers-${++pages}`;
  await kit.ok(p, 'PATCH', '/v1/program', { slug, page_enabled: true, auto_accept: true });
  await kit.ok(p, 'PATCH', '/v1/program/two_tier', { enabled: true, share_bps: 1000, ...settings });
  return { ...p, slug };
}

let people = 0;
function apply(p: { slug: string }, body: Json = {}): Promise<Reply> {
  const n = ++people;
  return kit.c.call('POST', `/v1/public/programs/${p.slug}/applications`, {
    token: null,
    body: { name: `Recruit ${n}`, email: `recruit${n}@tiers.test`, password: 'a long partner password', ...body },
  });
}

const cookieOf = (reply: Reply): string =>
  reply.headers
    .getSetCookie()
    .find((x) => x.startsWith('tally_partner='))!
    .split(';')[0]!;

/** A recruiter (seeded by the owner) and a recruit who applied through their link. */
async function pair(p: Program & { slug: string }, recruitBody: Json = {}) {
  const recruiter = await seedPartner(kit.c, { token: p.secret, paypal_email: `boss${++people}@pay.test` });
  const applied = await apply(p, { via: recruiter.key, ...recruitBody });
  expect(applied.status, JSON.stringify(applied.body)).toBe(201);
  const partnership = await kit.ok(p, 'GET', `/v1/partnerships/${applied.body.data.id}`);
  return {
    recruiter,
    recruit: { partnershipId: applied.body.data.id as string, partnerId: partnership.data.relationships.partner.data.id as string },
    cookie: cookieOf(applied),
  };
}

const commission = async (p: Program, partnerId: string, amount: number, currency = 'USD'): Promise<Json> =>
  (await kit.ok(p, 'POST', '/v1/commissions', { partner_id: partnerId, amount, currency })).data;

/** The partner's second-tier commissions (and their clawbacks), oldest first. */
async function tierTwo(p: Program, partnerId: string): Promise<Json[]> {
  const list = await kit.ok(p, 'GET', `/v1/commissions?partner_id_eq=${partnerId}&per_page=50`);
  return (list.data as Json[]).filter((c) => c.attributes.tier === 2).reverse();
}

describe('the recruiter’s share', () => {
  it('is the percentage of each commission, rounded half up, linked to its source, and shown to both', async () => {
    const p = await program({ share_bps: 1250 });
    const { recruiter, recruit, cookie } = await pair(p);
    const first = await commission(p, recruit.partnerId, 999);
    const second = await commission(p, recruit.partnerId, 1004);
    expect(first.attributes.tier).toBe(1);
    const shares = await tierTwo(p, recruiter.partnerId);
    // 12.5 % of 999 is 124.875 and of 1004 125.5: half up, as every commission rounds.
    expect(shares.map((s) => [s.attributes.amount, s.attributes.tier_of, s.attributes.state])).toEqual([
      [125, first.id, 'pending'],
      [126, second.id, 'pending'],
    ]);
    const owner = await kit.ok(p, 'GET', `/v1/partnerships/${recruiter.partnershipId}/recruitment`);
    expect(owner.data.attributes.recruits).toEqual([
      expect.objectContaining({ partnership_id: recruit.partnershipId, earned: [{ currency: 'USD', amount: 251 }] }),
    ]);
    expect(owner.data.attributes.earned).toEqual([{ currency: 'USD', amount: 251 }]);
    const theirs = await kit.ok(p, 'GET', `/v1/partnerships/${recruit.partnershipId}/recruitment`);
    expect(theirs.data.attributes.recruited_by.partnership_id).toBe(recruiter.partnershipId);
    // The recruit sees who recruited them in the portal.
    const portal = await kit.c.call('GET', `/v1/portal/partnerships/${recruit.partnershipId}/recruitment`, {
      token: null,
      headers: { cookie, origin: kit.c.url },
    });
    expect(portal.status).toBe(200);
    expect(portal.body.data.attributes.recruited_by.name).toMatch(/^Partner /);
    expect(portal.body.data.attributes.link).toContain(`/p/${p.slug}/?via=`);
  });

  it('ends with the duration, months from the recruit’s application', async () => {
    const p = await program({ duration_months: 1 });
    const { recruiter, recruit } = await pair(p);
    const start = kit.c.clock.now;
    try {
      kit.c.clock.now = start + 27 * 86400;
      await commission(p, recruit.partnerId, 1000);
      kit.c.clock.now = start + 32 * 86400;
      await commission(p, recruit.partnerId, 1000);
    } finally {
      kit.c.clock.now = start;
    }
    expect((await tierTwo(p, recruiter.partnerId)).map((s) => s.attributes.amount)).toEqual([100]);
  });

  it('stops at the cap per recruit in its currency; another currency has its own (or none)', async () => {
    const p = await program({ share_bps: 5000, caps: { USD: 300 } });
    const { recruiter, recruit } = await pair(p);
    for (let i = 0; i < 3; i++) await commission(p, recruit.partnerId, 400);
    await commission(p, recruit.partnerId, 400, 'EUR');
    const shares = await tierTwo(p, recruiter.partnerId);
    expect(shares.map((s) => [s.attributes.amount, s.attributes.currency])).toEqual([
      [200, 'USD'],
      [100, 'USD'],
      [200, 'EUR'],
    ]);
  });

  it('is not made while two-tier referrals are off, nor for a recruiter no longer accepted', async () => {
    const p = await program();
    const { recruiter, recruit } = await pair(p);
    await kit.ok(p, 'PATCH', '/v1/program/two_tier', { enabled: false });
    await commission(p, recruit.partnerId, 1000);
    await kit.ok(p, 'PATCH', '/v1/program/two_tier', { enabled: true });
    await kit.ok(p, 'PATCH', `/v1/partnerships/${recruiter.partnershipId}`, { state: 'declined' });
    await commission(p, recruit.partnerId, 1000);
    expect(await tierTwo(p, recruiter.partnerId)).toEqual([]);
  });

  it('only two tiers: a share pays no share further up, while the middle partner’s own commissions do', async () => {
    const p = await program();
    const { recruiter: top, recruit: middle } = await pair(p);
    const middleKey = (await kit.ok(p, 'GET', `/v1/partnerships/${middle.partnershipId}`)).data.attributes.key;
    const applied = await apply(p, { via: middleKey });
    expect(applied.status).toBe(201);
    const bottom = (await kit.ok(p, 'GET', `/v1/partnerships/${applied.body.data.id}`)).data.relationships.partner.data.id;
    await commission(p, bottom, 1000);
    expect((await tierTwo(p, middle.partnerId)).map((s) => s.attributes.amount)).toEqual([100]);
    expect(await tierTwo(p, top.partnerId)).toEqual([]);
    await commission(p, middle.partnerId, 2000);
    expect((await tierTwo(p, top.partnerId)).map((s) => s.attributes.amount)).toEqual([200]);
  });
});

describe('when the source goes down', () => {
  it('a refund takes back the same fraction: in place while pending, by a clawback once paid', async () => {
    const p = await program({ share_bps: 2000 });
    const { recruiter, recruit } = await pair(p);
    await kit.ok(p, 'PATCH', `/v1/partnerships/${recruit.partnershipId}`, { commission_rate_bps: 5000 });
    const key = (await kit.ok(p, 'GET', `/v1/partnerships/${recruit.partnershipId}`)).data.attributes.key;
    await kit.c.call('POST', '/v1/tracking/click', { token: p.publishable, body: { gr_id: 'g-buyer', pk: key } });
    const conv = await kit.c.call('POST', '/v1/tracking/conversion', {
      token: p.publishable,
      body: { email: 'buyer@shop.test', gr_id: 'g-buyer', pk: key },
    });
    expect(conv.status).toBe(201);
    await kit.ok(p, 'POST', '/v1/payments', {
      idempotency_key: 'ch_tiers',
      amount: 10001,
      currency: 'USD',
      referral_id: conv.body.data.id,
    });
    // 50 % of 10001 is 5001 (half up); 20 % of that, 1000.2, is 1000.
    const [share] = await tierTwo(p, recruiter.partnerId);
    expect(share!.attributes.amount).toBe(1000);
    // A quarter refunded: the source keeps 3751 of 5001, the share the same fraction, 750.
    await kit.ok(p, 'POST', '/v1/refunds', { payment_id: 'ch_tiers', amount_refunded: 2500 });
    expect((await kit.ok(p, 'GET', `/v1/commissions/${share!.id}`)).data.attributes.amount).toBe(750);
    await kit.ok(p, 'PATCH', `/v1/commissions/${share!.id}`, { state: 'paid' });
    // All refunded: the paid share is clawed back to nothing, through the same path.
    await kit.ok(p, 'POST', '/v1/refunds', { payment_id: 'ch_tiers' });
    const after = await tierTwo(p, recruiter.partnerId);
    expect(after.map((s) => [s.attributes.amount, s.attributes.clawback_of ?? null, s.attributes.state])).toEqual([
      [750, null, 'paid'],
      [-750, share!.id, 'pending'],
    ]);
    // The same refund again changes nothing.
    await kit.ok(p, 'POST', '/v1/refunds', { payment_id: 'ch_tiers' });
    expect(await tierTwo(p, recruiter.partnerId)).toHaveLength(2);
  });

  it('a rejected source rejects its pending share with the same reason', async () => {
    const p = await program();
    const { recruiter, recruit } = await pair(p);
    const source = await commission(p, recruit.partnerId, 1000);
    await kit.ok(p, 'PATCH', `/v1/commissions/${source.id}`, { state: 'rejected', reject_reason: 'fraud' });
    const [share] = await tierTwo(p, recruiter.partnerId);
    expect([share!.attributes.state, share!.attributes.reject_reason]).toEqual(['rejected', 'fraud']);
  });
});

describe('self-recruitment', () => {
  it('an application through one’s own link is refused by e-mail and by PayPal address, and nothing is kept', async () => {
    const p = await program();
    const recruiter = await seedPartner(kit.c, { token: p.secret, email: 'me@self.test', paypal_email: 'mine@pay.test' });
    expectError(await apply(p, { via: recruiter.key, email: 'Mine@Pay.test' }), 422, 'self_recruitment');
    expectError(await apply(p, { via: recruiter.key, paypal_email: 'mine@pay.test' }), 422, 'self_recruitment');
    const partners = await kit.ok(p, 'GET', '/v1/partners');
    expect(partners.data).toHaveLength(1);
  });

  it('a recruit paid at the recruiter’s payout address earns them no share', async () => {
    const p = await program();
    const { recruiter, recruit } = await pair(p);
    const theirs = (await kit.ok(p, 'GET', `/v1/partners/${recruiter.partnerId}`)).data.attributes.paypal_email;
    await kit.ok(p, 'PATCH', `/v1/partners/${recruit.partnerId}`, { paypal_email: theirs });
    await commission(p, recruit.partnerId, 1000);
    expect(await tierTwo(p, recruiter.partnerId)).toEqual([]);
  });
});

/** A payout method as the provider's onboarding would leave it (Stripe's and Wise's own flows are payout-methods.test.ts's). */
const method = (programId: string, partnerId: string, fields: Json) =>
  putMethod(kit.c.running.db, { ...chosen(undefined, programId, partnerId, 'paypal', 'DE', kit.c.clock.now), ...fields });

describe('self-recruitment by payout method', () => {
  it('the same Stripe account: refused for a second partner of the program already (its unique index), so it never pays a share', async () => {
    const p = await program();
    const { recruiter, recruit } = await pair(p);
    await method(p.id, recruiter.partnerId, { method: 'stripe_connect', stripe_account_id: 'acct_same' });
    await expect(method(p.id, recruit.partnerId, { method: 'stripe_connect', stripe_account_id: 'acct_same' })).rejects.toThrow();
    await method(p.id, recruit.partnerId, { method: 'stripe_connect', stripe_account_id: 'acct_other' });
    await commission(p, recruit.partnerId, 1000);
    expect((await tierTwo(p, recruiter.partnerId)).map((s) => s.attributes.amount)).toEqual([100]);
  });

  for (const [name, fields] of [
    ['the same Wise recipient', { method: 'wise', wise_recipient_id: '424242', wise_currency: 'EUR' }],
    ['the same confirmed PayPal address', { method: 'paypal', paypal_email: 'Same.Person@pay.test', paypal_confirmed_at: 1 }],
  ] as const) {
    it(`${name}: no share; another account earns one`, async () => {
      const p = await program();
      const { recruiter, recruit } = await pair(p);
      await method(p.id, recruiter.partnerId, fields);
      await method(p.id, recruit.partnerId, fields);
      await commission(p, recruit.partnerId, 1000);
      expect(await tierTwo(p, recruiter.partnerId)).toEqual([]);
      const other = await pair(p);
      await method(p.id, other.recruiter.partnerId, fields);
      await commission(p, other.recruit.partnerId, 1000);
      expect((await tierTwo(p, other.recruiter.partnerId)).map((s) => s.attributes.amount)).toEqual([100]);
    });
  }
});

describe('at once', () => {
  it('commissions made together never pass the cap, and each source gets at most one share', async () => {
    const p = await program({ share_bps: 5000, caps: { USD: 1000 } });
    const { recruiter, recruit } = await pair(p);
    const made = await Promise.all(Array.from({ length: 8 }, () => commission(p, recruit.partnerId, 600)));
    const shares = await tierTwo(p, recruiter.partnerId);
    expect(shares.reduce((n, s) => n + s.attributes.amount, 0)).toBe(1000);
    expect(new Set(shares.map((s) => s.attributes.tier_of)).size).toBe(shares.length);
    expect(shares.every((s) => made.some((m) => m.id === s.attributes.tier_of))).toBe(true);
  });

  it('the same refund twice at once takes the share back once', async () => {
    const p = await program({ share_bps: 1000 });
    const { recruiter, recruit } = await pair(p);
    const key = (await kit.ok(p, 'GET', `/v1/partnerships/${recruit.partnershipId}`)).data.attributes.key;
    await kit.c.call('POST', '/v1/tracking/click', { token: p.publishable, body: { gr_id: 'g-twice', pk: key } });
    const conv = await kit.c.call('POST', '/v1/tracking/conversion', {
      token: p.publishable,
      body: { email: 'twice@shop.test', gr_id: 'g-twice', pk: key },
    });
    await kit.ok(p, 'POST', '/v1/payments', {
      idempotency_key: 'ch_twice',
      amount: 10000,
      currency: 'USD',
      referral_id: conv.body.data.id,
    });
    const [share] = await tierTwo(p, recruiter.partnerId);
    await kit.ok(p, 'PATCH', `/v1/commissions/${share!.id}`, { state: 'paid' });
    const replies = await Promise.all(
      [1, 2].map(() => kit.api(p, 'POST', '/v1/refunds', { payment_id: 'ch_twice', amount_refunded: 5000 })),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    const after = await tierTwo(p, recruiter.partnerId);
    expect(after.map((s) => s.attributes.amount)).toEqual([share!.attributes.amount, -share!.attributes.amount / 2]);
  });
});

describe('who sees what', () => {
  it('another program, and another partner in the portal, get 404', async () => {
    const p = await program();
    const other = await program();
    const { recruiter, cookie } = await pair(p);
    expectError(await kit.api(other, 'GET', `/v1/partnerships/${recruiter.partnershipId}/recruitment`), 404, 'not_found');
    const stranger = await apply(other);
    const asStranger = await kit.c.call('GET', `/v1/portal/partnerships/${recruiter.partnershipId}/recruitment`, {
      token: null,
      headers: { cookie: cookieOf(stranger), origin: kit.c.url },
    });
    expectError(asStranger, 404, 'not_found');
    expect(cookie).toBeTruthy();
  });

  it('the settings: off by default, refused out of range, changed by the owner', async () => {
    const p = await kit.c.otherProgram();
    const before = await kit.ok(p, 'GET', '/v1/program/two_tier');
    expect(before.data.attributes).toEqual({ enabled: false, share_bps: 1000, duration_months: null, caps: {} });
    expectError(await kit.api(p, 'PATCH', '/v1/program/two_tier', { share_bps: 0 }), 422, 'invalid_field');
    expectError(await kit.api(p, 'PATCH', '/v1/program/two_tier', { caps: { XYZ: 5 } }), 422, 'invalid_field');
    const set = await kit.ok(p, 'PATCH', '/v1/program/two_tier', { enabled: true, duration_months: 12, caps: { usd: 5000 } });
    expect(set.data.attributes).toEqual({ enabled: true, share_bps: 1000, duration_months: 12, caps: { USD: 5000 } });
  });
});

describe('the e-mail', () => {
  it('tells the recruiter who joined through their link, once', async () => {
    const inbox = await startSmtp();
    const c = await startCollector({ smtpUrl: inbox.url });
    try {
      await c.call('PATCH', '/v1/program', { body: { slug: 'mailed', page_enabled: true, name: 'Mailed Shop' } });
      await c.call('PATCH', '/v1/program/two_tier', { body: { enabled: true } });
      const rita = await seedPartner(c, { name: 'Rita', email: 'rita@tiers.test' });
      const applied = await c.call('POST', '/v1/public/programs/mailed/applications', {
        token: null,
        body: { name: 'Sam Recruit', email: 'sam@tiers.test', password: 'a long partner password', via: rita.key },
      });
      expect(applied.status).toBe(201);
      await c.running.work.sendMail();
      await inbox.waitFor('rita@tiers.test');
      const [mail, ...more] = inbox.take().filter((m) => m.to === 'rita@tiers.test');
      const letter = read(mail!.raw);
      expect(letter.subject).toBe('Sam Recruit joined Mailed Shop through your link');
      expect(letter.text).toContain('Sam Recruit applied to the partner program of Mailed Shop through your recruitment link');
      expect(more).toEqual([]);
      await c.running.work.sendMail();
      expect(inbox.take().filter((m) => m.to === 'rita@tiers.test')).toEqual([]);
    } finally {
      await c.close();
      await inbox.close();
    }
  });
});
