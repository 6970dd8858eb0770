// The rewards of a program's partner groups, and the model's shape of each row. The base
// reward (one per program, in its default group) is the program's commission_rate_bps and
// recurring_months: the program's routes write it, so both always say the same.

import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow, updateRow } from '../../platform/db/rows.js';
import type { ConditionGroup, Duration, Reward } from './model.js';

export interface RewardRow {
  id: string;
  program_id: string;
  group_id: string;
  event: Reward['event'];
  kind: Reward['kind'];
  amount: number;
  currency: string | null;
  duration_kind: Duration['kind'];
  duration_months: number | null;
  /** The conditions as JSON; null: always. */
  conditions: string | null;
  daily_cap: number | null;
  position: number;
  /** 1 for the default group's sale reward that the program's rate is. */
  base: number;
  created_at: number;
  updated_at: number;
}

const COLUMNS = { group_id: 'group_id', event: 'event', created_at: 'created_at' };

export const list = lister<RewardRow>('rewards', COLUMNS);

export function get(db: Queryable, programId: string, id: string): Promise<RewardRow | undefined> {
  return db.get<RewardRow>('SELECT * FROM rewards WHERE program_id = ? AND id = ?', [programId, id]);
}

/** Every reward of the program, in the order they are weighed. */
export function ofProgram(db: Queryable, programId: string): Promise<RewardRow[]> {
  return db.all<RewardRow>('SELECT * FROM rewards WHERE program_id = ? ORDER BY position, id', [programId]);
}

export async function insert(db: Queryable, row: RewardRow): Promise<void> {
  await insertRow(db, 'rewards', row);
}

export async function update(db: Queryable, row: RewardRow): Promise<void> {
  const { id: _, program_id, group_id: __, created_at: ___, base: ____, ...fields } = row;
  await updateRow(db, 'rewards', program_id, row.id, fields);
}

export function remove(db: Queryable, programId: string, id: string): Promise<number> {
  return db.run('DELETE FROM rewards WHERE program_id = ? AND id = ? AND base = 0', [programId, id]);
}

/** Writes the program's rate and recurring limit into its base reward. */
export function setBase(db: Queryable, programId: string, rateBps: number, recurringMonths: number, now: number): Promise<number> {
  const d = durationOfMonths(recurringMonths);
  return db.run(
    `UPDATE rewards SET kind = 'percentage', amount = ?, currency = NULL, duration_kind = ?, duration_months = ?, updated_at = ?
      WHERE program_id = ? AND base = 1`,
    [rateBps, d.kind, d.kind === 'months' ? d.months : null, now, programId],
  );
}

/** A recurring limit as the program states it (0: every payment, for ever) as a reward's duration. */
export const durationOfMonths = (months: number): Duration => (months === 0 ? { kind: 'lifetime' } : { kind: 'months', months });

export function toReward(row: RewardRow): Reward {
  const duration: Duration =
    row.duration_kind === 'months' ? { kind: 'months', months: Number(row.duration_months) } : { kind: row.duration_kind };
  return {
    id: row.id,
    event: row.event,
    kind: row.kind,
    amount: Number(row.amount),
    currency: row.currency,
    duration,
    conditions: row.conditions === null ? null : (JSON.parse(row.conditions) as ConditionGroup),
    daily_cap: row.daily_cap === null ? null : Number(row.daily_cap),
    position: Number(row.position),
  };
}

/** The stored columns of a reward's fields. */
export function columnsOf(
  r: Omit<Reward, 'id'>,
): Pick<
  RewardRow,
  'event' | 'kind' | 'amount' | 'currency' | 'duration_kind' | 'duration_months' | 'conditions' | 'daily_cap' | 'position'
> {
  return {
    event: r.event,
    kind: r.kind,
    amount: r.amount,
    currency: r.currency,
    duration_kind: r.duration.kind,
    duration_months: r.duration.kind === 'months' ? r.duration.months : null,
    conditions: r.conditions === null ? null : JSON.stringify(r.conditions),
    daily_cap: r.daily_cap,
    position: r.position,
  };
}
