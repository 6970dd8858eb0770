// tally tokens: issue, list and revoke API tokens. Tokens are shown once, never stored.

import { issueToken, listTokens, revokeToken, tokenProgram } from './service.js';
import { withAudit } from '../../cli/audit.js';
import type { Queryable } from '../../platform/db/db.js';
import { iso, json, now, out, printTokens, required, requireProgram, UsageError, withDb, type Command } from '../../cli/common.js';

export const tokenCommands: Record<string, Command> = {
  'tokens create': {
    usage: 'tally tokens create --program ID --kind secret|publishable [--json]\n\nIssues a token. It is shown once.',
    options: { program: { type: 'string' }, kind: { type: 'string' }, ...json },
    async run(values, _positionals, config) {
      const kind = required(values, 'kind');
      if (kind !== 'secret' && kind !== 'publishable') throw new UsageError('--kind must be secret or publishable');
      const program = await withDb(config, (db) => requireProgram(db, required(values, 'program')));
      const issued = await withAudit(
        config,
        'tokens create',
        async () => [{ route: 'post /v1/tokens', programId: program.id }],
        (db) => issueToken(db, program.id, kind, now()),
      );
      if (values.json) {
        return out(JSON.stringify({ id: issued.row.id, program_id: issued.row.program_id, kind, token: issued.token }));
      }
      out(`Created ${kind} token ${issued.row.id}:`);
      printTokens(kind === 'secret' ? issued.token : undefined, kind === 'publishable' ? issued.token : undefined);
    },
  },

  'tokens list': {
    usage: "tally tokens list --program ID [--json]\n\nLists a program's tokens by id and prefix; tokens themselves are never stored.",
    options: { program: { type: 'string' }, ...json },
    async run(values, _positionals, config) {
      const rows = await withDb(config, async (db) => {
        const program = await requireProgram(db, required(values, 'program'));
        return listTokens(db, program.id);
      });
      const shown = rows.map((t) => ({
        id: t.id,
        kind: t.kind,
        prefix: t.hint,
        created_at: t.created_at,
        revoked_at: t.revoked_at,
        label: t.label,
      }));
      if (values.json) return out(JSON.stringify(shown));
      for (const t of shown) {
        out(
          `${t.id}  ${t.kind.padEnd(11)}  ${t.prefix}…  created ${iso(t.created_at)}  revoked ${iso(t.revoked_at)}${t.label ? `  (${t.label})` : ''}`,
        );
      }
    },
  },

  'tokens revoke': {
    usage: 'tally tokens revoke TOKEN_ID\n\nRevokes a token at once, also for a running server.',
    options: {},
    positionals: ['TOKEN_ID'],
    async run(_values, positionals, config) {
      const id = positionals[0] ?? '';
      const programOf = async (q: Queryable) => {
        const programId = await tokenProgram(q, id);
        return programId ? [{ route: 'delete /v1/tokens/:id', programId, params: { id } }] : [];
      };
      const result = await withAudit(config, 'tokens revoke', programOf, (db) => db.transaction((tx) => revokeToken(tx, id, now())));
      if (!result) throw new UsageError(`no token ${id}; see: tally tokens list --program ID`);
      out(`Token ${id} ${result === 'revoked' ? 'revoked' : 'was already revoked'}.`);
    },
  },
};
