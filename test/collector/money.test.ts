// Currencies: only ISO 4217 codes used for money, read in ASCII, with each code's own
// minor unit from Tally's table (never from the ICU build's Intl data).

import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currencyCode, keptShare, majorUnits, minorUnit } from '../../packages/collector/src/core/money.js';
import { expectError, seedPartner, startCollector, type Collector } from './harness.js';

describe('currency codes', () => {
  it('accept ISO 4217 codes used for money, upper-casing a-z only', () => {
    expect(currencyCode('usd')).toBe('USD');
    expect(currencyCode('Jpy')).toBe('JPY');
    for (const code of ['XAF', 'XOF', 'XPF', 'XCD', 'XCG', 'ZWG', 'VED', 'SLE', 'CLF', 'UYW']) expect(currencyCode(code)).toBe(code);
  });

  it.each([
    ['made up', 'QQQ'],
    ['no currency', 'XXX'],
    ['testing', 'XTS'],
    ['gold', 'XAU'],
    ['silver', 'XAG'],
    ['special drawing rights', 'XDR'],
    ['a bond-market unit', 'XBA'],
    ['withdrawn (the kuna, now EUR)', 'HRK'],
    ['a dotless i, which toUpperCase makes ISD', '\u0131SD'],
    ['a long s, which toUpperCase makes S', 'U\u017fD'],
    ['a Kelvin sign, which toLowerCase makes k', '\u212aWD'],
    ['fullwidth letters', '\uff35\uff33\uff24'],
    ['two letters', 'US'],
    ['four letters', 'USDT'],
    ['spaces', ' USD'],
  ])('refuse %s: %j', (_name, code) => {
    expect(() => currencyCode(code)).toThrow(/ISO 4217/);
  });
});

describe('amounts in major units', () => {
  it("use each currency's minor unit from Tally's own table, not Intl", () => {
    // Intl's answer depends on the ICU data Node was built with; the table must not.
    const spy = vi.spyOn(Intl, 'NumberFormat').mockImplementation(() => {
      throw new Error('Intl must not be asked');
    });
    try {
      expect(majorUnits(1234, 'USD')).toBe('12.34');
      expect(majorUnits(5, 'EUR')).toBe('0.05');
      expect(majorUnits(1500, 'JPY')).toBe('1500');
      expect(majorUnits(1500, 'KRW')).toBe('1500');
      expect(majorUnits(7, 'XOF')).toBe('7');
      for (const code of ['KWD', 'BHD', 'JOD', 'OMR', 'TND', 'LYD', 'IQD']) expect(majorUnits(1234, code)).toBe('1.234');
      expect(majorUnits(12345, 'CLF')).toBe('1.2345');
      expect(majorUnits(12345, 'UYW')).toBe('1.2345');
      expect(majorUnits(0, 'USD')).toBe('0.00');
      expect(majorUnits(1, 'KWD')).toBe('0.001');
      expect(majorUnits(123456789012, 'USD')).toBe('1234567890.12');
    } finally {
      spy.mockRestore();
    }
  });

  it('knows the minor unit of every code it accepts, and refuses to guess for others', () => {
    expect([minorUnit('JPY'), minorUnit('USD'), minorUnit('KWD'), minorUnit('CLF')]).toEqual([0, 2, 3, 4]);
    expect(minorUnit('XXX')).toBeUndefined();
    expect(() => majorUnits(100, 'QQQ')).toThrow(/QQQ/);
  });
});

describe('what a partner keeps of a refunded payment', () => {
  it('the unrefunded share of what the payment earned, rounded half up: 999 half refunded keeps 500', () => {
    expect(keptShare(999, 4995, 9990)).toBe(500);
    expect(keptShare(999, 0, 9990)).toBe(999);
    expect(keptShare(999, 9990, 9990)).toBe(0);
  });

  it('for any amounts: within half a minor unit of the exact share, an exact half rounded up', () => {
    const cases = fc
      .record({
        earned: fc.integer({ min: 0, max: 1e12 }),
        of: fc.integer({ min: 1, max: 1e12 }),
        r: fc.double({ min: 0, max: 1, noNaN: true }),
      })
      .map(({ earned, of, r }) => ({ earned, of, refunded: Math.min(of, Math.floor(of * r)) }));
    fc.assert(
      fc.property(cases, ({ earned, of, refunded }) => {
        const kept = keptShare(earned, refunded, of);
        // 2 × (kept − exact) × of lies in (−of, of]: nearest, and a tie goes to the partner.
        const twice = 2n * (BigInt(kept) * BigInt(of) - BigInt(earned) * BigInt(of - refunded));
        expect(Number.isSafeInteger(kept)).toBe(true);
        expect(twice > -BigInt(of) && twice <= BigInt(of)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    // Ties, which random amounts seldom hit: an odd commission half refunded.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5e11 }), fc.integer({ min: 1, max: 1e6 }), (k, half) => {
        expect(keptShare(2 * k + 1, half, 2 * half)).toBe(k + 1);
      }),
    );
  });
});

describe('every way a currency enters the API', () => {
  let c: Collector;
  beforeEach(async () => {
    c = await startCollector();
  });
  afterEach(async () => {
    await c.close();
  });

  const bad = ['QQQ', 'XXX', 'XAU', '\u0131SD', 'U\u017fD'];

  it('POST /v1/commissions: 422 invalid_field on /currency, and nothing stored', async () => {
    const { partnerId } = await seedPartner(c);
    for (const currency of bad) {
      const reply = await c.call('POST', '/v1/commissions', { body: { partner_id: partnerId, amount: 100, currency } });
      expect(expectError(reply, 422, 'invalid_field').source, currency).toEqual({ pointer: '/currency' });
    }
    expect((await c.call('GET', '/v1/commissions')).body.data).toEqual([]);
    const yen = await c.call('POST', '/v1/commissions', { body: { partner_id: partnerId, amount: 100, currency: 'jpy' } });
    expect(yen.status).toBe(201);
    expect(yen.body.data.attributes.currency).toBe('JPY');
  });

  it('POST /v1/payments: 422 invalid_field on /currency, and nothing stored', async () => {
    const p = await seedPartner(c);
    const conv = await c.call('POST', '/v1/tracking/conversion', {
      token: c.publishable,
      body: { email: 'buyer@x.test', gr_id: 'g', pk: p.key },
    });
    for (const currency of bad) {
      const reply = await c.call('POST', '/v1/payments', {
        body: { amount: 100, currency, idempotency_key: `k-${currency}`, referral_id: conv.body.data.id },
      });
      expect(expectError(reply, 422, 'invalid_field').source, currency).toEqual({ pointer: '/currency' });
    }
    expect((await c.call('GET', '/v1/commissions')).body.data).toEqual([]);
  });

  it('POST /v1/payout_batches: "eur" exports the EUR commissions, as "EUR" does', async () => {
    const { partnerId } = await seedPartner(c, { paypal_email: 'paid@partner.test' });
    await c.call('POST', '/v1/commissions', { body: { partner_id: partnerId, amount: 500, currency: 'EUR' } });
    const made = await c.call('POST', '/v1/payout_batches', { body: { currency: 'eur' } });
    expect(made.status).toBe(201);
    expect(made.body.data.map((b: { attributes: { currency: string; amount: number } }) => b.attributes)).toEqual([
      expect.objectContaining({ currency: 'EUR', amount: 500 }),
    ]);
  });
});
