// tally import (docs/importing.md): a program's partners, links, referrals and commissions
// from Rewardful, FirstPromoter, Tolt or CSV files. It prints what it imported, updated,
// found unchanged and skipped, with why; run again, it finishes an interrupted import.

import type { Config } from '../../platform/config.js';
import { CURRENCY_RULE, knownCurrency } from '../../core/money.js';
import {
  json,
  note,
  now,
  orStdin,
  out,
  programFor,
  required,
  UsageError,
  withDb,
  type Command,
  type Options,
  type Values,
} from '../../cli/common.js';
import { FileRefused, ImportError } from './client.js';
import { csvSource } from './csv-source.js';
import { firstPromoter } from './firstpromoter.js';
import { KINDS, type Source } from './model.js';
import type { PlatformOptions } from './platform.js';
import { rewardful } from './rewardful.js';
import { emptySummary, runImport, type ImportSummary } from '../../flows/import.js';
import { tolt } from './tolt.js';

const PLURAL = { partner: 'partners', referral: 'referrals', commission: 'commissions' } as const;

// What a terminal obeys rather than shows: C0 and C1 controls (ESC, BEL, CSI), DEL, and the
// bidirectional overrides and isolates. A cell or a platform's record may hold any of them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with each control character written as \uXXXX: printable, and still valid inside JSON. */
const escaped = (text: string): string => text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function report(summary: ImportSummary, title: string, programName: string): void {
  const say = (line: string) => out(escaped(line));
  say(`From ${title} into "${programName}":`);
  for (const kind of KINDS) {
    const n = summary.counts[kind];
    say(`  ${PLURAL[kind].padEnd(12)} ${n.imported} imported, ${n.updated} updated, ${n.unchanged} unchanged, ${n.skipped} skipped`);
  }
  if (summary.skipped.length > 0) say('Left out:');
  for (const s of summary.skipped) say(`  ${s.kind} ${s.id}: ${s.reason}`);
}

/** The summary as it is printed: JSON escapes C0 itself, and `escaped` the rest the same way. */
function printed(summary: ImportSummary, json: unknown, title: string, programName: string): void {
  if (json) out(escaped(JSON.stringify(summary)));
  else report(summary, title, programName);
}

async function importFrom(config: Readonly<Config>, values: Values, source: Source): Promise<void> {
  await withDb(config, async (db) => {
    const program = await programFor(db, values.program);
    const summary = emptySummary(source, program.id);
    try {
      await runImport(db, program, source, now, summary);
    } catch (err) {
      if (!(err instanceof ImportError)) throw err;
      printed(summary, values.json, source.title, program.name);
      const then = err instanceof FileRefused ? 'once the file is fixed, run the same command again' : 'run the same command again';
      throw new ImportError(`${escaped(err.message)}. What was written so far is kept: ${then} to finish the import.`);
    }
    printed(summary, values.json, source.title, program.name);
  });
}

/** --max-wait in seconds, as milliseconds. */
function maxWait(values: Values): number {
  if (values['max-wait'] === undefined) return 60_000;
  const secs = Number(values['max-wait']);
  if (!Number.isFinite(secs) || secs < 0) throw new UsageError('--max-wait takes a number of seconds, 0 or more');
  return secs * 1000;
}

function currencyOf(values: Values, needed: boolean): string | undefined {
  if (values.currency === undefined) {
    if (needed) throw new UsageError('--currency is required: the platform gives amounts without their currency');
    return undefined;
  }
  const code = knownCurrency(String(values.currency));
  if (!code) throw new UsageError(`--currency ${CURRENCY_RULE}`);
  return code;
}

function platformOptions(values: Values, more: Partial<PlatformOptions> = {}): PlatformOptions {
  return {
    apiKey: orStdin(required(values, 'api-key'), 'api-key', 'the API key'),
    baseUrl: typeof values['base-url'] === 'string' ? values['base-url'] : undefined,
    maxWaitMs: maxWait(values),
    ...more,
  };
}

const API_OPTIONS: Options = {
  program: { type: 'string' },
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
  'max-wait': { type: 'string' },
  ...json,
};

const USAGE_TAIL =
  '\n\nImports partners with their links, referrals and commissions into the program (docs/importing.md).\n' +
  'Run it again at any time: what was imported is left as it is, or moved to its new state.\n' +
  '--base-url reads another address of the API; --max-wait caps the wait a rate limit asks for (60 s).';

export const importCommands: Record<string, Command> = {
  'import rewardful': {
    usage: `tally import rewardful --api-key SECRET [--program ID] [--base-url URL] [--max-wait SECONDS] [--json]${USAGE_TAIL}`,
    options: API_OPTIONS,
    run: (values, _p, config) => importFrom(config, values, rewardful(platformOptions(values))),
  },
  'import firstpromoter': {
    usage: `tally import firstpromoter --api-key KEY --account-id ID --currency USD [--program ID] [--base-url URL] [--max-wait SECONDS] [--json]${USAGE_TAIL}`,
    options: { ...API_OPTIONS, 'account-id': { type: 'string' }, currency: { type: 'string' } },
    run: (values, _p, config) =>
      importFrom(
        config,
        values,
        firstPromoter(platformOptions(values, { accountId: required(values, 'account-id'), currency: currencyOf(values, true) })),
      ),
  },
  'import tolt': {
    usage: `tally import tolt --api-key KEY [--currency USD] [--program ID] [--base-url URL] [--max-wait SECONDS] [--json]${USAGE_TAIL}`,
    options: { ...API_OPTIONS, currency: { type: 'string' } },
    run: (values, _p, config) => importFrom(config, values, tolt(platformOptions(values, { currency: currencyOf(values, false) }))),
  },
  'import csv': {
    usage:
      'tally import csv [--partners FILE] [--referrals FILE] [--commissions FILE] [--program ID] [--json]\n\n' +
      'Imports the CSV files in the format of docs/importing.md; a bad row is skipped with its line and why.',
    options: {
      program: { type: 'string' },
      partners: { type: 'string' },
      referrals: { type: 'string' },
      commissions: { type: 'string' },
      ...json,
    },
    async run(values, _p, config) {
      const file = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
      const files = { partners: file('partners'), referrals: file('referrals'), commissions: file('commissions') };
      if (!files.partners && !files.referrals && !files.commissions)
        throw new UsageError('give at least one of --partners, --referrals, --commissions');
      if (!files.partners) note('No --partners: referrals and commissions credit partners an earlier CSV import brought.');
      await importFrom(config, values, csvSource(files));
    },
  },
};
