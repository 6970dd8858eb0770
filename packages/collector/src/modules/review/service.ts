// An owner's decision about a held referral (docs/review.md): approve (its money becomes
// payable as usual), reject it with a reason, or ban its partner (every pending commission
// rejected, the partnership declined, so the link and codes credit nothing more). Each
// decision is recorded with who made it and when, and told to the program's webhooks.

import { fail, found } from '../../platform/errors.js';
import type { Db, Tx } from '../../platform/db/db.js';
import { uuidv7 } from '../../core/ids.js';
import * as commissions from '../commissions/repo.js';
import { moveCommission } from '../commissions/service.js';
import { renderCommission } from '../commissions/present.js';
import * as referrals from '../referrals/repo.js';
import { renderReferral } from '../referrals/present.js';
import { updatePartnership } from '../partnerships/service.js';
import { emit } from '../webhooks/events.js';
import * as review from './repo.js';
import type { Decision, DecisionRow } from './repo.js';
import { renderDecision } from './present.js';

export interface DecisionInput {
  referral_id: string;
  decision: Decision;
  reason: string;
}

export async function decide(db: Db, programId: string, input: DecisionInput, decidedBy: string, now: number): Promise<DecisionRow> {
  const row = await db.transaction(async (tx) => {
    const referral = found(await referrals.get(tx, programId, input.referral_id), 'referral', input.referral_id);
    if (input.decision !== 'ban' && referral.review !== 'held') {
      throw fail(
        'invalid_transition',
        `the referral is ${referral.review ? referral.review : 'not held'}: only a held one is approved or rejected`,
        {
          field: 'referral_id',
        },
      );
    }
    const decision: DecisionRow = {
      id: uuidv7(),
      program_id: programId,
      referral_id: referral.id,
      partner_id: referral.partner_id,
      decision: input.decision,
      reason: input.reason.trim(),
      decided_by: decidedBy,
      created_at: now,
    };
    if (input.decision === 'approve') await approve(tx, referral, now);
    else
      await reject(tx, referral, input.decision === 'ban' ? `banned: ${decision.reason}` : decision.reason, now, input.decision === 'ban');
    await review.insertDecision(tx, decision);
    await emit(tx, programId, 'review.decided', renderDecision(decision), now);
    return decision;
  });
  // The partnership is declined through its own rules (its codes disabled, its link dead), in a transaction of its own.
  if (input.decision === 'ban') {
    const ref = await referrals.get(db, programId, input.referral_id);
    if (ref) await updatePartnership(db, programId, ref.partnership_id, { state: 'declined' }, now).catch(declinedAlready);
  }
  return row;
}

/** A ban of a partnership declined already changes nothing more there. */
function declinedAlready(err: unknown): void {
  if (err instanceof Error && 'code' in err && (err as { code: string }).code === 'invalid_transition') return;
  throw err;
}

async function approve(tx: Tx, referral: referrals.ReferralRow, now: number): Promise<void> {
  await review.setReferralReview(tx, referral.program_id, referral.id, 'approved', now);
  await emit(tx, referral.program_id, 'referral.updated', renderReferral({ ...referral, review: 'approved', updated_at: now }), now);
  for (const c of await review.heldCommissions(tx, referral.program_id, referral.id)) {
    await review.setCommissionReview(tx, c.program_id, c.id, 'approved', now);
    await emit(tx, c.program_id, 'commission.updated', renderCommission({ ...c, review: 'approved', updated_at: now }), now);
  }
}

/** Rejects the referral's held commissions (a ban: every pending one of its partner), each with the reason. */
async function reject(tx: Tx, referral: referrals.ReferralRow, reason: string, now: number, ban: boolean): Promise<void> {
  await review.setReferralReview(tx, referral.program_id, referral.id, 'rejected', now);
  if (referral.state !== 'rejected') await referrals.move(tx, referral.program_id, referral.id, referral.state, 'rejected', now);
  const fresh = (await referrals.get(tx, referral.program_id, referral.id)) ?? referral;
  await emit(tx, referral.program_id, 'referral.updated', renderReferral(fresh), now);
  const held = await review.heldCommissions(tx, referral.program_id, referral.id);
  const pending = ban ? await review.pendingOfPartner(tx, referral.program_id, referral.partner_id) : [];
  const all = new Map([...held, ...pending].map((c) => [c.id, c]));
  for (const c of all.values()) {
    if (c.review === 'held') await review.setCommissionReview(tx, c.program_id, c.id, 'rejected', now);
    const current = (await commissions.get(tx, c.program_id, c.id)) ?? c;
    if (current.state === 'pending') await moveCommission(tx, current, 'rejected', reason, now);
  }
}
