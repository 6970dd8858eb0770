// Payments: a referred customer paid the company. Each one earns the partner a pending
// commission at the partnership's rate, else the program's, and the first moves the
// referral from converted to paid. The company's idempotency_key makes retries safe.

import { firstPaymentFlags, heldWith, refundRateFlags } from './review-hold.js';
import type { Flag } from '../modules/review/signals.js';
import { createHash } from 'node:crypto';
import { fail } from '../platform/errors.js';
import { UniqueViolation, type Db, type Queryable, type Tx } from '../platform/db/db.js';
import type { CommissionRow } from '../modules/commissions/model.js';
import * as partnerships from '../modules/partnerships/repo.js';
import * as payments from '../modules/payments/repo.js';
import type { PaymentRow } from '../modules/payments/repo.js';
import type { ProgramRow } from '../modules/programs/model.js';
import * as referrals from '../modules/referrals/repo.js';
import type { ReferralRow } from '../modules/referrals/repo.js';
import { addDelta } from '../events/deltas.js';
import { getCommission } from './commission-entry.js';
import { newCommission, recordCommission } from '../modules/commissions/ledger.js';
import { normalizeEmail, sameMailboxAsAny } from '../core/email.js';
import { uuidv7 } from '../core/ids.js';
import { payableAt, rulesFor } from '../core/payout-terms.js';
import { type CodeCredit, codeUsed, creditedByCode } from '../modules/codes/service.js';
import { convertIn } from './conversion.js';
import type { PartnershipRow } from '../modules/partnerships/model.js';
import { earnSale, groupRules } from '../modules/rewards/service.js';
import { currencyCode, shareOf } from '../core/money.js';
import { applyRefund, type RefundResult } from './refund.js';
import { renderCommission } from '../modules/commissions/present.js';
import { renderPayment } from '../modules/payments/present.js';
import { renderReferral } from '../modules/referrals/present.js';
import { emit } from '../events/emit.js';

export interface PaymentInput {
  amount: number;
  currency: string;
  idempotency_key: string;
  referral_id?: string | undefined;
  referral_email?: string | undefined;
  referral_uid?: string | undefined;
  /** What was bought and from where, for rewards with conditions on them. */
  product_id?: string | undefined;
  price_id?: string | undefined;
  customer_country?: string | undefined;
  metadata?: Record<string, string> | undefined;
  /** A promotion code the customer used: it credits its partner where no referral does (modules/codes). */
  discount_code?: string | undefined;
}

/** A payment as the domain records it, however it arrived (the API, Stripe). */
export interface NewPayment {
  idempotency_key: string;
  amount: number;
  currency: string;
  /** When the customer paid; the request's time when not given. */
  occurred_at?: number | undefined;
  /** The charge, tax included, that refunds are shares of; the amount when not given. */
  gross?: number | undefined;
  /** What was bought, for rewards with conditions on them (Stripe's line items, or the API's product_id and price_id). */
  product_ids?: readonly string[] | undefined;
  price_ids?: readonly string[] | undefined;
  /** The customer's country (ISO 3166 alpha-2) when known. */
  customer_country?: string | null | undefined;
  /** The payment's metadata, for rewards with conditions on its keys. */
  metadata?: Readonly<Record<string, string>> | undefined;
  /** The promotion code that credited it. */
  discount_code_id?: string | undefined;
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

/**
 * The referral a payment credits, and the partnership it pays when a code wins over it.
 * A customer with no referral who used a code becomes the code's partner's referral (by
 * e-mail: the record needs one). A referred customer who used another partner's code stays
 * the referral's, unless the program lets the code win (code_wins); a partner's own code
 * is refused as a self-referral.
 */
async function referralOf(
  tx: Tx,
  program: ProgramRow,
  by: [keyof PaymentInput, string],
  input: PaymentInput,
  code: CodeCredit | undefined,
  now: number,
): Promise<{ referral: ReferralRow; creditTo?: PartnershipRow }> {
  const found = await findReferral(tx, program.id, by).catch((err: unknown) => {
    if (code && by[0] === 'referral_email') return undefined;
    throw err;
  });
  if (!found) {
    const made = await convertIn(
      tx,
      program.id,
      {
        email: input.referral_email!,
        gr_id: `code:${code!.code_id}`,
        discount_code: input.discount_code,
        customer_country: input.customer_country,
        metadata: input.metadata,
      },
      now,
    );
    return { referral: made.referral };
  }
  if (!code || code.id === found.partnership_id || program.code_wins !== 1) return { referral: found };
  if (sameMailboxAsAny(found.email, [code.partner_email_norm, code.partner_paypal_email_norm])) {
    throw fail('self_referral', 'a partner cannot refer themself', { field: 'discount_code' });
  }
  return { referral: found, creditTo: code };
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

/**
 * Records the payment and what it earned, in the caller's transaction. Beyond the
 * partnership's recurring limit the payment still counts (revenue, a paying customer) but
 * earns nothing: its commission is made rejected, at zero, saying why, so the owner sees it.
 */
export async function creditPayment(
  tx: Tx,
  program: ProgramRow,
  referral: ReferralRow,
  input: NewPayment,
  hash: string,
  now: number,
  creditTo?: PartnershipRow,
  flags: readonly Flag[] = [],
): Promise<PaymentResult> {
  if (referral.state === 'rejected') {
    throw fail('invalid_transition', 'the referral is rejected: its payments earn no commission', {
      field: 'referral_id',
    });
  }
  // A code that wins over the referral's own partner (the program's code_wins) credits its partnership instead.
  // Read with a shared lock: payments do not wait for each other, but a ban (which declines
  // the partnership first) waits for this one to commit, or this one sees it declined.
  const partnership = await partnerships.getToCredit(tx, program.id, creditTo?.id ?? referral.partnership_id);
  if (partnership?.state !== 'accepted') {
    throw fail('partnership_declined', `the referral's partnership is ${partnership?.state ?? 'gone'}, not accepted`);
  }
  const group = await groupRules(tx, program.id, partnership.group_id);
  const rules = rulesFor(program, partnership, group);
  const occurredAt = input.occurred_at ?? now;
  // The referral's first payment makes it a paying customer, in the statistics, and starts
  // its recurring window. Read, then write: on PostgreSQL two payments of one referral at
  // once would both find none before them, so the referral's payments take their turn here.
  await tx.lock(`payments:${referral.id}`);
  const firstAt = await payments.firstOccurredAt(tx, referral.id);
  const first = firstAt === undefined;
  const sale = await earnSale(
    tx,
    program,
    partnership,
    {
      amount: input.amount,
      currency: input.currency,
      productIds: [...(input.product_ids ?? [])],
      priceIds: [...(input.price_ids ?? [])],
      paidAt: occurredAt,
      firstPaymentAt: firstAt,
      country: input.customer_country ?? null,
      metadata: { ...input.metadata },
    },
    now,
  );
  const quick = [
    ...(first ? await firstPaymentFlags(tx, program.id, referral, occurredAt) : []),
    ...(await refundRateFlags(tx, program.id, partnership.partner_id)),
  ];
  const earned = sale.earned?.amount ?? 0;
  const _earns = sale.earned !== undefined;
  const commission = newCommission(
    program.id,
    partnership.partner_id,
    referral.id,
    earned,
    input.currency,
    now,
    sale.earned
      ? {
          payable_at: payableAt(rules, occurredAt, now),
          reward_id: sale.rewardId,
          reward_description: sale.earned.description,
          ...heldWith(referral, [...flags, ...quick]),
        }
      : { state: 'rejected', reject_reason: sale.reason },
  );
  const payment: PaymentRow = {
    id: uuidv7(),
    program_id: program.id,
    idempotency_key: input.idempotency_key,
    request_hash: hash,
    referral_id: referral.id,
    commission_id: commission.id,
    amount: input.amount,
    currency: input.currency,
    occurred_at: occurredAt,
    gross: input.gross ?? input.amount,
    refunded_gross: 0,
    refunded: 0,
    discount_code_id: input.discount_code_id ?? null,
    earned,
    first_of_referral: first ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
  // Counted first, so that the commission's reactions (move rules) weigh this payment too.
  await addDelta(tx, {
    program_id: program.id,
    partner_id: partnership.partner_id,
    at: now,
    currency: input.currency,
    payments: 1,
    customers: payment.first_of_referral,
    revenue: input.amount,
  });
  // The commission before the payment, which names it.
  await recordCommission(tx, commission, now);
  await payments.insert(tx, payment);
  await emit(tx, program.id, 'payment.created', renderPayment(payment), now);
  // Held by its own signals (an e-mail match, a quick payment), not only as its referral was.
  if (commission.review === 'held' && referral.review !== 'held')
    await emit(tx, program.id, 'review.held', renderCommission(commission), now);
  // Conditional on the state read: of two first payments at once, one moves it and says so.
  if (referral.state === 'converted' && (await referrals.move(tx, program.id, referral.id, 'converted', 'paid', now))) {
    // A paying customer now: converted, in the sense of the hosted platforms' event, and a state change.
    const paid = renderReferral({ ...referral, state: 'paid', state_set_at: Math.max(now, referral.created_at), updated_at: now });
    await emit(tx, program.id, 'referral.converted', paid, now);
    await emit(tx, program.id, 'referral.updated', paid, now);
  }
  if (input.discount_code_id) await codeUsed(tx, program.id, input.discount_code_id, now);
  return { payment, commission, created: true };
}

export async function recordPayment(db: Db, program: ProgramRow, input: PaymentInput, now: number): Promise<PaymentResult> {
  const currency = currencyCode(input.currency);
  const by = selector(input);
  // The request as understood: a replay must name the same referral, amount and currency.
  const hash = createHash('sha256')
    .update(JSON.stringify([input.amount, currency, ...by]))
    .digest('hex');
  try {
    return await db.transaction(async (tx) => {
      const earlier = await payments.findByKey(tx, program.id, input.idempotency_key);
      if (earlier) return replay(tx, earlier, hash);
      const { amount, idempotency_key, product_id, price_id, metadata, customer_country } = input;
      const sold = { product_ids: product_id ? [product_id] : [], price_ids: price_id ? [price_id] : [], metadata, customer_country };
      const code = await creditedByCode(tx, program.id, input.discount_code);
      const { referral, creditTo } = await referralOf(tx, program, by, input, code, now);
      const payment = { amount, currency, idempotency_key, ...sold, discount_code_id: code?.code_id };
      return creditPayment(tx, program, referral, payment, hash, now, creditTo);
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
 * POST /v1/refunds: the payment refunded up to `amountRefunded` of its amount in all (a
 * running total, as Stripe's amount_refunded: the same total again changes nothing), or
 * whole. A pending commission is reduced or rejected as refunded; a paid one gets a
 * clawback (modules/payments/refunds.ts). One rejected for another reason earned nothing to take.
 */
export async function refundPayment(
  db: Db,
  programId: string,
  paymentKey: string,
  amountRefunded: number | undefined,
  now: number,
): Promise<RefundResult> {
  return db.transaction(async (tx) => {
    const payment = await payments.findByKey(tx, programId, paymentKey);
    if (!payment) throw fail('invalid_field', 'no payment with that payment_id (its idempotency_key)', { field: 'payment_id' });
    if (amountRefunded !== undefined && amountRefunded > payment.amount) {
      throw fail('invalid_field', `amount_refunded is more than the payment's amount (${payment.amount})`, { field: 'amount_refunded' });
    }
    const commission = await getCommission(tx, programId, payment.commission_id);
    if (commission.state === 'rejected' && commission.reject_reason !== 'refunded') {
      throw fail(
        'invalid_transition',
        `the payment's commission was rejected (${commission.reject_reason ?? 'no reason'}): there is nothing to refund`,
        { field: 'payment_id' },
      );
    }
    const gross = amountRefunded === undefined ? payment.gross : shareOf(payment.gross, amountRefunded, payment.amount);
    return applyRefund(tx, payment, gross, now);
  });
}
