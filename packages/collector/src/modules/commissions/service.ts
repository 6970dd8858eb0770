// Commissions: what a partner earned, pending until it is paid or rejected.

import { fail, found } from '../../platform/errors.js';
import type { Db, Queryable } from '../../platform/db/db.js';
import * as commissions from './repo.js';
import type { CommissionRow, CommissionState } from './repo.js';
import * as partners from '../partners/repo.js';
import * as payments from '../payments/repo.js';
import { addDelta, NOW } from '../../events/deltas.js';
import * as referrals from '../referrals/repo.js';
import { uuidv7 } from '../../core/ids.js';
import { refundRevenue } from '../payments/revenue.js';
import { currencyCode } from '../../core/money.js';
import { assertMove } from '../../core/state-machines.js';
import { renderCommission } from './present.js';
import * as partnerships from '../partnerships/repo.js';
import { applyMoveRules, hasMoveRules } from '../rewards/groups.js';
import { emit } from '../../events/emit.js';
import type { Known } from '../../events/types.js';

export interface NewCommission {
  partner_id: string;
  amount: number;
  currency: string;
  referral_id?: string | null | undefined;
}

export async function getCommission(db: Queryable, programId: string, id: string): Promise<CommissionRow> {
  return found(await commissions.get(db, programId, id), 'commission', id);
}

/** A new commission: pending and payable now, unless `more` says otherwise. */
export function newCommission(
  programId: string,
  partnerId: string,
  referralId: string | null,
  amount: number,
  currency: string,
  now: number,
  more: Partial<
    Pick<
      CommissionRow,
      'payable_at' | 'clawback_of' | 'state' | 'reject_reason' | 'reward_id' | 'reward_description' | 'review' | 'review_reasons'
    >
  > = {},
): CommissionRow {
  return {
    id: uuidv7(),
    program_id: programId,
    partner_id: partnerId,
    referral_id: referralId,
    amount,
    currency,
    state: 'pending',
    reject_reason: null,
    payable_at: now,
    on_hold: 0,
    clawback_of: null,
    reward_id: null,
    reward_description: null,
    review: null,
    review_reasons: null,
    payout_batch_id: null,
    state_set_at: now,
    paid_at: null,
    created_at: now,
    updated_at: now,
    ...more,
  };
}

/**
 * Writes a new commission in the caller's transaction with what it counts (earned in the
 * period of its creation unless rejected, owed while pending) and its commission.created.
 * `known.history`: imported, so the event reaches webhooks but sends no e-mail.
 */
export async function recordCommission(tx: Queryable, row: CommissionRow, now: number, known: Known = {}): Promise<void> {
  await commissions.insert(tx, row);
  const { program_id, partner_id, currency } = row;
  if (row.state !== 'rejected') await addDelta(tx, { program_id, partner_id, at: row.created_at, currency, commissions: row.amount });
  if (row.state === 'pending') await countOwed(tx, row, 1);
  await emit(tx, program_id, 'commission.created', renderCommission(row), now, known);
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
    const row = newCommission(programId, input.partner_id, input.referral_id ?? null, input.amount, currency, now);
    await recordCommission(tx, row, now);
    const partnership = await partnerships.getByPartner(tx, programId, row.partner_id);
    if (partnership && (await hasMoveRules(tx, programId, partnership.group_id))) await applyMoveRules(tx, programId, partnership.id, now);
    return row;
  });
}

/**
 * Moves a commission by the state machine: pending → paid (sets paid_at) or
 * pending → rejected (sets reject_reason). The update is conditional on the state read,
 * so a concurrent move makes this one fail instead of overwriting it.
 */
export async function moveCommission(
  db: Queryable,
  row: CommissionRow,
  to: CommissionState,
  rejectReason: string | null,
  now: number,
): Promise<CommissionRow> {
  assertMove('commission', row.state, to);
  const moved = {
    state: to,
    reject_reason: to === 'rejected' ? rejectReason : null,
    paid_at: to === 'paid' ? now : null,
    // Never before creation, even after the clock stepped back (platform/db/list.ts relies on it).
    state_set_at: Math.max(now, row.created_at),
    updated_at: now,
  };
  const result = await commissions.move(db, row.program_id, row.id, row.state, moved);
  if (!result) throw fail('invalid_transition', 'the commission changed state meanwhile; read it again', { field: 'state' });
  // Its batch's PayPal file pays it: paid by hand too, it would be paid twice. Read by the
  // update itself, so an export in between is seen too; throwing rolls the move back.
  if (to === 'paid' && result.batch !== null) {
    throw fail(
      'invalid_transition',
      `payout batch ${result.batch} holds the commission: mark the batch paid (tally payouts mark-paid, or Payouts in the dashboard) or cancel it (tally payouts cancel) first`,
      { field: 'state' },
    );
  }
  if (to === 'rejected') await uncountRejected(db, row, rejectReason, now);
  // Out of pending: no longer owed, unless a batch held it, which took it out already.
  if (row.state === 'pending' && result.batch === null) await countOwed(db, row, -1);
  const after = { ...row, ...moved };
  await emit(db, row.program_id, 'commission.updated', renderCommission(after), now);
  return after;
}

/** A pending commission that no batch holds is owed: `sign` 1 when it becomes so, -1 when it stops. */
export function countOwed(
  db: Queryable,
  c: Pick<CommissionRow, 'program_id' | 'partner_id' | 'currency' | 'amount'>,
  sign: 1 | -1,
): Promise<void> {
  return addDelta(db, { program_id: c.program_id, partner_id: c.partner_id, at: NOW, currency: c.currency, owed: sign * c.amount });
}

/**
 * A rejected commission no longer counts as earned; a refunded one takes its payment out
 * of revenue too. Both stay where they were counted: in the buckets of their creation.
 */
async function uncountRejected(db: Queryable, row: CommissionRow, reason: string | null, now: number): Promise<void> {
  const base = { program_id: row.program_id, partner_id: row.partner_id, currency: row.currency };
  await addDelta(db, { ...base, at: row.created_at, commissions: -row.amount });
  // Rejected as refunded by hand (PATCH): the whole payment is refunded, as POST /v1/refunds says.
  const payment = reason === 'refunded' ? await payments.findByCommission(db, row.id) : undefined;
  if (payment) await refundRevenue(db, payment, row.partner_id, payment.gross, now);
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
    return moveCommission(tx, row, change.state, change.reject_reason ?? null, now);
  });
}
