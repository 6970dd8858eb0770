// The people who run a program with the dashboard: list, invite (a one-time link to hand
// over), remove.

import { z } from 'zod';
import { getMember, invite, linkPath, listMembers, removeMember } from '../domain/owners.js';
import { route } from '../http/route.js';
import { one, unixTime } from '../http/schemas.js';
import type { Membership } from '../store/users.js';
import { email } from './fields.js';

const member = z.object({
  id: z.string(),
  type: z.literal('member'),
  attributes: z.object({
    email: z.string().optional(),
    role: z.string(),
    /** False until the invited person has set a password. */
    active: z.boolean(),
    created_at: unixTime,
  }),
});

function renderMember(m: Membership) {
  return {
    id: m.user_id,
    type: 'member' as const,
    attributes: { ...(m.email === null ? {} : { email: m.email }), role: m.role, active: m.active, created_at: m.created_at },
  };
}

export const memberRoutes = [
  route({
    method: 'get',
    path: '/v1/members',
    summary: "The program's owners (dashboard users)",
    access: 'secret',
    status: 200,
    response: z.object({ data: z.array(member) }),
    async handle({ db, program }) {
      return { status: 200, body: { data: (await listMembers(db, program.id)).map(renderMember) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/members',
    summary: 'Invite an owner: answers a one-time sign-in link (24 h) unless they can sign in already',
    access: 'secret',
    body: z.strictObject({ email }),
    status: 201,
    response: one(member).extend({ meta: z.object({ sign_in_link: z.string().nullable() }) }),
    async handle({ db, program, body, now, publicUrl }) {
      const { user, link } = await invite(db, program.id, body.email, now);
      return {
        status: 201,
        body: {
          data: renderMember(await getMember(db, program.id, user.id)),
          meta: { sign_in_link: link === null ? null : publicUrl + linkPath(link) },
        },
      };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/members/:id',
    summary: "Remove an owner from the program; their sessions for it end",
    access: 'secret',
    status: 204,
    async handle({ db, program, params }) {
      await removeMember(db, program.id, params.id ?? '');
      return { status: 204 };
    },
  }),
];
