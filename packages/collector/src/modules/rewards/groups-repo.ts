// Partner groups and the record of partnerships moving between them.

import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow, updateRow } from '../../platform/db/rows.js';

export interface GroupRow {
  id: string;
  program_id: string;
  name: string;
  /** Its public application page: /p/<program slug>/<group slug>/. */
  slug: string;
  is_default: number;
  /** Null: the program's. */
  hold_days: number | null;
  /** A minimum-payout object as JSON; null: the program's. */
  minimum_payout: string | null;
  /** 1 or 0: applications to this group are accepted at once, or wait; null: as the program says. */
  auto_accept: number | null;
  takes_applications: number;
  /** The group's move rules, as JSON (MoveRule[]). */
  move_rules: string;
  created_at: number;
  updated_at: number;
}

export interface MoveRow {
  id: string;
  program_id: string;
  partnership_id: string;
  partner_id: string;
  from_group_id: string | null;
  to_group_id: string;
  /** 'rule' (a move rule of the group), 'owner' (the API or the dashboard). */
  moved_by: 'rule' | 'owner';
  /** The rule's key, for a rule's move: it moves a partnership once. */
  rule: string | null;
  reason: string;
  created_at: number;
}

export const list = lister<GroupRow>('partner_groups', { name: 'name', slug: 'slug', created_at: 'created_at' });

export const moves = lister<MoveRow>('group_moves', {
  partnership_id: 'partnership_id',
  partner_id: 'partner_id',
  to_group_id: 'to_group_id',
  moved_by: 'moved_by',
  created_at: 'created_at',
});

export function get(db: Queryable, programId: string, id: string): Promise<GroupRow | undefined> {
  return db.get<GroupRow>('SELECT * FROM partner_groups WHERE program_id = ? AND id = ?', [programId, id]);
}

export function getMove(db: Queryable, programId: string, id: string): Promise<MoveRow | undefined> {
  return db.get<MoveRow>('SELECT * FROM group_moves WHERE program_id = ? AND id = ?', [programId, id]);
}

export function ofProgram(db: Queryable, programId: string): Promise<GroupRow[]> {
  return db.all<GroupRow>('SELECT * FROM partner_groups WHERE program_id = ? ORDER BY is_default DESC, created_at, id', [programId]);
}

export async function insert(db: Queryable, row: GroupRow): Promise<void> {
  await insertRow(db, 'partner_groups', row);
}

export async function update(db: Queryable, row: GroupRow): Promise<void> {
  const { name, slug, hold_days, minimum_payout, auto_accept, takes_applications, move_rules, updated_at } = row;
  await updateRow(db, 'partner_groups', row.program_id, row.id, {
    name,
    slug,
    hold_days,
    minimum_payout,
    auto_accept,
    takes_applications,
    move_rules,
    updated_at,
  });
}

/** Removes a group that is not the default and that no partnership is in; 0 when it is either. */
export function remove(db: Queryable, programId: string, id: string): Promise<number> {
  return db.run(
    `DELETE FROM partner_groups WHERE program_id = ? AND id = ? AND is_default = 0
        AND NOT EXISTS (SELECT 1 FROM partnerships WHERE group_id = ? AND program_id = ?)`,
    [programId, id, id, programId],
  );
}

export function members(db: Queryable, programId: string, groupId: string): Promise<number> {
  return db
    .get<{ n: number }>('SELECT COUNT(*) AS n FROM partnerships WHERE group_id = ? AND program_id = ?', [groupId, programId])
    .then((r) => Number(r?.n ?? 0));
}

/** Puts the partnership in the group. */
export function setGroup(db: Queryable, programId: string, partnershipId: string, groupId: string, now: number): Promise<number> {
  return updateRow(db, 'partnerships', programId, partnershipId, { group_id: groupId, updated_at: now });
}

/** Records a move; false when the rule already moved this partnership (a rule moves it once). */
export async function insertMove(db: Queryable, row: MoveRow): Promise<boolean> {
  return (await insertRow(db, 'group_moves', row, 'ON CONFLICT DO NOTHING')) === 1;
}
