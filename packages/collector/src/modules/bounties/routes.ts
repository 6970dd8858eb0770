// Bounties (docs/bounties.md): the owner's (secret key or dashboard session) to make, edit,
// archive and review, and the partner's in the portal to see their open ones and submit.
// Another program's bounty, another group's, or another partner's submission answers 404.

import { route, type RouteInput } from '../../api/route.js';
import { readRoutes } from '../../api/crud.js';
import { decideSubmission, partnerBounties, submitToBounty } from '../../flows/bounty-review.js';
import { reachedPartnership } from '../../flows/portal.js';
import { fail } from '../../platform/errors.js';
import { dateTime, oneOf, text } from '../../platform/http/list-query.js';
import { listEnvelope } from '../../platform/http/render.js';
import { one, page } from '../../platform/http/schemas.js';
import type { AccountRow } from '../portal/repo.js';
import { z } from 'zod';
import * as repo from './repo.js';
import { renderBounty, renderSubmission } from './present.js';
import { bountyBody, bountyChange, bountySchema, decisionBody, partnerBountySchema, submissionBody, submissionSchema } from './schemas.js';
import { createBounty, getBounty, listBounties, updateBounty } from './service.js';

/** The partner's accepted partnership of the path's :id: only an accepted partner works on bounties. */
async function reached(input: RouteInput<unknown>) {
  const p = await reachedPartnership(input.db, (input.account as AccountRow).id, input.params.id ?? '');
  if (p.state !== 'accepted') throw fail('not_found', `no bounty for partnership ${p.id}`);
  return p;
}

export const bountyRoutes = [
  ...readRoutes({
    plural: 'bounties',
    type: 'bounty',
    get: repo.get,
    list: listBounties,
    render: renderBounty,
    schema: bountySchema,
    filters: { kind_eq: oneOf(['performance', 'submission']), created_at_lt: dateTime, created_at_gt: dateTime },
  }),
  route({
    method: 'post',
    path: '/v1/bounties',
    summary: 'Create a bounty: a flat amount for reaching a target in a period, or for an approved submission',
    access: 'secret',
    body: bountyBody,
    status: 201,
    response: one(bountySchema),
    async handle({ db, program, body, now }) {
      const row = await db.transaction((tx) => createBounty(tx, program.id, body, now));
      return { status: 201, headers: { Location: `/v1/bounties/${row.id}` }, body: { data: renderBounty(row) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/bounties/:id',
    summary: 'Edit a bounty, or archive it (archived: true): it closes, its awards and submissions stay',
    access: 'secret',
    body: bountyChange,
    status: 200,
    response: one(bountySchema),
    async handle({ db, program, params, body, now }) {
      const row = await db.transaction((tx) => updateBounty(tx, program.id, params.id ?? '', body, now));
      return { status: 200, body: { data: renderBounty(row) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/bounties/:id/submissions',
    summary: "The bounty's submissions, newest first",
    access: 'secret',
    list: { state_eq: oneOf(['pending', 'approved', 'rejected']), partner_id_eq: text },
    status: 200,
    response: page(submissionSchema),
    async handle({ db, program, params, list }) {
      const bounty = await getBounty(db, program.id, params.id ?? '');
      const filters = [...list.filters, { field: 'bounty_id', op: 'eq' as const, value: bounty.id }];
      const rows = await repo.submissions(db, program.id, filters, list.page);
      return { status: 200, body: listEnvelope(rows, list.page, (row) => renderSubmission(row, bounty)) };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/bounties/:id/submissions/:submission',
    summary: 'Approve a submission (its commission is made, once) or reject it with a reason',
    access: 'secret',
    body: decisionBody,
    status: 200,
    response: one(submissionSchema),
    async handle({ db, program, params, body, now }) {
      const { row, bounty } = await decideSubmission(db, program.id, params.id ?? '', params.submission ?? '', body, now);
      return { status: 200, body: { data: renderSubmission(row, bounty) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/portal/partnerships/:id/bounties',
    summary: "The open bounties of the partnership's group, with the partner's progress and submissions",
    access: 'partner',
    status: 200,
    response: z.object({ data: z.array(partnerBountySchema) }),
    async handle(input) {
      return { status: 200, body: { data: await partnerBounties(input.db, await reached(input), input.now) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/portal/partnerships/:id/bounties/:bounty/submissions',
    summary: 'Submit URLs and a text as proof for an open submission bounty, within its limits',
    access: 'partner',
    body: submissionBody,
    status: 201,
    response: one(submissionSchema),
    async handle(input) {
      const p = await reached(input);
      const { row, bounty } = await submitToBounty(input.db, p, input.params.bounty ?? '', input.body, input.now);
      return { status: 201, body: { data: renderSubmission(row, bounty) } };
    },
  }),
];
