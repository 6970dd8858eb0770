// The environment, read in one place, checked once at start, and frozen.

import { z } from 'zod';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().min(1).default('./data/tally.db'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where users reach this collector; used for the first program's demo site and origin. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  logLevel: string;
  /** PUBLIC_URL when given; otherwise the server names itself by the address it listens on. */
  publicUrl?: string | undefined;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Readonly<Config> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const e = result.data;
  if (/^postgres(ql)?:/.test(e.DATABASE_URL)) {
    throw new ConfigError('DATABASE_URL: PostgreSQL is not supported yet; use a SQLite file path');
  }
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
  });
}
