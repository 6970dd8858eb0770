// tally programs: create, list and update the programs (tenants) in the database.

import { createProgram, updateProgram } from '../../flows/program.js';
import { listPrograms, type ProgramWithOrigins } from './service.js';
import { json, now, out, printTokens, required, requireProgram, UsageError, withDb, type Command, type Values } from '../../cli/common.js';
import { withAudit } from '../../cli/audit.js';

export const programCommands: Record<string, Command> = {
  'programs create': {
    usage:
      'tally programs create --name NAME --site-url URL [--allowed-origin ORIGIN]... [--commission-rate-bps N] [--json]\n\n' +
      "Makes a program and one secret and one publishable token. Allowed origins default to the site URL's origin.",
    options: {
      name: { type: 'string' },
      'site-url': { type: 'string' },
      'allowed-origin': { type: 'string', multiple: true },
      'commission-rate-bps': { type: 'string' },
      ...json,
    },
    async run(values, _positionals, config) {
      const rate = rateOption(values);
      const created = await withDb(config, (db) =>
        createProgram(
          db,
          {
            name: required(values, 'name'),
            siteUrl: required(values, 'site-url'),
            allowedOrigins: (values['allowed-origin'] as string[] | undefined) ?? [],
            ...(rate !== undefined ? { commissionRateBps: rate } : {}),
          },
          now(),
        ),
      );
      if (values.json) {
        out(JSON.stringify({ program: { id: created.program.id, name: created.program.name }, tokens: created.tokens }));
        return;
      }
      out(`Created program "${created.program.name}" (${created.program.id}).`);
      out(`  allowed origins:   ${created.origins.join(', ')}`);
      printTokens(created.tokens.secret, created.tokens.publishable);
    },
  },

  'programs list': {
    usage: 'tally programs list [--json]\n\nLists every program in the database.',
    options: { ...json },
    async run(values, _positionals, config) {
      const rows = await withDb(config, listPrograms);
      if (values.json) return out(JSON.stringify(rows.map(({ program, origins }) => ({ ...program, allowed_origins: origins }))));
      if (rows.length === 0) return out('No programs yet: tally programs create --name NAME --site-url URL');
      for (const row of rows) out(describe(row));
    },
  },

  'programs update': {
    usage:
      'tally programs update ID [--name NAME] [--site-url URL] [--add-origin ORIGIN]... [--remove-origin ORIGIN]... [--commission-rate-bps N] [--json]\n\n' +
      "Changes the program's settings: its name, site URL, allowed browser origins (added or removed by name, so\n" +
      'the others keep working) and commission rate in basis points (2000 is 20%). Its tokens stay as they are.',
    options: {
      name: { type: 'string' },
      'site-url': { type: 'string' },
      'add-origin': { type: 'string', multiple: true },
      'remove-origin': { type: 'string', multiple: true },
      'commission-rate-bps': { type: 'string' },
      ...json,
    },
    positionals: ['ID'],
    async run(values, positionals, config) {
      const changes = {
        name: values.name as string | undefined,
        siteUrl: values['site-url'] as string | undefined,
        addOrigins: values['add-origin'] as string[] | undefined,
        removeOrigins: values['remove-origin'] as string[] | undefined,
        commissionRateBps: rateOption(values),
      };
      if (Object.values(changes).every((v) => v === undefined)) {
        throw new UsageError(
          'nothing to change; give at least one of --name, --site-url, --add-origin, --remove-origin, --commission-rate-bps',
        );
      }
      const program = await withDb(config, (db) => requireProgram(db, positionals[0] ?? ''));
      const updated = await withAudit(
        config,
        'programs update',
        async () => [{ route: 'patch /v1/program', programId: program.id }],
        (db) => updateProgram(db, program.id, changes, now()),
      );
      if (values.json) return out(JSON.stringify({ ...updated.program, allowed_origins: updated.origins }));
      out(`Updated: ${describe(updated)}`);
    },
  },
};

/** --commission-rate-bps as a number, checked by the domain; absent stays absent. */
function rateOption(values: Values): number | undefined {
  const raw = values['commission-rate-bps'];
  if (raw === undefined) return undefined;
  if (!/^\d{1,6}$/.test(String(raw))) throw new UsageError('--commission-rate-bps must be a whole number from 0 to 10000');
  return Number(raw);
}

function describe({ program: p, origins }: ProgramWithOrigins): string {
  return `${p.id}  ${p.name}  ${p.site_url}  rate ${p.commission_rate_bps} bps  origins ${origins.join(',') || '(none)'}`;
}
