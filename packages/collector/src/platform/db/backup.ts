// A backup of the live database: one consistent snapshot (the engine's online backup),
// written beside the target, checked, and only then given the target's name, so the
// file is whole or absent.

import { renameSync, rmSync } from 'node:fs';
import type { Db } from './db.js';
import { verifySqliteCopy, type RowCounts } from './sqlite-copy.js';

export async function backupTo(db: Db, file: string): Promise<RowCounts> {
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  try {
    await db.backup(partial);
    const counts = verifySqliteCopy(partial);
    renameSync(partial, file);
    return counts;
  } finally {
    rmSync(partial, { force: true });
  }
}
