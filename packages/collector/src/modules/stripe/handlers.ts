// What each Stripe event does (docs/stripe.md). A handler runs inside the event's own
// transaction and says what came of it; it never answers HTTP. An event that cannot
// apply yet (an invoice of a customer not linked to a referral, a refund of a payment
// not recorded) is ignored with the Stripe id it waits for, and applied when that id
// gets linked, whatever order Stripe sent them in.

import { createHash } from 'node:crypto';
import { ServiceError } from '../../platform/errors.js';
import type { Tx } from '../../platform/db/db.js';
import * as payments from '../payments/repo.js';
import type { PaymentRow } from '../payments/repo.js';
import type { ProgramRow } from '../programs/repo.js';
import * as referrals from '../referrals/repo.js';
import type { ReferralRow } from '../referrals/repo.js';
import * as stripe from './repo.js';
import type { Outcome } from './repo.js';
import { convertIn } from '../referrals/conversions.js';
import { normalizeEmail } from '../../core/email.js';
import { currencyCode } from '../../core/money.js';
import { creditPayment } from '../payments/service.js';
import { creditedByStripe } from '../codes/service.js';
import type { PartnershipRow } from '../partnerships/repo.js';
import { sameMailboxAsAny } from '../../core/email.js';
import { applyRefund, holdForDispute, lockPayment } from '../payments/refunds.js';
import * as read from './objects.js';
import type { StripeEvent } from './verify.js';
import { renderReferral } from '../referrals/present.js';
import { emit } from '../webhooks/events.js';

export interface Touched {
  type: 'referral' | 'payment' | 'commission';
  id: string;
}

export interface Handled {
  outcome: Outcome;
  reason?: string | undefined;
  touched: Touched[];
  /** The Stripe id whose link would let the event apply. */
  waitingOn?: string | undefined;
  referralId?: string | undefined;
  /** Stripe ids this event linked: events waiting on them are processed now. */
  linked: string[];
}

type Handler = (tx: Tx, program: ProgramRow, event: StripeEvent, now: number) => Promise<Handled>;

const ignored = (reason: string, waitingOn?: string): Handled => ({ outcome: 'ignored', reason, touched: [], waitingOn, linked: [] });

/** Tally's payment key for a Stripe payment: its own namespace beside the company's keys. */
export const paymentKey = (stripeKey: string): string => `stripe:${stripeKey}`;

interface Found {
  referral: ReferralRow;
  /** True when the event made the referral (a click id named with the customer's address). */
  created: boolean;
}

/** A referral by a click id, made from the click when `email` is given and none exists yet. */
async function byClick(tx: Tx, program: ProgramRow, grId: string, email: string | undefined, now: number): Promise<Found | undefined> {
  const existing = await referrals.findByGrId(tx, program.id, grId);
  if (existing) return { referral: existing, created: false };
  if (!email) return undefined;
  try {
    const made = await convertIn(tx, program.id, { email, gr_id: grId }, now);
    return { referral: made.referral, created: made.created };
  } catch (err) {
    // Not a click of this program, a declined partner, a self-referral, someone referred
    // earlier through another click: not this way, then. These are refused before any write.
    if (err instanceof ServiceError && err.kind !== 'internal') return undefined;
    throw err;
  }
}

/**
 * The referral the object itself names: a Checkout's client_reference_id as a click id,
 * then tally_gr_id or tally_referral_id metadata. A click id makes the referral from its
 * click when none exists yet and the object tells the customer's address, wherever the
 * click id was put: the snippet's track() may never have run.
 */
async function byMarks(tx: Tx, program: ProgramRow, who: read.Customer, now: number): Promise<Found | undefined> {
  if (who.clickId) {
    const found = await byClick(tx, program, who.clickId, who.email, now);
    if (found) return found;
  }
  for (const m of who.metadata) {
    const grId = typeof m.tally_gr_id === 'string' ? m.tally_gr_id : undefined;
    const found = grId ? await byClick(tx, program, grId, who.email, now) : undefined;
    if (found) return found;
    const byId = typeof m.tally_referral_id === 'string' ? await referrals.get(tx, program.id, m.tally_referral_id) : undefined;
    if (byId) return { referral: byId, created: false };
  }
  return undefined;
}

/**
 * The referral a customer is, in the documented order: what the object names (byMarks);
 * the customer already linked; an e-mail address of a referral.
 */
async function findReferral(tx: Tx, program: ProgramRow, who: read.Customer, now: number): Promise<Found | undefined> {
  const marked = await byMarks(tx, program, who, now);
  if (marked) return marked;
  const linked = who.customer ? await stripe.linked(tx, program.id, [who.customer]) : undefined;
  const byCustomer = linked ? await referrals.get(tx, program.id, linked) : undefined;
  if (byCustomer) return { referral: byCustomer, created: false };
  const norm = who.email ? emailOrNothing(who.email) : undefined;
  const byEmail = norm ? await referrals.findByEmail(tx, program.id, norm) : undefined;
  if (byEmail) return { referral: byEmail, created: false };
  return byCode(tx, program, who, now);
}

/** A customer no referral names who used a partner's code: the code's partner's referral, made by the address. */
async function byCode(tx: Tx, program: ProgramRow, who: read.Customer, now: number): Promise<Found | undefined> {
  const code = who.email ? await creditedByStripe(tx, program.id, who.promotionCodes ?? []) : undefined;
  if (!code || !who.email) return undefined;
  try {
    const made = await convertIn(tx, program.id, { email: who.email, gr_id: `code:${code.code_id}`, discount_code: code.code }, now);
    return { referral: made.referral, created: made.created };
  } catch (err) {
    // The partner's own address, say: not this way.
    if (err instanceof ServiceError && err.kind !== 'internal') return undefined;
    throw err;
  }
}

/**
 * Where the program lets a code win, a referred customer's payment with another partner's
 * code pays the code's partner (docs/codes.md); the partner's own code never does.
 */
async function codeWinner(tx: Tx, program: ProgramRow, who: read.Customer, referral: ReferralRow) {
  const code = await creditedByStripe(tx, program.id, who.promotionCodes ?? []);
  if (!code) return undefined;
  const own = sameMailboxAsAny(referral.email, [code.partner_email_norm, code.partner_paypal_email_norm]);
  return { codeId: code.code_id, creditTo: program.code_wins === 1 && code.id !== referral.partnership_id && !own ? code : undefined };
}

function emailOrNothing(raw: string): string | undefined {
  try {
    return normalizeEmail(raw);
  } catch {
    return undefined;
  }
}

/** Links the customer to the referral (the first link stays) and says which ids were linked. */
async function linkCustomer(tx: Tx, program: ProgramRow, who: read.Customer, referral: ReferralRow, now: number): Promise<string[]> {
  if (!who.customer) return [];
  await stripe.link(tx, program.id, who.customer, referral.id, now);
  return [who.customer];
}

/** A link and nothing paid: it names the referral among what it touched only when it made it. */
function linkedOnly(found: Found, linked: string[]): Handled {
  const touched: Touched[] = found.created ? [{ type: 'referral', id: found.referral.id }] : [];
  return { outcome: 'linked', touched, referralId: found.referral.id, linked };
}

/** Records the payment once (its key is Stripe's id) and links its Stripe ids to it. */
async function credit(
  tx: Tx,
  program: ProgramRow,
  referral: ReferralRow,
  paid: read.Paid,
  now: number,
  code?: { codeId: string; creditTo: PartnershipRow | undefined },
): Promise<Handled> {
  const key = paymentKey(paid.key);
  const earlier = await payments.findByKey(tx, program.id, key);
  if (earlier) {
    for (const ref of paid.refs) await stripe.link(tx, program.id, ref, earlier.id, now);
    return { ...ignored(`already credited by payment ${earlier.id}`), referralId: referral.id, linked: paid.refs };
  }
  if (paid.amount <= 0) return { ...ignored('nothing was paid after tax'), referralId: referral.id };
  const currency = currencyCode(paid.currency);
  const hash = createHash('sha256')
    .update(JSON.stringify([paid.amount, currency, 'stripe', paid.key]))
    .digest('hex');
  const { payment, commission } = await creditPayment(
    tx,
    program,
    referral,
    {
      idempotency_key: key,
      amount: paid.amount,
      currency,
      occurred_at: paid.paidAt,
      gross: paid.gross,
      ...paid.sold,
      discount_code_id: code?.codeId,
    },
    hash,
    now,
    code?.creditTo,
  );
  for (const ref of paid.refs) await stripe.link(tx, program.id, ref, payment.id, now);
  return {
    outcome: 'credited',
    reason: commission.state === 'rejected' ? (commission.reject_reason ?? undefined) : undefined,
    touched: [
      { type: 'referral', id: referral.id },
      { type: 'payment', id: payment.id },
      { type: 'commission', id: commission.id },
    ],
    referralId: referral.id,
    linked: paid.refs,
  };
}

/** The payment one of `refs` leads to. */
async function paymentOf(tx: Tx, program: ProgramRow, refs: readonly string[]): Promise<PaymentRow | undefined> {
  const id = await stripe.linked(tx, program.id, refs);
  return id ? payments.get(tx, program.id, id) : undefined;
}

const NO_REFERRAL = 'no referral matched: no click id, tally metadata, linked customer or e-mail address of a referral';

const checkoutCompleted: Handler = async (tx, program, event, now) => {
  const s = event.data.object;
  const who = read.sessionCustomer(s);
  const found = await findReferral(tx, program, who, now);
  if (!found) return ignored(NO_REFERRAL);
  const paid = read.sessionPaid(s, event.created);
  const credited = paid
    ? await credit(tx, program, found.referral, paid, now, await codeWinner(tx, program, who, found.referral))
    : undefined;
  const linked = await linkCustomer(tx, program, who, found.referral, now);
  return credited ? { ...credited, linked: [...linked, ...credited.linked] } : linkedOnly(found, linked);
};

const invoicePaid: Handler = async (tx, program, event, now) => {
  const inv = event.data.object;
  const paid = read.invoicePaid(inv, event.created);
  const who = read.invoiceCustomer(inv);
  if (!paid) {
    // A first invoice a code made free pays nothing, but makes the customer the code's partner's, for the renewals.
    const coded = who.promotionCodes?.length ? await findReferral(tx, program, who, now) : undefined;
    return coded ? linkedOnly(coded, await linkCustomer(tx, program, who, coded.referral, now)) : ignored('nothing was paid');
  }
  const found = await findReferral(tx, program, who, now);
  if (!found) return ignored(`${NO_REFERRAL} (yet)`, who.customer);
  const credited = await credit(tx, program, found.referral, paid, now, await codeWinner(tx, program, who, found.referral));
  return { ...credited, linked: [...(await linkCustomer(tx, program, who, found.referral, now)), ...credited.linked] };
};

/** Since 2025-03-31 the invoice names its payment intent only here: link it to the invoice's payment. */
const invoicePaymentPaid: Handler = async (tx, program, event, now) => {
  const { invoice, refs } = read.invoicePaymentRefs(event.data.object);
  const payment = invoice ? await paymentOf(tx, program, [invoice]) : undefined;
  if (!payment) return ignored('its invoice has credited no payment (yet)', invoice);
  for (const ref of refs) await stripe.link(tx, program.id, ref, payment.id, now);
  return { outcome: 'linked', touched: [{ type: 'payment', id: payment.id }], referralId: payment.referral_id ?? undefined, linked: refs };
};

function refunded(payment: PaymentRow, result: Awaited<ReturnType<typeof applyRefund>>): Handled {
  const touched: Touched[] = [
    { type: 'payment', id: payment.id },
    { type: 'commission', id: result.commission.id },
    ...result.clawbacks.map((c) => ({ type: 'commission' as const, id: c.id })),
  ];
  return { outcome: 'refunded', touched, referralId: payment.referral_id ?? undefined, linked: [] };
}

const chargeRefunded: Handler = async (tx, program, event, now) => {
  const charge = read.chargeRefund(event.data.object);
  const payment = await paymentOf(tx, program, charge.refs);
  if (!payment) return ignored('no credited payment for this charge (yet)', charge.refs[0]);
  if (charge.amount <= 0) return ignored('the charge has no amount');
  // The charge's running total of refunds, as a share of the payment's charge.
  const total = Number((BigInt(payment.gross) * BigInt(charge.refunded)) / BigInt(charge.amount));
  return refunded(payment, await applyRefund(tx, payment, total, now));
};

const disputeCreated: Handler = async (tx, program, event, now) => {
  const d = read.dispute(event.data.object);
  const payment = await paymentOf(tx, program, d.refs);
  if (!payment) return ignored('no credited payment for the disputed charge (yet)', d.refs[0]);
  const held = await holdForDispute(tx, payment, true, now);
  if (held === 0)
    return { ...ignored('nothing pending to hold: a lost dispute will claw back'), referralId: payment.referral_id ?? undefined };
  return {
    outcome: 'held',
    touched: [{ type: 'commission', id: payment.commission_id }],
    referralId: payment.referral_id ?? undefined,
    linked: [],
  };
};

const disputeClosed: Handler = async (tx, program, event, now) => {
  const d = read.dispute(event.data.object);
  const disputeId = String(event.data.object.id ?? '');
  const payment = await paymentOf(tx, program, d.refs);
  if (!payment) return ignored('no credited payment for the disputed charge', d.refs[0]);
  await holdForDispute(tx, payment, false, now);
  if (d.status !== 'lost') {
    return {
      outcome: 'released',
      touched: [{ type: 'commission', id: payment.commission_id }],
      referralId: payment.referral_id ?? undefined,
      linked: [],
    };
  }
  // A lost dispute takes its amount once: the dispute's id, linked, says it was taken.
  const fresh = await lockPayment(tx, payment);
  if (await stripe.linked(tx, program.id, [disputeId])) return ignored('this lost dispute was applied already');
  await stripe.link(tx, program.id, disputeId, payment.id, now);
  return refunded(fresh, await applyRefund(tx, fresh, fresh.refunded_gross + d.amount, now));
};

const subscriptionDeleted: Handler = async (tx, program, event, now) => {
  const found = await findReferral(tx, program, read.subscriptionCustomer(event.data.object), now);
  if (!found) return ignored(NO_REFERRAL);
  const { referral } = found;
  if (referral.state !== 'paid')
    return { ...ignored(`the referral is ${referral.state}, not paid: it cannot churn`), referralId: referral.id };
  // Conditional on the state read: a referral rejected meanwhile is not churned, nor said to be.
  if (await referrals.move(tx, program.id, referral.id, 'paid', 'churned', now)) {
    const churned = { ...referral, state: 'churned' as const, state_set_at: Math.max(now, referral.created_at), updated_at: now };
    await emit(tx, program.id, 'referral.updated', renderReferral(churned), now);
  }
  return { outcome: 'churned', touched: [{ type: 'referral', id: referral.id }], referralId: referral.id, linked: [] };
};

const customerChanged: Handler = async (tx, program, event, now) => {
  const who = read.customerObject(event.data.object);
  // Only the metadata links here (its click id with the address may make the referral):
  // an address alone is matched when the customer pays.
  const found = await byMarks(tx, program, who, now);
  if (!found) return ignored('no tally_gr_id or tally_referral_id metadata of a referral');
  return linkedOnly(found, await linkCustomer(tx, program, who, found.referral, now));
};

/** The events Tally acts on; the README lists them for the endpoint's settings in Stripe. */
export const HANDLERS: Readonly<Record<string, Handler>> = {
  'checkout.session.completed': checkoutCompleted,
  'checkout.session.async_payment_succeeded': checkoutCompleted,
  'invoice.paid': invoicePaid,
  'invoice_payment.paid': invoicePaymentPaid,
  'charge.refunded': chargeRefunded,
  'charge.dispute.created': disputeCreated,
  'charge.dispute.closed': disputeClosed,
  'customer.subscription.deleted': subscriptionDeleted,
  'customer.created': customerChanged,
  'customer.updated': customerChanged,
};

export function handle(tx: Tx, program: ProgramRow, event: StripeEvent, now: number): Promise<Handled> {
  const handler = HANDLERS[event.type];
  return handler ? handler(tx, program, event, now) : Promise.resolve(ignored('not an event Tally acts on'));
}
