// Settings every request reads (the program behind a token, whether an origin is allowed,
// a program's webhook endpoints, the partnership a link's slug credits) kept in memory, per database, for as long as its clock
// says none of them changed (platform/db/db.ts, SettingsClock): a revocation made here is obeyed
// before it is answered, one made by another process (the CLI, another server) within
// SETTINGS_LAG_MS.

import type { Queryable, SettingsClock } from './db.js';

/** Entries kept at most; past it the memory starts over (keys come from callers who authenticated, or from our own tokens). */
const MAX_ENTRIES = 10_000;

interface Memory {
  version: number;
  values: Map<string, unknown>;
}

const memories = new WeakMap<SettingsClock, Memory>();

/**
 * `load()`'s answer for `key`, from memory when the settings have not changed since it
 * was read. An undefined answer (an unknown token) is never kept: anyone may ask for
 * any number of those.
 */
export async function remembered<T>(db: Queryable, key: string, load: () => Promise<T>): Promise<T> {
  const clock = db.settings;
  const version = clock.version();
  if (version === undefined) return load();
  let memory = memories.get(clock);
  if (memory?.version !== version) {
    memory = { version, values: new Map() };
    memories.set(clock, memory);
  }
  if (memory.values.has(key)) return memory.values.get(key) as T;
  const value = await load();
  // A change committed while it was read may have come too late for it: then it is not kept.
  if (value !== undefined && clock.version() === version) {
    if (memory.values.size >= MAX_ENTRIES) memory.values.clear();
    memory.values.set(key, value);
  }
  return value;
}
