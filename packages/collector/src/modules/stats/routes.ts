// The dashboard's numbers, for anyone with the program's secret token: totals per day,
// week or month in a time zone, and per partner (modules/stats/service.ts).

import { z } from 'zod';
import { LEADERBOARD_SORTS, leaderboard, statsSeries } from './service.js';
import { route } from '../../api/route.js';
import {
  pageParams,
  partnerStatsSchema,
  range,
  rangeOut,
  renderPartnerStats,
  renderRange,
  seriesAnswer,
  seriesQuery,
  seriesSchema,
} from './schemas.js';

export const statsRoutes = [
  route({
    method: 'get',
    path: '/v1/stats',
    summary: 'Clicks, referrals, paying customers, payments, revenue and commissions per day, week or month, and in all',
    access: 'secret',
    replicaReads: true,
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
    replicaReads: true,
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
    async handle({ db, program, query, now }) {
      const board = await leaderboard(db, program.id, { ...query, perPage: query.per_page }, now);
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
