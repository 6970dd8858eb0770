// Messages (docs/messages.md): a thread per partnership between the program's team and the
// partner, with each side's read state, through the API, the portal and the embed; another
// partner's or program's thread is 404; the e-mail that a message waits goes once per burst,
// after the wait, only while unread and not turned off; broadcasts reach their group only,
// in each partner's language, now or once at their time however many ticks race.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueBroadcasts } from '../../packages/collector/src/modules/messages/service.js';
import { MESSAGE_WAIT_SECONDS } from '../../packages/collector/src/modules/notifications/kinds.js';
import { expectError, type Reply, seedPartner, startCollector, type Collector } from './harness.js';
import { ownerSession } from './session.js';
import { type Inbox, type Mail, portalTokenFor, startSmtp } from './smtp.js';

let inbox: Inbox;
let c: Collector;
beforeAll(async () => {
  inbox = await startSmtp();
  c = await startCollector({ smtpUrl: inbox.url });
});
afterAll(async () => {
  await c?.close();
  await inbox?.close();
});

type Program = { id: string; secret: string };
const ok = async (reply: Promise<Reply>, status = 200) => {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};
const as = (p: Program) => (method: string, path: string, body?: unknown) => c.call(method, path, { token: p.secret, body });

/** A partner of `p` signed in to the portal: calls with their cookie, from the collector's origin. */
let people = 0;
async function portalPartner(p: Program, opts: { email?: string } = {}) {
  const email = opts.email ?? `portal-${++people}@partners.test`;
  const made = await seedPartner(c, { token: p.secret, email });
  await ok(c.call('POST', `/v1/partners/${made.partnerId}/invitation`, { token: p.secret }), 201);
  const token = await portalTokenFor(inbox, email);
  const redeemed = await c.call('POST', '/v1/portal/auth/redeem', { token: null, body: { token, password: 'a portal password' } });
  const cookie = redeemed.headers
    .getSetCookie()
    .map((x) => x.split(';')[0])
    .join('; ');
  const call = (method: string, path: string, body?: unknown) =>
    c.call(method, path, { token: null, body, headers: { cookie, origin: c.url } });
  return { ...made, call, thread: `/v1/portal/partnerships/${made.partnershipId}/message_thread` };
}

const bodies = (list: { data: Array<{ attributes: { body: string } }> }) => list.data.map((m) => m.attributes.body);
const subject = (m: Mail) => /^Subject: (.*)$/m.exec(m.raw)?.[1];
const drain = () => c.running.work.sendMail();

describe('a thread per partnership', () => {
  it('the team writes, the partner reads and answers in the portal, each side with its unread count and read time', async () => {
    const p = await c.otherProgram();
    const owner = as(p);
    const alice = await portalPartner(p);
    const team = `/v1/message_threads/${alice.partnershipId}`;
    // A partnership without messages has its thread already, empty.
    expect((await ok(owner('GET', team))).data.attributes).toMatchObject({ unread: 0, last_message_at: null, read_at: null });
    await ok(owner('POST', `${team}/messages`, { body: '  Welcome aboard! See https://shop.test/kit  ' }), 201);
    c.clock.now += 5;
    await ok(owner('POST', `${team}/messages`, { body: 'Any questions?' }), 201);

    const mine = (await ok(alice.call('GET', alice.thread))).data.attributes;
    expect(mine).toMatchObject({ partnership_id: alice.partnershipId, unread: 2, read_at: null, other_read_at: c.clock.now });
    expect(mine.partner_name).toBeUndefined();
    const list = await ok(alice.call('GET', `${alice.thread}/messages`));
    expect(bodies(list)).toEqual(['Any questions?', 'Welcome aboard! See https://shop.test/kit']);
    expect(list.data[0].attributes).toMatchObject({ author: 'team', broadcast_id: null, thread_id: alice.partnershipId });

    c.clock.now += 60;
    expect((await ok(alice.call('POST', `${alice.thread}/read`))).data.attributes).toMatchObject({ unread: 0, read_at: c.clock.now });
    expect((await ok(owner('GET', team))).data.attributes.other_read_at).toBe(c.clock.now);
    await ok(alice.call('POST', `${alice.thread}/messages`, { body: 'Thanks, all clear.' }), 201);

    const threads = await ok(owner('GET', '/v1/message_threads'));
    expect(threads.data.map((t: any) => [t.id, t.attributes.unread, t.attributes.partner_name])).toEqual([
      [alice.partnershipId, 1, expect.any(String)],
    ]);
    expect((await ok(owner('GET', '/v1/messages/unread'))).data.attributes).toEqual({ threads: 1, messages: 1 });
    expect((await ok(owner('GET', '/v1/message_threads?unread_gt=0'))).data).toHaveLength(1);
    await ok(owner('POST', `${team}/read`));
    expect((await ok(owner('GET', '/v1/messages/unread'))).data.attributes).toEqual({ threads: 0, messages: 0 });
    expect((await ok(owner('GET', '/v1/message_threads?unread_gt=0'))).data).toEqual([]);
    // A dashboard session writes as the team, as the token does; a viewer may read and not write.
    const o = await ownerSession(c, { programId: p.id });
    await ok(o.call('POST', `${team}/messages`, { body: { body: 'From the dashboard' } }), 201);
    const viewer = await ownerSession(c, { programId: p.id, role: 'viewer' });
    expect((await ok(viewer.call('GET', `${team}/messages`))).data[0].attributes.body).toBe('From the dashboard');
    expectError(await viewer.call('POST', `${team}/messages`, { body: { body: 'No' } }), 403, 'forbidden');
  });

  it('keeps bodies plain text within their limits', async () => {
    const p = await c.otherProgram();
    const s = await seedPartner(c, { token: p.secret });
    const path = `/v1/message_threads/${s.partnershipId}/messages`;
    expectError(await as(p)('POST', path, { body: '   ' }), 422, 'invalid_field');
    expectError(await as(p)('POST', path, { body: 'x'.repeat(5001) }), 422, 'invalid_field');
    const html = '<script>alert(1)</script> & <b>bold</b>';
    expect((await ok(as(p)('POST', path, { body: html }), 201)).data.attributes.body).toBe(html);
    expect((await ok(as(p)('POST', path, { body: 'x'.repeat(5000) }), 201)).data.attributes.body).toHaveLength(5000);
  });

  it("another partner's thread, another program's and an unknown one answer 404 everywhere", async () => {
    const p = await c.otherProgram();
    const q = await c.otherProgram();
    const alice = await portalPartner(p);
    const bob = await portalPartner(p);
    const theirs = await seedPartner(c, { token: q.secret });
    await ok(as(q)('POST', `/v1/message_threads/${theirs.partnershipId}/messages`, { body: 'Theirs' }), 201);
    for (const id of [theirs.partnershipId, 'no-such-thread']) {
      for (const [method, suffix, body] of [
        ['GET', '', undefined],
        ['GET', '/messages', undefined],
        ['POST', '/messages', { body: 'Hello' }],
        ['POST', '/read', undefined],
      ] as const) {
        expectError(await as(p)(method, `/v1/message_threads/${id}${suffix}`, body), 404, 'not_found');
      }
    }
    expect(JSON.stringify(await ok(as(p)('GET', '/v1/message_threads')))).not.toContain(theirs.partnershipId);
    // Bob reaches Alice's thread in no way, nor Q's.
    for (const id of [alice.partnershipId, theirs.partnershipId]) {
      const thread = `/v1/portal/partnerships/${id}/message_thread`;
      expectError(await bob.call('GET', thread), 404, 'not_found');
      expectError(await bob.call('GET', `${thread}/messages`), 404, 'not_found');
      expectError(await bob.call('POST', `${thread}/messages`, { body: 'Hi' }), 404, 'not_found');
      expectError(await bob.call('POST', `${thread}/read`), 404, 'not_found');
    }
    const broadcast = await ok(as(q)('POST', '/v1/broadcasts', { bodies: { en: 'News' } }), 201);
    expectError(await as(p)('GET', `/v1/broadcasts/${broadcast.data.id}`), 404, 'not_found');
    expect((await ok(as(p)('GET', '/v1/broadcasts'))).data).toEqual([]);
  });

  it("the embed reads and writes its own partner's thread", async () => {
    const p = await c.otherProgram();
    await ok(as(p)('PATCH', '/v1/program', { allowed_origins: ['https://app.company.test'] }));
    const minted = await ok(as(p)('POST', '/v1/embed_tokens', { user_id: 'u-1', name: 'Una', email: 'una@company.test' }), 201);
    const other = await seedPartner(c, { token: p.secret });
    await ok(as(p)('POST', `/v1/message_threads/${other.partnershipId}/messages`, { body: 'Not for Una' }), 201);
    const ship = minted.data.relationships.partnership.data.id;
    await ok(as(p)('POST', `/v1/message_threads/${ship}/messages`, { body: 'Hello Una' }), 201);
    const opened = await ok(c.call('POST', '/v1/embed/sessions', { token: null, body: { token: minted.data.attributes.token } }), 201);
    const embed = (method: string, path: string, body?: unknown) => c.call(method, path, { token: opened.data.attributes.token, body });
    expect((await ok(embed('GET', '/v1/embed/message_thread'))).data.attributes).toMatchObject({ partnership_id: ship, unread: 1 });
    expect(bodies(await ok(embed('GET', '/v1/embed/message_thread/messages')))).toEqual(['Hello Una']);
    await ok(embed('POST', '/v1/embed/message_thread/messages', { body: 'Hi team' }), 201);
    expect((await ok(embed('POST', '/v1/embed/message_thread/read'))).data.attributes.unread).toBe(0);
    expect(bodies(await ok(as(p)('GET', `/v1/message_threads/${ship}/messages`)))).toEqual(['Hi team', 'Hello Una']);
    expect(bodies(await ok(as(p)('GET', `/v1/message_threads/${other.partnershipId}/messages`)))).toEqual(['Not for Una']);
  });
});

describe('the e-mail that a message waits', () => {
  it('goes once per burst after the wait, quoting the latest; not when read meanwhile; again after a read; the team hears of replies', async () => {
    const p = await c.otherProgram();
    const owner = await ownerSession(c, { programId: p.id });
    const alice = await portalPartner(p, { email: 'alice-messages@partners.test' });
    const team = `/v1/message_threads/${alice.partnershipId}/messages`;
    // Earlier tests' messages wait too: what this one counts is its own program's.
    const mine = () => inbox.take().filter((m) => m.to === 'alice-messages@partners.test' || m.to === owner.email);
    c.clock.now += MESSAGE_WAIT_SECONDS;
    await drain();
    inbox.take();
    for (const body of ['First', 'Second', 'Third']) await ok(as(p)('POST', team, { body }), 201);
    await drain();
    expect(mine()).toEqual([]);
    c.clock.now += MESSAGE_WAIT_SECONDS;
    await drain();
    const burst = mine();
    expect(burst.map((m) => m.to)).toEqual(['alice-messages@partners.test']);
    expect(burst[0]!.text).toContain('Third');
    expect(subject(burst[0]!)).toMatch(/sent you a message$/);

    // More before she reads: the same burst, no second e-mail.
    await ok(as(p)('POST', team, { body: 'Fourth' }), 201);
    c.clock.now += MESSAGE_WAIT_SECONDS;
    await drain();
    expect(mine()).toEqual([]);

    // She reads; the next message is a new burst, and read within the wait it sends nothing.
    c.clock.now += 1;
    await ok(alice.call('POST', `${alice.thread}/read`));
    await ok(as(p)('POST', team, { body: 'Fifth' }), 201);
    c.clock.now += 60;
    await ok(alice.call('POST', `${alice.thread}/read`));
    c.clock.now += MESSAGE_WAIT_SECONDS;
    await drain();
    expect(mine()).toEqual([]);
    c.clock.now += 1;
    await ok(as(p)('POST', team, { body: 'Sixth' }), 201);
    c.clock.now += MESSAGE_WAIT_SECONDS;
    await drain();
    expect(mine().map((m) => m.text.includes('Sixth'))).toEqual([true]);

    // Her reply waits for the team: each owner hears once, with a link to the thread.
    await ok(alice.call('POST', `${alice.thread}/messages`, { body: 'A question about payouts' }), 201);
    await ok(alice.call('POST', `${alice.thread}/messages`, { body: 'And another' }), 201);
    c.clock.now += MESSAGE_WAIT_SECONDS;
    await drain();
    const told = mine();
    expect(told.map((m) => m.to)).toEqual([owner.email]);
    expect(told[0]!.text).toContain('And another');
    expect(told[0]!.text).toContain(`/dashboard/messages/${alice.partnershipId}`);
  });

  it('respects the preferences: a partner who turned messages off gets none', async () => {
    const p = await c.otherProgram();
    const bea = await portalPartner(p, { email: 'bea-messages@partners.test' });
    const prefs = await ok(bea.call('PATCH', '/v1/portal/notifications', { message_waiting: false }));
    expect(prefs.data.attributes.message_waiting).toBe(false);
    inbox.take();
    await ok(as(p)('POST', `/v1/message_threads/${bea.partnershipId}/messages`, { body: 'Hello' }), 201);
    c.clock.now += MESSAGE_WAIT_SECONDS;
    await drain();
    expect(inbox.take().filter((m) => m.to === 'bea-messages@partners.test')).toEqual([]);
    // The message itself is there, unread.
    expect((await ok(bea.call('GET', bea.thread))).data.attributes.unread).toBe(1);
  });
});

describe('broadcasts', () => {
  it("reach the group's accepted partnerships only, or all of them, as a team message in each thread", async () => {
    const p = await c.otherProgram();
    const group = (await ok(as(p)('POST', '/v1/groups', { name: 'VIP' }), 201)).data.id;
    const [vip, plain] = [await seedPartner(c, { token: p.secret }), await seedPartner(c, { token: p.secret })];
    const pending = await seedPartner(c, { token: p.secret, state: 'pending' });
    await ok(as(p)('PATCH', `/v1/partnerships/${vip.partnershipId}`, { group_id: group }));
    const sent = await ok(as(p)('POST', '/v1/broadcasts', { group_id: group, bodies: { en: 'VIP news' } }), 201);
    expect(sent.data.attributes).toMatchObject({ state: 'sent', recipients: 1, group_id: group, sent_at: c.clock.now });
    const thread = (s: { partnershipId: string }) => as(p)('GET', `/v1/message_threads/${s.partnershipId}/messages`);
    expect((await ok(thread(vip))).data.map((m: any) => [m.attributes.body, m.attributes.broadcast_id])).toEqual([
      ['VIP news', sent.data.id],
    ]);
    expect((await ok(thread(plain))).data).toEqual([]);

    const all = await ok(as(p)('POST', '/v1/broadcasts', { bodies: { en: 'For everyone' } }), 201);
    expect(all.data.attributes.recipients).toBe(2);
    expect(bodies(await ok(thread(plain)))).toEqual(['For everyone']);
    expect((await ok(thread(pending))).data).toEqual([]);
    expect((await ok(as(p)('GET', '/v1/broadcasts'))).data.map((b: any) => b.id)).toEqual([all.data.id, sent.data.id]);
    // The default group's partnerships have no group of their own, and are its audience.
    const groups = (await ok(as(p)('GET', '/v1/groups'))).data;
    const standard = groups.find((g: any) => g.attributes.default).id;
    expect(
      (await ok(as(p)('POST', '/v1/broadcasts', { group_id: standard, bodies: { en: 'Default' } }), 201)).data.attributes.recipients,
    ).toBe(1);
    expectError(await as(p)('POST', '/v1/broadcasts', { group_id: 'no-group', bodies: { en: 'x' } }), 422, 'invalid_field');
    expectError(await as(p)('POST', '/v1/broadcasts', { bodies: {} }), 422, 'invalid_field');
    expectError(await as(p)('POST', '/v1/broadcasts', { bodies: { it: 'Ciao' } }), 422, 'unknown_field');
  });

  it("speak each partner's language, else the program's, else the first of en, de, fr, es written", async () => {
    const p = await c.otherProgram();
    await ok(as(p)('PATCH', '/v1/program', { locale: 'fr' }));
    const [de, none, es] = [
      await seedPartner(c, { token: p.secret }),
      await seedPartner(c, { token: p.secret }),
      await seedPartner(c, { token: p.secret }),
    ];
    await c.running.db.run('UPDATE partners SET locale = ? WHERE id = ?', ['de', de.partnerId]);
    await c.running.db.run('UPDATE partners SET locale = ? WHERE id = ?', ['es', es.partnerId]);
    await ok(as(p)('POST', '/v1/broadcasts', { bodies: { de: 'Hallo', fr: 'Bonjour' } }), 201);
    const said = async (s: { partnershipId: string }) =>
      bodies(await ok(as(p)('GET', `/v1/message_threads/${s.partnershipId}/messages`)))[0];
    expect([await said(de), await said(none), await said(es)]).toEqual(['Hallo', 'Bonjour', 'Bonjour']);
    await ok(as(p)('POST', '/v1/broadcasts', { bodies: { es: 'Hola', en: 'Hello' } }), 201);
    // Neither the partner's nor the program's: the first in the order en, de, fr, es.
    expect([await said(de), await said(none), await said(es)]).toEqual(['Hello', 'Hello', 'Hola']);
  });

  it('scheduled, are sent once at their time, however many ticks race for them', async () => {
    const p = await c.otherProgram();
    const [a, b] = [await seedPartner(c, { token: p.secret }), await seedPartner(c, { token: p.secret })];
    const at = c.clock.now + 3600;
    const made = await ok(as(p)('POST', '/v1/broadcasts', { bodies: { en: 'Launch day' }, send_at: at }), 201);
    expect(made.data.attributes).toMatchObject({ state: 'scheduled', send_at: at, sent_at: null, recipients: null });
    expect(await sendDueBroadcasts(c.running.db, at - 1)).toBe(0);
    expect((await ok(as(p)('GET', `/v1/message_threads/${a.partnershipId}/messages`))).data).toEqual([]);
    // Two ticks at once: one delivers, the other finds it sent.
    const ticks = await Promise.all([sendDueBroadcasts(c.running.db, at), sendDueBroadcasts(c.running.db, at)]);
    expect(ticks.reduce((x, y) => x + y, 0)).toBe(1);
    expect(await sendDueBroadcasts(c.running.db, at + 60)).toBe(0);
    for (const s of [a, b])
      expect(bodies(await ok(as(p)('GET', `/v1/message_threads/${s.partnershipId}/messages`)))).toEqual(['Launch day']);
    expect((await ok(as(p)('GET', `/v1/broadcasts/${made.data.id}`))).data.attributes).toMatchObject({
      state: 'sent',
      sent_at: at,
      recipients: 2,
    });
    expect((await ok(as(p)('GET', '/v1/broadcasts?state_eq=scheduled'))).data).toEqual([]);
  });
});
