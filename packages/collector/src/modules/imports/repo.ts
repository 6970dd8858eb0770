// import_links (migration 0028): which Tally record each imported object became.

import type { Queryable } from '../../platform/db/db.js';
import { insertRow } from '../../platform/db/rows.js';
import type { Kind } from './model.js';

export interface ImportLinkRow {
  program_id: string;
  source: string;
  kind: Kind;
  source_id: string;
  tally_id: string;
  fingerprint: string;
  imported_at: number;
}

export function getLink(
  db: Queryable,
  programId: string,
  source: string,
  kind: Kind,
  sourceId: string,
): Promise<ImportLinkRow | undefined> {
  return db.get<ImportLinkRow>('SELECT * FROM import_links WHERE program_id = ? AND source = ? AND kind = ? AND source_id = ?', [
    programId,
    source,
    kind,
    sourceId,
  ]);
}

export async function insertLink(db: Queryable, row: ImportLinkRow): Promise<void> {
  await insertRow(db, 'import_links', row);
}

export async function setFingerprint(db: Queryable, row: ImportLinkRow, fingerprint: string, now: number): Promise<void> {
  await db.run(
    'UPDATE import_links SET fingerprint = ?, imported_at = ? WHERE program_id = ? AND source = ? AND kind = ? AND source_id = ?',
    [fingerprint, now, row.program_id, row.source, row.kind, row.source_id],
  );
}
