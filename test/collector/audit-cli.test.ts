// The audit log of the command line (docs/audit.md, "From the command line"): each `tally`
// command that changes a program's settings, money or team writes the entry its API route
// would, by actor kind `cli` and the OS user, in the change's own transaction.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedPartner, startCollector, type Collector } from './harness.js';
import { tally } from './processes.js';
import { ownerSession } from './session.js';

let c: Collector;
let env: Record<string, string>;
beforeEach(async () => {
  c = await startCollector();
  env = { DATABASE_URL: c.databaseUrl, USER: 'ops-alice', LOGNAME: 'ops-alice' };
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

async function run(args: string[], stdin = ''): Promise<string> {
  const result = await tally(args, env, stdin);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe('settings and the team', () => {
  it('programs update: the OS user, the command, and the settings before and after', async () => {
    await run(['programs', 'update', c.programId, '--name', 'Renamed from a terminal', '--commission-rate-bps', '1500']);
    const [entry] = await entries('?actor_kind_eq=cli');
    expect(entry?.attributes).toMatchObject({
      actor_kind: 'cli',
      actor_label: 'ops-alice',
      action: 'program.update',
      target_type: 'program',
      user_agent: 'tally programs update',
    });
    expect(entry?.attributes.actor_id).toBeUndefined();
    expect(entry?.attributes.request_id).toBeUndefined();
    expect(entry?.attributes.before.attributes.name).not.toBe('Renamed from a terminal');
    expect(entry?.attributes.after.attributes).toMatchObject({ name: 'Renamed from a terminal', commission_rate_bps: 1500 });
  });

  it('tokens create and revoke, users invite and remove: each its entry, never the token', async () => {
    const made = JSON.parse(await run(['tokens', 'create', '--program', c.programId, '--kind', 'secret', '--json']));
    await run(['tokens', 'revoke', made.id]);
    await run(['users', 'invite', 'ops-bob@owners.test', '--program', c.programId, '--role', 'admin']);
    const member = await ownerSession(c, { role: 'viewer' });
    const memberId = (await c.call('GET', '/v1/members')).body.data.find((m: Entry) => m.attributes.email === member.email).id;
    await run(['users', 'remove', member.email]);
    const cli = await entries('?actor_kind_eq=cli');
    expect(cli.map((e) => e.attributes.action)).toEqual(['member.delete', 'member.create', 'token.delete', 'token.create']);
    const [removed, invited, revoked, created] = cli.map((e) => e.attributes);
    expect(created).toMatchObject({ target_id: made.id, user_agent: 'tally tokens create' });
    expect(revoked).toMatchObject({ target_id: made.id, target_type: 'token' });
    expect(invited?.after.attributes).toMatchObject({ email: 'ops-bob@owners.test', role: 'admin' });
    expect(removed).toMatchObject({ target_type: 'member', target_id: memberId });
    expect(JSON.stringify(cli)).not.toContain(made.token);
  });

  it('webhooks add, disable, rotate and remove, and a platform connected', async () => {
    const added = await run(['webhooks', 'add', '--url', 'https://hooks.example.test/tally']);
    const id = /endpoint (\S+) to/.exec(added)?.[1] ?? '';
    const secret = /signing secret: (\S+)/.exec(added)?.[1] ?? '';
    expect(secret).toMatch(/^whsec_/);
    await run(['webhooks', 'disable', id]);
    await run(['webhooks', 'rotate', id]);
    await run(['webhooks', 'remove', id]);
    await run(['stripe', 'connect', '--secret', '-'], 'whsec_cliConnectedSecret0123456789\n');
    const cli = await entries('?actor_kind_eq=cli');
    expect(cli.map((e) => e.attributes.action)).toEqual([
      'stripe_secret.create',
      'webhook_endpoint.delete',
      'webhook_endpoint.rotate_secret',
      'webhook_endpoint.update',
      'webhook_endpoint.create',
    ]);
    const disabled = cli[3]!.attributes;
    expect(disabled.before.attributes.enabled).toBe(true);
    expect(disabled.after.attributes.enabled).toBe(false);
    expect(cli[4]!.attributes.target_id).toBe(id);
    const listed = JSON.stringify(cli);
    expect(listed).not.toContain(secret);
    expect(listed).not.toContain('whsec_cliConnectedSecret0123456789');
  });

  it('a refused command records nothing: the entry is in the change, or neither is', async () => {
    const failed = await tally(['programs', 'update', c.programId, '--site-url', 'not a url'], env);
    expect(failed.code).not.toBe(0);
    expect((await tally(['webhooks', 'remove', '01900000-0000-7000-8000-000000000001'], env)).code).not.toBe(0);
    expect(await entries('?actor_kind_eq=cli')).toEqual([]);
  });
});

describe('money and erasure', () => {
  it('payouts export, mark-paid and cancel: one entry per batch, its state after', async () => {
    const p = await seedPartner(c, { paypal_email: 'cli-payee@pay.test' });
    for (const [amount, currency] of [
      [2500, 'USD'],
      [1800, 'EUR'],
    ] as const) {
      const made = await c.call('POST', '/v1/commissions', { body: { partner_id: p.partnerId, amount, currency } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    const dir = mkdtempSync(join(tmpdir(), 'tally-audit-cli-'));
    await run(['payouts', 'export', '--csv', join(dir, 'payouts.csv')]);
    const exported = await entries('?action_eq=payout_batch.create');
    expect(exported).toHaveLength(2);
    expect(exported.map((e) => e.attributes.after.attributes.currency).sort()).toEqual(['EUR', 'USD']);
    const byCurrency = Object.fromEntries(exported.map((e) => [e.attributes.after.attributes.currency, e.attributes.target_id]));

    await run(['payouts', 'mark-paid', join(dir, 'payouts.USD.csv')]);
    await run(['payouts', 'cancel', byCurrency.EUR]);
    const [paid] = await entries('?action_eq=payout_batch.paid');
    expect(paid?.attributes).toMatchObject({ actor_kind: 'cli', target_id: byCurrency.USD });
    expect(paid?.attributes.after.attributes.state).not.toBe(paid?.attributes.before.attributes.state);
    const [cancelled] = await entries('?action_eq=payout_batch.cancel');
    expect(cancelled?.attributes).toMatchObject({ actor_kind: 'cli', target_id: byCurrency.EUR });
    expect(readFileSync(join(dir, 'payouts.EUR.csv'), 'utf8')).toContain('cli-payee@pay.test');
  });

  it('forget: one referral.delete per referral erased, no snapshot, the earlier entries blanked', async () => {
    const p = await seedPartner(c);
    await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: 'cli-erase', pk: p.key } });
    const conv = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'cli-gone@buyer.test', gr_id: 'cli-erase' },
    });
    const referral = conv.body.data.id as string;
    expect((await c.call('PATCH', `/v1/referrals/${referral}`, { body: { state: 'paid' } })).status).toBe(200);
    expect(await run(['forget', 'cli-gone@buyer.test'])).toContain('Erased 1 referral');
    const kept = await entries(`?target_id_eq=${referral}`);
    expect(kept.map((e) => [e.attributes.action, e.attributes.actor_kind])).toEqual([
      ['referral.delete', 'cli'],
      ['referral.update', 'token'],
    ]);
    expect(kept[0]!.attributes.after).toBeUndefined();
    expect(kept[1]!.attributes.after).toBeUndefined();
    expect(JSON.stringify(kept)).not.toContain('cli-gone@buyer.test');
  });
});
