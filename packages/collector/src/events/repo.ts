// Events: what changed in a program, each written in the transaction of the change it
// describes. Kept 30 days (EVENTS_KEPT_SECONDS), then pruned with their deliveries.

import type { Queryable } from '../platform/db/db.js';
import { lister, type FieldFilter } from '../platform/db/list.js';
import { insertRow, type Insert } from '../platform/db/rows.js';

export interface EventRow {
  id: string;
  program_id: string;
  type: string;
  /** The record as the API shows it, as JSON. */
  data: string;
  created_at: number;
}

export async function insert(db: Queryable, row: EventRow): Promise<void> {
  await insertRow(db, 'events', row);
}

/** The event as a row to write beside a change (rows.ts, insertFirstWith). */
export const eventInsert = (row: EventRow): Insert => ({ table: 'events', row });

export function get(db: Queryable, programId: string, id: string): Promise<EventRow | undefined> {
  return db.get<EventRow>('SELECT * FROM events WHERE program_id = ? AND id = ?', [programId, id]);
}

export const list = lister<EventRow>('events', { type: 'type', created_at: 'created_at' });

/** The filter that keeps a list to the events still kept, whenever the prune last ran. */
export const keptSince = (since: number): FieldFilter => ({ field: 'created_at', op: 'gt', value: since - 1 });

/** Removes up to `limit` of the program's events made before `before`, and with them their deliveries. */
export function prune(db: Queryable, programId: string, before: number, limit: number): Promise<number> {
  return db.run(
    `DELETE FROM events WHERE id IN (
       SELECT id FROM events WHERE program_id = ? AND created_at < ? ORDER BY created_at DESC, id DESC LIMIT ?)`,
    [programId, before, limit],
  );
}

/** The programs that have events, for the prune. */
export function programsWithEvents(db: Queryable): Promise<Array<{ id: string }>> {
  return db.all<{ id: string }>('SELECT id FROM programs p WHERE EXISTS (SELECT 1 FROM events e WHERE e.program_id = p.id)');
}
