// Bounties (docs/bounties.md) over the API: performance bounties awarded once at their target
// from the partner's own records in the period, for their group only; submission bounties
// within their limits, approved once into one commission, or rejected with a reason; and no
// program or partner reaches another's.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError, seedPartner, startCollector, T0, type Collector } from './harness.js';
import { ownerSession } from './session.js';
import { type Inbox, type Mail, portalTokenFor, startSmtp } from './smtp.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(() => c.close());

const DAY = 86_400;
type Partner = Awaited<ReturnType<typeof seedPartner>>;

async function ok(method: string, path: string, body?: unknown, token?: string) {
  const reply = await c.call(method, path, { body, token });
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
  return reply.body;
}

async function bounty(body: Record<string, unknown>, token?: string) {
  const made = await ok(
    'POST',
    '/v1/bounties',
    { name: 'Spring push', starts_at: T0 - DAY, ends_at: T0 + 30 * DAY, amount: 5000, currency: 'USD', ...body },
    token,
  );
  return made.data.id as string;
}

let sales = 0;
/** A sign-up through the partner's link; resolves to the referral's id. */
async function signUp(p: Partner, token = c.publishable): Promise<string> {
  const n = ++sales;
  // A landing first, as the snippet records it: a public conversion without one is held for review.
  await c.call('POST', '/v1/tracking/click', { token, body: { gr_id: `b-${n}`, pk: p.key } });
  const conv = await c.call('POST', '/v1/tracking/conversion', {
    token,
    body: { email: `buyer${n}@customers.test`, gr_id: `b-${n}`, pk: p.key },
  });
  expect(conv.status).toBe(201);
  return conv.body.data.id;
}

/** A paying customer of the partner; resolves to the payment's idempotency key, which refunds name. */
async function sale(p: Partner, amount = 1000): Promise<string> {
  const referral = await signUp(p);
  const key = `pay-${sales}`;
  await ok('POST', '/v1/payments', { amount, currency: 'USD', referral_id: referral, idempotency_key: key });
  return key;
}

/** The partner's commissions made by bounties. */
async function bountyCommissions(partnerId: string) {
  const list = await ok('GET', `/v1/commissions?partner_id_eq=${partnerId}`);
  return list.data.filter((x: any) => String(x.attributes.reward_description ?? '').startsWith('Bounty: '));
}

/** A portal session of the partner, through their invitation; resolves to a caller of their partnership's routes. */
async function portalOf(p: Partner, token?: string, mail?: { inbox: Inbox; to: string }) {
  const invited = await ok('POST', `/v1/partners/${p.partnerId}/invitation`, undefined, token);
  // With SMTP the link goes by e-mail only.
  const link = mail ? await portalTokenFor(mail.inbox, mail.to) : String(invited.meta.link).split('#')[1];
  const redeemed = await c.call('POST', '/v1/portal/auth/redeem', {
    token: null,
    body: { token: link, password: 'a long partner password' },
  });
  const cookie = redeemed.headers.get('set-cookie')!.split(';')[0]!;
  return (method: string, path: string, body?: unknown, partnershipId = p.partnershipId) =>
    c.call(method, `/v1/portal/partnerships/${partnershipId}${path}`, { token: null, body, headers: { cookie, origin: c.url } });
}

const noticesOf = (kind: string) => c.running.db.all<{ data: string }>('SELECT data FROM notifications WHERE kind = ?', [kind]);

describe('performance bounties', () => {
  it('awards the flat amount once, at the target, naming the bounty on the commission', async () => {
    const ann = await seedPartner(c, { name: 'Ann' });
    const id = await bounty({ kind: 'performance', metric: 'sales', target: 2 });
    const portal = await portalOf(ann);
    await sale(ann);
    expect(await bountyCommissions(ann.partnerId)).toEqual([]);
    const [before] = (await portal('GET', '/bounties')).body.data;
    expect(before.attributes).toMatchObject({ progress: { value: 1, target: 2 }, awarded: false });
    await sale(ann);
    await sale(ann);
    const made = await bountyCommissions(ann.partnerId);
    expect(made.map((x: any) => [x.attributes.amount, x.attributes.currency, x.attributes.reward_description])).toEqual([
      [5000, 'USD', 'Bounty: Spring push'],
    ]);
    const [after] = (await portal('GET', '/bounties')).body.data;
    expect(after.attributes).toMatchObject({ progress: { value: 3, target: 2 }, awarded: true });
    const events = (await ok('GET', '/v1/events')).data.filter((e: any) => e.attributes.type === 'bounty.awarded');
    expect(events).toHaveLength(1);
    expect(events[0].attributes.data.attributes).toMatchObject({ bounty_id: id, partner_id: ann.partnerId, amount: 5000 });
    expect((await noticesOf('bounty_awarded')).map((n) => JSON.parse(n.data).bounty)).toEqual(['Spring push']);
  });

  it('counts only records made in the period, and awards nothing before its start or after its end', async () => {
    const ann = await seedPartner(c);
    await bounty({ kind: 'performance', metric: 'sales', target: 1, starts_at: T0 + DAY, ends_at: T0 + 2 * DAY });
    await sale(ann);
    c.clock.now = T0 + DAY + 10;
    expect(await bountyCommissions(ann.partnerId)).toEqual([]);
    // The sale before the start does not count toward the target.
    const portal = await portalOf(ann);
    expect((await portal('GET', '/bounties')).body.data[0].attributes.progress).toEqual({ value: 0, target: 1 });
    c.clock.now = T0 + 2 * DAY;
    await sale(ann);
    expect(await bountyCommissions(ann.partnerId)).toEqual([]);
    expect((await portal('GET', '/bounties')).body.data).toEqual([]);
    c.clock.now = T0;
  });

  it('counts sign-ups for a leads bounty, and revenue kept after refunds for a revenue bounty', async () => {
    const ann = await seedPartner(c);
    const bob = await seedPartner(c);
    await bounty({ name: 'Leads', kind: 'performance', metric: 'leads', target: 2, amount: 700 });
    await signUp(ann);
    expect(await bountyCommissions(ann.partnerId)).toEqual([]);
    await signUp(ann);
    expect((await bountyCommissions(ann.partnerId)).map((x: any) => x.attributes.amount)).toEqual([700]);

    await bounty({ name: 'Revenue', kind: 'performance', metric: 'revenue', target: 1500, amount: 900 });
    const first = await sale(bob, 1000);
    await ok('POST', '/v1/refunds', { payment_id: first, amount_refunded: 600 });
    const portal = await portalOf(bob);
    const revenue = (await portal('GET', '/bounties')).body.data.find((b: any) => b.attributes.name === 'Revenue');
    expect(revenue.attributes.progress).toEqual({ value: 400, target: 1500 });
    await sale(bob, 1000);
    const revenueOnes = async () =>
      (await bountyCommissions(bob.partnerId)).filter((x: any) => x.attributes.reward_description === 'Bounty: Revenue');
    expect(await revenueOnes()).toEqual([]);
    await sale(bob, 100);
    expect(await revenueOnes()).toHaveLength(1);
    const made = (await bountyCommissions(bob.partnerId)).map((x: any) => x.attributes.reward_description);
    // Bob's sign-ups count toward Leads as well: both bounties, each once.
    expect(made.sort()).toEqual(['Bounty: Leads', 'Bounty: Revenue']);
  });

  it("is for its groups' partners only: another group's partner earns nothing and sees it not", async () => {
    const vip = (await ok('POST', '/v1/groups', { name: 'VIP' })).data.id;
    const ann = await seedPartner(c);
    const bob = await seedPartner(c);
    await ok('PATCH', `/v1/partnerships/${ann.partnershipId}`, { group_id: vip });
    const id = await bounty({ kind: 'performance', metric: 'sales', target: 1, group_ids: [vip] });
    const sub = await bounty({ kind: 'submission', group_ids: [vip] });
    await sale(bob);
    await sale(ann);
    expect(await bountyCommissions(bob.partnerId)).toEqual([]);
    expect(await bountyCommissions(ann.partnerId)).toHaveLength(1);
    const bobs = await portalOf(bob);
    expect((await bobs('GET', '/bounties')).body.data).toEqual([]);
    expectError(await bobs('POST', `/bounties/${sub}/submissions`, { text: 'mine' }), 404, 'not_found');
    expectError(await bobs('POST', `/bounties/${id}/submissions`, { text: 'mine' }), 404, 'not_found');
    const anns = await portalOf(ann);
    expect((await anns('GET', '/bounties')).body.data.map((b: any) => b.id).sort()).toEqual([id, sub].sort());
  });

  it('awards once when the same payment comes twice and when payments come at once', async () => {
    const ann = await seedPartner(c);
    await bounty({ kind: 'performance', metric: 'sales', target: 3 });
    const referrals = await Promise.all([1, 2, 3, 4, 5, 6].map(() => signUp(ann)));
    // The same payment twice is one payment.
    const once = { amount: 100, currency: 'USD', referral_id: referrals[0], idempotency_key: 'twice' };
    await ok('POST', '/v1/payments', once);
    await ok('POST', '/v1/payments', once);
    expect(await bountyCommissions(ann.partnerId)).toEqual([]);
    const paid = await Promise.all(
      referrals
        .slice(1)
        .map((r, i) =>
          c.call('POST', '/v1/payments', { body: { amount: 100, currency: 'USD', referral_id: r, idempotency_key: `at-once-${i}` } }),
        ),
    );
    expect(paid.map((p) => p.status)).toEqual([201, 201, 201, 201, 201]);
    expect(await bountyCommissions(ann.partnerId)).toHaveLength(1);
    const [award] = await c.running.db.all<{ progress: number }>('SELECT progress FROM bounty_awards');
    expect(Number(award!.progress)).toBeGreaterThanOrEqual(3);
  });
});

describe('submission bounties', () => {
  it('takes submissions within its limits, and counts rejected ones out of the limit', async () => {
    const ann = await seedPartner(c);
    const id = await bounty({ kind: 'submission', max_submissions: 1, max_urls: 2, max_text: 20, requires_url: true });
    const portal = await portalOf(ann);
    const submit = (body: unknown) => portal('POST', `/bounties/${id}/submissions`, body);
    expectError(await submit({ text: 'no url' }), 422, 'missing_field');
    expectError(await submit({ urls: ['https://a.test/1', 'https://a.test/2', 'https://a.test/3'] }), 422, 'invalid_field');
    expectError(await submit({ urls: ['https://a.test/1'], text: 'x'.repeat(21) }), 422, 'invalid_field');
    expectError(await submit({ urls: ['javascript:alert(1)'] }), 422, 'invalid_field');
    const first = await submit({ urls: ['https://blog.test/review'], text: 'My review' });
    expect(first.status).toBe(201);
    expect(first.body.data.attributes).toMatchObject({ state: 'pending', urls: ['https://blog.test/review'], text: 'My review' });
    expectError(await submit({ urls: ['https://blog.test/again'] }), 409, 'conflict');
    expect((await noticesOf('new_submission')).length).toBe(1);
    // Rejected, it no longer counts: the partner may try again.
    const sub = first.body.data.id;
    expectError(await c.call('PATCH', `/v1/bounties/${id}/submissions/${sub}`, { body: { state: 'rejected' } }), 422, 'missing_field');
    const rejected = await ok('PATCH', `/v1/bounties/${id}/submissions/${sub}`, { state: 'rejected', reject_reason: 'Not live yet' });
    expect(rejected.data.attributes).toMatchObject({ state: 'rejected', reject_reason: 'Not live yet', commission_id: null });
    expect((await noticesOf('submission_rejected')).map((n) => JSON.parse(n.data).reason)).toEqual(['Not live yet']);
    const [listed] = (await portal('GET', '/bounties')).body.data;
    expect(listed.attributes.submissions_left).toBe(1);
    expect(listed.attributes.submissions[0].attributes.reject_reason).toBe('Not live yet');
    expect((await submit({ urls: ['https://blog.test/live'] })).status).toBe(201);
    expectError(await c.call('PATCH', `/v1/bounties/${id}/submissions/${sub}`, { body: { state: 'approved' } }), 409, 'invalid_transition');
  });

  it('makes one commission on approval, however often and however concurrently it is approved', async () => {
    const ann = await seedPartner(c);
    const id = await bounty({ kind: 'submission', amount: 2500, currency: 'EUR' });
    const portal = await portalOf(ann);
    const sub = (await portal('POST', `/bounties/${id}/submissions`, { text: 'A video about you' })).body.data.id;
    const pending = await ok('GET', `/v1/bounties/${id}/submissions?state_eq=pending`);
    expect(pending.data.map((s: any) => s.id)).toEqual([sub]);
    const approve = () => c.call('PATCH', `/v1/bounties/${id}/submissions/${sub}`, { body: { state: 'approved' } });
    const answers = await Promise.all([approve(), approve(), approve()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const made = await bountyCommissions(ann.partnerId);
    expect(made.map((x: any) => [x.attributes.amount, x.attributes.currency])).toEqual([[2500, 'EUR']]);
    expect(answers[0]!.body.data.attributes).toMatchObject({ state: 'approved', commission_id: made[0].id });
    expect((await approve()).body.data.attributes.commission_id).toBe(made[0].id);
    expect((await noticesOf('submission_approved')).length).toBe(1);
    expectError(await portal('POST', `/bounties/${id}/submissions`, { text: 'again' }), 409, 'conflict');
  });

  it('takes no submission to a performance bounty, an archived one, or one not open yet', async () => {
    const ann = await seedPartner(c);
    const portal = await portalOf(ann);
    const perf = await bounty({ kind: 'performance', metric: 'sales', target: 5 });
    expectError(await portal('POST', `/bounties/${perf}/submissions`, { text: 'x' }), 422, 'invalid_field');
    const later = await bounty({ kind: 'submission', starts_at: T0 + DAY });
    expectError(await portal('POST', `/bounties/${later}/submissions`, { text: 'x' }), 404, 'not_found');
    const archived = await bounty({ kind: 'submission' });
    const after = await ok('PATCH', `/v1/bounties/${archived}`, { archived: true });
    expect(after.data.attributes.archived).toBe(true);
    expectError(await portal('POST', `/bounties/${archived}/submissions`, { text: 'x' }), 404, 'not_found');
    expect((await portal('GET', '/bounties')).body.data.map((b: any) => b.id)).toEqual([perf]);
  });
});

describe('bounties owned', () => {
  it('refuses terms that do not fit the kind, and unknown groups', async () => {
    const base = { name: 'B', starts_at: T0, ends_at: T0 + DAY, amount: 100, currency: 'USD' };
    const post = (body: unknown) => c.call('POST', '/v1/bounties', { body: { ...base, ...(body as object) } });
    expectError(await post({ kind: 'performance', metric: 'sales' }), 422, 'missing_field');
    expectError(await post({ kind: 'performance', target: 3 }), 422, 'missing_field');
    expectError(await post({ kind: 'performance', metric: 'sales', target: 3, max_urls: 2 }), 422, 'invalid_field');
    expectError(await post({ kind: 'submission', metric: 'sales' }), 422, 'invalid_field');
    expectError(await post({ kind: 'submission', ends_at: T0 }), 422, 'invalid_field');
    expectError(await post({ kind: 'submission', group_ids: ['nope'] }), 422, 'invalid_field');
    expectError(await post({ kind: 'submission', currency: 'XXX' }), 422, 'invalid_field');
    const made = (await post({ kind: 'submission' })).body.data;
    expect(made.attributes).toMatchObject({ max_submissions: 1, max_urls: 5, max_text: 2000, requires_url: false, group_ids: [] });
    const edited = await ok('PATCH', `/v1/bounties/${made.id}`, { name: 'Renamed', max_submissions: 3 });
    expect(edited.data.attributes).toMatchObject({ name: 'Renamed', max_submissions: 3 });
    expect((await ok('GET', '/v1/bounties?kind_eq=submission')).data.map((b: any) => b.id)).toEqual([made.id]);
  });

  it("reaches no other program's bounty or submission, and no other partner's", async () => {
    const other = await c.otherProgram();
    const theirs = await seedPartner(c, { token: other.secret });
    const id = await bounty({ kind: 'submission', max_submissions: 2 }, other.secret);
    const theirPortal = await portalOf(theirs, other.secret);
    const sub = (await theirPortal('POST', `/bounties/${id}/submissions`, { text: 'theirs' })).body.data.id;
    expectError(await c.call('GET', `/v1/bounties/${id}`), 404, 'not_found');
    expectError(await c.call('PATCH', `/v1/bounties/${id}`, { body: { name: 'Taken' } }), 404, 'not_found');
    expectError(await c.call('GET', `/v1/bounties/${id}/submissions`), 404, 'not_found');
    expectError(await c.call('PATCH', `/v1/bounties/${id}/submissions/${sub}`, { body: { state: 'approved' } }), 404, 'not_found');
    expect((await ok('GET', '/v1/bounties')).data).toEqual([]);
    // A partner of ours reaches neither their partnership nor their bounty through ours.
    const ann = await seedPartner(c);
    const mine = await portalOf(ann);
    expectError(await mine('POST', `/bounties/${id}/submissions`, { text: 'x' }), 404, 'not_found');
    expectError(await mine('GET', '/bounties', undefined, theirs.partnershipId), 404, 'not_found');
    expectError(await mine('POST', `/bounties/${id}/submissions`, { text: 'x' }, theirs.partnershipId), 404, 'not_found');
    // Our own bounty's submission is not reached under another bounty's id.
    const ours = await bounty({ kind: 'submission' });
    const ourSub = (await mine('POST', `/bounties/${ours}/submissions`, { text: 'ours' })).body.data.id;
    const another = await bounty({ kind: 'submission' });
    expectError(await c.call('PATCH', `/v1/bounties/${another}/submissions/${ourSub}`, { body: { state: 'approved' } }), 404, 'not_found');
  });
});

describe("bounties' e-mails", () => {
  it('tells the owners of a submission, and the partner of an award, an approval and a rejection with its reason', async () => {
    const inbox = await startSmtp();
    await c.close();
    c = await startCollector({ smtpUrl: inbox.url });
    try {
      const owner = await ownerSession(c);
      const ann = await seedPartner(c, { name: 'Ann', email: 'ann@partners.test' });
      await bounty({ name: 'First sale', kind: 'performance', metric: 'sales', target: 1, amount: 1500 });
      const id = await bounty({ name: 'Blog post', kind: 'submission', max_submissions: 2, amount: 2000 });
      await sale(ann);
      const portal = await portalOf(ann, undefined, { inbox, to: 'ann@partners.test' });
      const [first, second] = [
        (await portal('POST', `/bounties/${id}/submissions`, { text: 'one' })).body.data.id,
        (await portal('POST', `/bounties/${id}/submissions`, { text: 'two' })).body.data.id,
      ];
      await ok('PATCH', `/v1/bounties/${id}/submissions/${first}`, { state: 'approved' });
      await ok('PATCH', `/v1/bounties/${id}/submissions/${second}`, { state: 'rejected', reject_reason: 'Duplicate post' });
      await c.running.work.sendMail();
      const subjects = (to: string) =>
        inbox.mails
          .filter((m: Mail) => m.to === to)
          .map((m: Mail) => /^Subject: (.*)$/m.exec(m.raw)?.[1])
          .sort();
      expect(subjects('ann@partners.test')).toEqual(
        expect.arrayContaining([
          'My program approved your submission to Blog post',
          'You reached the bounty First sale of My program',
          'Your submission to Blog post of My program',
        ]),
      );
      expect(inbox.mails.some((m: Mail) => m.to === 'ann@partners.test' && m.raw.includes('Duplicate post'))).toBe(true);
      expect(subjects(owner.email)).toEqual(expect.arrayContaining(['My program: a bounty submission to review']));
    } finally {
      await inbox.close();
    }
  });
});
