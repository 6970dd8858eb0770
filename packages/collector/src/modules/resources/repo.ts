import type { Queryable } from '../../platform/db/db.js';
import { insertRow } from '../../platform/db/rows.js';
import type { ResourceFile, ResourceRow } from './model.js';

const LISTED = 'id, program_id, kind, title, file_name, media_type, size, sha256, body, position, created_at';

export async function insert(db: Queryable, row: ResourceRow & { content: Buffer | null }): Promise<void> {
  await insertRow(db, 'brand_resources', row);
}

export function get(db: Queryable, programId: string, id: string): Promise<ResourceRow | undefined> {
  return db.get<ResourceRow>(`SELECT ${LISTED} FROM brand_resources WHERE program_id = ? AND id = ?`, [programId, id]);
}

export async function file(db: Queryable, programId: string, id: string): Promise<ResourceFile | undefined> {
  const row = await db.get<ResourceFile>(`SELECT * FROM brand_resources WHERE program_id = ? AND id = ? AND kind = 'file'`, [
    programId,
    id,
  ]);
  // SQLite hands a BLOB back as a Buffer, PostgreSQL's driver a BYTEA too; a Uint8Array from either is made one.
  return row && { ...row, content: Buffer.from(row.content) };
}

/** The program's resources in the owner's order; few enough (MAX_RESOURCES) to need no pages. */
export function all(db: Queryable, programId: string): Promise<ResourceRow[]> {
  return db.all<ResourceRow>(`SELECT ${LISTED} FROM brand_resources WHERE program_id = ? ORDER BY position, id`, [programId]);
}

export async function count(db: Queryable, programId: string): Promise<{ n: number; last: number }> {
  const row = await db.get<{ n: number; last: number | null }>(
    'SELECT COUNT(*) AS n, MAX(position) AS last FROM brand_resources WHERE program_id = ?',
    [programId],
  );
  return { n: Number(row?.n ?? 0), last: Number(row?.last ?? 0) };
}

export function setPosition(db: Queryable, programId: string, id: string, position: number): Promise<number> {
  return db.run('UPDATE brand_resources SET position = ? WHERE program_id = ? AND id = ?', [position, programId, id]);
}

export function setTitle(db: Queryable, programId: string, id: string, title: string): Promise<number> {
  return db.run('UPDATE brand_resources SET title = ? WHERE program_id = ? AND id = ?', [title, programId, id]);
}

export function remove(db: Queryable, programId: string, id: string): Promise<number> {
  return db.run('DELETE FROM brand_resources WHERE program_id = ? AND id = ?', [programId, id]);
}
