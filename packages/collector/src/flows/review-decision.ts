// An owner's decision about held money (docs/review.md): a held referral, or a commission
// held by a signal of its own (an e-mail match, a refund rate, a quick payment). Approve
// (the money becomes payable as usual, and counts toward the partner's totals from then),
// reject it with a reason, or ban its partner (every pending commission rejected, the
// partnership ended, so the link and codes credit nothing more). Each decision is recorded
// with who made it and when, and told to the program's webhooks.

import { fail, found } from '../platform/errors.js';
import type { Db, Tx } from '../platform/db/db.js';
import { uuidv7 } from '../core/ids.js';
import * as commissions from '../modules/commissions/repo.js';
import type { CommissionRow } from '../modules/commissions/model.js';
import { approvedCommission, moveCommission } from '../modules/commissions/ledger.js';
import * as partnerships from '../modules/partnerships/repo.js';
import { changeIn, partnershipEnded } from './partnership.js';
import type { ProgramRow } from '../modules/programs/model.js';
import * as referrals from '../modules/referrals/repo.js';
import type { ReferralRow } from '../modules/referrals/repo.js';
import { renderReferral } from '../modules/referrals/present.js';
import { emit } from '../events/emit.js';
import * as review from '../modules/review/repo.js';
import type { Decision, DecisionRow } from '../modules/review/repo.js';
import { renderDecision } from '../modules/review/present.js';

export interface DecisionInput {
  /** The held referral decided about; or */
  referral_id?: string | undefined;
  /** the held commission (held by a signal of its own, or as its referral was). */
  commission_id?: string | undefined;
  decision: Decision;
  reason: string;
}

/** What a decision is about, read under the partner's lock. */
type Subject = { kind: 'referral'; referral: ReferralRow } | { kind: 'commission'; commission: CommissionRow };

const notHeld = (what: string, review: string | null, field: string) =>
  fail('invalid_transition', `the ${what} is ${review ? review : 'not held'}: only a held one is approved or rejected`, { field });

export async function decide(
  db: Db,
  program: ProgramRow,
  input: DecisionInput,
  decidedBy: string,
  now: number,
  stripeApiUrl: string | undefined,
): Promise<DecisionRow> {
  if (input.referral_id === undefined && input.commission_id === undefined) {
    throw fail('missing_field', 'name the referral_id or the commission_id decided about', { field: 'referral_id' });
  }
  if (input.referral_id !== undefined && input.commission_id !== undefined) {
    throw fail('invalid_field', 'a decision is about a referral or a commission, not both', { field: 'commission_id' });
  }
  let banned: string | undefined;
  const row = await db.transaction(async (tx) => {
    const subject = await subjectOf(tx, program.id, input);
    const partnerId = subject.kind === 'referral' ? subject.referral.partner_id : subject.commission.partner_id;
    const decision: DecisionRow = {
      id: uuidv7(),
      program_id: program.id,
      referral_id: subject.kind === 'referral' ? subject.referral.id : subject.commission.referral_id,
      commission_id: subject.kind === 'commission' ? subject.commission.id : null,
      partner_id: partnerId,
      decision: input.decision,
      reason: input.reason.trim(),
      decided_by: decidedBy,
      created_at: now,
    };
    // A ban declines the partnership first: its UPDATE waits for a payment crediting it
    // (partnerships.getToCredit) to commit, so what follows sees that payment's commission,
    // and a later payment finds the partnership declined.
    if (input.decision === 'ban') banned = await declineFor(tx, program.id, partnerId, now);
    const reason = input.decision === 'ban' ? `banned: ${decision.reason}` : decision.reason;
    if (subject.kind === 'referral') {
      if (input.decision === 'approve') await approveReferral(tx, subject.referral, now);
      else await rejectReferral(tx, subject.referral, reason, now, input.decision === 'ban');
    } else if (input.decision === 'approve') await approveCommission(tx, subject.commission, now);
    else await rejectCommission(tx, subject.commission, reason, now, input.decision !== 'ban');
    if (input.decision === 'ban') await rejectPendingOf(tx, program.id, partnerId, reason, now);
    await review.insertDecision(tx, decision);
    await emit(tx, program.id, 'review.decided', renderDecision(decision), now);
    return decision;
  });
  // The partnership ends as every partnership ends (its codes disabled, in Stripe too), once the decision is committed.
  if (banned !== undefined) await partnershipEnded(db, program, banned, now, stripeApiUrl);
  return row;
}

/** The partner's partnership declined (if it was not), and its id: what ends after the commit. */
async function declineFor(tx: Tx, programId: string, partnerId: string, now: number): Promise<string | undefined> {
  const partnership = await partnerships.getByPartner(tx, programId, partnerId);
  if (partnership && partnership.state !== 'declined') await changeIn(tx, programId, partnership.id, { state: 'declined' }, now);
  return partnership?.id;
}

/**
 * The referral or commission, read again after taking the partner's turn: decisions about
 * one partner's money (and a ban, which rejects all of it) run one at a time, so two at
 * once cannot both find it held. On SQLite one writer holds the database anyway.
 */
async function subjectOf(tx: Tx, programId: string, input: DecisionInput): Promise<Subject> {
  const read = async (): Promise<Subject> =>
    input.referral_id !== undefined
      ? { kind: 'referral', referral: found(await referrals.get(tx, programId, input.referral_id), 'referral', input.referral_id) }
      : {
          kind: 'commission',
          commission: found(await commissions.get(tx, programId, input.commission_id ?? ''), 'commission', input.commission_id ?? ''),
        };
  const first = await read();
  await tx.lock(`review:${first.kind === 'referral' ? first.referral.partner_id : first.commission.partner_id}`);
  const subject = await read();
  if (input.decision === 'ban') return subject;
  if (subject.kind === 'referral' && subject.referral.review !== 'held') throw notHeld('referral', subject.referral.review, 'referral_id');
  if (subject.kind === 'commission' && subject.commission.review !== 'held') {
    throw notHeld('commission', subject.commission.review, 'commission_id');
  }
  return subject;
}

async function approveReferral(tx: Tx, referral: ReferralRow, now: number): Promise<void> {
  if (!(await review.decideHeld(tx, 'referrals', referral.program_id, referral.id, 'approved', now))) {
    throw notHeld('referral', 'decided meanwhile', 'referral_id');
  }
  await emit(tx, referral.program_id, 'referral.updated', renderReferral({ ...referral, review: 'approved', updated_at: now }), now);
  for (const c of await review.heldCommissions(tx, referral.program_id, referral.id)) await approveHeld(tx, c, now);
}

async function approveCommission(tx: Tx, commission: CommissionRow, now: number): Promise<void> {
  if (!(await approveHeld(tx, commission, now))) throw notHeld('commission', 'decided meanwhile', 'commission_id');
}

/** A held commission approved, in one conditional statement; false when it was decided meanwhile. */
async function approveHeld(tx: Tx, c: CommissionRow, now: number): Promise<boolean> {
  if (!(await review.decideHeld(tx, 'commissions', c.program_id, c.id, 'approved', now))) return false;
  await approvedCommission(tx, c, now);
  return true;
}

/** A rejected referral (or a banned partner's): it and its held commissions rejected, each with the reason. */
async function rejectReferral(tx: Tx, referral: ReferralRow, reason: string, now: number, ban: boolean): Promise<void> {
  if (ban) await review.setReferralReview(tx, referral.program_id, referral.id, 'rejected', now);
  else if (!(await review.decideHeld(tx, 'referrals', referral.program_id, referral.id, 'rejected', now))) {
    throw notHeld('referral', 'decided meanwhile', 'referral_id');
  }
  if (referral.state !== 'rejected') await referrals.move(tx, referral.program_id, referral.id, referral.state, 'rejected', now);
  const fresh = (await referrals.get(tx, referral.program_id, referral.id)) ?? referral;
  await emit(tx, referral.program_id, 'referral.updated', renderReferral(fresh), now);
  for (const c of await review.heldCommissions(tx, referral.program_id, referral.id)) await rejectCommission(tx, c, reason, now, false);
}

/** A held commission rejected with the reason: its review first, in one conditional statement, then its state. */
async function rejectCommission(tx: Tx, c: CommissionRow, reason: string, now: number, strict: boolean): Promise<void> {
  const decided = c.review === 'held' && (await review.decideHeld(tx, 'commissions', c.program_id, c.id, 'rejected', now));
  if (strict && !decided) throw notHeld('commission', 'decided meanwhile', 'commission_id');
  const current = (await commissions.get(tx, c.program_id, c.id)) ?? c;
  if (current.state === 'pending') await moveCommission(tx, current, 'rejected', reason, now);
}

/** A ban: every pending commission of the partner in the program that no open batch holds is rejected. */
async function rejectPendingOf(tx: Tx, programId: string, partnerId: string, reason: string, now: number): Promise<void> {
  for (const c of await review.pendingOfPartner(tx, programId, partnerId)) await rejectCommission(tx, c, reason, now, false);
}
