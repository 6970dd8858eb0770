// What every command shares: its shape, argument helpers, and the database it opens.

import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../platform/config.js';
import { getProgram, listPrograms } from '../modules/programs/service.js';
import { openConfigured } from '../server.js';
import type { Db } from '../platform/db/db.js';
import type { ProgramRow } from '../modules/programs/model.js';

/** A bad argument: one line on stderr and exit code 2. */
export class UsageError extends Error {}

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface Command {
  usage: string;
  options: Options;
  positionals?: string[];
  run(values: Values, positionals: string[], config: Readonly<Config>): Promise<void>;
}

/** Where a command reads and writes: the process's own, or a caller's (tests run commands in process). */
export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string, done?: (err?: Error | null) => void): unknown };
  stderr: { write(text: string): unknown };
  /** Standard input, read whole. */
  stdin(): string;
}

export const PROCESS_IO: CliIo = { env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: () => readFileSync(0, 'utf8') };

const running = new AsyncLocalStorage<CliIo>();
/** The io of the command running now. */
export const io = (): CliIo => running.getStore() ?? PROCESS_IO;
export const withIo = <T>(cliIo: CliIo, fn: () => Promise<T>): Promise<T> => running.run(cliIo, fn);

export const now = (): number => Math.floor(Date.now() / 1000);
export const out = (line: string): void => void io().stdout.write(`${line}\n`);
/** For a person, beside a stdout that machines read (the server's JSON logs). */
export const note = (line: string): void => void io().stderr.write(`${line}\n`);
export const iso = (t: number | null): string => (t === null ? '-' : new Date(t * 1000).toISOString());
export const json = { json: { type: 'boolean' } } as const;

export async function withDb<T>(config: Readonly<Config>, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openConfigured(config, now());
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** `--NAME -` reads the value (a secret) from stdin's first line, keeping it out of the shell's history and the process list. */
export function orStdin(raw: string, name: string, what: string): string {
  if (raw !== '-') return raw;
  const line = io().stdin().split(/\r?\n/)[0]?.trim() ?? '';
  if (line === '') throw new UsageError(`--${name} - reads ${what} from stdin, which was empty`);
  return line;
}

export function required(values: Values, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export async function requireProgram(db: Db, id: string): Promise<ProgramRow> {
  const found = await getProgram(db, id);
  if (!found) throw new UsageError(`no program ${id}; see: tally programs list`);
  return found.program;
}

/** The program named by --program, or the only one there is. */
export async function programFor(db: Db, id: Values[string]): Promise<ProgramRow> {
  if (typeof id === 'string') return requireProgram(db, id);
  const all = await listPrograms(db);
  if (all.length !== 1) throw new UsageError('--program is required: the database holds several programs');
  return all[0]!.program;
}

export function printTokens(secret: string | undefined, publishable: string | undefined, write = out): void {
  if (secret) write(`  secret token:      ${secret}`);
  if (publishable) write(`  publishable token: ${publishable}`);
  write('  Tokens are shown only now; store them safely.');
}
