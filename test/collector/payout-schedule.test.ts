// Scheduled payout runs (docs/payouts.md, "A schedule"): the program's schedule in its payout
// settings, and the schedule's look (runPayoutSchedules) called with a chosen now, as the
// server's 10-minute timer calls it: one draft run when a period begins, none again in that
// period (also from two database handles at once), none with nothing payable or the schedule
// off, periods cut at midnight in the program's time zone, and the owners told.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { periodAt, runPayoutSchedules } from '../../packages/collector/src/flows/payout-schedule.js';
import { compose } from '../../packages/collector/src/flows/notification-letters.js';
import type { NotificationRow } from '../../packages/collector/src/modules/notifications/repo.js';
import { ownersOf } from '../../packages/collector/src/modules/notifications/repo.js';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';
import { ownerSession } from './session.js';
import { withDb } from './database.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

const at = (iso: string) => Date.parse(iso) / 1000;
const schedule = (body: Record<string, unknown>) => c.call('PATCH', '/v1/program/payout_settings', { body: { schedule: body } });
const runs = async () => (await c.call('GET', '/v1/payout_runs')).body.data as any[];

/** Alice is owed 12.34 USD; the schedule is set now (c.clock), before the periods the tests look at. */
async function owed(): Promise<void> {
  const alice = await seedPartner(c, { name: 'Alice', paypal_email: 'alice@pay.test' });
  const made = await c.call('POST', '/v1/commissions', { body: { partner_id: alice.partnerId, amount: 1234, currency: 'USD' } });
  expect(made.status).toBe(201);
}

/** Sets the clock to the Saturday 2026-11-28 12:00 UTC, then the schedule; the next Monday begins a weekly period. */
async function weeklyOnMonday(timeZone = 'UTC') {
  c.clock.now = at('2026-11-28T12:00:00Z');
  const set = await schedule({ every: 'weekly', day: 1, time_zone: timeZone });
  expect(set.status).toBe(200);
  return set;
}

describe('the payout schedule setting', () => {
  it('is off by default, set by an owner, shown by GET, and checked', async () => {
    const read = await c.call('GET', '/v1/program/payout_settings');
    expect(read.body.data.attributes.schedule).toEqual({ every: 'off', day: 1, time_zone: 'UTC' });
    const set = await schedule({ every: 'monthly', day: 15, time_zone: 'Europe/Paris' });
    expect(set.body.data.attributes.schedule).toEqual({ every: 'monthly', day: 15, time_zone: 'Europe/Paris' });
    expect((await c.call('GET', '/v1/program/payout_settings')).body.data.attributes.schedule.time_zone).toBe('Europe/Paris');
    // Other settings changed later keep the schedule.
    await c.call('PATCH', '/v1/program/payout_settings', { body: { offered: ['paypal', 'wise'] } });
    expect((await c.call('GET', '/v1/program/payout_settings')).body.data.attributes.schedule.every).toBe('monthly');

    expect(expectError(await schedule({ every: 'monthly', day: 31 }), 422, 'invalid_field').source.pointer).toBe('/schedule/day');
    expect(expectError(await schedule({ every: 'weekly', day: 8 }), 422, 'invalid_field').source.pointer).toBe('/schedule/day');
    expectError(await schedule({ every: 'weekly', day: 1, time_zone: 'Mars/Olympus' }), 422, 'invalid_field');
    expectError(await schedule({ every: 'daily', day: 1 }), 422, 'invalid_field');
  });

  it('is changed by owners only', async () => {
    const admin = await ownerSession(c, { role: 'admin' });
    const refused = await admin.call('PATCH', '/v1/program/payout_settings', { body: { schedule: { every: 'weekly', day: 2 } } });
    expectError(refused, 403, 'forbidden');
    expect((await admin.call('GET', '/v1/program/payout_settings')).body.data.attributes.schedule.every).toBe('off');
    const owner = await ownerSession(c);
    const set = await owner.call('PATCH', '/v1/program/payout_settings', { body: { schedule: { every: 'weekly', day: 2 } } });
    expect(set.body.data.attributes.schedule).toEqual({ every: 'weekly', day: 2, time_zone: 'UTC' });
  });
});

describe('the schedule’s look', () => {
  it('makes one draft run when a period begins, by the schedule, and none again in that period', async () => {
    await owed();
    await weeklyOnMonday();
    // Saved again unchanged (the dashboard's form saves every setting) just after Monday began: still made.
    c.clock.now = at('2026-11-30T00:02:00Z');
    expect((await schedule({ every: 'weekly', day: 1, time_zone: 'UTC' })).status).toBe(200);
    // Sunday night: the period that began the Monday before began before the schedule was set.
    expect(await runPayoutSchedules(c.running.db, at('2026-11-29T23:59:59Z'))).toEqual([]);
    const made = await runPayoutSchedules(c.running.db, at('2026-11-30T00:05:00Z'));
    expect(made).toEqual([{ programId: c.programId, period: '2026-11-30', runId: expect.any(String) }]);
    const [run] = await runs();
    expect(run.id).toBe(made[0]!.runId);
    expect(run.attributes).toMatchObject({ state: 'draft', created_by: 'the schedule', items: { pending: 1 } });
    const shown = await c.call('GET', `/v1/payout_runs/${run.id}`);
    expect(shown.body.included.map((i: any) => [i.attributes.address, i.attributes.amount])).toEqual([['alice@pay.test', 1234]]);

    // Later in the same week: nothing more, even with something new payable.
    const bob = await seedPartner(c, { name: 'Bob', paypal_email: 'bob@pay.test' });
    await c.call('POST', '/v1/commissions', { body: { partner_id: bob.partnerId, amount: 500, currency: 'USD' } });
    expect(await runPayoutSchedules(c.running.db, at('2026-12-02T10:00:00Z'))).toEqual([]);
    expect(await runs()).toHaveLength(1);
    // It waits for an owner's approval as any run.
    expectError(await c.call('POST', `/v1/payout_runs/${run.id}/send`), 409, 'conflict');
    // The next Monday: Bob's commission, Alice's still held by the first run.
    const next = await runPayoutSchedules(c.running.db, at('2026-12-07T00:00:00Z'));
    expect(next.map((m) => m.period)).toEqual(['2026-12-07']);
    const second = await c.call('GET', `/v1/payout_runs/${next[0]!.runId}`);
    expect(second.body.included.map((i: any) => [i.attributes.address, i.attributes.amount])).toEqual([['bob@pay.test', 500]]);
  });

  it('makes one run from two database handles looking at once', async () => {
    await owed();
    await weeklyOnMonday();
    const now = at('2026-11-30T03:00:00Z');
    const both = await withDb(c.databaseUrl, (a) =>
      withDb(c.databaseUrl, (b) => Promise.all([runPayoutSchedules(a, now), runPayoutSchedules(b, now)])),
    );
    expect(both.flat().filter((m) => m.runId)).toHaveLength(1);
    expect(await runs()).toHaveLength(1);
    const periods = await c.running.db.all('SELECT period, run_id FROM payout_schedule_periods WHERE program_id = ?', [c.programId]);
    expect(periods).toEqual([{ period: '2026-11-30', run_id: (await runs())[0].id }]);
  });

  it('makes no run with nothing payable, and claims the period', async () => {
    await weeklyOnMonday();
    expect(await runPayoutSchedules(c.running.db, at('2026-11-30T00:00:00Z'))).toEqual([
      { programId: c.programId, period: '2026-11-30', runId: undefined },
    ]);
    expect(await runs()).toEqual([]);
    // Something payable later that week waits for the next period, or an admin's run.
    await owed();
    expect(await runPayoutSchedules(c.running.db, at('2026-12-01T00:00:00Z'))).toEqual([]);
    expect(await runs()).toEqual([]);
  });

  it('makes no run when off, or turned off again', async () => {
    await owed();
    expect(await runPayoutSchedules(c.running.db, at('2026-12-01T00:00:00Z'))).toEqual([]);
    await weeklyOnMonday();
    await schedule({ every: 'off' });
    expect(await runPayoutSchedules(c.running.db, at('2026-11-30T00:00:00Z'))).toEqual([]);
    expect(await runs()).toEqual([]);
  });

  it('begins a period at midnight in the program’s time zone', async () => {
    await owed();
    // Auckland is 13 hours ahead in December: its Monday begins on Sunday at 11:00 UTC.
    await weeklyOnMonday('Pacific/Auckland');
    expect(await runPayoutSchedules(c.running.db, at('2026-11-29T10:59:59Z'))).toEqual([]);
    expect((await runPayoutSchedules(c.running.db, at('2026-11-29T11:00:00Z'))).map((m) => m.period)).toEqual(['2026-11-30']);
  });

  it('begins a monthly period on its day, in the zone, across a year', () => {
    const monthly = { every: 'monthly' as const, day: 15, timeZone: 'America/Los_Angeles', setAt: 0 };
    // 2027-01-03 in Los Angeles: the period began on 15 December 2026, at 08:00 UTC.
    expect(periodAt(monthly, at('2027-01-03T12:00:00Z'))).toEqual({ period: '2026-12-15', startsAt: at('2026-12-15T08:00:00Z') });
    // 07:59 UTC on the 15th is still the 14th there.
    expect(periodAt(monthly, at('2027-01-15T07:59:59Z'))!.period).toBe('2026-12-15');
    expect(periodAt(monthly, at('2027-01-15T08:00:00Z'))!.period).toBe('2027-01-15');
    expect(periodAt({ ...monthly, every: 'off' }, at('2027-01-15T08:00:00Z'))).toBeUndefined();
  });

  it('tells the owners that the run waits for approval, until it is approved', async () => {
    await ownerSession(c);
    await owed();
    await weeklyOnMonday();
    const now = at('2026-11-30T00:00:00Z');
    const [made] = await runPayoutSchedules(c.running.db, now);
    const rows = await c.running.db.all<NotificationRow>('SELECT * FROM notifications WHERE kind = ?', ['payout_run_waiting']);
    expect(rows.map((r) => [r.audience, JSON.parse(r.data)])).toEqual([['owners', { run_id: made!.runId, period: '2026-11-30' }]]);
    const letter = () =>
      c.running.db.transaction(async (tx) => {
        const [owner] = await ownersOf(tx, c.programId);
        return compose(tx, { ...rows[0]!, audience: 'owner', recipient_id: owner!.id }, now);
      });
    const draft = await letter();
    expect(draft?.subject).toMatch(/a scheduled payout run waits for your approval/);
    expect(draft?.paragraphs.join(' ')).toContain('$12.34');
    expect(draft?.path).toBe('/dashboard/payouts');
    // Approved before the e-mail went: nothing waits, so nothing is sent.
    await c.call('POST', `/v1/payout_runs/${made!.runId}/approve`);
    expect(await letter()).toBeUndefined();
  });

  it('makes no notification for a run an admin makes', async () => {
    await owed();
    expect((await c.call('POST', '/v1/payout_runs')).body.data.attributes.created_by).toBe('a secret token');
    expect(await c.running.db.all('SELECT id FROM notifications WHERE kind = ?', ['payout_run_waiting'])).toEqual([]);
  });
});
