// tally programs: create, list and update the programs (tenants) in the database.

import { createProgram, parseRateBps } from '../domain/programs.js';
import * as programs from '../store/programs.js';
import { json, now, out, printTokens, required, requireProgram, UsageError, withDb, type Command } from './common.js';

export const programCommands: Record<string, Command> = {
  'programs create': {
    usage:
      'tally programs create --name NAME --site-url URL [--allowed-origin ORIGIN]... [--commission-rate-bps N] [--json]\n\n' +
      'Makes a program and one secret and one publishable token. Allowed origins default to the site URL\'s origin.',
    options: {
      name: { type: 'string' },
      'site-url': { type: 'string' },
      'allowed-origin': { type: 'string', multiple: true },
      'commission-rate-bps': { type: 'string' },
      ...json,
    },
    async run(values, _positionals, config) {
      const rate = values['commission-rate-bps'];
      if (rate !== undefined && !/^\d+$/.test(String(rate))) {
        throw new UsageError('--commission-rate-bps must be a whole number from 0 to 10000');
      }
      const created = await withDb(config, (db) =>
        createProgram(
          db,
          {
            name: required(values, 'name'),
            siteUrl: required(values, 'site-url'),
            allowedOrigins: (values['allowed-origin'] as string[] | undefined) ?? [],
            ...(rate !== undefined ? { commissionRateBps: parseRateBps(Number(rate)) } : {}),
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
      const rows = await withDb(config, async (db) =>
        Promise.all((await programs.list(db)).map(async (p) => ({ ...p, allowed_origins: await programs.origins(db, p.id) }))),
      );
      if (values.json) return out(JSON.stringify(rows));
      if (rows.length === 0) return out('No programs yet: tally programs create --name NAME --site-url URL');
      for (const p of rows) out(`${p.id}  ${p.name}  ${p.site_url}  rate ${p.commission_rate_bps} bps  origins ${p.allowed_origins.join(',')}`);
    },
  },

  'programs update': {
    usage: 'tally programs update ID --commission-rate-bps N\n\nSets the program\'s commission rate, in basis points (2000 is 20%).',
    options: { 'commission-rate-bps': { type: 'string' } },
    positionals: ['ID'],
    async run(values, positionals, config) {
      const raw = required(values, 'commission-rate-bps');
      if (!/^\d+$/.test(raw)) throw new UsageError('--commission-rate-bps must be a whole number from 0 to 10000');
      const rate = parseRateBps(Number(raw));
      await withDb(config, async (db) => {
        const program = await requireProgram(db, positionals[0] ?? '');
        await programs.setRate(db, program.id, rate, now());
      });
      out(`Program ${positionals[0]}: commission rate ${rate} bps.`);
    },
  },
};
