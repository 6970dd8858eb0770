// tally stats check: the kept totals against a recount of the records. A difference is a
// bug (every write keeps them in its own transaction); --repair rebuilds them.

import { checkStats, DIFFERENCES_LISTED, rebuildStats } from './service.js';
import { note, out, requireProgram, UsageError, withDb, type Command } from '../../cli/common.js';

/** The first second of a month given as YYYY-MM, in UTC. */
function monthStart(month: string): number {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) throw new UsageError(`--since takes a month as YYYY-MM, such as 2026-11, not ${month}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, 1) / 1000;
}

export const statsCommands: Record<string, Command> = {
  'stats check': {
    usage:
      'tally stats check [--program ID] [--since YYYY-MM] [--repair]\n\n' +
      'Recounts clicks, referrals, customers, payments, revenue and commissions from the records and compares\n' +
      'them with the totals the dashboard reads (also while the server runs). Exits 1 on a difference;\n' +
      "--repair then rebuilds every program's totals. --since checks the months from that one (UTC) on, and\n" +
      'what is owed: a daily check of a big program need not recount its whole history.',
    options: { program: { type: 'string' }, since: { type: 'string' }, repair: { type: 'boolean' } },
    async run(values, _positionals, config) {
      const since = typeof values.since === 'string' ? monthStart(values.since) : null;
      const problems = await withDb(config, async (db) => {
        const programId = typeof values.program === 'string' ? (await requireProgram(db, values.program)).id : null;
        const found = await checkStats(db, programId, since);
        if (found.length > 0 && values.repair) await rebuildStats(db);
        return found;
      });
      if (problems.length === 0) return out('The kept totals equal a recount of the records.');
      for (const p of problems.slice(0, 50)) note(p);
      // The database lists DIFFERENCES_LISTED at most: a full list says there may be more.
      const count = `${problems.length === DIFFERENCES_LISTED ? 'at least ' : ''}${problems.length}`;
      if (values.repair) return out(`Rebuilt the totals; ${count} difference(s) were found.`);
      // Thrown, not process.exitCode: bin/tally.js exits with what main() answers, and a
      // failed command answers 1 (it set exitCode itself once, which was overwritten with 0).
      throw new Error(`${count} difference(s) between the kept totals and a recount; run with --repair to rebuild them.`);
    },
  },
};
