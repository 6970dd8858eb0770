// A conversion under review: what it keeps as evidence, and whether its signals hold it.
// A held referral's commissions are held too, until an owner decides (service.ts).

import type { Queryable } from '../platform/db/db.js';
import { remembered } from '../platform/db/remembered.js';
import * as programs from '../modules/programs/repo.js';
import type { CreditedPartnership } from '../modules/partnerships/model.js';
import type { ReferralRow } from '../modules/referrals/repo.js';
import { creditedByCode } from '../modules/codes/service.js';
import { clientHash, conversionEvidence, userAgent } from '../modules/review/evidence.js';
import {
  conversionFlags,
  type Flag,
  QUICK_PAYMENT_SECONDS,
  REFUND_RATE_FLOOR,
  REFUND_RATE_MIN_PAYMENTS,
  REFUND_RATE_OWN,
  REFUND_RATE_PROGRAM,
  REFUND_RATE_TIMES,
  type Signal,
  signalsOn,
} from '../modules/review/signals.js';

/** The signals a program has on, from memory (programs are settings). */
export function programSignals(db: Queryable, programId: string): Promise<ReadonlySet<Signal>> {
  return remembered(db, `review:signals:${programId}`, async () => signalsOn((await programs.get(db, programId))?.review_signals));
}

type Review = Pick<ReferralRow, 'landed' | 'client_hash' | 'user_agent' | 'review' | 'review_reasons'>;

export interface ConversionReview {
  /** The new referral's columns of review. */
  columns: Review;
  /** Whether the credited partnership had a referral before this one (read with the evidence, in its statement). */
  partnershipReferred: boolean;
}

export interface Reviewed {
  /** Sent through the public tracker: its address and browser. */
  seen?: { client: string; user_agent: string | undefined; click_flood?: boolean } | undefined;
  gr_id: string;
  discount_code?: string | undefined;
}

/** Signals about the visitor, not the person: only the public tracker's conversions have a visitor to judge. */
const VISITOR_SIGNALS: readonly Signal[] = ['no_click', 'address_burst', 'browser_burst', 'click_rate'];

/** The evidence a new referral keeps, and its review: held with the flags its signals raise. */
export async function reviewConversion(
  db: Queryable,
  programId: string,
  input: Reviewed,
  credited: CreditedPartnership,
  emailNorm: string,
  now: number,
): Promise<ConversionReview> {
  const hash = clientHash(programId, input.seen?.client);
  const evidence = await conversionEvidence(db, {
    programId,
    partnershipId: credited.id,
    grId: input.gr_id,
    emailNorm,
    clientHash: hash,
    partnerEmail: credited.partner_email_norm,
    partnerPaypal: credited.partner_paypal_email_norm,
    now,
  });
  // The program's set, shared from memory: copied only when a signal is left out for this conversion.
  let on = await programSignals(db, programId);
  const without = (signals: readonly Signal[]) => {
    const copy = new Set(on);
    for (const s of signals) copy.delete(s);
    on = copy;
  };
  // The company's own servers (a secret token) and the billing platforms send no visitor.
  if (!input.seen) without(VISITOR_SIGNALS);
  // A sale credited by its partner's code has no landing by nature: the code is the evidence.
  if (evidence.clickAt === null && input.discount_code && (await creditedByCode(db, programId, input.discount_code))?.id === credited.id) {
    without(['no_click']);
  }
  const flags = conversionFlags({ ...evidence, clickFlood: input.seen?.click_flood === true }, on);
  const columns: Review = {
    landed: evidence.clickAt !== null && evidence.clickAt <= now ? 1 : 0,
    client_hash: hash,
    user_agent: userAgent(input.seen?.user_agent),
    ...held(flags),
  };
  return { columns, partnershipReferred: evidence.partnershipReferred };
}

/** Held with the flags' reasons, or not under review at all. */
export function held(flags: readonly Flag[]): Pick<ReferralRow, 'review' | 'review_reasons'> {
  return flags.length > 0 ? { review: 'held', review_reasons: JSON.stringify(flags) } : { review: null, review_reasons: null };
}

/** A commission of a held referral is held with its reasons, and with `more` flags of its own. */
export function heldWith(
  referral: Pick<ReferralRow, 'review' | 'review_reasons'>,
  more: readonly Flag[] = [],
): Partial<Pick<ReferralRow, 'review' | 'review_reasons'>> {
  const reasons = [...(referral.review === 'held' ? (JSON.parse(referral.review_reasons ?? '[]') as Flag[]) : []), ...more];
  return reasons.length > 0 ? held(reasons) : {};
}

/** A referral's first payment, when it came within seconds of the landing that made the referral. */
export async function firstPaymentFlags(db: Queryable, programId: string, referral: ReferralRow, paidAt: number): Promise<Flag[]> {
  if (referral.landed !== 1 || !(await programSignals(db, programId)).has('quick_payment')) return [];
  const click = await db.get<{ at: number | null }>('SELECT MIN(created_at + 0) AS at FROM clicks WHERE program_id = ? AND gr_id = ?', [
    programId,
    referral.gr_id,
  ]);
  const seconds = click?.at === null || click?.at === undefined ? undefined : paidAt - Number(click.at);
  if (seconds === undefined || seconds >= QUICK_PAYMENT_SECONDS) return [];
  return [
    {
      signal: 'quick_payment',
      explain: `the first payment came ${Math.max(0, seconds)} s after the landing (under ${QUICK_PAYMENT_SECONDS} s is flagged)`,
    },
  ];
}

/**
 * A payment of a partner whose latest payments were refunded far more often than the
 * program's: held, as what they bring tends to come back (thresholds in signals.ts).
 * Bounded: the partner's latest 50 payments against the program's latest 500.
 */
export async function refundRateFlags(db: Queryable, programId: string, partnerId: string): Promise<Flag[]> {
  if (!(await programSignals(db, programId)).has('refund_rate')) return [];
  const own = `SELECT p.refunded_gross AS r FROM commissions c JOIN payments p ON p.commission_id = c.id
                WHERE c.partner_id = ? AND c.program_id = ? ORDER BY c.created_at DESC LIMIT ${REFUND_RATE_OWN}`;
  const all = `SELECT refunded_gross AS r FROM payments WHERE program_id = ? ORDER BY created_at DESC LIMIT ${REFUND_RATE_PROGRAM}`;
  const row = await db.get<{ mine: number; mine_refunded: number; total: number; refunded: number }>(
    `SELECT (SELECT COUNT(*) FROM (${own}) a) AS mine, (SELECT COUNT(*) FROM (${own}) b WHERE r > 0) AS mine_refunded,
            (SELECT COUNT(*) FROM (${all}) c) AS total, (SELECT COUNT(*) FROM (${all}) d WHERE r > 0) AS refunded`,
    [partnerId, programId, partnerId, programId, programId, programId],
  );
  const mine = Number(row?.mine ?? 0);
  if (mine < REFUND_RATE_MIN_PAYMENTS) return [];
  const rate = Number(row?.mine_refunded ?? 0) / mine;
  const programRate = Number(row?.refunded ?? 0) / Math.max(1, Number(row?.total ?? 0));
  if (rate < REFUND_RATE_FLOOR || rate < REFUND_RATE_TIMES * programRate) return [];
  const pct = (x: number) => `${Math.round(x * 100)} %`;
  return [
    {
      signal: 'refund_rate',
      explain: `${pct(rate)} of the partner's latest ${mine} payments were refunded, against ${pct(programRate)} in the program (${REFUND_RATE_TIMES}× and ${pct(REFUND_RATE_FLOOR)} are flagged)`,
    },
  ];
}

/**
 * A billing platform's match by e-mail alone credits a referral a real landing made, or
 * one an owner approved; otherwise its commission is held, saying so.
 */
export async function emailMatchFlags(db: Queryable, programId: string, referral: ReferralRow): Promise<Flag[]> {
  if (referral.landed !== 0 || referral.review === 'approved') return [];
  if (!(await programSignals(db, programId)).has('email_match')) return [];
  return [
    {
      signal: 'email_match',
      explain:
        "the payment was matched to the referral by the customer's e-mail alone, and no landing of that visitor came before the referral",
    },
  ];
}
