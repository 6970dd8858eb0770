// tally backup and tally forget: a copy of the whole database while the server runs,
// and erasure of one person.

import { existsSync } from 'node:fs';
import { backupTo } from '../platform/db/backup.js';
import { isPostgresUrl } from '../platform/db/open.js';
import { forgetEmail } from '../flows/erasure.js';
import { referralsOfEmail } from '../modules/referrals/service.js';
import { withAudit } from './audit.js';
import { isValidEmail } from '../core/email.js';
import type { Tx } from '../platform/db/db.js';
import { now, out, requireProgram, UsageError, withDb, type Command } from './common.js';

export const dataCommands: Record<string, Command> = {
  backup: {
    usage:
      "tally backup FILE\n\nCopies the database to FILE with SQLite's online backup, also while the server runs and\n" +
      'writes. The copy is checked (PRAGMA integrity_check) before it takes the name FILE.\n' +
      'To restore: stop the server, and start it with DATABASE_URL=FILE.\n' +
      'A PostgreSQL database is backed up with its own tools (pg_dump, base backups).',
    options: {},
    positionals: ['FILE'],
    async run(_values, positionals, config) {
      const file = positionals[0] ?? '';
      // Refused before the database is opened (or migrated): PostgreSQL has its own tools.
      if (isPostgresUrl(config.databaseUrl)) {
        throw new UsageError('DATABASE_URL is PostgreSQL: back it up with pg_dump or a base backup');
      }
      if (existsSync(file)) throw new UsageError(`${file} exists; name a new file`);
      const counts = await withDb(config, (db) => backupTo(db, file));
      const listed = Object.entries(counts).map(([table, n]) => `${n} ${table}`);
      out(`Backed up to ${file}: ${listed.join(', ')}; integrity ok.`);
    },
  },

  forget: {
    usage:
      'tally forget EMAIL [--program ID]\n\nErases a person: their referral, its clicks, and the link from their commissions and\n' +
      'payments, whose amounts stay for the accounts. In every program, or in one. A later\n' +
      'conversion for the same e-mail is accepted as a new one.',
    options: { program: { type: 'string' } },
    positionals: ['EMAIL'],
    async run(values, positionals, config) {
      const email = positionals[0] ?? '';
      if (!isValidEmail(email)) throw new UsageError('EMAIL must be an e-mail address');
      const programId =
        typeof values.program === 'string' ? (await withDb(config, (db) => requireProgram(db, values.program as string))).id : undefined;
      // One entry per referral erased, as DELETE /v1/referrals/:id records it: no snapshot.
      const referrals = async (tx: Tx) =>
        (await referralsOfEmail(tx, email, programId)).map((r) => ({
          route: 'delete /v1/referrals/:id',
          programId: r.program_id,
          params: { id: r.id },
        }));
      const erased = (await withAudit(config, 'forget', referrals, (db) => forgetEmail(db, email, now(), programId))).length;
      // The address is not echoed: terminals and CI logs are logs too.
      out(erased ? `Erased ${erased} referral${erased === 1 ? '' : 's'} and their clicks.` : 'No referral for that e-mail.');
    },
  },
};
