// `tally`: one binary for the server and its administration. It reads the same
// DATABASE_URL as the server and may run while the server does (SQLite's WAL lets
// readers and one writer share the file).

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { formatCsv, parseCsv } from './csv.js';
import { exportPayouts, markPaid } from './domain/payouts.js';
import { createProgram, parseRateBps } from './domain/programs.js';
import { isUuid } from './domain/ids.js';
import { issueToken } from './domain/tokens.js';
import { ApiError } from './errors.js';
import { createLogger } from './log.js';
import { openDatabase, startServer } from './server.js';
import type { Db } from './store/db.js';
import { migrate } from './store/migrations.js';
import * as programs from './store/programs.js';
import * as tokens from './store/tokens.js';

class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

interface Command {
  usage: string;
  options: Options;
  positionals?: string[];
  run(values: Values, positionals: string[], config: Readonly<Config>): Promise<void>;
}

const now = (): number => Math.floor(Date.now() / 1000);
const out = (line: string): void => void process.stdout.write(`${line}\n`);
const iso = (t: number | null): string => (t === null ? '-' : new Date(t * 1000).toISOString());
const json = { json: { type: 'boolean' } } as const;

async function withDb<T>(config: Readonly<Config>, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = openDatabase(config);
  try {
    await migrate(db, now());
    return await fn(db);
  } finally {
    await db.close();
  }
}

function required(values: Values, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

async function requireProgram(db: Db, id: string): Promise<programs.ProgramRow> {
  const program = isUuid(id) ? await programs.get(db, id) : undefined;
  if (!program) throw new UsageError(`no program ${id}; see: tally programs list`);
  return program;
}

/** The program named by --program, or the only one there is. */
async function programFor(db: Db, id: Values[string]): Promise<programs.ProgramRow> {
  if (typeof id === 'string') return requireProgram(db, id);
  const all = await programs.list(db);
  if (all.length !== 1) throw new UsageError('--program is required: the database holds several programs');
  return all[0]!;
}

function printTokens(secret: string | undefined, publishable: string | undefined): void {
  if (secret) out(`  secret token:      ${secret}`);
  if (publishable) out(`  publishable token: ${publishable}`);
  out('  Tokens are shown only now; store them safely.');
}

const COMMANDS: Record<string, Command> = {
  serve: {
    usage: 'tally serve\n\nRuns the collector on HOST:PORT with the database at DATABASE_URL (same as npm start).',
    options: {},
    async run(_values, _positionals, config) {
      const log = createLogger(config.logLevel);
      const running = await startServer(config, log);
      if (running.firstProgram) {
        const { program, tokens: t } = running.firstProgram;
        out(`First start: created program "${program.name}" (${program.id}).`);
        printTokens(t.secret, t.publishable);
      }
      out(`Tally collector listening on ${running.url}`);
      const stop = (signal: string): void => {
        log.info({ signal }, 'shutting down');
        void running.close().then(() => process.exit(0));
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      await new Promise(() => undefined); // run until a signal
    },
  },

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

  'payouts export': {
    usage:
      'tally payouts export [--program ID] [--currency USD] [--csv FILE]\n\n' +
      'Sums each partner\'s pending commissions of accepted partnerships, per currency, in the layout of\n' +
      'PayPal\'s Payouts bulk upload (one file per currency: FILE.EUR.csv and so on when there are several).\n' +
      'Partners without a PayPal address are listed on stderr and left out.',
    options: { program: { type: 'string' }, currency: { type: 'string' }, csv: { type: 'string' } },
    async run(values, _positionals, config) {
      const currency = typeof values.currency === 'string' ? values.currency.toUpperCase() : null;
      if (currency !== null && !/^[A-Z]{3}$/.test(currency)) throw new UsageError('--currency must be a three-letter code');
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

  'tokens create': {
    usage: 'tally tokens create --program ID --kind secret|publishable [--json]\n\nIssues a token. It is shown once.',
    options: { program: { type: 'string' }, kind: { type: 'string' }, ...json },
    async run(values, _positionals, config) {
      const kind = required(values, 'kind');
      if (kind !== 'secret' && kind !== 'publishable') throw new UsageError('--kind must be secret or publishable');
      const issued = await withDb(config, async (db) => {
        const program = await requireProgram(db, required(values, 'program'));
        return issueToken(db, program.id, kind, now());
      });
      if (values.json) {
        return out(JSON.stringify({ id: issued.row.id, program_id: issued.row.program_id, kind, token: issued.token }));
      }
      out(`Created ${kind} token ${issued.row.id}:`);
      printTokens(kind === 'secret' ? issued.token : undefined, kind === 'publishable' ? issued.token : undefined);
    },
  },

  'tokens list': {
    usage: 'tally tokens list --program ID [--json]\n\nLists a program\'s tokens by id and prefix; tokens themselves are never stored.',
    options: { program: { type: 'string' }, ...json },
    async run(values, _positionals, config) {
      const rows = await withDb(config, async (db) => {
        const program = await requireProgram(db, required(values, 'program'));
        return tokens.listByProgram(db, program.id);
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
        out(`${t.id}  ${t.kind.padEnd(11)}  ${t.prefix}…  created ${iso(t.created_at)}  revoked ${iso(t.revoked_at)}${t.label ? `  (${t.label})` : ''}`);
      }
    },
  },

  'tokens revoke': {
    usage: 'tally tokens revoke TOKEN_ID\n\nRevokes a token at once, also for a running server.',
    options: {},
    positionals: ['TOKEN_ID'],
    async run(_values, positionals, config) {
      const id = positionals[0] ?? '';
      const result = await withDb(config, async (db) => {
        const token = isUuid(id) ? await tokens.get(db, id) : undefined;
        if (!token) throw new UsageError(`no token ${id}; see: tally tokens list --program ID`);
        return (await tokens.revoke(db, id, now())) === 1 ? 'revoked' : 'was already revoked';
      });
      out(`Token ${id} ${result}.`);
    },
  },
};

const OVERVIEW = `tally: the Tally collector and its administration

Commands:
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage.split('\n')[0]}`)
  .join('\n')}

Environment: DATABASE_URL (default ./data/tally.db), PORT (8787), HOST (127.0.0.1), LOG_LEVEL (info), PUBLIC_URL.
Add --help to any command for more.`;

export async function main(argv: readonly string[]): Promise<number> {
  const name = [argv.slice(0, 2).join(' '), argv[0] ?? ''].find((n) => Object.hasOwn(COMMANDS, n));
  try {
    if (!name) {
      const group = Object.keys(COMMANDS).filter((n) => n.startsWith(`${argv[0]} `));
      const asksHelp = argv.length === 0 || argv.includes('--help') || argv.includes('-h');
      if (asksHelp && group.length === 0) {
        out(OVERVIEW);
        return argv.length === 0 ? 2 : 0;
      }
      if (asksHelp) {
        out(group.map((n) => COMMANDS[n]?.usage.split('\n')[0]).join('\n'));
        return 0;
      }
      throw new UsageError(`unknown command "${argv.slice(0, 2).join(' ')}"; see: tally --help`);
    }
    const command = COMMANDS[name] as Command;
    const rest = argv.slice(name.split(' ').length);
    if (rest.includes('--help') || rest.includes('-h')) {
      out(`usage: ${command.usage}`);
      return 0;
    }
    let parsed: { values: Values; positionals: string[] };
    try {
      parsed = parseArgs({ args: [...rest], options: command.options, allowPositionals: true, strict: true });
    } catch (err) {
      throw new UsageError((err as Error).message.split('\n')[0]);
    }
    const expected = command.positionals ?? [];
    if (parsed.positionals.length !== expected.length) {
      throw new UsageError(`expected ${expected.length ? expected.join(' ') : 'no arguments'}; usage: ${command.usage.split('\n')[0]}`);
    }
    await command.run(parsed.values, parsed.positionals, loadConfig());
    return 0;
  } catch (err) {
    // Bad arguments exit 2; a refusal by the data (a stale export, say) or a failure exits 1.
    const usage =
      err instanceof UsageError || err instanceof ConfigError || (err instanceof ApiError && [400, 422].includes(err.status));
    process.stderr.write(`tally: ${err instanceof Error ? err.message : String(err)}\n`);
    return usage ? 2 : 1;
  }
}
