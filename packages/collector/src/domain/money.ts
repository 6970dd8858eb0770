// Money: integer minor units, ISO currency codes, and the commission formula.

import { fail } from '../errors.js';

/** A three-letter code as sent, in any case, becomes upper case; anything else is refused. */
export function currencyCode(raw: string, pointer = '/currency'): string {
  const code = raw.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw fail('invalid_field', 'currency must be a three-letter ISO 4217 code', { pointer });
  return code;
}

/**
 * amount × rate / 10000, rounded half up to a whole minor unit. BigInt keeps it exact
 * for any amount the API accepts (an amount times 10000 passes 2^53 near 9 × 10^11).
 */
export function commissionAmount(amount: number, rateBps: number): number {
  return Number((BigInt(amount) * BigInt(rateBps) + 5000n) / 10000n);
}

/** Minor units as a decimal in major units: 1234 USD is "12.34", 1234 JPY is "1234". */
export function majorUnits(amount: number, currency: string): string {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // an unknown code keeps two decimals
  }
  if (digits === 0) return String(amount);
  const text = String(amount).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
