// Review (docs/review.md): owners' decisions about held referrals and commissions, and the record of them.
// What is held is found with `review_eq=held` on /v1/referrals and /v1/commissions.

import { z } from 'zod';
import { route } from '../../api/route.js';
import { readRoutes } from '../../api/crud.js';
import { dateTime } from '../../platform/http/list-query.js';
import { one, resource, unixTime } from '../../platform/http/schemas.js';
import * as owners from '../owners/repo.js';
import * as review from './repo.js';
import { renderDecision } from './present.js';
import { decide } from '../../flows/review-decision.js';
import { evidenceOf } from '../../flows/review-evidence.js';

const decisionSchema = resource('review_decision', {
  referral_id: z.string().nullable(),
  commission_id: z
    .string()
    .nullable()
    .meta({ description: 'The commission decided about, when the decision named one; null: a decision about the referral' }),
  partner_id: z.string(),
  decision: z.enum(['approve', 'reject', 'ban']),
  reason: z.string(),
  decided_by: z.string().meta({ description: "The member's e-mail, or 'a secret token'" }),
  created_at: unixTime,
});

const evidenceSchema = resource('review_evidence', {
  review: z.enum(['held', 'approved', 'rejected']).nullable(),
  review_reasons: z.array(z.object({ signal: z.string(), explain: z.string() })).nullable(),
  email: z.string(),
  partner_email: z.string().nullable(),
  partner_paypal_email: z.string().nullable(),
  click: z.object({ at: unixTime, url: z.string().nullable(), referrer: z.string().nullable() }).nullable(),
  converted_at: unixTime,
  seconds_from_click: z.number().int().nullable(),
  address_tag: z.string().nullable().meta({ description: "A short tag of the client address's hash; null: sent by a server" }),
  same_address_referrals: z.number().int(),
  user_agent: z.string().nullable(),
});

export const reviewRoutes = [
  route({
    method: 'get',
    path: '/v1/referrals/:id/evidence',
    summary: "A referral's evidence for review, side by side: the click, the address's tag, the browser, the e-mails, the timing",
    access: 'secret',
    status: 200,
    response: one(evidenceSchema),
    async handle({ db, program, params }) {
      return { status: 200, body: { data: await evidenceOf(db, program.id, params.id ?? '') } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/review_decisions',
    summary:
      'Decide about a held referral or a held commission (name one): approve it (its money becomes payable), reject it with a reason, or ban its partner (every pending commission rejected, the partnership declined)',
    access: 'secret',
    body: z.strictObject({
      referral_id: z.string().min(1).max(64).optional(),
      commission_id: z.string().min(1).max(64).optional(),
      decision: z.enum(['approve', 'reject', 'ban']),
      reason: z.string().trim().min(1).max(500),
    }),
    status: 201,
    response: one(decisionSchema),
    async handle({ db, program, session, body, now, stripeApiUrl }) {
      const user = session ? await owners.userById(db, session.user_id) : undefined;
      const row = await decide(db, program, body, user?.email ?? 'a secret token', now, stripeApiUrl);
      return { status: 201, headers: { Location: `/v1/review_decisions/${row.id}` }, body: { data: renderDecision(row) } };
    },
  }),
  ...readRoutes({
    plural: 'review_decisions',
    type: 'review_decision',
    get: review.getDecision,
    list: review.decisions,
    render: renderDecision,
    schema: decisionSchema,
    filters: { created_at_lt: dateTime, created_at_gt: dateTime },
  }),
];
