// Submission bounties (docs/bounties.md): a partner submits proof within the bounty's
// limits, an owner approves it, which makes its commission through the one path, or rejects
// it with a reason. Each submission is decided once: the decision holds the submission's lock
// and moves it only from pending, so a second approval, here or in another process, makes no
// second commission. The portal's view of a partner's open bounties is here too.

import type { Db, Queryable } from '../platform/db/db.js';
import { fail } from '../platform/errors.js';
import { emit } from '../events/emit.js';
import { newCommission, recordCommission } from '../modules/commissions/ledger.js';
import type { BountyRow, SubmissionRow } from '../modules/bounties/model.js';
import { renderPartnerBounty, renderSubmission } from '../modules/bounties/present.js';
import * as bounties from '../modules/bounties/repo.js';
import {
  getBounty,
  getSubmission,
  newSubmission,
  openBounty,
  openFor,
  progressOf,
  type SubmissionInput,
} from '../modules/bounties/service.js';
import type { PartnershipRow } from '../modules/partnerships/model.js';
import { findPartnership } from '../modules/partnerships/service.js';
import { holdDaysOf } from '../modules/rewards/service.js';

const DAY = 86_400;

/** The partner's submission to an open bounty of their group; the owners hear of it. */
export async function submitToBounty(
  db: Db,
  partnership: PartnershipRow,
  bountyId: string,
  input: SubmissionInput,
  now: number,
): Promise<{ row: SubmissionRow; bounty: BountyRow }> {
  return db.transaction(async (tx) => {
    const bounty = await openBounty(tx, partnership.program_id, partnership.group_id, bountyId, now);
    // Counted and written under the partner's lock: two submissions at once cannot both pass the limit.
    await tx.lock(`bounty:${bounty.id}:${partnership.partner_id}`);
    const row = await newSubmission(tx, bounty, partnership, input, now);
    await emit(tx, bounty.program_id, 'bounty_submission.created', renderSubmission(row, bounty), now);
    return { row, bounty };
  });
}

export interface Decision {
  state: 'approved' | 'rejected';
  reject_reason?: string | null | undefined;
}

/** The owner's decision; the same decision again answers the submission as it is. */
export async function decideSubmission(
  db: Db,
  programId: string,
  bountyId: string,
  id: string,
  decision: Decision,
  now: number,
): Promise<{ row: SubmissionRow; bounty: BountyRow }> {
  if (decision.state === 'rejected' && !decision.reject_reason) {
    throw fail('missing_field', 'reject_reason is required to reject a submission', { field: 'reject_reason' });
  }
  if (decision.state === 'approved' && decision.reject_reason) {
    throw fail('invalid_field', 'reject_reason goes only with state rejected', { field: 'reject_reason' });
  }
  return db.transaction(async (tx) => {
    const bounty = await getBounty(tx, programId, bountyId);
    await getSubmission(tx, programId, bountyId, id);
    await tx.lock(`bounty-submission:${id}`);
    const row = await getSubmission(tx, programId, bountyId, id);
    if (row.state === decision.state) return { row, bounty };
    if (row.state !== 'pending') throw fail('invalid_transition', `the submission is ${row.state} already`, { field: 'state' });
    let commissionId: string | null = null;
    if (decision.state === 'approved') {
      const partnership = await findPartnership(tx, programId, row.partnership_id);
      const holdDays = partnership ? await holdDaysOf(tx, programId, partnership) : 0;
      const commission = newCommission(programId, row.partner_id, null, Number(bounty.amount), bounty.currency, now, {
        payable_at: now + holdDays * DAY,
        reward_description: `Bounty: ${bounty.name}`,
      });
      await recordCommission(tx, commission, now);
      commissionId = commission.id;
    }
    const change = {
      state: decision.state,
      reject_reason: decision.reject_reason ?? null,
      commission_id: commissionId,
      decided_at: now,
      updated_at: now,
    };
    if (!(await bounties.decide(tx, row, change)))
      throw fail('invalid_transition', 'the submission was decided meanwhile', { field: 'state' });
    const after = { ...row, ...change };
    await emit(tx, programId, 'bounty_submission.updated', renderSubmission(after, bounty), now);
    return { row: after, bounty };
  });
}

/** The open bounties of the partnership's group, with the partner's progress, award and submissions. */
export async function partnerBounties(db: Queryable, partnership: PartnershipRow, now: number) {
  const { program_id: programId, partner_id: partnerId } = partnership;
  const open = await openFor(db, programId, partnership.group_id, now);
  if (open.length === 0) return [];
  const awarded = new Set((await bounties.awardsOf(db, programId, partnerId)).map((a) => a.bounty_id));
  const submitted = await bounties.submissionsOf(db, programId, partnerId);
  const rendered = [];
  for (const b of open) {
    const mine = {
      progress: await progressOf(db, b, partnerId),
      awarded: awarded.has(b.id),
      submissions: submitted.filter((s) => s.bounty_id === b.id),
    };
    rendered.push(renderPartnerBounty(b, mine));
  }
  return rendered;
}
