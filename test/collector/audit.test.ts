// The audit log (docs/audit.md): who changed what, before and after, from where, written in
// the change's transaction; read by the owners, admins and secret tokens of the program only.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCsvRows } from '../../packages/collector/src/platform/csv.js';
import { PNG } from './brand-files.js';
import { ENGINE, tablesHolding } from './database.js';
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

async function entries(query = '', token?: string): Promise<Entry[]> {
  const reply = await c.call('GET', `/v1/audit_events${query}`, { token });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data;
}

const DAY = 86_400;

describe('what an entry records', () => {
  it("a member's change: who, the action, the target, before and after, the address, browser and request", async () => {
    const owner = await ownerSession(c);
    const p = await seedPartner(c, { name: 'Maya' });
    const changed = await owner.call('PATCH', `/v1/partners/${p.partnerId}`, {
      body: { name: 'Maya Lopez' },
      headers: { 'user-agent': 'Audit browser/1.0', 'x-request-id': 'req-audit-1' },
    });
    expect(changed.status).toBe(200);
    const [entry] = await entries('?action_eq=partner.update');
    expect(entry?.attributes).toMatchObject({
      actor_kind: 'user',
      actor_label: owner.email,
      action: 'partner.update',
      target_type: 'partner',
      target_id: p.partnerId,
      user_agent: 'Audit browser/1.0',
      request_id: 'req-audit-1',
      ip: '127.0.0.1',
      created_at: T0,
    });
    expect(entry?.attributes.before.attributes.name).toBe('Maya');
    expect(entry?.attributes.after.attributes.name).toBe('Maya Lopez');
    expect(entry?.attributes.actor_id).toMatch(/^[0-9a-f-]{36}$/);
    // One entry per change: the two creations of seedPartner, and this one.
    expect((await entries()).map((e) => e.attributes.action)).toEqual(['partner.update', 'partnership.create', 'partner.create']);
  });

  it("a token's change of the settings and of money: the token, and the amounts before and after", async () => {
    const before = (await c.call('GET', '/v1/program')).body.data.attributes;
    expect((await c.call('PATCH', '/v1/program', { body: { name: 'Renamed program' } })).status).toBe(200);
    const [settings] = await entries('?action_eq=program.update');
    expect(settings?.attributes).toMatchObject({ actor_kind: 'token', actor_label: 'secret token', target_type: 'program' });
    expect(settings?.attributes.before.attributes.name).toBe(before.name);
    expect(settings?.attributes.after.attributes.name).toBe('Renamed program');

    const p = await seedPartner(c);
    const made = await c.call('POST', '/v1/commissions', { body: { partner_id: p.partnerId, amount: 2500, currency: 'USD' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const [created] = await entries('?action_eq=commission.create');
    expect(created?.attributes).toMatchObject({ target_type: 'commission', target_id: made.body.data.id });
    expect(created?.attributes.before).toBeUndefined();
    expect(created?.attributes.after.attributes.amount).toBe(2500);
  });

  it('a child made under its parent holds the child as its own read route shows it, not the parent', async () => {
    const group = (await c.call('POST', '/v1/groups', { body: { name: 'Gold' } })).body.data;
    const reward = await c.call('POST', `/v1/groups/${group.id}/rewards`, {
      body: { event: 'lead', kind: 'flat', amount: 700, currency: 'USD' },
    });
    expect(reward.status, JSON.stringify(reward.body)).toBe(201);
    const [made] = await entries('?action_eq=reward.create');
    expect(made?.attributes).toMatchObject({ target_type: 'reward', target_id: reward.body.data.id });
    expect(made?.attributes.after).toEqual((await c.call('GET', `/v1/rewards/${reward.body.data.id}`)).body.data);
    expect(made?.attributes.after.attributes.amount).toBe(700);

    // A file beside the resources it joins: POST /v1/resources/files, read at /v1/resources/:id.
    const file = await c.call('POST', '/v1/resources/files?title=Banner', {
      raw: PNG as unknown as string,
      headers: { 'content-type': 'image/png' },
    });
    expect(file.status, JSON.stringify(file.body)).toBe(201);
    const [uploaded] = await entries('?action_eq=file.create');
    expect(uploaded?.attributes.target_id).toBe(file.body.data.id);
    expect(uploaded?.attributes.after).toEqual((await c.call('GET', `/v1/resources/${file.body.data.id}`)).body.data);
    expect(uploaded?.attributes.after.attributes.title).toBe('Banner');
  });

  it('keeps no secret: tokens, signing secrets and credentials are redacted or never read', async () => {
    const token = (await c.call('POST', '/v1/tokens', { body: { kind: 'publishable' } })).body.data.attributes.token as string;
    const hook = await c.call('POST', '/v1/webhook_endpoints', { body: { url: 'https://hooks.example.test/tally' } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const secret = hook.body.data.attributes.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect((await c.call('POST', `/v1/webhook_endpoints/${hook.body.data.id}/rotate_secret`)).status).toBe(200);
    const listed = JSON.stringify(await entries());
    expect(listed).toContain('webhook_endpoint.create');
    expect(listed).toContain('webhook_endpoint.rotate_secret');
    expect(listed).toContain('token.create');
    expect(await tablesHolding(c.databaseUrl, token)).toEqual([]);
    expect((await tablesHolding(c.databaseUrl, secret)).filter((t) => t === 'audit_events')).toEqual([]);
  });

  it("a partner's change in the portal is the partner's, in the partnership's program", async () => {
    const p = await seedPartner(c, { email: 'maya@partners.test' });
    const portal = await partnerPortal(c, c.secret, p.partnerId);
    const made = await portal.call('POST', `/v1/portal/partnerships/${p.partnershipId}/message_thread/messages`, { body: 'Hello' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const [entry] = await entries('?actor_kind_eq=partner');
    expect(entry?.attributes).toMatchObject({ actor_kind: 'partner', actor_label: 'maya@partners.test', action: 'message.create' });
  });

  it('tracking records nothing: the snippet is no person or token of the team', async () => {
    const p = await seedPartner(c);
    const n = (await entries()).length;
    await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: 'g1', pk: p.key } });
    const conv = await c.call('POST', '/v1/tracking/conversion', { token: c.publishable, body: { email: 'x@buyer.test', gr_id: 'g1' } });
    expect(conv.status).toBe(201);
    expect(await entries()).toHaveLength(n);
  });
});

describe('a failed change records nothing', () => {
  it('a refused change writes no entry', async () => {
    const p = await seedPartner(c);
    const n = (await entries()).length;
    expectError(await c.call('PATCH', `/v1/partners/${p.partnerId}`, { body: { email: 'not an address' } }), 422, 'invalid_email');
    expectError(await c.call('DELETE', '/v1/partners/01900000-0000-7000-8000-000000000001'), 404, 'not_found');
    // Refused inside the change's transaction, after it read the referral.
    await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: 'refused-1', pk: p.key } });
    const conv = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'r@buyer.test', gr_id: 'refused-1' },
    });
    const moved = await c.call('PATCH', `/v1/referrals/${conv.body.data.id}`, { body: { state: 'churned' } });
    expect(moved.status).toBe(409);
    expect(await entries()).toHaveLength(n);
  });

  it('when the entry cannot be written, the change is rolled back with it: one transaction', async () => {
    const p = await seedPartner(c, { name: 'Kept' });
    const db = c.running.db;
    if (ENGINE === 'sqlite') {
      await db.run("CREATE TRIGGER audit_refused BEFORE INSERT ON audit_events BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
    } else {
      await db.run(
        `CREATE FUNCTION audit_refused() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
      );
      await db.run('CREATE TRIGGER audit_refused BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_refused()');
    }
    const reply = await c.call('PATCH', `/v1/partners/${p.partnerId}`, { body: { name: 'Changed' } });
    expect(reply.status).toBe(500);
    expect(JSON.stringify(reply.body)).not.toContain('refused by the test');
    expect((await c.call('GET', `/v1/partners/${p.partnerId}`)).body.data.attributes.name).toBe('Kept');
  });
});

describe('append-only', () => {
  it('the database refuses to change an entry, but lets erasure blank its personal data', async () => {
    await seedPartner(c);
    const [entry] = await entries();
    const db = c.running.db;
    const id = entry!.id;
    await expect(db.run("UPDATE audit_events SET action = 'partner.nothing', erased_at = 1 WHERE id = ?", [id])).rejects.toThrow();
    await expect(db.run("UPDATE audit_events SET actor_label = 'someone else' WHERE id = ?", [id])).rejects.toThrow();
    await expect(db.run("UPDATE audit_events SET after_data = '{}', erased_at = 1 WHERE id = ?", [id])).rejects.toThrow();
    await expect(db.run('UPDATE audit_events SET ip = NULL WHERE id = ?', [id])).rejects.toThrow();
    expect(await db.run('UPDATE audit_events SET ip = NULL, after_data = NULL, erased_at = 1 WHERE id = ?', [id])).toBe(1);
    const after = (await c.call('GET', `/v1/audit_events/${id}`)).body.data.attributes;
    expect(after).toMatchObject({ action: entry!.attributes.action, erased_at: 1, actor_label: 'secret token' });
    expect(after.ip).toBeUndefined();
    expect(after.after).toBeUndefined();
  });

  it('has no route that changes or deletes an entry', async () => {
    await seedPartner(c);
    const [entry] = await entries();
    for (const method of ['PATCH', 'DELETE', 'PUT']) {
      const reply = await c.call(method, `/v1/audit_events/${entry!.id}`, { body: {} });
      expect([404, 405], method).toContain(reply.status);
    }
    expect((await c.call('POST', '/v1/audit_events', { body: {} })).status).toBeGreaterThanOrEqual(404);
    expect((await c.call('GET', `/v1/audit_events/${entry!.id}`)).status).toBe(200);
  });
});

describe('retention and erasure', () => {
  it('entries older than AUDIT_RETENTION_DAYS (400 by default) go with the hourly purge', async () => {
    await seedPartner(c, { name: 'Old' });
    c.clock.now += 399 * DAY;
    await seedPartner(c, { name: 'Newer' });
    await c.running.work.purge();
    expect(await entries()).toHaveLength(4);
    c.clock.now += 2 * DAY;
    await c.running.work.purge();
    const kept = await entries();
    expect(kept.map((e) => e.attributes.created_at)).toEqual([T0 + 399 * DAY, T0 + 399 * DAY]);
  });

  it('erasing a person keeps the entries about them and drops what named them', async () => {
    const p = await seedPartner(c);
    await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: 'erase-1', pk: p.key } });
    const conv = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'gone@buyer.test', gr_id: 'erase-1' },
    });
    const referral = conv.body.data.id as string;
    expect((await c.call('PATCH', `/v1/referrals/${referral}`, { body: { state: 'paid' } })).status).toBe(200);
    const [moved] = await entries(`?target_id_eq=${referral}`);
    expect(JSON.stringify(moved?.attributes.after)).toContain('gone@buyer.test');

    expect((await c.call('DELETE', `/v1/referrals/${referral}`)).status).toBe(204);
    const kept = await entries(`?target_id_eq=${referral}`);
    expect(kept.map((e) => e.attributes.action)).toEqual(['referral.delete', 'referral.update']);
    const erased = kept[1]!.attributes;
    expect(erased).toMatchObject({ action: 'referral.update', target_type: 'referral', actor_label: 'secret token' });
    expect(erased.erased_at).toBe(T0);
    expect(erased.before).toBeUndefined();
    expect(erased.after).toBeUndefined();
    expect(await tablesHolding(c.databaseUrl, 'gone@buyer.test')).toEqual([]);
  });
});

describe('who reads it', () => {
  it("another program's token sees none of it: a 404 by id, an empty list", async () => {
    await seedPartner(c);
    const [entry] = await entries();
    const other = await c.otherProgram();
    expectError(await c.call('GET', `/v1/audit_events/${entry!.id}`, { token: other.secret }), 404, 'not_found');
    expect(await entries('', other.secret)).toEqual([]);
  });

  it('owners and admins read it; a viewer does not', async () => {
    await seedPartner(c);
    const admin = await ownerSession(c, { role: 'admin' });
    expect((await admin.call('GET', '/v1/audit_events')).body.data.length).toBeGreaterThan(0);
    const viewer = await ownerSession(c, { role: 'viewer' });
    expectError(await viewer.call('GET', '/v1/audit_events'), 403, 'forbidden');
    expectError(await viewer.call('GET', '/v1/audit_events.csv'), 403, 'forbidden');
  });

  it('filters by actor, action, target and time', async () => {
    const owner = await ownerSession(c);
    const p = await seedPartner(c);
    c.clock.now += 60;
    await owner.call('PATCH', `/v1/partners/${p.partnerId}`, { body: { name: 'By the owner' } });
    const [mine] = await entries('?actor_kind_eq=user');
    expect(mine?.attributes.action).toBe('partner.update');
    expect((await entries(`?actor_id_eq=${mine!.attributes.actor_id}`)).map((e) => e.id)).toEqual([mine!.id]);
    expect((await entries(`?target_id_eq=${p.partnerId}`)).map((e) => e.attributes.action)).toEqual(['partner.update', 'partner.create']);
    expect(await entries('?action_eq=partnership.create&target_type_eq=partnership')).toHaveLength(1);
    expect((await entries(`?created_at_gt=${T0 + 30}`)).map((e) => e.id)).toEqual([mine!.id]);
    expect(await entries(`?created_at_lt=${T0 + 30}`)).toHaveLength(2);
    expectError(await c.call('GET', '/v1/audit_events?actor_kind_eq=robot'), 400, 'invalid_parameter');
  });

  it('downloads as CSV, where no cell a person wrote can run as a formula', async () => {
    const p = await seedPartner(c);
    await c.call('PATCH', `/v1/partners/${p.partnerId}`, {
      body: { name: '=HYPERLINK("https://evil.test")' },
      headers: { 'user-agent': '=1+2' },
    });
    const reply = await c.call('GET', '/v1/audit_events.csv?action_eq=partner.update');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const [header, row] = parseCsvRows(reply.body as string).map((r) => r.cells);
    expect(header?.slice(0, 6)).toEqual(['id', 'created_at', 'actor_kind', 'actor_id', 'actor_label', 'action']);
    expect(row?.[header!.indexOf('user_agent')]).toBe("'=1+2");
    expect(row?.[header!.indexOf('created_at')]).toBe('2025-03-01T10:00:00.000Z');
    expect(JSON.parse(row![header!.indexOf('after')]!).attributes.name).toBe('=HYPERLINK("https://evil.test")');
    for (const cell of row!) expect(cell).not.toMatch(/^[=+\-@]/);
  });
});
