// Every filter of every list route, against records placed at known seconds.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../packages/collector/src/core/ids.js';
import * as commissions from '../../packages/collector/src/modules/commissions/repo.js';
import type { CommissionState } from '../../packages/collector/src/modules/commissions/model.js';
import { seedPartner, startCollector, T0, type Collector } from './harness.js';

let c: Collector;
const ids = { commissions: [] as string[], partnerships: [] as string[], partners: [] as string[], referrals: [] as string[] };
type Route = keyof typeof ids;
let alice: { partnerId: string; partnershipId: string; key: string };
let bob: { partnerId: string; partnershipId: string; key: string };

// Three records per route, at T0, T0+100 and T0+200; state_set_at is 1000 s after creation.
const AT = [T0, T0 + 100, T0 + 200];
const STATE_SET_SHIFT = 1000;

beforeAll(async () => {
  c = await startCollector();
  c.clock.now = AT[0]!;
  alice = await seedPartner(c, { name: 'Alice', email: 'Alice@Partners.test', paypal_email: 'Pay.Alice@PayPal.test' });
  c.clock.now = AT[1]!;
  bob = await seedPartner(c, { name: 'Bob', email: 'bob@partners.test', state: 'pending' });
  c.clock.now = AT[2]!;
  const carol = await seedPartner(c, { name: 'Carol', email: 'carol@partners.test', state: 'declined' });
  ids.partners = [alice.partnerId, bob.partnerId, carol.partnerId];
  ids.partnerships = [alice.partnershipId, bob.partnershipId, carol.partnershipId];

  const people = ['One@Customers.test', 'two@customers.test', 'three@customers.test'];
  const credited = [alice, bob, alice];
  for (const [i, email] of people.entries()) {
    c.clock.now = AT[i]!;
    const r = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email, gr_id: `g${i}`, pk: credited[i]!.key },
    });
    expect(r.status).toBe(201);
    ids.referrals.push(r.body.data.id);
    await c.running.db.run('UPDATE referrals SET state_set_at = ? WHERE id = ?', [AT[i]! + STATE_SET_SHIFT, r.body.data.id]);
  }

  const states: CommissionState[] = ['pending', 'rejected', 'paid'];
  for (const [i, state] of states.entries()) {
    const id = uuidv7();
    await commissions.insert(c.running.db, {
      id,
      program_id: c.programId,
      partner_id: i === 1 ? bob.partnerId : alice.partnerId,
      referral_id: i === 0 ? ids.referrals[0]! : null,
      amount: 1000 * (i + 1),
      currency: 'USD',
      state,
      reject_reason: state === 'rejected' ? 'refunded' : null,
      payable_at: AT[i]!,
      on_hold: 0,
      clawback_of: null,
      tier_of: null,
      reward_id: null,
      reward_description: null,
      review: null,
      review_reasons: null,
      payout_batch_id: null,
      state_set_at: AT[i]! + STATE_SET_SHIFT,
      paid_at: state === 'paid' ? AT[i]! + STATE_SET_SHIFT : null,
      created_at: AT[i]!,
      updated_at: AT[i]! + STATE_SET_SHIFT,
    });
    ids.commissions.push(id);
  }
});
afterAll(async () => {
  await c.close();
});

/** The ids a list query returns, in order. */
async function listIds(route: string, query: string): Promise<string[]> {
  const reply = await c.call('GET', `/v1/${route}?${query}`);
  if (reply.status !== 200) throw new Error(`${route}?${query}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data.map((r: { id: string }) => r.id);
}

/** Record i's id, for routes whose three records were made oldest first. */
const nth = (route: string, ...which: number[]) => which.map((i) => ids[route as Route][i]!);

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A Unix time written in Reditus's form (docs/api.md §9.1) at a given offset in minutes. */
function reditusForm(t: number, offsetMinutes: number): string {
  const d = new Date((t + offsetMinutes * 60) * 1000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`
  );
}

// Each way a client may write the boundary, as it appears in the query string.
const FORMATS: Array<[string, (t: number) => string]> = [
  ['Reditus form, UTC', (t) => encodeURIComponent(reditusForm(t, 0))],
  ['Reditus form, +0200', (t) => encodeURIComponent(reditusForm(t, 120))],
  ['Reditus form, -0530', (t) => encodeURIComponent(reditusForm(t, -330))],
  ['Reditus form with an unencoded +', (t) => reditusForm(t, 120).replace(/ /g, '%20')],
  ['ISO 8601, Z', (t) => new Date(t * 1000).toISOString().replace('.000', '')],
  ['ISO 8601 with .000', (t) => new Date(t * 1000).toISOString()],
  ['ISO 8601, +02:00', (t) => encodeURIComponent(new Date((t + 7200) * 1000).toISOString().replace('.000Z', '+02:00'))],
  ['ISO 8601 with an unencoded +', (t) => new Date((t + 7200) * 1000).toISOString().replace('.000Z', '+02:00')],
];

const DATE_FILTERS: Array<[string, string, number]> = [
  ['commissions', 'created_at', 0],
  ['commissions', 'state_set_at', STATE_SET_SHIFT],
  ['partnerships', 'created_at', 0],
  ['referrals', 'created_at', 0],
  ['referrals', 'state_set_at', STATE_SET_SHIFT],
];

describe.each(DATE_FILTERS)('%s: %s_lt and %s_gt', (route, field, shift) => {
  it.each(FORMATS)('%s', async (_name, format) => {
    const middle = format(AT[1]! + shift);
    // Strict at both bounds: the record exactly at the boundary is in neither answer.
    expect(await listIds(route, `${field}_lt=${middle}`)).toEqual(nth(route, 0));
    expect(await listIds(route, `${field}_gt=${middle}`)).toEqual(nth(route, 2));
    const first = format(AT[0]! + shift);
    const last = format(AT[2]! + shift);
    expect(await listIds(route, `${field}_gt=${first}&${field}_lt=${last}`)).toEqual(nth(route, 1));
  });
});

describe.each(DATE_FILTERS)('%s: %s with a fraction of a second', (route, field, shift) => {
  // Records keep whole seconds; a bound with a fraction is compared exactly, so a record
  // of second S is before S.25 and not after it. toISOString() of "now" misses nothing.
  it('counts the record of that second as before the bound, and not after it', async () => {
    const justAfter = new Date((AT[1]! + shift) * 1000 + 250).toISOString();
    expect(await listIds(route, `${field}_lt=${justAfter}`)).toEqual([...nth(route, 1), ...nth(route, 0)]);
    expect(await listIds(route, `${field}_gt=${justAfter}`)).toEqual(nth(route, 2));
    // Beyond the millisecond too: a fraction is never rounded away.
    const tiny = new Date((AT[1]! + shift) * 1000).toISOString().replace('.000Z', '.0000004Z');
    expect(await listIds(route, `${field}_lt=${tiny}`)).toEqual([...nth(route, 1), ...nth(route, 0)]);
    expect(await listIds(route, `${field}_gt=${tiny}`)).toEqual(nth(route, 2));
    const justBefore = new Date((AT[1]! + shift) * 1000 - 250).toISOString();
    expect(await listIds(route, `${field}_lt=${justBefore}`)).toEqual(nth(route, 0));
    expect(await listIds(route, `${field}_gt=${justBefore}`)).toEqual([...nth(route, 2), ...nth(route, 1)]);
  });
});

describe('date-time values that are mistakes', () => {
  it.each(['2025', '0', String(T0 * 1000)])('refuses %s with 400 and an example', async (value) => {
    const r = await c.call('GET', `/v1/commissions?created_at_gt=${value}`);
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'created_at_gt' } });
    expect(r.body.errors[0].detail).toContain('1740823200');
  });
  it('takes Unix seconds of 10 digits', async () => {
    expect(await listIds('commissions', `created_at_gt=${AT[1]}`)).toEqual(nth('commissions', 2));
  });
});

describe('equality filters', () => {
  it('commissions: state_eq, partner_id_eq, and both together', async () => {
    expect(await listIds('commissions', 'state_eq=pending')).toEqual(nth('commissions', 0));
    expect(await listIds('commissions', 'state_eq=rejected')).toEqual(nth('commissions', 1));
    expect(await listIds('commissions', 'state_eq=paid')).toEqual(nth('commissions', 2));
    expect(await listIds('commissions', `partner_id_eq=${alice.partnerId}`)).toEqual(nth('commissions', 2, 0));
    expect(await listIds('commissions', `partner_id_eq=${bob.partnerId}&state_eq=pending`)).toEqual([]);
    expect(await listIds('commissions', 'partner_id_eq=not-a-partner')).toEqual([]);
  });

  it('commissions: reject_reason only when rejected, paid_at only when paid, referral_id only when set', async () => {
    const reply = await c.call('GET', '/v1/commissions');
    const byState = Object.fromEntries(reply.body.data.map((r: { attributes: { state: string } }) => [r.attributes.state, r.attributes]));
    expect(byState.pending).toEqual({
      state: 'pending',
      amount: 1000,
      currency: 'USD',
      partner_id: alice.partnerId,
      referral_id: ids.referrals[0],
      payable_at: AT[0],
      on_hold: false,
      tier: 1,
      state_set_at: AT[0]! + STATE_SET_SHIFT,
      created_at: AT[0],
      updated_at: AT[0]! + STATE_SET_SHIFT,
    });
    expect(byState.rejected.reject_reason).toBe('refunded');
    expect(byState.rejected).not.toHaveProperty('paid_at');
    expect(byState.rejected).not.toHaveProperty('referral_id');
    expect(byState.paid.paid_at).toBe(AT[2]! + STATE_SET_SHIFT);
    expect(byState.paid).not.toHaveProperty('reject_reason');
    expect(reply.body.data[0].type).toBe('commission');
  });

  it('partnerships: state_eq', async () => {
    expect(await listIds('partnerships', 'state_eq=accepted')).toEqual(nth('partnerships', 0));
    expect(await listIds('partnerships', 'state_eq=pending')).toEqual(nth('partnerships', 1));
    expect(await listIds('partnerships', 'state_eq=declined')).toEqual(nth('partnerships', 2));
  });

  it('partnerships: the record has every field of docs/api.md §8.2 and the partner relationship', async () => {
    const reply = await c.call('GET', '/v1/partnerships?state_eq=accepted');
    const [p] = reply.body.data;
    expect(p.type).toBe('partnership');
    expect(p.attributes).toMatchObject({
      state: 'accepted',
      competitor_slugs: [],
      created_by: 'company',
      state_set_at: AT[0],
      created_at: AT[0],
      updated_at: AT[0],
      referral_link: `http://localhost:8787/demo/?red=${alice.key}`,
    });
    expect(p.relationships).toEqual({ partner: { data: { id: alice.partnerId, type: 'partner' } } });
  });

  it('partners: name_eq exact, email_eq and paypal_email_eq on normalized addresses', async () => {
    expect(await listIds('partners', 'name_eq=Alice')).toEqual(nth('partners', 0));
    expect(await listIds('partners', 'name_eq=alice')).toEqual([]);
    expect(await listIds('partners', `email_eq=${encodeURIComponent(' Alice@PARTNERS.TEST')}`)).toEqual(nth('partners', 0));
    expect(await listIds('partners', 'email_eq=alice%40partners.test')).toEqual([]);
    expect(await listIds('partners', 'paypal_email_eq=Pay.Alice%40paypal.TEST')).toEqual(nth('partners', 0));
    expect(await listIds('partners', 'paypal_email_eq=bob%40partners.test')).toEqual([]);
  });

  it('partners: the record shows name, the account e-mail as given, and the payout address', async () => {
    const reply = await c.call('GET', '/v1/partners?name_eq=Alice');
    expect(reply.body.data[0]).toEqual({
      id: alice.partnerId,
      type: 'partner',
      attributes: {
        name: 'Alice',
        email: 'Alice@Partners.test',
        paypal_email: 'Pay.Alice@PayPal.test',
        created_at: AT[0],
        updated_at: AT[0],
      },
    });
  });

  it('referrals: state_eq, email_eq (normalized) and partner_id_eq', async () => {
    expect(await listIds('referrals', 'state_eq=converted')).toEqual(nth('referrals', 2, 1, 0));
    expect(await listIds('referrals', 'state_eq=paid')).toEqual([]);
    expect(await listIds('referrals', 'email_eq=One%40CUSTOMERS.test')).toEqual(nth('referrals', 0));
    expect(await listIds('referrals', 'email_eq=one%40customers.test')).toEqual([]);
    expect(await listIds('referrals', `partner_id_eq=${alice.partnerId}`)).toEqual(nth('referrals', 2, 0));
    expect(await listIds('referrals', `partner_id_eq=${bob.partnerId}`)).toEqual(nth('referrals', 1));
  });
});

describe('sort order', () => {
  it('is newest first on every route', async () => {
    for (const route of Object.keys(ids)) expect(await listIds(route, '')).toEqual(nth(route, 2, 1, 0));
  });
});

// Runs last: it adds a record the tests above do not expect.
describe('state_set_at after the clock stepped back', () => {
  it('stays at created_at, so the _lt filter (which also bounds created_at) still finds the record', async () => {
    c.clock.now = T0 + 5000;
    const made = await c.call('POST', '/v1/commissions', { body: { partner_id: alice.partnerId, amount: 500, currency: 'USD' } });
    expect(made.status).toBe(201);
    c.clock.now = T0 + 4000;
    const paid = await c.call('PATCH', `/v1/commissions/${made.body.data.id}`, { body: { state: 'paid' } });
    expect(paid.status).toBe(200);
    expect(paid.body.data.attributes.state_set_at).toBe(T0 + 5000);
    const iso = (t: number) => new Date(t * 1000).toISOString();
    expect(await listIds('commissions', `state_eq=paid&state_set_at_lt=${iso(T0 + 5001)}`)).toContain(made.body.data.id);
    expect(await listIds('commissions', `state_eq=paid&state_set_at_lt=${iso(T0 + 5000)}`)).not.toContain(made.body.data.id);
    const stored = await c.running.db.get<{ s: number }>('SELECT state_set_at AS s FROM commissions WHERE id = ?', [made.body.data.id]);
    expect(stored?.s).toBe(T0 + 5000);
  });
});
