// Commissions: what a partner earned, pending until it is paid or rejected.

import { fail, found } from '../platform/errors.js';
import type { Db, Queryable } from '../platform/db/db.js';
import * as commissions from '../modules/commissions/repo.js';
import type { CommissionRow, CommissionState } from '../modules/commissions/model.js';
import * as partners from '../modules/partners/repo.js';
import * as payments from '../modules/payments/repo.js';
import * as referrals from '../modules/referrals/repo.js';
import { refundRevenue } from '../modules/payments/revenue.js';
import { currencyCode } from '../core/money.js';
import { moveCommission, newCommission, recordCommission } from '../modules/commissions/ledger.js';

export interface NewCommission {
  partner_id: string;
  amount: number;
  currency: string;
  referral_id?: string | null | undefined;
}

export async function getCommission(db: Queryable, programId: string, id: string): Promise<CommissionRow> {
  return found(await commissions.get(db, programId, id), 'commission', id);
}

/** A one-off commission, entered by hand. */
export async function createCommission(db: Db, programId: string, input: NewCommission, now: number): Promise<CommissionRow> {
  const currency = currencyCode(input.currency);
  return db.transaction(async (tx) => {
    if (!(await partners.get(tx, programId, input.partner_id))) {
      throw fail('unknown_partner', `no partner ${input.partner_id}`, { field: 'partner_id' });
    }
    if (input.referral_id) {
      const referral = await referrals.get(tx, programId, input.referral_id);
      if (!referral) throw fail('unknown_referral', `no referral ${input.referral_id}`, { field: 'referral_id' });
      if (referral.partner_id !== input.partner_id) {
        throw fail('invalid_field', 'that referral belongs to another partner', { field: 'referral_id' });
      }
    }
    return recordCommission(tx, newCommission(programId, input.partner_id, input.referral_id ?? null, input.amount, currency, now), now);
  });
}

export async function updateCommission(
  db: Db,
  programId: string,
  id: string,
  change: { state: CommissionState; reject_reason?: string | null | undefined },
  now: number,
): Promise<CommissionRow> {
  if (change.state === 'rejected' && !change.reject_reason) {
    throw fail('missing_field', 'reject_reason is required to reject a commission', { field: 'reject_reason' });
  }
  if (change.state !== 'rejected' && change.reject_reason) {
    throw fail('invalid_field', 'reject_reason goes only with state rejected', { field: 'reject_reason' });
  }
  return db.transaction(async (tx) => {
    const row = await getCommission(tx, programId, id);
    // Held money is paid only once an owner approved it (modules/review).
    if (change.state === 'paid' && row.review === 'held') {
      throw fail('invalid_transition', 'the commission is held for review: approve it, or its referral, in Review first', {
        field: 'state',
      });
    }
    const after = await moveCommission(tx, row, change.state, change.reject_reason ?? null, now);
    // Rejected as refunded by hand: the whole payment is refunded, as POST /v1/refunds says.
    const payment = change.reject_reason === 'refunded' ? await payments.findByCommission(tx, row.id) : undefined;
    if (payment) await refundRevenue(tx, payment, row.partner_id, payment.gross, now);
    return after;
  });
}
