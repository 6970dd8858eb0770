// tally payouts: export what partners are owed for PayPal, then mark that file paid.

import { readFileSync, writeFileSync } from 'node:fs';
import { formatCsv, parseCsv } from '../csv.js';
import { CURRENCY_RULE, knownCurrency } from '../domain/money.js';
import { exportPayouts, markPaid } from '../domain/payouts.js';
import { now, out, programFor, UsageError, withDb, type Command } from './common.js';

export const payoutCommands: Record<string, Command> = {
  'payouts export': {
    usage:
      'tally payouts export [--program ID] [--currency USD] [--csv FILE]\n\n' +
      'Sums each partner\'s pending commissions of accepted partnerships, per currency, in the layout of\n' +
      'PayPal\'s Payouts bulk upload (one file per currency: FILE.EUR.csv and so on when there are several).\n' +
      'Partners without a PayPal address are listed on stderr and left out.',
    options: { program: { type: 'string' }, currency: { type: 'string' }, csv: { type: 'string' } },
    async run(values, _positionals, config) {
      const currency = typeof values.currency === 'string' ? knownCurrency(values.currency) : null;
      if (currency === undefined) throw new UsageError(`--currency ${CURRENCY_RULE}`);
      const result = await withDb(config, async (db) => {
        const program = await programFor(db, values.program);
        return exportPayouts(db, program.id, currency, now());
      });
      for (const s of result.skipped) {
        process.stderr.write(`not exported, no paypal_email: partner ${s.partnerId} (${s.name}) ${s.amount} ${s.currency}\n`);
      }
      if (result.batches.length === 0) return void process.stderr.write('Nothing to pay out.\n');
      const file = typeof values.csv === 'string' ? values.csv : undefined;
      for (const batch of result.batches) {
        const csv = formatCsv(batch.rows.map((r) => [r.email, r.amount, r.currency, '', r.note, 'PAYPAL']));
        if (!file) {
          process.stdout.write(csv);
          continue;
        }
        const path = result.batches.length === 1 ? file : file.replace(/(\.csv)?$/i, `.${batch.currency}$1`);
        writeFileSync(path, csv);
        process.stderr.write(`Wrote ${batch.rows.length} ${batch.currency} payout(s) to ${path} (batch ${batch.id}).\n`);
      }
    },
  },

  'payouts mark-paid': {
    usage:
      'tally payouts mark-paid FILE\n\n' +
      'Marks exactly the commissions of an exported file paid, in one transaction. Moves nothing if any\n' +
      'of them changed state since the export, or the file differs from what was exported.',
    options: {},
    positionals: ['FILE'],
    async run(_values, positionals, config) {
      let text: string;
      try {
        text = readFileSync(positionals[0] ?? '', 'utf8');
      } catch {
        throw new UsageError(`cannot read ${positionals[0]}`);
      }
      const moved = await withDb(config, (db) => markPaid(db, parseCsv(text), now()));
      out(`Marked ${moved} commission(s) paid.`);
    },
  },
};
