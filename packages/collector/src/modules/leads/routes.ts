// Leads (docs/leads.md): a partner submits one in the portal, under one of their
// partnerships (any other id is a 404), and sees their own with their stages; the owner
// submits on a partner's behalf (partner_id), lists and reads the program's, and moves them.

import { z } from 'zod';
import { readRoutes } from '../../api/crud.js';
import { email, emailFilter } from '../../api/fields.js';
import { route, type RouteInput } from '../../api/route.js';
import type { AccountRow } from '../portal/repo.js';
import { moveLead, submitLead, submitLeadFor } from '../../flows/leads.js';
import { reachedPartnership } from '../../flows/portal.js';
import { dateTime, oneOf, text } from '../../platform/http/list-query.js';
import { listEnvelope } from '../../platform/http/render.js';
import { one, page, relation, resource, unixTime } from '../../platform/http/schemas.js';
import { LEAD_STAGES } from './model.js';
import { renderLead } from './present.js';
import * as leads from './repo.js';

const optional = (max: number) => z.string().trim().max(max).nullish();

const leadFields = {
  name: z.string().trim().min(1).max(200),
  email,
  company: optional(200),
  notes: optional(2000),
};

const leadSchema = resource(
  'lead',
  {
    name: z.string(),
    email: z.string(),
    company: z.string().optional(),
    notes: z.string().optional(),
    stage: z.enum(LEAD_STAGES),
    stage_set_at: unixTime,
    lost_reason: z.string().optional().meta({ description: 'Why the owner lost it; with stage lost only' }),
    partner_id: z.string(),
    submitted_by: z.enum(['partner', 'owner']),
    created_at: unixTime,
    updated_at: unixTime,
  },
  {
    partnership: relation('partnership'),
    referral: relation('referral').meta({ description: 'The referral a won lead made or was linked to; null before' }),
  },
);

const byStageAndDate = { stage_eq: oneOf(LEAD_STAGES), created_at_lt: dateTime, created_at_gt: dateTime };

const portalPath = '/v1/portal/partnerships/:id/leads';
const reach = (input: RouteInput<unknown, unknown>) =>
  reachedPartnership(input.db, (input.account as AccountRow).id, input.params.id ?? '');

export const leadRoutes = [
  ...readRoutes({
    plural: 'leads',
    type: 'lead',
    get: leads.get,
    list: leads.list,
    render: renderLead,
    schema: leadSchema,
    filters: { ...byStageAndDate, partner_id_eq: text, email_eq: emailFilter },
  }),
  route({
    method: 'post',
    path: '/v1/leads',
    summary: "Submit a lead on a partner's behalf; a person or company the program has already is 409 duplicate_lead with meta.reason",
    access: 'secret',
    body: z.strictObject({ partner_id: z.string().min(1).max(64), ...leadFields }),
    status: 201,
    response: one(leadSchema),
    async handle({ db, program, body, now }) {
      const row = await submitLeadFor(db, program.id, body.partner_id, body, now);
      return { status: 201, headers: { Location: `/v1/leads/${row.id}` }, body: { data: renderLead(row) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/leads/:id',
    summary: 'Move a lead: new → qualified → won or lost (lost with lost_reason); won makes or links its referral',
    access: 'secret',
    body: z.strictObject({ stage: z.enum(LEAD_STAGES), lost_reason: optional(500) }),
    status: 200,
    response: one(leadSchema),
    async handle({ db, program, params, body, now }) {
      return { status: 200, body: { data: renderLead(await moveLead(db, program.id, params.id ?? '', body, now)) } };
    },
  }),
  route({
    method: 'get',
    path: portalPath,
    summary: "The partnership's submitted leads, newest first, with their stages",
    access: 'partner',
    list: byStageAndDate,
    status: 200,
    response: page(leadSchema),
    async handle(input) {
      const p = await reach(input);
      const filters = [...input.list.filters, { field: 'partner_id', op: 'eq' as const, value: p.partner_id }];
      return {
        status: 200,
        body: listEnvelope(await leads.list(input.db, p.program_id, filters, input.list.page), input.list.page, renderLead),
      };
    },
  }),
  route({
    method: 'post',
    path: portalPath,
    summary:
      'Submit a lead: a person the partner introduces; a person or company the program has already is 409 duplicate_lead with meta.reason',
    access: 'partner',
    body: z.strictObject(leadFields),
    status: 201,
    response: one(leadSchema),
    async handle(input) {
      const row = await submitLead(input.db, await reach(input), input.body, 'partner', input.now);
      return { status: 201, body: { data: renderLead(row) } };
    },
  }),
];
