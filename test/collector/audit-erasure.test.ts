// Erasure and the audit log (docs/audit.md, "Keeping and erasing"): every path that erases a
// person keeps the program's entries about them and blanks what named them, in the erasure's
// transaction; removing a member from the team removes access only, and their e-mail stays
// beside what they did (decision 0428).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesHolding } from './database.js';
import { expectError, seedPartner, startCollector, T0, type Collector } from './harness.js';
import { ownerSession, partnerPortal } from './session.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

type Entry = { id: string; attributes: Record<string, any> };

async function entries(query = ''): Promise<Entry[]> {
  const reply = await c.call('GET', `/v1/audit_events${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data;
}

describe('deleting a partner is an erasure', () => {
  it('keeps the entries about the partner, their partnership and their own acts, without what named them', async () => {
    const owner = await ownerSession(c);
    const p = await seedPartner(c, { name: 'Maya Gone', email: 'maya-gone@partners.test' });
    expect((await owner.call('PATCH', `/v1/partners/${p.partnerId}`, { body: { name: 'Maya Gone Again' } })).status).toBe(200);
    const portal = await partnerPortal(c, c.secret, p.partnerId);
    const sent = await portal.call('POST', `/v1/portal/partnerships/${p.partnershipId}/message_thread/messages`, { body: 'Hello' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const [byPartner] = await entries('?actor_kind_eq=partner');
    expect(byPartner?.attributes.actor_label).toBe('maya-gone@partners.test');
    expect(JSON.stringify(await entries())).toContain('Maya Gone Again');

    expect((await c.call('DELETE', `/v1/partners/${p.partnerId}`)).status).toBe(204);
    const kept = await entries();
    const actions = kept.map((e) => e.attributes.action);
    expect(actions).toEqual(
      expect.arrayContaining(['partner.delete', 'partner.update', 'partner.create', 'partnership.create', 'message.create']),
    );
    const listed = JSON.stringify(kept);
    expect(listed).not.toContain('maya-gone@partners.test');
    expect(listed).not.toContain('Maya Gone');
    const update = kept.find((e) => e.attributes.action === 'partner.update')!.attributes;
    // Who else acted stays: the owner who renamed the partner is still named.
    expect(update).toMatchObject({ target_id: p.partnerId, actor_label: owner.email, erased_at: T0 });
    expect(update.before).toBeUndefined();
    expect(update.after).toBeUndefined();
    const message = kept.find((e) => e.id === byPartner!.id)!.attributes;
    expect(message).toMatchObject({ actor_kind: 'partner', action: 'message.create', erased_at: T0 });
    expect(message.actor_label).toBeUndefined();
    expect(message.ip).toBeUndefined();
    const partnership = kept.find((e) => e.attributes.action === 'partnership.create')!.attributes;
    expect(partnership).toMatchObject({ target_id: p.partnershipId, erased_at: T0 });
    expect(await tablesHolding(c.databaseUrl, 'Maya Gone')).toEqual([]);
    // The portal account is the partner's own, across programs: no program's log names it.
    expect((await tablesHolding(c.databaseUrl, 'maya-gone@partners.test')).filter((t) => t === 'audit_events')).toEqual([]);
  });

  it("leaves another partner's entries as they were", async () => {
    const gone = await seedPartner(c);
    const stays = await seedPartner(c, { name: 'Stays' });
    expect((await c.call('DELETE', `/v1/partners/${gone.partnerId}`)).status).toBe(204);
    const [created] = await entries(`?target_id_eq=${stays.partnerId}`);
    expect(created?.attributes.erased_at).toBeUndefined();
    expect(created?.attributes.after.attributes.name).toBe('Stays');
  });

  it('a refused deletion erases nothing: the same transaction', async () => {
    const p = await seedPartner(c, { name: 'Has history' });
    const made = await c.call('POST', '/v1/commissions', { body: { partner_id: p.partnerId, amount: 100, currency: 'USD' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expectError(await c.call('DELETE', `/v1/partners/${p.partnerId}`), 409, 'conflict');
    const [created] = await entries(`?target_id_eq=${p.partnerId}`);
    expect(created?.attributes.erased_at).toBeUndefined();
    expect(created?.attributes.after.attributes.name).toBe('Has history');
  });
});

describe('removing a member is not an erasure (decision 0428)', () => {
  it("keeps the member's e-mail beside what they did, and records the removal", async () => {
    const member = await ownerSession(c, { role: 'admin' });
    const p = await seedPartner(c);
    expect((await member.call('PATCH', `/v1/partners/${p.partnerId}`, { body: { name: 'By the admin' } })).status).toBe(200);
    const [done] = await entries('?actor_kind_eq=user');
    const memberId = done!.attributes.actor_id as string;
    expect((await c.call('DELETE', `/v1/members/${memberId}`)).status).toBe(204);

    const after = (await c.call('GET', `/v1/audit_events/${done!.id}`)).body.data.attributes;
    expect(after).toMatchObject({ actor_label: member.email, action: 'partner.update' });
    expect(after.erased_at).toBeUndefined();
    expect(after.after.attributes.name).toBe('By the admin');
    const [removed] = await entries('?action_eq=member.delete');
    expect(removed?.attributes).toMatchObject({ target_type: 'member', target_id: memberId, actor_kind: 'token' });
  });
});
