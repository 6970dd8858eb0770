// The audit log's table: rows are written and read, never changed but by erasure
// (anonymise), and deleted only past the retention (purgeBefore). The migration's trigger
// holds the table to that whatever the code does.

import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow } from '../../platform/db/rows.js';
import type { AuditRow } from './model.js';

export function insert(db: Queryable, row: AuditRow): Promise<number> {
  return insertRow(db, 'audit_events', row);
}

export function get(db: Queryable, programId: string, id: string): Promise<AuditRow | undefined> {
  return db.get<AuditRow>('SELECT * FROM audit_events WHERE program_id = ? AND id = ?', [programId, id]);
}

export const list = lister<AuditRow>('audit_events', {
  actor_id: 'actor_id',
  actor_kind: 'actor_kind',
  action: 'action',
  target_type: 'target_type',
  target_id: 'target_id',
  created_at: 'created_at',
});

/**
 * Drops what names a person from the program's entries about `subjects` (their ids as target,
 * or anywhere in a snapshot: a UUID holds no LIKE wildcard) or made by them: the snapshots,
 * and where they were the actor, their label, address and browser. Who else acted, what
 * happened, to what and when stay.
 */
export function anonymise(db: Queryable, programId: string, subjects: readonly string[], now: number): Promise<number> {
  const marks = subjects.map(() => '?').join(', ');
  const likes = subjects.map(() => 'before_data LIKE ? OR after_data LIKE ?').join(' OR ');
  const ifActor = (column: string) => `${column} = CASE WHEN actor_id IN (${marks}) THEN NULL ELSE ${column} END`;
  return db.run(
    `UPDATE audit_events SET ${ifActor('actor_label')}, ${ifActor('ip')}, ${ifActor('user_agent')},
            before_data = NULL, after_data = NULL, erased_at = ?
      WHERE program_id = ? AND (target_id IN (${marks}) OR actor_id IN (${marks}) OR ${likes})`,
    [...subjects, ...subjects, ...subjects, now, programId, ...subjects, ...subjects, ...subjects.flatMap((s) => [`%"${s}"%`, `%"${s}"%`])],
  );
}

/** Deletes up to `batch` entries written before `cutoff`, oldest first; resolves to how many went. */
export function purgeBefore(db: Queryable, cutoff: number, batch: number): Promise<number> {
  return db.run('DELETE FROM audit_events WHERE id IN (SELECT id FROM audit_events WHERE created_at < ? ORDER BY created_at LIMIT ?)', [
    cutoff,
    batch,
  ]);
}
