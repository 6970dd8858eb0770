// Owners' review decisions: who decided what about which referral, and when.

import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow } from '../../platform/db/rows.js';
import type { CommissionRow } from '../commissions/repo.js';

export type Decision = 'approve' | 'reject' | 'ban';

export interface DecisionRow {
  id: string;
  program_id: string;
  referral_id: string | null;
  /** The commission decided about, when it was held by a signal of its own; null: a referral's decision. */
  commission_id: string | null;
  partner_id: string;
  decision: Decision;
  reason: string;
  /** The member's e-mail, or "a secret token". */
  decided_by: string;
  created_at: number;
}

export async function insertDecision(db: Queryable, row: DecisionRow): Promise<void> {
  await insertRow(db, 'review_decisions', row);
}

export function getDecision(db: Queryable, programId: string, id: string): Promise<DecisionRow | undefined> {
  return db.get<DecisionRow>('SELECT * FROM review_decisions WHERE program_id = ? AND id = ?', [programId, id]);
}

export const decisions = lister<DecisionRow>('review_decisions', { created_at: 'created_at' });

/** The referral's commissions still held, to decide with it. */
export function heldCommissions(db: Queryable, programId: string, referralId: string): Promise<CommissionRow[]> {
  return db.all<CommissionRow>("SELECT * FROM commissions WHERE program_id = ? AND referral_id = ? AND review = 'held' ORDER BY id", [
    programId,
    referralId,
  ]);
}

/** A partner's pending commissions in the program that no open batch holds: a ban rejects them all. */
export function pendingOfPartner(db: Queryable, programId: string, partnerId: string): Promise<CommissionRow[]> {
  return db.all<CommissionRow>(
    "SELECT * FROM commissions WHERE program_id = ? AND partner_id = ? AND state = 'pending' AND payout_batch_id IS NULL ORDER BY id",
    [programId, partnerId],
  );
}

/**
 * Moves a referral's or a commission's review out of `held` in one conditional update: of
 * two decisions at once, one changes it and the other finds nothing (false).
 */
export async function decideHeld(
  db: Queryable,
  table: 'referrals' | 'commissions',
  programId: string,
  id: string,
  review: 'approved' | 'rejected',
  now: number,
): Promise<boolean> {
  const changed = await db.run(`UPDATE ${table} SET review = ?, updated_at = ? WHERE program_id = ? AND id = ? AND review = 'held'`, [
    review,
    now,
    programId,
    id,
  ]);
  return changed === 1;
}

/** A ban rejects the referral's review whatever it was. */
export async function setReferralReview(db: Queryable, programId: string, id: string, review: string, now: number): Promise<void> {
  await db.run('UPDATE referrals SET review = ?, updated_at = ? WHERE program_id = ? AND id = ?', [review, now, programId, id]);
}
