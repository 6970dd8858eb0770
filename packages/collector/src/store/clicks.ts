import type { Queryable } from './db.js';
import { lister } from './list.js';
import { insertRow } from './rows.js';

export interface ClickRow {
  id: string;
  program_id: string;
  partnership_id: string;
  gr_id: string;
  pk: string;
  url: string | null;
  referrer: string | null;
  created_at: number;
  /** Moved forward by a repeat, so the latest click of a visitor stays the one credited. */
  last_seen_at: number;
}

export async function insert(db: Queryable, row: ClickRow): Promise<void> {
  await insertRow(db, 'clicks', row);
}

/** A click of the same visitor on the same partnership first seen after `since`. */
export function findRecent(
  db: Queryable,
  programId: string,
  grId: string,
  partnershipId: string,
  since: number,
): Promise<ClickRow | undefined> {
  return db.get<ClickRow>(
    `SELECT * FROM clicks WHERE program_id = ? AND gr_id = ? AND partnership_id = ? AND created_at > ?
      ORDER BY created_at DESC LIMIT 1`,
    [programId, grId, partnershipId, since],
  );
}

export async function touch(db: Queryable, id: string, now: number): Promise<void> {
  await db.run('UPDATE clicks SET last_seen_at = ? WHERE id = ?', [now, id]);
}

/** Newest first; by partnership (clicks_list, clicks_partnership). */
export const list = lister<ClickRow>('clicks', { partnership_id: 'partnership_id', created_at: 'created_at' });

export function get(db: Queryable, programId: string, id: string): Promise<ClickRow | undefined> {
  return db.get<ClickRow>('SELECT * FROM clicks WHERE program_id = ? AND id = ?', [programId, id]);
}
