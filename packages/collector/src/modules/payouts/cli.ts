// tally payouts: export what partners are owed for PayPal, write an open batch's file
// again, cancel a batch, and mark a file paid. The rules are the domain's
// (modules/payouts/service.ts); this file parses arguments, writes files and prints.

import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from '../../platform/config.js';
import { parseCsv } from '../../platform/csv.js';
import { CURRENCY_RULE, knownCurrency } from '../../core/money.js';
import {
  batchesIn,
  batchProgram,
  cancelPayoutBatch,
  exportPayouts,
  markPaid,
  openBatch,
  openBatches,
  payoutCsv,
  type PayoutBatch,
  type PayoutExport,
} from '../../flows/payout-run.js';
import type { Queryable } from '../../platform/db/db.js';
import { withAudit, type CommandChange } from '../../cli/audit.js';
import { io, iso, note, now, out, programFor, UsageError, withDb, type Command } from '../../cli/common.js';

/** A batch's file: written whole under a temporary name in the same folder, then renamed. */
interface Placed {
  batch: PayoutBatch;
  path: string;
  temp: string;
}

function place(batch: PayoutBatch, path: string): Placed {
  return { batch, path, temp: `${path}.${process.pid}.partial` };
}

/**
 * Why a file could not be read or written, in words, without the system's own message: that
 * names the temporary file and the call (`ENOENT … open 'FILE.123.partial'`), which FILE's
 * writer never asked for.
 */
function whyNot(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT'
    ? 'there is no such file'
    : code === 'ENOTDIR' || code === 'EEXIST' // mkdir's, where a part of the path is a file
      ? 'a part of its path is a file, not a folder'
      : code === 'EISDIR' || code === 'ENOTEMPTY'
        ? 'it is a folder; name a file inside it'
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? 'permission denied: choose a folder you may write to'
          : code === 'ENOSPC' || code === 'EDQUOT'
            ? 'the disk is full'
            : `the system refused it (${code ?? (err as Error).message})`;
}

/** Each batch of `ids` that exists, as the API's `route` on it (`post /v1/payout_batches/:id/paid`) records it. */
async function batchChanges(q: Queryable, route: string, ids: readonly string[]): Promise<CommandChange[]> {
  const changes: CommandChange[] = [];
  for (const id of ids) {
    const programId = await batchProgram(q, id);
    if (programId) changes.push({ route, programId, params: { id } });
  }
  return changes;
}

const cannotWrite = (path: string, err: unknown) => new Error(`cannot write ${path}: ${whyNot(err)}`);

/** A temporary file is gone, or never was: nothing to report either way. */
function removeTemp(temp: string): void {
  try {
    rmSync(temp, { force: true });
  } catch {
    // Its folder is unreadable or not one: no file of ours is there.
  }
}

/**
 * Writes the whole file and flushes it to disk, so that a committed batch never names a
 * half-written one. Its folder is made if need be (payouts/ in a fresh clone).
 */
function writeTemp({ batch, path, temp }: Placed): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(temp, 'w');
    try {
      writeFileSync(fd, payoutCsv(batch));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    removeTemp(temp);
    throw cannotWrite(path, err);
  }
}

/** The temporary file takes its name; the folder is flushed so that the rename survives a crash. */
function rename({ path, temp }: Placed): void {
  try {
    renameSync(temp, path);
  } catch (err) {
    throw cannotWrite(path, err);
  }
  try {
    const fd = openSync(dirname(path), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some systems cannot flush a folder; the file itself is on disk already.
  }
}

const stdout = (text: string) => new Promise<void>((resolve, reject) => io().stdout.write(text, (err) => (err ? reject(err) : resolve())));

/** Where each batch goes: FILE for one batch, FILE.USD.csv, FILE.EUR.csv … for several. */
const pathFor = (file: string, count: number, currency: string) => (count === 1 ? file : file.replace(/(\.csv)?$/i, `.${currency}$1`));

/**
 * Cancels batches whose file could not be delivered after they were committed: the
 * promise is no batch without its whole file.
 */
async function withdraw(config: Readonly<Config>, batches: readonly PayoutBatch[], cause: Error): Promise<never> {
  for (const b of batches) {
    const change = (q: Queryable) => batchChanges(q, 'post /v1/payout_batches/:id/cancel', [b.id]);
    await withAudit(config, 'payouts export', change, (db) => cancelPayoutBatch(db, b.id, now()));
  }
  throw new Error(`${cause.message}; cancelled batch ${batches.map((b) => b.id).join(', ')}, so its commissions are free again`);
}

/** `payouts export --batch ID`: an open batch's file again, byte for byte. */
async function exportAgain(config: Readonly<Config>, id: string, file: string | undefined): Promise<void> {
  const batch = await withDb(config, (db) => openBatch(db, id));
  if (!file) return stdout(payoutCsv(batch));
  const placed = place(batch, file);
  writeTemp(placed);
  try {
    rename(placed);
  } finally {
    removeTemp(placed.temp);
  }
  note(`Wrote ${batch.rows.length} ${batch.currency} payout(s) of batch ${batch.id} to ${file}.`);
}

export const payoutCommands: Record<string, Command> = {
  'payouts export': {
    usage:
      'tally payouts export [--program ID] [--currency USD] [--csv FILE] | --batch ID [--csv FILE]\n\n' +
      "Sums each partner's pending commissions of accepted partnerships, per currency, in the layout of\n" +
      "PayPal's Payouts bulk upload (one file per currency: FILE.EUR.csv and so on when there are several),\n" +
      'without --csv on stdout. Each file is a batch, which holds its commissions until it is marked paid\n' +
      'or cancelled: a second export leaves them out. Partners without a PayPal address are listed on stderr\n' +
      "and left out. --batch ID writes an open batch's file again, exactly as it was first written.",
    options: { program: { type: 'string' }, currency: { type: 'string' }, csv: { type: 'string' }, batch: { type: 'string' } },
    async run(values, _positionals, config) {
      const file = typeof values.csv === 'string' ? values.csv : undefined;
      if (typeof values.batch === 'string') {
        if (values.program !== undefined || values.currency !== undefined) {
          throw new UsageError('--batch names the program and the currency itself; leave out --program and --currency');
        }
        return exportAgain(config, values.batch, file);
      }
      const currency = typeof values.currency === 'string' ? knownCurrency(values.currency) : null;
      if (currency === undefined) throw new UsageError(`--currency ${CURRENCY_RULE}`);

      let placed: Placed[] = [];
      const discard = () => {
        for (const p of placed) removeTemp(p.temp);
      };
      // With --csv the files are written inside the export's transaction, before its commit:
      // a file that cannot be written, or a commit that fails, leaves no batch (and the
      // temporary files are removed). Only the renames come after the commit.
      const deliver = (batches: readonly PayoutBatch[]) => {
        if (!file) return;
        discard(); // a transaction retried on PostgreSQL writes its files afresh
        placed = batches.map((b) => place(b, pathFor(file, batches.length, b.currency)));
        placed.forEach(writeTemp);
      };
      const program = await withDb(config, (db) => programFor(db, values.program));
      // One entry per batch made, as POST /v1/payout_batches records one.
      const made = (result: unknown) => ((result as PayoutExport | undefined)?.batches ?? []).map((b) => b.id);
      const change = async () => [{ route: 'post /v1/payout_batches', programId: program.id, created: made }];
      const { result, open } = await withAudit(config, 'payouts export', change, async (db) => {
        const result = await exportPayouts(db, program.id, currency, now(), deliver).catch((err: unknown) => {
          discard();
          throw err;
        });
        const open = result.batches.length > 0 ? [] : await openBatches(db, program.id);
        return { result, open: open.filter((b) => currency === null || b.currency === currency) };
      });

      for (const s of result.skipped) {
        note(`not exported, ${s.reason}: partner ${s.partnerId} (${s.name}) ${s.amount} ${s.currency}`);
      }
      if (result.batches.length === 0) {
        note('Nothing to pay out.');
        for (const b of open) {
          note(
            `Open batch ${b.id} (${b.currency}, exported ${iso(b.createdAt)}) holds commissions: write its file again with ` +
              `tally payouts export --batch ${b.id}, or free them with tally payouts cancel ${b.id}.`,
          );
        }
        return;
      }
      // Committed. A file that cannot take its name, or stdout refusing the rows, cancels
      // its batch and the ones after it; a batch already renamed or printed is out, may be
      // uploaded, and so stays (cancelling it would let the next export claim its money again).
      let delivered = 0;
      try {
        for (const b of result.batches) {
          if (file) rename(placed.find((p) => p.batch === b)!);
          else await stdout(payoutCsv(b));
          delivered++;
        }
      } catch (err) {
        discard();
        return withdraw(config, result.batches.slice(delivered), err as Error);
      }
      for (const b of result.batches) {
        const where = file ? `to ${placed.find((p) => p.batch === b)?.path}` : 'on stdout';
        note(`Wrote ${b.rows.length} ${b.currency} payout(s) ${where} (batch ${b.id}).`);
      }
    },
  },

  'payouts cancel': {
    usage:
      'tally payouts cancel BATCH\n\n' +
      'Cancels an open batch: its commissions are free for the next export, and its file can no longer be\n' +
      'marked paid or written again. For a file that was never uploaded to PayPal, or that PayPal refused.',
    options: {},
    positionals: ['BATCH'],
    async run(_values, positionals, config) {
      const id = positionals[0] ?? '';
      const change = (q: Queryable) => batchChanges(q, 'post /v1/payout_batches/:id/cancel', [id]);
      const freed = await withAudit(config, 'payouts cancel', change, (db) => cancelPayoutBatch(db, id, now()));
      out(`Cancelled batch ${id}; ${freed} commission(s) are free for the next export.`);
    },
  },

  'payouts mark-paid': {
    usage:
      'tally payouts mark-paid FILE\n\n' +
      'Marks exactly the commissions of an exported file paid, in one transaction. Moves nothing if any\n' +
      'of them changed state since the export, its batch was cancelled, or any cell of the file differs\n' +
      'from what was exported.',
    options: {},
    positionals: ['FILE'],
    async run(_values, positionals, config) {
      let text: string;
      try {
        text = readFileSync(positionals[0] ?? '', 'utf8');
      } catch (err) {
        throw new UsageError(`cannot read ${positionals[0]}: ${whyNot(err)}; mark-paid takes a file tally payouts export --csv wrote`);
      }
      const rows = parseCsv(text);
      const change = (q: Queryable) => batchChanges(q, 'post /v1/payout_batches/:id/paid', batchesIn(rows));
      const moved = await withAudit(config, 'payouts mark-paid', change, (db) => markPaid(db, rows, now()));
      out(`Marked ${moved} commission(s) paid.`);
    },
  },
};
