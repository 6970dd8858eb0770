// The dashboard's numbers, for anyone with the program's secret token: totals per day,
// week or month in a time zone, and per partner (domain/stats.ts).

import { z } from 'zod';
import { LEADERBOARD_SORTS, leaderboard, statsSeries, type PartnerStats, type Range, type Series, type Totals } from '../domain/stats.js';
import { route } from '../http/route.js';
import { one } from '../http/schemas.js';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX } from '../http/list-query.js';

const money = z.record(z.string(), z.number().int()).meta({ description: 'currency → amount in minor units' });
const totals = {
  clicks: z.number().int(),
  referrals: z.number().int(),
  customers: z.number().int().meta({ description: 'referrals whose first payment fell in the period' }),
  payments: z.number().int(),
  revenue: money,
  commissions: money,
};
const range = {
  from: z.string().meta({ description: 'first day, YYYY-MM-DD, in tz' }),
  to: z.string().meta({ description: 'last day, YYYY-MM-DD, in tz (inclusive)' }),
  tz: z.string().default('UTC').meta({ description: 'IANA time zone; days begin at its midnight' }),
};
const rangeOut = { from: z.string(), to: z.string(), tz: z.string(), start: z.number().int(), end: z.number().int() };
const renderRange = (r: Range) => ({ from: r.from, to: r.to, tz: r.tz, start: r.start, end: r.end });

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

const partnerStatsSchema = z.object({
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

const pick = ({ clicks, referrals, customers, payments, revenue, commissions }: Totals) => ({
  clicks,
  referrals,
  customers,
  payments,
  revenue,
  commissions,
});

function renderPartnerStats(r: PartnerStats) {
  return {
    id: r.partnerId,
    type: 'partner_stats' as const,
    attributes: { name: r.name, key: r.key, ...pick(r), conversion_rate: r.conversionRate, owed: r.owed },
  };
}

const pageParams = {
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

export const statsRoutes = [
  route({
    method: 'get',
    path: '/v1/stats',
    summary: 'Clicks, referrals, paying customers, payments, revenue and commissions per day, week or month, and in all',
    access: 'secret',
    query: seriesQuery.extend({ partner_id_eq: z.string().max(64).optional() }),
    status: 200,
    response: seriesSchema,
    async handle({ db, program, query }) {
      const s = await statsSeries(db, program.id, { ...query, partnerId: query.partner_id_eq });
      return { status: 200, body: seriesAnswer(s) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/stats/partners',
    summary: "The partners' leaderboard for a range: their totals, conversion rate and what they are owed now",
    access: 'secret',
    query: z.strictObject({
      ...range,
      sort: z.enum(LEADERBOARD_SORTS).default('revenue'),
      q: z.string().max(200).optional().meta({ description: 'only partners whose name contains this, in any letter case' }),
      ...pageParams,
    }),
    status: 200,
    response: z.object({
      data: z.array(partnerStatsSchema),
      meta: z.object({
        pagination: z.object({ page: z.number().int(), per_page: z.number().int(), has_more: z.boolean() }),
        range: z.object(rangeOut),
      }),
    }),
    async handle({ db, program, query }) {
      const board = await leaderboard(db, program.id, { ...query, perPage: query.per_page });
      return {
        status: 200,
        body: {
          data: board.rows.map(renderPartnerStats),
          meta: {
            pagination: { page: query.page, per_page: query.per_page, has_more: board.hasMore },
            range: renderRange(board.range),
          },
        },
      };
    },
  }),
];
