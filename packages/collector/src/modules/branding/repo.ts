import type { Queryable } from '../../platform/db/db.js';
import type { BrandRow } from './model.js';

export function get(db: Queryable, programId: string): Promise<BrandRow | undefined> {
  return db.get<BrandRow>('SELECT * FROM program_brands WHERE program_id = ?', [programId]);
}

export function byHost(db: Queryable, host: string): Promise<BrandRow | undefined> {
  return db.get<BrandRow>('SELECT * FROM program_brands WHERE host = ?', [host]);
}

/** Writes the whole row; its UNIQUE host refuses a second program's claim to a host (the caller's conflict). */
export function upsert(db: Queryable, row: BrandRow): Promise<number> {
  return db.run(
    `INSERT INTO program_brands (program_id, logo_id, accent, host, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (program_id) DO UPDATE SET logo_id = excluded.logo_id, accent = excluded.accent, host = excluded.host, updated_at = excluded.updated_at`,
    [row.program_id, row.logo_id, row.accent, row.host, row.updated_at],
  );
}
