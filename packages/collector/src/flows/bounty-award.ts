// Performance bounties awarded as the partner's records change (docs/bounties.md): a
// reaction to the events that add to what a bounty counts (a sale's commission, a sign-up,
// an approval after review), at the end of the change's transaction so the payment is
// counted with its commission. Awarded once per partner and bounty: the partner's lock makes
// a second process wait and then see the first's records and award, and bounty_awards' key
// refuses a second award whatever happens.

import type { Queryable, Tx } from '../platform/db/db.js';
import { fail } from '../platform/errors.js';
import type { Reaction } from '../events/emit.js';
import { emit } from '../events/emit.js';
import type { DomainEvent } from '../events/types.js';
import { newCommission, recordCommission } from '../modules/commissions/ledger.js';
import type { BountyRow } from '../modules/bounties/model.js';
import { coversGroup, isOpen } from '../modules/bounties/model.js';
import { renderAward } from '../modules/bounties/present.js';
import * as bounties from '../modules/bounties/repo.js';
import { groupIdOf, programBounties } from '../modules/bounties/service.js';
import type { PartnershipRow } from '../modules/partnerships/model.js';
import { findPartnership, partnershipOfPartner } from '../modules/partnerships/service.js';
import { holdDaysOf } from '../modules/rewards/service.js';

const DAY = 86_400;

/** The partner whose counted records the event may raise, or null. */
function counted(e: DomainEvent): { partnerId?: string; partnershipId?: string } | null {
  switch (e.type) {
    case 'commission.created': {
      const a = e.data.attributes;
      return a.clawback_of || a.review === 'held' ? null : { partnerId: a.partner_id };
    }
    case 'commission.updated': {
      const a = e.data.attributes;
      return a.review === 'approved' && a.state === 'pending' ? { partnerId: a.partner_id } : null;
    }
    case 'referral.created':
      return e.data.attributes.review === 'held' ? null : { partnershipId: e.data.relationships.partnership.data.id };
    case 'referral.updated':
      return e.data.attributes.review === 'approved' ? { partnershipId: e.data.relationships.partnership.data.id } : null;
    default:
      return null;
  }
}

const performanceOpen = async (db: Queryable, programId: string, at: number): Promise<BountyRow[]> =>
  (await programBounties(db, programId)).filter((b) => b.kind === 'performance' && isOpen(b, at));

/** Awards the bounty to the partnership's partner if their records reach its target and it is not theirs already. */
export async function awardIfReached(tx: Tx, bounty: BountyRow, partnership: PartnershipRow, now: number): Promise<boolean> {
  const partnerId = partnership.partner_id;
  await tx.lock(`bounty:${bounty.id}:${partnerId}`);
  if (await bounties.award(tx, bounty.id, partnerId)) return false;
  const progress = await bounties.measure(tx, bounty, partnerId);
  if (progress < Number(bounty.target)) return false;
  const row = newCommission(bounty.program_id, partnerId, null, Number(bounty.amount), bounty.currency, now, {
    payable_at: now + (await holdDaysOf(tx, bounty.program_id, partnership)) * DAY,
    reward_description: `Bounty: ${bounty.name}`,
  });
  await recordCommission(tx, row, now);
  const award = {
    bounty_id: bounty.id,
    partner_id: partnerId,
    program_id: bounty.program_id,
    commission_id: row.id,
    progress,
    created_at: now,
  };
  // The lock above makes this unreachable; the key is what holds if it ever is not.
  if (!(await bounties.insertAward(tx, award))) throw fail('conflict', 'the bounty was awarded meanwhile');
  await emit(tx, bounty.program_id, 'bounty.awarded', renderAward(award, bounty), now);
  return true;
}

export const bountyAwards: Reaction = {
  // The program's bounties are in memory: a program without an open performance bounty pays nothing for this.
  wants: async (db, e) => counted(e) !== null && (await performanceOpen(db, e.programId, e.at)).length > 0,
  async run(tx, e) {
    const which = counted(e)!;
    const partnership = which.partnershipId
      ? await findPartnership(tx, e.programId, which.partnershipId)
      : await partnershipOfPartner(tx, e.programId, which.partnerId!);
    if (partnership?.state !== 'accepted') return;
    const group = await groupIdOf(tx, e.programId, partnership.group_id);
    for (const bounty of await performanceOpen(tx, e.programId, e.at)) {
      if (coversGroup(bounty, group)) await awardIfReached(tx, bounty, partnership, e.at);
    }
  },
};
