// The people who run a program with the dashboard: list, invite (a one-time link to hand
// over), change a role, remove. Only owners (and the secret token) manage members.

import { z } from 'zod';
import {
  changeRole,
  getMember,
  invite,
  linkPath,
  listMembers,
  removeMember,
  setTeamTwoFactor,
  teamSettings,
  type Member,
} from './service.js';
import { route } from '../../api/route.js';
import { one, unixTime } from '../../platform/http/schemas.js';
import { ROLES } from './repo.js';
import { email } from '../../api/fields.js';

const role = z.enum(ROLES).meta({ description: 'owner: everything; admin: everything but members and secret tokens; viewer: reads only' });

const member = z.object({
  id: z.string(),
  type: z.literal('member'),
  attributes: z.object({
    email: z.string().optional(),
    role,
    /** False for an invitation not accepted yet. */
    active: z.boolean(),
    created_at: unixTime,
  }),
});

function renderMember(m: Member) {
  return {
    id: m.id,
    type: 'member' as const,
    attributes: { ...(m.email === null ? {} : { email: m.email }), role: m.role, active: m.active, created_at: m.created_at },
  };
}

const teamSettingsSchema = z.object({
  data: z.object({
    require_two_factor: z.boolean().meta({ description: 'Members sign in with a second factor, and enrol one at their next sign-in' }),
  }),
});

export const memberRoutes = [
  route({
    method: 'get',
    path: '/v1/team/settings',
    summary: "The team's sign-in rules: whether members must use a second factor",
    access: 'secret',
    status: 200,
    response: teamSettingsSchema,
    async handle({ db, program }) {
      return { status: 200, body: { data: await teamSettings(db, program.id) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/team/settings',
    summary:
      'Require a second factor of the team (require_two_factor): members without one are signed out of the program and enrol at their next sign-in',
    access: 'secret',
    role: 'owner',
    body: z.strictObject({ require_two_factor: z.boolean() }),
    status: 200,
    response: teamSettingsSchema,
    async handle({ db, program, body, session, now }) {
      return { status: 200, body: { data: await setTeamTwoFactor(db, program.id, body.require_two_factor, session, now) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/members',
    summary: "The program's members (dashboard users) and open invitations",
    access: 'secret',
    status: 200,
    response: z.object({ data: z.array(member) }),
    async handle({ db, program, now }) {
      return { status: 200, body: { data: (await listMembers(db, program.id, now)).map(renderMember) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/members',
    summary:
      'Invite someone to run the program: answers a one-time link (24 h) to hand over, the same whether or not the address has an account',
    access: 'secret',
    role: 'owner',
    body: z.strictObject({ email, role: role.optional().meta({ description: 'viewer when left out' }) }),
    status: 201,
    response: one(member).extend({ meta: z.object({ sign_in_link: z.string() }) }),
    async handle({ db, program, body, now, publicUrl }) {
      // Without a role, the least: an owner's powers are given on purpose, never by omission.
      const { invitation, link } = await invite(db, program.id, body.email, now, body.role ?? 'viewer');
      return {
        status: 201,
        body: {
          data: renderMember(await getMember(db, program.id, invitation.id, now)),
          meta: { sign_in_link: publicUrl + linkPath(link) },
        },
      };
    },
  }),
  route({
    method: 'get',
    path: '/v1/members/:id',
    summary: 'One member, or an open invitation',
    access: 'secret',
    status: 200,
    response: one(member),
    async handle({ db, program, params, now }) {
      return { status: 200, body: { data: renderMember(await getMember(db, program.id, params.id ?? '', now)) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/members/:id',
    summary: "Change a member's role; the last owner stays an owner",
    access: 'secret',
    role: 'owner',
    body: z.strictObject({ role }),
    status: 200,
    response: one(member),
    async handle({ db, program, params, body, now }) {
      await changeRole(db, program.id, params.id ?? '', body.role);
      return { status: 200, body: { data: renderMember(await getMember(db, program.id, params.id ?? '', now)) } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/members/:id',
    summary: 'Remove a member (their sessions for the program end) or withdraw an invitation; the last owner stays',
    access: 'secret',
    role: 'owner',
    status: 204,
    async handle({ db, program, params }) {
      await removeMember(db, program.id, params.id ?? '');
      return { status: 204 };
    },
  }),
];
