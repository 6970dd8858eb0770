// Money: integer minor units, ISO currency codes, and the commission formula.

import { fail } from '../platform/errors.js';

/**
 * The ISO 4217 codes Tally takes, with the digits of each one's minor unit: list one as
 * amended to 2025, less what is not money one pays a partner in. Kept here rather than
 * read from Intl, whose answer depends on the ICU data Node was built with.
 *
 * Left out: the X-codes that name no currency (gold XAU, silver XAG, palladium XPD,
 * platinum XPT; the bond-market units XBA XBB XBC XBD; the IMF's XDR; XSU, XUA; XTS for
 * testing and XXX for "no currency"), and codes withdrawn from list one (ANG for XCG in
 * 2025, BGN for EUR in 2026, CUC, HRK, SLL, ZWL). Kept: the X-codes that are currencies
 * (XAF, XCD, XCG, XOF, XPF) and the fund codes (BOV, CHE, CHW, CLF, COU, MXV, USN, UYI,
 * UYW), which companies do price and invoice in (Chile's UF, Uruguay's UI, WIR).
 */
const MINOR_UNITS: Readonly<Record<string, number>> = (() => {
  const byDigits: Record<number, string> = {
    0: 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF',
    2:
      'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
      'CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP ' +
      'GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK ' +
      'LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO ' +
      'NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS ' +
      'SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST ' +
      'XCD XCG YER ZAR ZMW ZWG',
    3: 'BHD IQD JOD KWD LYD OMR TND',
    4: 'CLF UYW',
  };
  const table: Record<string, number> = Object.create(null);
  for (const [digits, codes] of Object.entries(byDigits)) for (const code of codes.split(' ')) table[code] = Number(digits);
  return Object.freeze(table);
})();

/**
 * Upper case by ASCII alone: toUpperCase would make the dotless ı an I and the long ſ
 * an S, so that "ıSD" passed as "ISD".
 */
const asciiUpper = (raw: string): string => raw.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));

/** The code in upper case if Tally takes it, else undefined. */
export function knownCurrency(raw: string): string | undefined {
  const code = asciiUpper(raw);
  return /^[A-Z]{3}$/.test(code) && code in MINOR_UNITS ? code : undefined;
}

export const CURRENCY_RULE = 'must be the ISO 4217 code of a currency, such as USD or EUR';

/** The check every currency goes through in the domain (payments, commissions, the CLI's --currency). */
export function currencyCode(raw: string, field = 'currency'): string {
  const code = knownCurrency(raw);
  if (code === undefined) throw fail('invalid_field', `currency ${CURRENCY_RULE}`, { field });
  return code;
}

/** Digits after the decimal point in the currency's major unit: JPY 0, USD 2, KWD 3, CLF 4. */
export function minorUnit(code: string): number | undefined {
  return MINOR_UNITS[code];
}

/**
 * amount × rate / 10000, rounded half up to a whole minor unit. BigInt keeps it exact
 * for any amount the API accepts (an amount times 10000 passes 2^53 near 9 × 10^11).
 */
export function commissionAmount(amount: number, rateBps: number): number {
  return Number((BigInt(amount) * BigInt(rateBps) + 5000n) / 10000n);
}

/** `whole × part ÷ of`, rounded half up, exactly (BigInt: the product may pass 2^53); all of `whole` when `part` is all of `of`. */
export function shareOf(whole: number, part: number, of: number): number {
  if (of <= 0 || part >= of) return whole;
  return Number((BigInt(whole) * BigInt(part) * 2n + BigInt(of)) / (2n * BigInt(of)));
}

/**
 * What a partner keeps of `earned` once `refunded` of a charge of `of` is refunded: the
 * unrefunded share, rounded half up (docs/api.md §18). Rounding the refunded part
 * instead would give a tie to the company: 999 half refunded would keep 499, not 500.
 * Every refund path (POST /v1/refunds, each billing platform, clawbacks) goes through it.
 */
export function keptShare(earned: number, refunded: number, of: number): number {
  if (refunded >= of) return 0;
  return shareOf(earned, of - refunded, of);
}

/** Minor units as a decimal in major units: 1234 USD is "12.34", 1234 JPY is "1234", 1234 KWD "1.234". */
export function majorUnits(amount: number, currency: string): string {
  const digits = minorUnit(currency);
  // A guess would put the decimal point in the wrong place in a payout file.
  if (digits === undefined) throw new Error(`no minor unit known for currency ${currency}`);
  if (digits === 0) return String(amount);
  const text = String(amount).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * A decimal in the currency's major unit ("12.34" USD, "1500" JPY, "1.234" KWD) as minor
 * units, exactly: more digits after the point than the currency has is refused, not rounded.
 */
export function minorFromDecimal(raw: string, currency: string): number | undefined {
  const digits = minorUnit(currency);
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(raw.trim());
  if (digits === undefined || !m || (m[3] ?? '').length > digits) return undefined;
  const value = Number(`${m[2]}${(m[3] ?? '').padEnd(digits, '0')}`);
  return Number.isSafeInteger(value) ? (m[1] ? -value : value) : undefined;
}
