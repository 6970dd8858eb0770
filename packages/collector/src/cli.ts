// `tally`: one binary for the server and its administration. It reads the same
// DATABASE_URL as the server and may run while the server does (SQLite's WAL lets
// readers and one writer share the file).

import { parseArgs } from 'node:util';
import { dataCommands } from './cli/data.js';
import { payoutCommands } from './modules/payouts/cli.js';
import { taxFormCommands } from './modules/tax-forms/cli.js';
import { programCommands } from './modules/programs/cli.js';
import { serveCommands } from './cli/serve.js';
import { statsCommands } from './modules/stats/cli.js';
import { billingCommands } from './modules/billing/cli.js';
import { webhookCommands } from './modules/webhooks/cli.js';
import { importCommands } from './modules/imports/cli.js';
import { tokenCommands } from './modules/tokens/cli.js';
import { userCommands } from './modules/owners/cli.js';
import { out, PROCESS_IO, UsageError, withIo, type CliIo, type Command, type Values } from './cli/common.js';
import { ConfigError, loadConfig, type Config } from './platform/config.js';
import { isPostgresUrl } from './platform/db/postgres.js';
import { describeCause, ServiceError } from './platform/errors.js';
import { registerSubscribers } from './subscribers.js';

const COMMANDS: Record<string, Command> = {
  ...serveCommands,
  ...programCommands,
  ...tokenCommands,
  ...userCommands,
  ...payoutCommands,
  ...taxFormCommands,
  ...dataCommands,
  ...statsCommands,
  ...billingCommands,
  ...webhookCommands,
  ...importCommands,
};

const OVERVIEW = `tally: the Tally collector and its administration

Commands:
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage.split('\n')[0]}`)
  .join('\n')}

Environment: DATABASE_URL (default ./data/tally.db), PORT (8787), HOST (127.0.0.1), LOG_LEVEL (info), PUBLIC_URL.
Add --help to any command for more.`;

/** The options a command takes, as a user types them: `--name NAME, --json`. */
function optionList(command: Command): string {
  const names = Object.entries(command.options).map(
    ([n, o]) => `--${n}${o.type === 'string' ? ` ${n.toUpperCase().replace(/-/g, '_')}` : ''}`,
  );
  return names.length ? names.join(', ') : 'no options';
}

/**
 * parseArgs's own messages are long and quote unevenly; a user needs the option that was
 * wrong and the ones that would be right, on one line.
 */
function argumentError(err: unknown, name: string, command: Command): UsageError {
  const code = (err as { code?: string }).code;
  const option = /'(-{1,2}[^'\s=]+)/.exec((err as Error).message)?.[1] ?? 'an option';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return new UsageError(`unknown option ${option} for "tally ${name}"; it takes ${optionList(command)}`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const takesValue = command.options[option.replace(/^-+/, '')]?.type === 'string';
    return new UsageError(`${option} ${takesValue ? 'needs a value' : 'takes no value'}; "tally ${name}" takes ${optionList(command)}`);
  }
  return new UsageError(`bad arguments for "tally ${name}"; usage: ${command.usage.split('\n')[0]}`);
}

/** A database URL as it may be shown: without its user name and password. */
function shownUrl(url: string): string {
  if (!isPostgresUrl(url)) return url;
  try {
    // Host, port and database only: credentials also travel in the query (password=, sslpassword=).
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return 'the configured PostgreSQL URL';
  }
}

/**
 * Runs one command and resolves to its exit code. `cliIo` is where it reads its
 * environment and standard input and writes its output: the process's own for the
 * binary, a test's own in process.
 */
export function main(argv: readonly string[], cliIo: CliIo = PROCESS_IO): Promise<number> {
  registerSubscribers();
  // The binary writes to the process's own io, which io() answers without a store: no
  // AsyncLocalStorage for it, whose promise hooks would then run on every promise of
  // every request `tally serve` takes (a twentieth of a conversion's CPU: docs/hot-path.md).
  return cliIo === PROCESS_IO ? run(argv, cliIo) : withIo(cliIo, () => run(argv, cliIo));
}

async function run(argv: readonly string[], cliIo: CliIo): Promise<number> {
  let config: Readonly<Config> | undefined;
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
      throw argumentError(err, name, command);
    }
    const expected = command.positionals ?? [];
    if (parsed.positionals.length !== expected.length) {
      throw new UsageError(`expected ${expected.length ? expected.join(' ') : 'no arguments'}; usage: ${command.usage.split('\n')[0]}`);
    }
    config = loadConfig(cliIo.env);
    await command.run(parsed.values, parsed.positionals, config);
    return 0;
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'unavailable' && config) {
      cliIo.stderr.write(`tally: cannot use the database at ${shownUrl(config.databaseUrl)}: ${describeCause(err.cause)}\n`);
      return 1;
    }
    // Bad arguments exit 2; a refusal by the data (a stale export, say) or a failure exits 1.
    const usage =
      err instanceof UsageError ||
      err instanceof ConfigError ||
      (err instanceof ServiceError && (err.kind === 'request' || err.kind === 'rule'));
    cliIo.stderr.write(`tally: ${err instanceof Error ? err.message : String(err)}\n`);
    return usage ? 2 : 1;
  }
}
