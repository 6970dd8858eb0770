// /v1/stats and /v1/stats/partners against a fixture computed by hand: days cut at local
// midnight in zones a half and three quarters of an hour off UTC and across daylight
// saving, several currencies, a refund, a rejected commission, and another program's
// records never counted. The kept totals must equal a recount afterwards.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStats, foldStats } from '../../packages/collector/src/modules/stats/service.js';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';

const at = (iso: string) => Date.parse(iso) / 1000;

let c: Collector;
let alice: Awaited<ReturnType<typeof seedPartner>>;
let bob: Awaited<ReturnType<typeof seedPartner>>;

async function click(key: string, when: string, gr: string) {
  c.clock.now = at(when);
  expect((await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id: gr, pk: key } })).status).toBe(202);
}
async function convert(key: string, when: string, email: string, gr = email): Promise<string> {
  c.clock.now = at(when);
  const reply = await c.call('POST', '/v1/tracking/conversion', { token: c.publishable, body: { email, gr_id: gr, pk: key } });
  expect(reply.status).toBe(201);
  return reply.body.data.id;
}
async function pay(referral: string, when: string, amount: number, currency: string, key: string) {
  c.clock.now = at(when);
  const reply = await c.call('POST', '/v1/payments', { body: { amount, currency, referral_id: referral, idempotency_key: key } });
  expect(reply.status).toBe(201);
  return reply.body;
}

beforeAll(async () => {
  c = await startCollector();
  alice = await seedPartner(c, { name: 'Alice' });
  bob = await seedPartner(c, { name: 'Bob' });
  // 23:30 UTC on 1 March: 2 March in Kolkata (05:00), still 1 March in Los Angeles (15:30).
  await click(alice.key, '2025-03-01T23:30:00Z', 'v1');
  const r1 = await convert(alice.key, '2025-03-01T23:30:00Z', 'one@buyer.test', 'v1'); // the visitor of that click
  await pay(r1, '2025-03-01T23:30:00Z', 1000, 'USD', 'p1'); // commission 200 (20%)
  await pay(r1, '2025-03-01T23:45:00Z', 500, 'USD', 'p2'); // a second payment: no new customer
  // Kathmandu (+5:45): 18:14 UTC is 1 March 23:59 there, 18:15 UTC is 2 March 00:00.
  await click(bob.key, '2025-03-01T18:14:00Z', 'v2');
  await click(bob.key, '2025-03-01T18:15:00Z', 'v3');
  // New York springs forward on 9 March: that day runs 05:00 UTC to 04:00 UTC next day (23 h).
  const r2 = await convert(bob.key, '2025-03-10T03:30:00Z', 'two@buyer.test'); // 23:30 EDT on the 9th
  const eur = await pay(r2, '2025-03-10T03:30:00Z', 900, 'EUR', 'p3'); // commission 180, refunded below
  await convert(bob.key, '2025-03-10T04:00:00Z', 'three@buyer.test'); // 00:00 EDT on the 10th
  c.clock.now = at('2025-03-11T00:00:00Z');
  expect((await c.call('POST', '/v1/refunds', { body: { payment_id: 'p3' } })).body.data.attributes.state).toBe('rejected');
  expect(eur.included[0].attributes.amount).toBe(180);
  // A commission entered by hand, then rejected: it earns nothing.
  const manual = await c.call('POST', '/v1/commissions', { body: { partner_id: alice.partnerId, amount: 5000, currency: 'USD' } });
  await c.call('PATCH', `/v1/commissions/${manual.body.data.id}`, { body: { state: 'rejected', reject_reason: 'test' } });
  // Another program's records on the same days are never counted here.
  const other = await c.otherProgram();
  const theirs = await seedPartner(c, { token: other.secret });
  c.clock.now = at('2025-03-01T23:30:00Z');
  await c.call('POST', '/v1/tracking/click', { token: other.publishable, body: { gr_id: 'o', pk: theirs.key } });
});
afterAll(async () => {
  await c?.close();
});

const stats = async (query: string) => {
  const reply = await c.call('GET', `/v1/stats?${query}`);
  expect(reply.status).toBe(200);
  return reply.body.data.attributes;
};
// any: a period is JSON the test reads field by field.
const day = (series: any[], start: string) => series.find((s) => s.start === start);

describe('GET /v1/stats', () => {
  it('cuts days at local midnight: Kolkata counts the 23:30 UTC events on the next day', async () => {
    const s = await stats('from=2025-03-01&to=2025-03-02&tz=Asia/Kolkata');
    expect(s).toMatchObject({
      from: '2025-03-01',
      to: '2025-03-02',
      tz: 'Asia/Kolkata',
      interval: 'day',
      start: at('2025-02-28T18:30:00Z'),
      end: at('2025-03-02T18:30:00Z'),
    });
    // Bob's two clicks at 18:14 and 18:15 UTC are 23:44 and 23:45 on 1 March there.
    expect(day(s.series, '2025-03-01')).toEqual({
      start: '2025-03-01',
      clicks: 2,
      referrals: 0,
      customers: 0,
      payments: 0,
      revenue: {},
      commissions: {},
    });
    expect(day(s.series, '2025-03-02')).toEqual({
      start: '2025-03-02',
      clicks: 1,
      referrals: 1,
      customers: 1,
      payments: 2,
      revenue: { USD: 1500 },
      commissions: { USD: 300 },
    });
  });

  it('and Los Angeles on the same day', async () => {
    const s = await stats('from=2025-03-01&to=2025-03-02&tz=America/Los_Angeles');
    expect(day(s.series, '2025-03-01')).toMatchObject({ clicks: 3, referrals: 1, customers: 1, payments: 2, revenue: { USD: 1500 } });
    expect(day(s.series, '2025-03-02')).toMatchObject({ clicks: 0, referrals: 0 });
  });

  it('three quarters of an hour off UTC: Kathmandu splits 18:14 and 18:15 UTC', async () => {
    const s = await stats('from=2025-03-01&to=2025-03-02&tz=Asia/Kathmandu');
    expect(day(s.series, '2025-03-01')?.clicks).toBe(1);
    expect(day(s.series, '2025-03-02')?.clicks).toBe(2);
  });

  it('a daylight-saving day of 23 hours in New York; a refund leaves revenue and commission out', async () => {
    const s = await stats('from=2025-03-09&to=2025-03-10&tz=America/New_York');
    expect(s.start).toBe(at('2025-03-09T05:00:00Z'));
    expect(s.end - s.start).toBe(47 * 3600); // 23 h + 24 h
    expect(day(s.series, '2025-03-09')).toEqual({
      start: '2025-03-09',
      clicks: 0,
      referrals: 1,
      customers: 1,
      payments: 1,
      revenue: {},
      commissions: {},
    });
    expect(day(s.series, '2025-03-10')).toMatchObject({ referrals: 1, payments: 0 });
  });

  it('and one of 25 hours when the clocks go back', async () => {
    const s = await stats('from=2025-11-02&to=2025-11-02&tz=America/New_York');
    expect(s.end - s.start).toBe(25 * 3600);
  });

  it('days after a change of the clocks keep their own clicks: the database numbers each day by the run it falls in', async () => {
    // 11:00 EDT on 1 November; 23:30 EST on 3 November (04:30 UTC on the 4th: a 24-hour count from
    // the range's first midnight would put it on the 4th); 10:00 EST on 4 November.
    await click(alice.key, '2025-11-01T15:00:00Z', 'fall1');
    await click(alice.key, '2025-11-04T04:30:00Z', 'fall2');
    await click(alice.key, '2025-11-04T15:00:00Z', 'fall3');
    const s = await stats('from=2025-10-31&to=2025-11-05&tz=America/New_York');
    expect(s.series.map((p: { start: string; clicks: number }) => [p.start, p.clicks])).toEqual([
      ['2025-10-31', 0],
      ['2025-11-01', 1],
      ['2025-11-02', 0],
      ['2025-11-03', 1],
      ['2025-11-04', 1],
      ['2025-11-05', 0],
    ]);
    const weeks = await stats('from=2025-10-31&to=2025-11-05&tz=America/New_York&interval=week');
    expect(weeks.series.map((p: { start: string; clicks: number }) => [p.start, p.clicks])).toEqual([
      ['2025-10-31', 1],
      ['2025-11-03', 2],
    ]);
  });

  it('a day whose midnight never happened begins at 01:00, west of UTC too: Santiago on 6 September 2026', async () => {
    // 00:00 -04 became 01:00 -03 at 04:00 UTC: 03:30 UTC is 23:30 on the 5th, 04:30 UTC 01:30 on the 6th.
    await click(alice.key, '2026-09-06T03:30:00Z', 'cl1');
    await click(alice.key, '2026-09-06T04:30:00Z', 'cl2');
    const six = await stats('from=2026-09-06&to=2026-09-06&tz=America/Santiago');
    expect([six.start, six.end]).toEqual([at('2026-09-06T04:00:00Z'), at('2026-09-07T03:00:00Z')]);
    const five = await stats('from=2026-09-05&to=2026-09-05&tz=America/Santiago');
    expect(five.end - five.start).toBe(24 * 3600);
    const both = await stats('from=2026-09-05&to=2026-09-06&tz=America/Santiago');
    expect(both.series.map((p: { start: string; clicks: number }) => [p.start, p.clicks])).toEqual([
      ['2026-09-05', 1],
      ['2026-09-06', 1],
    ]);
    // Havana the same way on 8 March 2026, and east of UTC, Beirut on 29 March.
    const havana = await stats('from=2026-03-08&to=2026-03-08&tz=America/Havana');
    expect([havana.start, havana.end]).toEqual([at('2026-03-08T05:00:00Z'), at('2026-03-09T04:00:00Z')]);
    const beirut = await stats('from=2026-03-29&to=2026-03-29&tz=Asia/Beirut');
    expect([beirut.start, beirut.end]).toEqual([at('2026-03-28T22:00:00Z'), at('2026-03-29T21:00:00Z')]);
  });

  it('takes a zone in any letter case and answers it as it was asked', async () => {
    const s = await stats('from=2026-09-06&to=2026-09-06&tz=america/SANTIAGO');
    expect(s).toMatchObject({ tz: 'america/SANTIAGO', start: at('2026-09-06T04:00:00Z'), end: at('2026-09-07T03:00:00Z') });
  });

  it('groups by week (from Monday) and month, the first period cut to the range; totals are the sum', async () => {
    const w = await stats('from=2025-03-01&to=2025-03-10&interval=week&tz=UTC');
    expect(w.series.map((p: { start: string }) => p.start)).toEqual(['2025-03-01', '2025-03-03', '2025-03-10']);
    expect(w.series[0]).toMatchObject({ clicks: 3, referrals: 1 });
    expect(w.series[1]).toMatchObject({ referrals: 0 });
    expect(w.series[2]).toMatchObject({ referrals: 2, payments: 1, customers: 1 });
    expect(w.totals).toEqual({ clicks: 3, referrals: 3, customers: 2, payments: 3, revenue: { USD: 1500 }, commissions: { USD: 300 } });
    const m = await stats('from=2025-02-15&to=2025-03-31&interval=month');
    expect(m.series.map((p: { start: string }) => p.start)).toEqual(['2025-02-15', '2025-03-01']);
    expect(m.series[1]).toEqual({ start: '2025-03-01', ...w.totals });
  });

  it("one partner's numbers", async () => {
    const s = await stats(`from=2025-03-01&to=2025-03-31&partner_id_eq=${bob.partnerId}`);
    expect(s.totals).toEqual({ clicks: 2, referrals: 2, customers: 1, payments: 1, revenue: {}, commissions: {} });
  });

  it('refuses a bad range or zone with 400 naming the parameter', async () => {
    for (const [query, parameter] of [
      ['from=2025-03-02&to=2025-03-01', 'from'],
      ['from=2025-02-30&to=2025-03-01', 'from'],
      ['from=2024-01-01&to=2025-03-01', 'to'],
      ['from=2025-03-01&to=2025-03-02&tz=Mars/Olympus', 'tz'],
      ['from=2025-03-01&to=2025-03-02&interval=year', 'interval'],
      ['to=2025-03-02', 'from'],
      ['from=0050-01-01&to=0050-01-02', 'from'], // not 1950, as Date.UTC would read it
      ['from=1971-06-01&to=1971-06-02&tz=Africa/Monrovia', 'tz'], // 44½ minutes behind UTC then
    ] as const) {
      const err = expectError(await c.call('GET', `/v1/stats?${query}`), 400, 'invalid_parameter');
      expect(err.source).toEqual({ parameter });
    }
    expectError(await c.call('GET', '/v1/stats?from=2025-03-01&to=2025-03-02&color=red'), 400, 'unknown_parameter');
  });
});

describe('GET /v1/stats/partners', () => {
  it('ranks partners with their rate and what they are owed', async () => {
    const reply = await c.call('GET', '/v1/stats/partners?from=2025-03-01&to=2025-03-31&sort=clicks');
    expect(reply.body.data.map((r: { attributes: { name: string } }) => r.attributes.name)).toEqual(['Bob', 'Alice']);
    const [b, a] = reply.body.data;
    expect(b.attributes).toMatchObject({ key: bob.key, clicks: 2, referrals: 2, conversion_rate: 1, owed: {} });
    expect(a.attributes).toMatchObject({
      clicks: 1,
      referrals: 1,
      conversion_rate: 1,
      revenue: { USD: 1500 },
      commissions: { USD: 300 },
      owed: { USD: 300 },
    });
    const byRevenue = await c.call('GET', '/v1/stats/partners?from=2025-03-01&to=2025-03-31&sort=revenue&per_page=1');
    expect(byRevenue.body.data.map((r: { attributes: { name: string } }) => r.attributes.name)).toEqual(['Alice']);
    expect(byRevenue.body.meta.pagination).toEqual({ page: 1, per_page: 1, has_more: true });
  });
});

describe('GET /v1/stats/partners, paged and searched', () => {
  it('lists the partners with nothing in the range after the others, by name, and finds them by part of the name', async () => {
    await seedPartner(c, { name: 'Zed Idle' });
    const page = async (query: string) => (await c.call('GET', `/v1/stats/partners?from=2025-03-01&to=2025-03-31&${query}`)).body;
    const first = await page('sort=clicks&per_page=2');
    expect(first.data.map((r: { attributes: { name: string } }) => r.attributes.name)).toEqual(['Bob', 'Alice']);
    expect(first.meta.pagination.has_more).toBe(true);
    const second = await page('sort=clicks&per_page=2&page=2');
    expect(second.data.map((r: { attributes: { name: string; clicks: number } }) => [r.attributes.name, r.attributes.clicks])).toEqual([
      ['Zed Idle', 0],
    ]);
    expect(second.meta.pagination.has_more).toBe(false);
    const found = await page('q=ZED');
    expect(found.data.map((r: { attributes: { name: string } }) => r.attributes.name)).toEqual(['Zed Idle']);
    expect((await page('q=%25')).data).toEqual([]); // a % in the search is a character, not a wildcard
    const byOwed = await page('sort=owed');
    expect(byOwed.data[0].attributes).toMatchObject({ name: 'Alice', owed: { USD: 300 } });
  });
});

describe('the kept totals', () => {
  it('equal a recount of the records, before and after folding', async () => {
    expect(await checkStats(c.running.db)).toEqual([]);
    while ((await foldStats(c.running.db)) > 0);
    expect(await checkStats(c.running.db)).toEqual([]);
    // Erasing a person takes their referral and their click out of the totals too; their
    // payments stay, as the accounts keep them.
    const list = await c.call('GET', '/v1/referrals?email_eq=one@buyer.test');
    expect((await c.call('DELETE', `/v1/referrals/${list.body.data[0].id}`)).status).toBe(204);
    expect(await checkStats(c.running.db)).toEqual([]);
    const s = await stats('from=2025-03-01&to=2025-03-02&tz=Asia/Kolkata');
    expect(day(s.series, '2025-03-02')).toMatchObject({ clicks: 0, referrals: 0, customers: 1, payments: 2 });
  });
});
