// The domain's reactions to its own events (events/emit.ts), registered by the composition
// root: a partner's group moves when a commission, or an approval, raises the totals its
// rules weigh; a partnership just accepted gets the program's automatic code; a payout batch
// marked paid gets its partners' invoices, and a paid payout returned a credit note. The modules that emit know nothing of these.

import type { Queryable } from '../platform/db/db.js';
import type { Reaction } from '../events/emit.js';
import type { DomainEvent } from '../events/types.js';
import { applyMoveRules, programHasMoveRules, hasMoveRules } from './group-moves.js';
import { autoCode } from '../modules/codes/service.js';
import { findPartnership, partnershipOfPartner } from '../modules/partnerships/service.js';
import { findProgram } from '../modules/programs/service.js';
import { invoicesForBatch } from './invoice-issue.js';
import { creditPayout } from './credit-notes.js';

/** The partnership whose totals the event may raise, or null. */
function raised(e: DomainEvent): { partnerId?: string; partnershipId?: string } | null {
  switch (e.type) {
    case 'commission.created':
      // A clawback only lowers the totals, and rules only ever move up.
      return e.data.attributes.clawback_of ? null : { partnerId: e.data.attributes.partner_id };
    case 'commission.updated': {
      // Approved money counts from now on (held money does not).
      const a = e.data.attributes;
      return a.review === 'approved' && a.state === 'pending' ? { partnerId: a.partner_id } : null;
    }
    case 'referral.updated':
      return e.data.attributes.review === 'approved' ? { partnershipId: e.data.relationships.partnership.data.id } : null;
    default:
      return null;
  }
}

export const moveRules: Reaction = {
  // The program's groups and rules are kept in memory: a program without rules pays nothing.
  wants: async (db, e) => raised(e) !== null && (await programHasMoveRules(db, e.programId)),
  async run(tx, e) {
    const which = raised(e)!;
    const partnership = which.partnershipId
      ? await findPartnership(tx, e.programId, which.partnershipId)
      : await partnershipOfPartner(tx, e.programId, which.partnerId!);
    if (partnership && (await hasMoveRules(tx, e.programId, partnership.group_id))) {
      await applyMoveRules(tx, e.programId, partnership.id, e.at);
    }
  },
};

/** Accepted by this very change (created accepted, or moved to accepted now). */
const justAccepted = (e: DomainEvent): boolean =>
  (e.type === 'partnership.created' || e.type === 'partnership.updated') &&
  e.data.attributes.state === 'accepted' &&
  (e.type === 'partnership.created' || e.data.attributes.state_set_at === e.data.attributes.updated_at);

export const automaticCodes: Reaction = {
  wants: async (_db: Queryable, e) => justAccepted(e),
  async run(tx, e) {
    const program = await findProgram(tx, e.programId);
    const key = e.data.attributes.key;
    if (program && typeof key === 'string') await autoCode(tx, program, { id: e.data.id, key }, e.at);
  },
};

export const payoutInvoices: Reaction = {
  // A marked-paid batch, or a run's payout: each run item is a payout_batches row of the same id, paid before its event.
  wants: async (_db: Queryable, e) => e.type === 'payout.paid' && (e.data.type === 'payout_batch' || e.data.type === 'payout'),
  async run(tx, e) {
    await invoicesForBatch(tx, e.programId, e.data.id, e.at);
  },
};

export const payoutCreditNotes: Reaction = {
  // A run's payout returned (PayPal's RETURNED, a Stripe transfer reversed whole, Wise's bounce): what is left of its invoice is credited.
  wants: async (_db: Queryable, e) => e.type === 'payout.failed' && e.data.attributes.state === 'returned',
  async run(tx, e) {
    const a = e.data.attributes;
    const reason = `the payment provider returned the payout (${typeof a.reason === 'string' ? a.reason : 'returned'})`;
    await creditPayout(
      tx,
      e.programId,
      { id: e.data.id, partner_id: String(a.partner_id) },
      { cause: 'returned', amount: 'rest', reason },
      e.at,
    );
  },
};
