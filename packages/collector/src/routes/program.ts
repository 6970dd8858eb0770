// The program the caller's token (or session) belongs to: its settings, read and changed
// as one record. Allowed origins are given as the whole list; the domain adds and removes
// by name, so a concurrent change to another origin is not undone.

import { z } from 'zod';
import { getProgram, updateProgram, type ProgramWithOrigins } from '../domain/programs.js';
import { found } from '../errors.js';
import { route } from '../http/route.js';
import { one, resource, unixTime } from '../http/schemas.js';
import { rateBps } from './fields.js';

/** The snippet holds data-cookie-days to 1–365 (docs/tracker.md). */
export const COOKIE_DAYS_MAX = 365;

const programSchema = resource('program', {
  name: z.string(),
  site_url: z.string(),
  allowed_origins: z.array(z.string()),
  commission_rate_bps: z.number().int(),
  cookie_days: z.number().int(),
  created_at: unixTime,
  updated_at: unixTime,
});

function renderProgram({ program, origins }: ProgramWithOrigins) {
  return {
    id: program.id,
    type: 'program' as const,
    attributes: {
      name: program.name,
      site_url: program.site_url,
      allowed_origins: origins,
      commission_rate_bps: program.commission_rate_bps,
      cookie_days: program.cookie_days,
      created_at: program.created_at,
      updated_at: program.updated_at,
    },
  };
}

const changes = z.strictObject({
  name: z.string().max(200).optional(),
  site_url: z.string().max(2000).optional(),
  allowed_origins: z.array(z.string().max(2000)).max(50).optional(),
  commission_rate_bps: rateBps.optional(),
  cookie_days: z.number().int().min(1).max(COOKIE_DAYS_MAX).optional(),
});

export const programRoutes = [
  route({
    method: 'get',
    path: '/v1/program',
    summary: "The caller's program: its name, site, allowed origins, default rate and cookie lifetime",
    access: 'secret',
    status: 200,
    response: one(programSchema),
    async handle({ db, program }) {
      return { status: 200, body: { data: renderProgram(found(await getProgram(db, program.id), 'program', program.id)) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/program',
    summary: "Change the program's settings; allowed_origins replaces the whole list",
    access: 'secret',
    body: changes,
    status: 200,
    response: one(programSchema),
    async handle({ db, program, body, now }) {
      const updated = await updateProgram(
        db,
        program.id,
        {
          name: body.name,
          siteUrl: body.site_url,
          commissionRateBps: body.commission_rate_bps,
          cookieDays: body.cookie_days,
          origins: body.allowed_origins,
        },
        now,
      );
      return { status: 200, body: { data: renderProgram(updated) } };
    },
  }),
];
