import type { Queryable } from './db.js';
import { lister, STATE_SET_AT } from './list.js';
import { insertRow } from './rows.js';

export type CommissionState = 'pending' | 'rejected' | 'paid';

export interface CommissionRow {
  id: string;
  program_id: string;
  partner_id: string;
  referral_id: string | null;
  /** Minor units (cents). */
  amount: number;
  currency: string;
  state: CommissionState;
  reject_reason: string | null;
  state_set_at: number;
  paid_at: number | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS = {
  state: 'state',
  partner_id: 'partner_id',
  created_at: 'created_at',
  state_set_at: 'state_set_at',
};

export async function insert(db: Queryable, row: CommissionRow): Promise<void> {
  await insertRow(db, 'commissions', row);
}

export function get(db: Queryable, programId: string, id: string): Promise<CommissionRow | undefined> {
  return db.get<CommissionRow>('SELECT * FROM commissions WHERE program_id = ? AND id = ?', [programId, id]);
}

export const list = lister<CommissionRow>('commissions', COLUMNS, { notBeforeCreation: ['state_set_at'] });

export interface CommissionMove {
  state: CommissionState;
  reject_reason: string | null;
  paid_at: number | null;
  state_set_at: number;
  updated_at: number;
}

/**
 * Moves a commission out of `from` in one conditional update, so two racing moves cannot
 * both succeed. Resolves to false when its state was no longer `from`; else to whether a
 * payout batch held it at that moment (read by the update itself, under its row lock).
 */
export async function move(
  db: Queryable,
  programId: string,
  id: string,
  from: CommissionState,
  to: CommissionMove,
): Promise<false | { batched: boolean }> {
  const [row] = await db.all<{ payout_batch_id: string | null }>(
    `UPDATE commissions SET state = ?, reject_reason = ?, paid_at = ?, ${STATE_SET_AT}, updated_at = ?
      WHERE program_id = ? AND id = ? AND state = ? RETURNING payout_batch_id`,
    [to.state, to.reject_reason, to.paid_at, to.state_set_at, to.state_set_at, to.updated_at, programId, id, from],
  );
  return row ? { batched: row.payout_batch_id !== null } : false;
}
