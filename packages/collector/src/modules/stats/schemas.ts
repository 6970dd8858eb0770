// The statistics as the API shows them: the schemas of a series and of the leaderboard,
// shared by the dashboard's routes and the portal's (a partnership's own series).

import { z } from 'zod';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX } from '../../platform/http/list-query.js';
import { one } from '../../platform/http/schemas.js';
import type { PartnerStats, Range, Series, Totals } from './service.js';

export const money = z.record(z.string(), z.number().int()).meta({ description: 'currency → amount in minor units' });
export const totals = {
  clicks: z.number().int(),
  referrals: z.number().int(),
  customers: z.number().int().meta({ description: 'referrals whose first payment fell in the period' }),
  payments: z.number().int(),
  revenue: money,
  commissions: money,
};
export const range = {
  from: z.string().meta({ description: 'first day, YYYY-MM-DD, in tz' }),
  to: z.string().meta({ description: 'last day, YYYY-MM-DD, in tz (inclusive)' }),
  tz: z.string().default('UTC').meta({ description: 'IANA time zone; days begin at its midnight' }),
};
export const rangeOut = { from: z.string(), to: z.string(), tz: z.string(), start: z.number().int(), end: z.number().int() };
export const renderRange = (r: Range) => ({ from: r.from, to: r.to, tz: r.tz, start: r.start, end: r.end });

export const seriesSchema = one(
  z.object({
    type: z.literal('stats'),
    attributes: z.object({
      ...rangeOut,
      interval: z.enum(['day', 'week', 'month']),
      series: z.array(z.object({ start: z.string(), ...totals })),
      totals: z.object(totals),
      owed: money.meta({ description: 'what is owed now, whatever the range: pending commissions no open payout batch holds' }),
    }),
  }),
);

export const partnerStatsSchema = z.object({
  id: z.string(),
  type: z.literal('partner_stats'),
  attributes: z.object({
    name: z.string(),
    key: z.string().nullable(),
    ...totals,
    conversion_rate: z.number(),
    owed: money,
  }),
});

export const pick = ({ clicks, referrals, customers, payments, revenue, commissions }: Totals) => ({
  clicks,
  referrals,
  customers,
  payments,
  revenue,
  commissions,
});

export function renderPartnerStats(r: PartnerStats) {
  return {
    id: r.partnerId,
    type: 'partner_stats' as const,
    attributes: { name: r.name, key: r.key, ...pick(r), conversion_rate: r.conversionRate, owed: r.owed },
  };
}

export const pageParams = {
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  per_page: z.coerce.number().int().min(1).max(PER_PAGE_MAX).default(PER_PAGE_DEFAULT),
};

/** The range and interval of a series (the portal's series takes no partner: it is the partnership's). */
export const seriesQuery = z.strictObject({ ...range, interval: z.enum(['day', 'week', 'month']).default('day') });

export function seriesAnswer(s: Series) {
  return {
    data: {
      type: 'stats' as const,
      attributes: { ...renderRange(s.range), interval: s.interval, series: s.periods, totals: pick(s.totals), owed: s.owed },
    },
  };
}
