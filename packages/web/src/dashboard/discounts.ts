// Discounts and promotion codes as the owner's pages read them: every discount of the
// program, a discount in words ("20 % off every payment", "$5.00 off the first payment"),
// and who made a code.

import { api, type Answer } from '../common/api.js';
import { everyPage } from '../common/codes.js';
import { locale, money } from '../common/format.js';
import { t } from './language.js';

export type Discount = Answer<'/v1/discounts'>['data'][number];
export type Code = Answer<'/v1/discount_codes'>['data'][number];

/** Every discount of the program, newest first. */
export const allDiscounts = (signal: AbortSignal): Promise<Discount[]> =>
  everyPage((after) => api.GET('/v1/discounts', { params: { query: { per_page: 50, starting_after: after } }, signal }));

/** A percentage of basis points as the viewer writes numbers: 2000 is "20 %", 1250 "12.5 %". */
export const percentOff = (bps: number): string => `${new Intl.NumberFormat(locale(), { maximumFractionDigits: 2 }).format(bps / 100)} %`;

/** What a discount takes off, and of which payments, in words. */
export function discountWords(d: Discount['attributes']): string {
  const off = d.kind === 'percent' ? percentOff(d.amount) : money(d.amount, d.currency ?? 'USD');
  const months = d.duration.months ?? 1;
  if (d.duration.kind === 'once') return t('discounts.once', { off });
  return d.duration.kind === 'months' ? t('discounts.months', { off, count: months }) : t('discounts.forever', { off });
}

/** Who made a code, in words. */
export const madeBy = (by: Code['attributes']['created_by']): string => t(`discounts.madeBy.${by}`);
