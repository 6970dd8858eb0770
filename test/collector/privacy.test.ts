// Erasing a person (DELETE /v1/referrals/:id, tally forget EMAIL): their referral, their
// clicks and the link from their commissions and payments go; the amounts stay.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesHolding } from './database.js';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';
import { tally } from './processes.js';

let c: Collector;
beforeEach(async () => {
  c = await startCollector();
});
afterEach(async () => {
  await c.close();
});

/** A click, a conversion and a payment for one person; returns the ids. */
async function person(email: string) {
  const p = await seedPartner(c);
  const gr_id = `click-${email}`;
  const click = await c.call('POST', '/v1/tracking/click', { token: c.publishable, body: { gr_id, pk: p.key } });
  expect(click.status).toBeLessThan(300);
  const conv = await c.call('POST', '/v1/tracking/conversion', { token: c.publishable, body: { email, gr_id, pk: p.key } });
  expect(conv.status).toBe(201);
  const pay = await c.call('POST', '/v1/payments', {
    body: { amount: 5000, currency: 'USD', referral_id: conv.body.data.id, idempotency_key: `pay-${gr_id.length}-${Math.random()}` },
  });
  expect(pay.status).toBe(201);
  return {
    gr_id,
    referralId: conv.body.data.id as string,
    paymentId: pay.body.data.id as string,
    commissionId: pay.body.data.relationships.commission.data.id as string,
  };
}

async function expectErased(who: Awaited<ReturnType<typeof person>>, email: string) {
  expectError(await c.call('GET', `/v1/referrals/${who.referralId}`), 404, 'not_found');
  expect(await tablesHolding(c.databaseUrl, email)).toEqual([]);
  expect(await tablesHolding(c.databaseUrl, who.gr_id)).toEqual([]);
  // The audit log keeps its entries about the referral, by its id alone: who erased it and when (docs/audit.md).
  expect((await tablesHolding(c.databaseUrl, who.referralId)).filter((t) => t !== 'audit_events')).toEqual([]);
  // The accounts keep the amounts.
  const commission = (await c.call('GET', `/v1/commissions/${who.commissionId}`)).body.data;
  expect(commission.attributes.amount).toBe(1000);
  expect(commission.attributes.referral_id).toBeUndefined();
  const payment = (await c.call('GET', `/v1/payments/${who.paymentId}`)).body.data;
  expect(payment.attributes.amount).toBe(5000);
  expect(payment.relationships.referral.data).toBeNull();
}

describe('DELETE /v1/referrals/:id', () => {
  it('erases the referral, its clicks and the e-mail, keeps the amounts, and leaves others alone', async () => {
    const ann = await person('ann@buyer.test');
    const bob = await person('bob@buyer.test');
    const reply = await c.call('DELETE', `/v1/referrals/${ann.referralId}`);
    expect(reply.status).toBe(204);
    await expectErased(ann, 'ann@buyer.test');
    expect((await c.call('GET', `/v1/referrals/${bob.referralId}`)).status).toBe(200);
    // On PostgreSQL a click's row is in clicks and in its month's partition (migration 0024), which the list names apart.
    const holding = (await tablesHolding(c.databaseUrl, bob.gr_id)).filter((t) => !/^clicks_(\d{4}_\d{2}|default)$/.test(t));
    expect(holding).toEqual(['clicks', 'referrals']);
  });

  it('a later conversion for the same e-mail is a new referral', async () => {
    const ann = await person('ann@buyer.test');
    await c.call('DELETE', `/v1/referrals/${ann.referralId}`);
    const p = await seedPartner(c);
    const again = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'Ann@Buyer.test', gr_id: 'g2', pk: p.key },
    });
    expect(again.status).toBe(201);
    expect(again.body.data.id).not.toBe(ann.referralId);
  });

  it('is 404 for an unknown or already erased referral, for another program, and needs the secret token', async () => {
    const ann = await person('ann@buyer.test');
    expectError(await c.call('DELETE', `/v1/referrals/${ann.referralId}`, { token: c.publishable }), 403, 'forbidden');
    const other = await c.otherProgram();
    expectError(await c.call('DELETE', `/v1/referrals/${ann.referralId}`, { token: other.secret }), 404, 'not_found');
    expect((await c.call('DELETE', `/v1/referrals/${ann.referralId}`)).status).toBe(204);
    expectError(await c.call('DELETE', `/v1/referrals/${ann.referralId}`), 404, 'not_found');
  });
});

describe('tally forget EMAIL', () => {
  it('erases the person by e-mail (the domain in any case), while the server runs; the output does not echo it', async () => {
    const ann = await person('ann@buyer.test');
    const run = await tally(['forget', ' ann@BUYER.test '], { DATABASE_URL: c.databaseUrl });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Erased 1 referral and their clicks.\n');
    await expectErased(ann, 'ann@buyer.test');
    const again = await tally(['forget', 'ann@buyer.test'], { DATABASE_URL: c.databaseUrl });
    expect([again.code, again.stdout]).toEqual([0, 'No referral for that e-mail.\n']);
  });

  it('exits 2 for something that is not an e-mail address or an unknown program', async () => {
    expect((await tally(['forget', 'not-an-email'], { DATABASE_URL: c.databaseUrl })).code).toBe(2);
    const run = await tally(['forget', 'a@b.test', '--program', 'nope'], { DATABASE_URL: c.databaseUrl });
    expect(run.code).toBe(2);
  });
});
