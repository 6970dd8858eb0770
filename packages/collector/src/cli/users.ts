// tally users: the dashboard's owners. An invitation prints a one-time sign-in link to
// hand over; the link, like a token, is this command's output and goes nowhere else.

import { publicUrlOf } from '../config.js';
import { allMembers, invite, linkPath, removeUser } from '../domain/owners.js';
import { iso, json, now, out, programFor, UsageError, withDb, type Command } from './common.js';


export const userCommands: Record<string, Command> = {
  'users invite': {
    usage: 'tally users invite EMAIL [--program ID]\n\nMakes EMAIL an owner of the program and prints a one-time sign-in link (valid 24 hours).',
    options: { program: { type: 'string' } },
    positionals: ['EMAIL'],
    async run(values, positionals, config) {
      const email = positionals[0] ?? '';
      const { link } = await withDb(config, async (db) => invite(db, (await programFor(db, values.program)).id, email, now()));
      out(link === null ? 'Added. They can sign in already and switch to this program.' : `Sign-in link (once, within 24 hours): ${publicUrlOf(config, config.port)}${linkPath(link)}`);
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
      const shown = rows.map((m) => ({ id: m.user_id, email: m.email, program_id: m.program_id, role: m.role, active: m.active, created_at: m.created_at }));
      if (values.json) return out(JSON.stringify(shown));
      for (const m of shown) {
        out(`${m.id}  ${m.email ?? '(first owner, link not used yet)'}  ${m.program_id}  ${m.active ? 'active' : 'invited'}  since ${iso(m.created_at)}`);
      }
    },
  },

  'users remove': {
    usage: 'tally users remove EMAIL\n\nRemoves the user from every program and ends their sessions.',
    options: {},
    positionals: ['EMAIL'],
    async run(_values, positionals, config) {
      const email = positionals[0] ?? '';
      if (!(await withDb(config, (db) => removeUser(db, email)))) throw new UsageError('no user with that e-mail address; see: tally users list');
      out('Removed; their sessions have ended.');
    },
  },
};
