// The program's API tokens: listed by their hint, issued with the token shown once (the
// database keeps only its hash), revoked at once for every process.

import { z } from 'zod';
import { fail } from '../../platform/errors.js';
import type { Role } from '../owners/repo.js';
import { issueToken, listTokens, revokeProgramToken } from './service.js';
import { route } from '../../api/route.js';
import { one, resource, unixTime } from '../../platform/http/schemas.js';
import type { TokenRow } from './repo.js';

const tokenAttributes = {
  kind: z.enum(['secret', 'publishable']),
  /** The prefix and the first characters: enough to recognise a token, not to use it. */
  hint: z.string(),
  /** Who manages it: "demo" for the demo page's, which the server replaces at each start. */
  label: z.string().optional(),
  created_at: unixTime,
  revoked_at: unixTime.optional(),
};
const tokenSchema = resource('token', tokenAttributes);
const issuedSchema = resource('token', { ...tokenAttributes, token: z.string() });

function renderToken(row: TokenRow) {
  return {
    id: row.id,
    type: 'token' as const,
    attributes: {
      kind: row.kind,
      hint: row.hint,
      ...(row.label === null ? {} : { label: row.label }),
      created_at: row.created_at,
      ...(row.revoked_at === null ? {} : { revoked_at: row.revoked_at }),
    },
  };
}

/** Secret tokens do everything, members included: an admin may not make or revoke one (docs/api.md, roles). */
function ownerOnly(role: Role | undefined): void {
  if (role !== undefined && role !== 'owner') throw fail('forbidden', 'only an owner of the program may make or revoke a secret token');
}

export const tokenRoutes = [
  route({
    method: 'get',
    path: '/v1/tokens',
    summary: "The program's tokens, oldest first; never the tokens themselves",
    access: 'secret',
    status: 200,
    response: z.object({ data: z.array(tokenSchema) }),
    async handle({ db, program }) {
      return { status: 200, body: { data: (await listTokens(db, program.id)).map(renderToken) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/tokens',
    summary: 'Issue a token; the answer holds it once, in attributes.token',
    access: 'secret',
    body: z.strictObject({ kind: z.enum(['secret', 'publishable']) }),
    status: 201,
    response: one(issuedSchema),
    async handle({ db, program, body, now, role }) {
      if (body.kind === 'secret') ownerOnly(role);
      const { row, token } = await db.transaction((tx) => issueToken(tx, program.id, body.kind, now));
      const rendered = renderToken(row);
      return { status: 201, body: { data: { ...rendered, attributes: { ...rendered.attributes, token } } } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/tokens/:id',
    summary: 'Revoke a token at once, for every process; revoking it again changes nothing',
    access: 'secret',
    status: 204,
    async handle({ db, program, params, now, role }) {
      await revokeProgramToken(db, program.id, params.id ?? '', now, role === undefined || role === 'owner');
      return { status: 204 };
    },
  }),
];
