// tally users: the dashboard's owners. An invitation prints a one-time sign-in link to
// hand over; the link, like a token, is this command's output and goes nowhere else.

import { publicUrlOf } from '../../platform/config.js';
import { allMembers, invite, linkPath, ownerResetLink, programsOfUser, removeUser } from './service.js';
import { withAudit } from '../../cli/audit.js';
import { ROLES, type Role } from './repo.js';
import type { Queryable } from '../../platform/db/db.js';
import { iso, json, now, out, programFor, UsageError, withDb, type Command } from '../../cli/common.js';

export const userCommands: Record<string, Command> = {
  'users invite': {
    usage:
      'tally users invite EMAIL [--program ID] [--role owner|admin|viewer]\n\nInvites EMAIL to run the program (as an owner unless --role says otherwise) and prints a one-time link (valid 24 hours). Someone who has an account already accepts it with their password.',
    options: { program: { type: 'string' }, role: { type: 'string' } },
    positionals: ['EMAIL'],
    async run(values, positionals, config) {
      const email = positionals[0] ?? '';
      const role = (values.role ?? 'owner') as Role;
      if (!ROLES.includes(role)) throw new UsageError(`--role is one of ${ROLES.join(', ')}`);
      const program = await withDb(config, (db) => programFor(db, values.program));
      const { link } = await withAudit(
        config,
        'users invite',
        async () => [{ route: 'post /v1/members', programId: program.id }],
        (db) => invite(db, program.id, email, now(), role),
      );
      out(`Invitation link (once, within 24 hours): ${publicUrlOf(config, config.port)}${linkPath(link)}`);
    },
  },

  'users reset': {
    usage:
      'tally users reset EMAIL\n\nPrints a one-time link (valid 24 hours) that sets a new password for the dashboard user EMAIL; their sessions and other links end when it is used.',
    options: {},
    positionals: ['EMAIL'],
    async run(_values, positionals, config) {
      const link = await withDb(config, (db) => ownerResetLink(db, positionals[0] ?? '', now()));
      if (link === undefined)
        throw new UsageError(
          'no user with that e-mail address runs a program (or three resets were made this hour); see: tally users list',
        );
      out(`Reset link (once, within 24 hours): ${publicUrlOf(config, config.port)}${linkPath(link)}`);
    },
  },

  'users list': {
    usage: "tally users list [--program ID] [--json]\n\nLists the dashboard's owners and their programs.",
    options: { program: { type: 'string' }, ...json },
    async run(values, _positionals, config) {
      const rows = await withDb(config, async (db) => {
        const all = await allMembers(db);
        return typeof values.program === 'string' ? all.filter((m) => m.program_id === values.program) : all;
      });
      const shown = rows.map((m) => ({
        id: m.user_id,
        email: m.email,
        program_id: m.program_id,
        role: m.role,
        active: m.active,
        created_at: m.created_at,
      }));
      if (values.json) return out(JSON.stringify(shown));
      for (const m of shown) {
        out(
          `${m.id}  ${m.email ?? '(first owner, link not used yet)'}  ${m.program_id}  ${m.active ? 'active' : 'invited'}  since ${iso(m.created_at)}`,
        );
      }
    },
  },

  'users remove': {
    usage: 'tally users remove EMAIL\n\nRemoves the user from every program and ends their sessions.',
    options: {},
    positionals: ['EMAIL'],
    async run(_values, positionals, config) {
      const email = positionals[0] ?? '';
      const memberships = async (q: Queryable) => {
        const user = await programsOfUser(q, email);
        return (user?.programIds ?? []).map((programId) => ({ route: 'delete /v1/members/:id', programId, params: { id: user!.userId } }));
      };
      if (!(await withAudit(config, 'users remove', memberships, (db) => removeUser(db, email))))
        throw new UsageError('no user with that e-mail address; see: tally users list');
      out('Removed; their sessions have ended.');
    },
  },
};
