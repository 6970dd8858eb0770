// Submitted leads (docs/leads.md) through the API: a partner submits in the portal, the
// owner on a partner's behalf; the address's rules and lengths; duplicates by e-mail, by
// company domain (not a free-mail one) and by referral refused with their reason, within the
// window; the stage machine; won makes the partner's referral, whose payment earns their
// commission; e-mails to the owners and the partner; nobody else's lead is reached.

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compose } from '../../packages/collector/src/flows/notification-letters.js';
import type { NotificationRow } from '../../packages/collector/src/modules/notifications/repo.js';
import { ownersOf } from '../../packages/collector/src/modules/notifications/repo.js';
import { integrityProblems } from './database.js';
import { ownerSession } from './session.js';
import { type CallOptions, type Collector, expectError, type Reply, seedPartner } from './harness.js';
import { type Json, programsKit } from './programs-kit.js';

const kit = programsKit();
type Call = (method: string, path: string, opts?: CallOptions) => Promise<Reply>;

let n = 0;

/** A program of its own whose page accepts applications at once, and a partner of it signed in to the portal. */
async function program() {
  const c: Collector = kit.c;
  const p = await c.otherProgram();
  const slug = `leads-${++n}-${p.id.slice(-6)}`;
  const set = await c.call('PATCH', '/v1/program', { token: p.secret, body: { slug, page_enabled: true, auto_accept: true } });
  expect(set.status).toBe(200);
  const owner = (method: string, path: string, body?: unknown) => c.call(method, path, { token: p.secret, body });
  return { ...p, slug, owner, partner: () => partnerOf(slug, p.secret) };
}

async function partnerOf(slug: string, secret: string) {
  const c = kit.c;
  const k = ++n;
  const email = `seller${k}@partners.test`;
  const applied = await c.call('POST', `/v1/public/programs/${slug}/applications`, {
    token: null,
    body: { name: `Seller ${k}`, email, password: 'a long partner password' },
  });
  expect(applied.status).toBe(201);
  const cookie = applied.headers
    .getSetCookie()
    .find((x) => x.startsWith('tally_partner='))!
    .split(';')[0]!;
  const call: Call = (method, path, opts = {}) =>
    c.call(method, path, { ...opts, token: null, headers: { cookie, origin: c.url, ...opts.headers } });
  const [ship] = (await call('GET', '/v1/portal/partnerships')).body.data;
  const [partner] = (await c.call('GET', `/v1/partners?email_eq=${email}`, { token: secret })).body.data;
  const leads = `/v1/portal/partnerships/${ship.id}/leads`;
  const submit = (body: Json) => call('POST', leads, { body });
  return {
    call,
    submit,
    leads,
    email,
    partnershipId: ship.id as string,
    partnerId: partner.id as string,
    name: partner.attributes.name as string,
  };
}

const lead = (email: string, more: Json = {}) => ({ name: 'Dana Buyer', email, company: 'Acme', notes: 'Met at a fair', ...more });

const noticesOf = (kind: string, programId: string) =>
  kit.c.running.db.all<NotificationRow>('SELECT * FROM notifications WHERE kind = ? AND program_id = ? ORDER BY created_at, id', [
    kind,
    programId,
  ]);

describe('submitting a lead', () => {
  it('a partner submits in the portal: stage new, theirs, listed for the owner and the owners told by e-mail', async () => {
    const p = await program();
    const maya = await p.partner();
    const made = await maya.submit(lead('dana@acme.test'));
    expect(made.status).toBe(201);
    expect(made.body.data.attributes).toMatchObject({
      name: 'Dana Buyer',
      email: 'dana@acme.test',
      company: 'Acme',
      notes: 'Met at a fair',
      stage: 'new',
      partner_id: maya.partnerId,
      submitted_by: 'partner',
    });
    expect(made.body.data.relationships).toEqual({
      partnership: { data: { id: maya.partnershipId, type: 'partnership' } },
      referral: { data: null },
    });
    const listed = (await p.owner('GET', '/v1/leads?stage_eq=new')).body.data;
    expect(listed.map((l: Json) => l.id)).toEqual([made.body.data.id]);
    expect((await p.owner('GET', `/v1/leads?partner_id_eq=${maya.partnerId}`)).body.data).toHaveLength(1);
    expect((await p.owner('GET', '/v1/leads?email_eq=DANA@ACME.TEST')).body.data).toHaveLength(0);
    expect((await p.owner('GET', '/v1/leads?email_eq=dana@ACME.TEST')).body.data).toHaveLength(1);
    expect((await maya.call('GET', maya.leads)).body.data.map((l: Json) => l.id)).toEqual([made.body.data.id]);
    expect((await p.owner('GET', '/v1/events?type_eq=lead.created')).body.data).toHaveLength(1);

    const [row] = await noticesOf('new_lead', p.id);
    expect(row?.audience).toBe('owners');
    const owner = await ownerSession(kit.c, { programId: p.id });
    const draft = await kit.c.running.db.transaction(async (tx) => {
      const [user] = await ownersOf(tx, p.id);
      return compose(tx, { ...row!, audience: 'owner', recipient_id: user!.id }, kit.c.clock.now);
    });
    expect(draft?.to).toBe(owner.email);
    expect(draft?.subject).toBe(`${maya.name} submitted a lead to Other`);
    expect(draft?.paragraphs.join(' ')).toContain('Dana Buyer (dana@acme.test, company: Acme)');
    expect(draft?.path).toBe('/dashboard/leads?stage=new');
  });

  it("the owner submits on a partner's behalf by partner_id; an unknown partner is 422; the owners are not told of their own", async () => {
    const p = await program();
    const leo = await seedPartner(kit.c, { token: p.secret });
    const made = await p.owner('POST', '/v1/leads', { partner_id: leo.partnerId, ...lead('ops@globex.test') });
    expect(made.status).toBe(201);
    expect(made.headers.get('location')).toBe(`/v1/leads/${made.body.data.id}`);
    expect(made.body.data.attributes).toMatchObject({ submitted_by: 'owner', partner_id: leo.partnerId });
    expect(made.body.data.relationships.partnership.data.id).toBe(leo.partnershipId);
    expect(await noticesOf('new_lead', p.id)).toEqual([]);
    expectError(await p.owner('POST', '/v1/leads', { partner_id: 'nobody', ...lead('x@initech.test') }), 422, 'unknown_partner');
    // A partner deleted goes with their leads (none won: a won lead's referral keeps them).
    expect((await p.owner('DELETE', `/v1/partners/${leo.partnerId}`)).status).toBe(204);
    expectError(await p.owner('GET', `/v1/leads/${made.body.data.id}`), 404, 'not_found');
    const pending = await seedPartner(kit.c, { token: p.secret, state: 'pending' });
    expectError(
      await p.owner('POST', '/v1/leads', { partner_id: pending.partnerId, ...lead('y@initech.test') }),
      422,
      'partnership_declined',
    );
  });

  it('checks the address and the lengths: invalid e-mail, missing or long name, long notes, unknown field', async () => {
    const p = await program();
    const maya = await p.partner();
    expect(expectError(await maya.submit(lead('not-an-address')), 422, 'invalid_email').source.pointer).toBe('/email');
    expect(expectError(await maya.submit(lead('=cmd@acme.test')), 422, 'invalid_email').source.pointer).toBe('/email');
    expectError(await maya.submit({ email: 'a@acme.test' }), 422, 'missing_field');
    expect(expectError(await maya.submit(lead('a@acme.test', { name: 'x'.repeat(201) })), 422, 'invalid_field').source.pointer).toBe(
      '/name',
    );
    expect(expectError(await maya.submit(lead('a@acme.test', { notes: 'x'.repeat(2001) })), 422, 'invalid_field').source.pointer).toBe(
      '/notes',
    );
    expectError(await maya.submit(lead('a@acme.test', { stage: 'won' })), 422, 'unknown_field');
    // Their own mailbox, in any spelling: a self-referral once won.
    expectError(await maya.submit(lead(`${maya.email.replace('@', '+me@').toUpperCase()}`)), 422, 'self_referral');
    expect((await p.owner('GET', '/v1/leads')).body.data).toEqual([]);
  });
});

describe('duplicates are refused with the reason', () => {
  it('the same e-mail again, by any partner: lead_email; the owner is told which lead, a partner is not', async () => {
    const p = await program();
    const [maya, leo] = [await p.partner(), await p.partner()];
    const first = (await maya.submit(lead('dana@acme.test'))).body.data;
    const again = expectError(await leo.submit(lead('dana@ACME.test', { company: 'Other' })), 409, 'duplicate_lead');
    expect(again.meta).toEqual({ reason: 'lead_email' });
    expect(again.source.pointer).toBe('/email');
    const byOwner = expectError(
      await p.owner('POST', '/v1/leads', { partner_id: leo.partnerId, ...lead('dana@acme.test') }),
      409,
      'duplicate_lead',
    );
    expect(byOwner.meta).toEqual({ reason: 'lead_email', lead_id: first.id });
  });

  it('another person at the same company domain: lead_domain; at a free-mail domain, both are leads', async () => {
    const p = await program();
    const [maya, leo] = [await p.partner(), await p.partner()];
    expect((await maya.submit(lead('dana@acme.test'))).status).toBe(201);
    expect(expectError(await leo.submit(lead('sam@Acme.test')), 409, 'duplicate_lead').meta).toEqual({ reason: 'lead_domain' });
    expect((await maya.submit(lead('dana.buyer@gmail.com'))).status).toBe(201);
    expect((await leo.submit(lead('sam.other@gmail.com'))).status).toBe(201);
    expect((await leo.submit(lead('someone@outlook.com'))).status).toBe(201);
    expect((await p.owner('GET', '/v1/leads')).body.data).toHaveLength(4);
  });

  it("a person who is already the program's referral: referral_email", async () => {
    const p = await program();
    const maya = await p.partner();
    const leo = await seedPartner(kit.c, { token: p.secret });
    const converted = await p.owner('POST', '/v1/tracking/conversion', { email: 'client@initech.test', gr_id: randomUUID(), pk: leo.key });
    expect(converted.status).toBe(201);
    expect(expectError(await maya.submit(lead('client@initech.test')), 409, 'duplicate_lead').meta).toEqual({ reason: 'referral_email' });
  });

  it('the window: a lead older than 90 days no longer makes a duplicate of the same company', async () => {
    const p = await program();
    const [maya, leo] = [await seedPartner(kit.c, { token: p.secret }), await seedPartner(kit.c, { token: p.secret })];
    const submit = (partnerId: string, email: string) => p.owner('POST', '/v1/leads', { partner_id: partnerId, ...lead(email) });
    expect((await submit(maya.partnerId, 'dana@umbrella.test')).status).toBe(201);
    const start = kit.c.clock.now;
    try {
      kit.c.clock.now = start + 89 * 86_400;
      expect(expectError(await submit(leo.partnerId, 'sam@umbrella.test'), 409, 'duplicate_lead').meta.reason).toBe('lead_domain');
      kit.c.clock.now = start + 91 * 86_400;
      expect((await submit(leo.partnerId, 'sam@umbrella.test')).status).toBe(201);
    } finally {
      kit.c.clock.now = start;
    }
  });

  it('two submissions of one person at once make one lead', async () => {
    const p = await program();
    const [maya, leo] = [await p.partner(), await p.partner()];
    const replies = await Promise.all([maya.submit(lead('race@hooli.test')), leo.submit(lead('race@hooli.test'))]);
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await p.owner('GET', '/v1/leads')).body.data).toHaveLength(1);
  });
});

describe('stages', () => {
  it('new → qualified → lost with a reason; the moves the machine refuses; the partner told of each move', async () => {
    const p = await program();
    const maya = await p.partner();
    const id = (await maya.submit(lead('dana@acme.test'))).body.data.id;
    const move = (body: Json) => p.owner('PATCH', `/v1/leads/${id}`, body);
    expect(expectError(await move({ stage: 'won' }), 409, 'invalid_transition').source.pointer).toBe('/stage');
    expectError(await move({ stage: 'qualified', lost_reason: 'no' }), 422, 'invalid_field');
    expect((await move({ stage: 'qualified' })).body.data.attributes.stage).toBe('qualified');
    expectError(await move({ stage: 'qualified' }), 409, 'invalid_transition');
    expect(expectError(await move({ stage: 'lost' }), 422, 'missing_field').source.pointer).toBe('/lost_reason');
    const lost = (await move({ stage: 'lost', lost_reason: 'No budget this year' })).body.data;
    expect(lost.attributes).toMatchObject({ stage: 'lost', lost_reason: 'No budget this year' });
    expect(lost.relationships.referral.data).toBeNull();
    expectError(await move({ stage: 'qualified' }), 409, 'invalid_transition');
    expect((await maya.call('GET', `${maya.leads}?stage_eq=lost`)).body.data[0].attributes.lost_reason).toBe('No budget this year');

    const rows = await noticesOf('lead_stage', p.id);
    expect(rows.map((r) => [r.audience, r.recipient_id, JSON.parse(r.data).stage])).toEqual([
      ['partner', maya.partnerId, 'qualified'],
      ['partner', maya.partnerId, 'lost'],
    ]);
    const letter = await kit.c.running.db.transaction((tx) => compose(tx, rows[1]!, kit.c.clock.now));
    expect(letter?.to).toBe(`seller${n}@partners.test`);
    expect(letter?.subject).toBe('Your lead Dana Buyer at Other');
    expect(letter?.paragraphs.join(' ')).toContain('No budget this year');
    expect(letter?.path).toBe('/portal/');
  });

  it('new → lost directly; a lead of another program is 404', async () => {
    const [p, q] = [await program(), await program()];
    const maya = await p.partner();
    const id = (await maya.submit(lead('dana@acme.test'))).body.data.id;
    expectError(await q.owner('GET', `/v1/leads/${id}`), 404, 'not_found');
    expectError(await q.owner('PATCH', `/v1/leads/${id}`, { stage: 'qualified' }), 404, 'not_found');
    expect((await q.owner('GET', '/v1/leads')).body.data).toEqual([]);
    expect((await p.owner('PATCH', `/v1/leads/${id}`, { stage: 'lost', lost_reason: 'Spam' })).body.data.attributes.stage).toBe('lost');
  });
});

describe('a won lead', () => {
  it("makes the partner's referral; its payment then earns the partner's commission", async () => {
    const p = await program();
    const maya = await p.partner();
    const id = (await maya.submit(lead('dana@acme.test'))).body.data.id;
    await p.owner('PATCH', `/v1/leads/${id}`, { stage: 'qualified' });
    const won = (await p.owner('PATCH', `/v1/leads/${id}`, { stage: 'won' })).body.data;
    expect(won.attributes.stage).toBe('won');
    const referralId = won.relationships.referral.data.id;
    const referral = (await p.owner('GET', `/v1/referrals/${referralId}`)).body.data;
    expect(referral.attributes).toMatchObject({ email: 'dana@acme.test', state: 'converted' });
    expect(referral.relationships.partnership.data.id).toBe(maya.partnershipId);

    const paid = await p.owner('POST', '/v1/payments', {
      amount: 10_000,
      currency: 'USD',
      idempotency_key: randomUUID(),
      referral_email: 'dana@acme.test',
    });
    expect(paid.status).toBe(201);
    expect(paid.body.included[0].attributes).toMatchObject({
      partner_id: maya.partnerId,
      amount: 2_000,
      currency: 'USD',
      state: 'pending',
    });
    expect((await maya.call('GET', `/v1/portal/partnerships/${maya.partnershipId}/commissions`)).body.data).toHaveLength(1);
    expect((await maya.call('GET', `${maya.leads}?stage_eq=won`)).body.data[0].relationships.referral.data.id).toBe(referralId);
    expect(await integrityProblems(kit.c.databaseUrl)).toEqual([]);
  });

  it("links the partner's own referral of the person; another partner's referral of them stands, and the lead is not won", async () => {
    const p = await program();
    const [maya, leo] = [await p.partner(), await p.partner()];
    const mine = (await maya.submit(lead('dana@acme.test'))).body.data.id;
    const theirs = (await maya.submit(lead('sam@gmail.com'))).body.data.id;
    const keyOf = async (partnershipId: string) => (await p.owner('GET', `/v1/partnerships/${partnershipId}`)).body.data.attributes.key;
    // Each signed up through a link meanwhile: Dana through Maya's, Sam through Leo's.
    const dana = await p.owner('POST', '/v1/tracking/conversion', {
      email: 'dana@acme.test',
      gr_id: randomUUID(),
      pk: await keyOf(maya.partnershipId),
    });
    await p.owner('POST', '/v1/tracking/conversion', { email: 'sam@gmail.com', gr_id: randomUUID(), pk: await keyOf(leo.partnershipId) });
    for (const id of [mine, theirs]) await p.owner('PATCH', `/v1/leads/${id}`, { stage: 'qualified' });
    const won = (await p.owner('PATCH', `/v1/leads/${mine}`, { stage: 'won' })).body.data;
    expect(won.relationships.referral.data.id).toBe(dana.body.data.id);
    const refused = expectError(await p.owner('PATCH', `/v1/leads/${theirs}`, { stage: 'won' }), 409, 'referral_exists');
    expect(refused.meta.referral_id).toBeDefined();
    expect((await p.owner('GET', `/v1/leads/${theirs}`)).body.data.attributes.stage).toBe('qualified');
    expect((await p.owner('GET', '/v1/referrals')).body.data).toHaveLength(2);
  });
});

describe('partners reach their own leads only', () => {
  it("another partner's partnership, or another program's, is 404; their lists show none of the other's leads", async () => {
    const [p, q] = [await program(), await program()];
    const [maya, leo] = [await p.partner(), await p.partner()];
    const stranger = await q.partner();
    await maya.submit(lead('dana@acme.test'));
    expectError(await leo.call('GET', maya.leads), 404, 'not_found');
    expect((await leo.submit(lead('x@initech.test'))).status).toBe(201);
    expectError(await leo.call('POST', maya.leads, { body: lead('y@initech.test') }), 404, 'not_found');
    expectError(await stranger.call('GET', maya.leads), 404, 'not_found');
    expect((await leo.call('GET', leo.leads)).body.data.map((l: Json) => l.attributes.email)).toEqual(['x@initech.test']);
    expect((await stranger.call('GET', stranger.leads)).body.data).toEqual([]);
  });
});
