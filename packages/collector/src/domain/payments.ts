// Payments: a referred customer paid the company. Each one earns the partner a pending
// commission at the partnership's rate, else the program's, and the first moves the
// referral from converted to paid. The company's idempotency_key makes retries safe.

import { createHash } from 'node:crypto';
import { ServiceError, fail, found } from '../errors.js';
import { UniqueViolation, type Db, type Queryable, type Tx } from '../store/db.js';
import * as commissions from '../store/commissions.js';
import type { CommissionRow } from '../store/commissions.js';
import * as partnerships from '../store/partnerships.js';
import * as payments from '../store/payments.js';
import type { PaymentRow } from '../store/payments.js';
import type { ProgramRow } from '../store/programs.js';
import * as referrals from '../store/referrals.js';
import type { ReferralRow } from '../store/referrals.js';
import { addDelta } from '../store/stats.js';
import { countOwed, getCommission, moveCommission, newCommission } from './commissions.js';
import { normalizeEmail } from './email.js';
import { uuidv7 } from './ids.js';
import { commissionAmount, currencyCode } from './money.js';

export interface PaymentInput {
  amount: number;
  currency: string;
  idempotency_key: string;
  referral_id?: string | undefined;
  referral_email?: string | undefined;
  referral_uid?: string | undefined;
}

export interface PaymentResult {
  payment: PaymentRow;
  commission: CommissionRow;
  /** False for a replay of an earlier request with the same key and body. */
  created: boolean;
}

/** The one way of naming the referral, checked here because the schema cannot say "exactly one". */
function selector(input: PaymentInput): [keyof PaymentInput, string] {
  const given = (['referral_id', 'referral_email', 'referral_uid'] as const).filter((k) => input[k] !== undefined);
  if (given.length === 0) {
    throw fail('missing_field', 'name the referral with one of referral_id, referral_email or referral_uid', {
      field: 'referral_id',
    });
  }
  if (given.length > 1) {
    throw fail('invalid_field', `name the referral one way only, not with ${given.join(' and ')}`, {
      field: given[1],
    });
  }
  const key = given[0]!;
  return [key, key === 'referral_email' ? normalizeEmail(input[key]!) : input[key]!];
}

async function findReferral(db: Queryable, programId: string, [by, value]: [keyof PaymentInput, string]) {
  const found =
    by === 'referral_id'
      ? await referrals.get(db, programId, value)
      : by === 'referral_email'
        ? await referrals.findByEmail(db, programId, value)
        : await referrals.findByUid(db, programId, value);
  if (!found) throw fail('unknown_referral', `no referral with that ${by.replace('referral_', '')}`, { field: by });
  return found;
}

async function replay(db: Queryable, payment: PaymentRow, hash: string): Promise<PaymentResult> {
  if (payment.request_hash !== hash) {
    throw fail('idempotency_conflict', 'this idempotency_key was used for a different payment', {
      field: 'idempotency_key',
      meta: { payment_id: payment.id },
    });
  }
  return { payment, commission: await getCommission(db, payment.program_id, payment.commission_id), created: false };
}

async function create(
  tx: Tx,
  program: ProgramRow,
  referral: ReferralRow,
  input: PaymentInput & { currency: string },
  hash: string,
  now: number,
): Promise<PaymentResult> {
  if (referral.state === 'rejected') {
    throw fail('invalid_transition', 'the referral is rejected: its payments earn no commission', {
      field: 'referral_id',
    });
  }
  const partnership = await partnerships.get(tx, program.id, referral.partnership_id);
  if (!partnership || partnership.state !== 'accepted') {
    throw fail('partnership_declined', `the referral's partnership is ${partnership?.state ?? 'gone'}, not accepted`);
  }
  const rate = partnership.commission_rate_bps ?? program.commission_rate_bps;
  const earned = commissionAmount(input.amount, rate);
  const commission = newCommission(program.id, referral.partner_id, referral.id, earned, input.currency, now);
  // The referral's first payment makes it a paying customer, in the statistics. Read, then
  // write: on PostgreSQL two payments of one referral at once would both find none before
  // them and count one customer twice, so the referral's payments take their turn here.
  await tx.lock(`payments:${referral.id}`);
  const first = !(await payments.existsForReferral(tx, referral.id));
  const payment: PaymentRow = {
    id: uuidv7(),
    program_id: program.id,
    idempotency_key: input.idempotency_key,
    request_hash: hash,
    referral_id: referral.id,
    commission_id: commission.id,
    amount: input.amount,
    currency: input.currency,
    first_of_referral: first ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
  await commissions.insert(tx, commission);
  await payments.insert(tx, payment);
  await addDelta(tx, {
    program_id: program.id,
    partner_id: referral.partner_id,
    at: now,
    currency: input.currency,
    payments: 1,
    customers: payment.first_of_referral,
    revenue: input.amount,
    commissions: earned,
  });
  await countOwed(tx, commission, 1);
  if (referral.state === 'converted') await referrals.move(tx, program.id, referral.id, 'converted', 'paid', now);
  return { payment, commission, created: true };
}

export async function recordPayment(db: Db, program: ProgramRow, input: PaymentInput, now: number): Promise<PaymentResult> {
  const currency = currencyCode(input.currency);
  const by = selector(input);
  // The request as understood: a replay must name the same referral, amount and currency.
  const hash = createHash('sha256').update(JSON.stringify([input.amount, currency, ...by])).digest('hex');
  try {
    return await db.transaction(async (tx) => {
      const earlier = await payments.findByKey(tx, program.id, input.idempotency_key);
      if (earlier) return replay(tx, earlier, hash);
      return create(tx, program, await findReferral(tx, program.id, by), { ...input, currency }, hash, now);
    });
  } catch (err) {
    // Another process committed the same key first: answer as a replay of its payment.
    if (!(err instanceof UniqueViolation)) throw err;
    const winner = await payments.findByKey(db, program.id, input.idempotency_key);
    if (!winner) throw err;
    return replay(db, winner, hash);
  }
}

/**
 * A refund rejects the payment's commission with reason "refunded". A refund of a refund
 * answers the same; a commission already paid out cannot be taken back here (no clawbacks).
 */
export async function refundPayment(db: Db, programId: string, paymentKey: string, now: number): Promise<CommissionRow> {
  return db.transaction(async (tx) => {
    const payment = await payments.findByKey(tx, programId, paymentKey);
    if (!payment) throw fail('invalid_field', 'no payment with that payment_id (its idempotency_key)', { field: 'payment_id' });
    const refunded = (c: CommissionRow) => c.state === 'rejected' && c.reject_reason === 'refunded';
    const commission = await getCommission(tx, programId, payment.commission_id);
    if (refunded(commission)) return commission;
    try {
      return await moveCommission(tx, commission, 'rejected', 'refunded', now);
    } catch (err) {
      // The same refund, sent to another process at the same moment, won: answer as it did.
      // Only a refused move is that; a database error ends the transaction as it is.
      if (!(err instanceof ServiceError) || err.code !== 'invalid_transition') throw err;
      const current = await getCommission(tx, programId, payment.commission_id);
      if (refunded(current)) return current;
      throw err;
    }
  });
}
