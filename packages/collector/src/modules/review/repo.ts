// Owners' review decisions: who decided what about which referral, and when.

import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow } from '../../platform/db/rows.js';
import type { CommissionRow } from '../commissions/model.js';
import { BUCKET_SECONDS } from '../../events/deltas.js';

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

export interface Unapproved {
  currency: string;
  customers: number;
  revenue: number;
  commissions: number;
}

/**
 * What of a partner's kept totals (modules/stats) is held or rejected in review, per
 * currency, among the commissions made in [from, to): the held commissions' amounts
 * (a rejected one's left the totals already), and the payments of those commissions and of
 * held or rejected referrals (their revenue net of refunds, and whether each made a paying
 * customer). Counted in the same 15-minute buckets as the totals they are taken from; read
 * through the review indexes, so a partner with many commissions and none held costs two
 * index lookups.
 */
export function unapproved(db: Queryable, programId: string, partnerId: string, from: number, to: number): Promise<Unapproved[]> {
  return db.all<Unapproved>(
    `SELECT c.currency,
            SUM(COALESCE(p.first_of_referral, 0)) AS customers,
            SUM(COALESCE(p.amount - p.refunded, 0)) AS revenue,
            SUM(CASE WHEN c.review = 'held' AND c.state <> 'rejected' THEN c.amount ELSE 0 END) AS commissions
       FROM commissions c LEFT JOIN payments p ON p.commission_id = c.id
      WHERE c.id IN (SELECT id FROM commissions WHERE program_id = ? AND review IN ('held', 'rejected') AND partner_id = ?
                     UNION
                     SELECT k.id FROM referrals r JOIN commissions k ON k.referral_id = r.id
                      WHERE r.program_id = ? AND r.review IN ('held', 'rejected') AND r.partner_id = ?)
        AND (c.created_at / ${BUCKET_SECONDS}) * ${BUCKET_SECONDS} >= ? AND (c.created_at / ${BUCKET_SECONDS}) * ${BUCKET_SECONDS} < ?
      GROUP BY c.currency`,
    [programId, partnerId, programId, partnerId, from, to],
  );
}
