// `tally`: one binary for the server and its administration. It reads the same
// DATABASE_URL as the server and may run while the server does (SQLite's WAL lets
// readers and one writer share the file).

import { parseArgs } from 'node:util';
import { dataCommands } from './cli/data.js';
import { payoutCommands } from './cli/payouts.js';
import { programCommands } from './cli/programs.js';
import { serveCommands } from './cli/serve.js';
import { tokenCommands } from './cli/tokens.js';
import { out, UsageError, type Command, type Values } from './cli/common.js';
import { ConfigError, loadConfig } from './config.js';
import { ApiError } from './errors.js';

const COMMANDS: Record<string, Command> = {
  ...serveCommands,
  ...programCommands,
  ...tokenCommands,
  ...payoutCommands,
  ...dataCommands,
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
