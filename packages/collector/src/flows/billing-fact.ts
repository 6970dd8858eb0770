// What each fact does (docs/billing.md), whichever platform told it. It runs inside the
// event's own transaction and says what came of it; it never answers HTTP. A fact that
// cannot apply yet (a renewal of a customer not linked to a referral, a refund of a
// payment not recorded) is ignored with the link key it waits for, and applied when that
// key gets linked, whatever order the platform sent them in.

import { createHash } from 'node:crypto';
import { ServiceError } from '../platform/errors.js';
import type { Tx } from '../platform/db/db.js';
import * as payments from '../modules/payments/repo.js';
import type { PaymentRow } from '../modules/payments/repo.js';
import type { ProgramRow } from '../modules/programs/model.js';
import * as referrals from '../modules/referrals/repo.js';
import type { ReferralRow } from '../modules/referrals/repo.js';
import * as billing from '../modules/billing/repo.js';
import type { Outcome } from '../modules/billing/repo.js';
import { convertIn } from './conversion.js';
import { normalizeEmail, sameMailboxAsAny } from '../core/email.js';
import { currencyCode } from '../core/money.js';
import { creditPayment } from './payment.js';
import { creditedByCheckout } from '../modules/codes/service.js';
import type { PartnershipRow } from '../modules/partnerships/model.js';
import { applyRefund, holdForDispute, lockPayment } from './refund.js';
import { type Customer, type Fact, type Paid, stringsOf } from '../modules/billing/facts.js';
import { renderReferral } from '../modules/referrals/present.js';
import { emit } from '../events/emit.js';
import { emailMatchFlags } from './review-hold.js';
import type { Flag } from '../modules/review/signals.js';
import { applyStripeAccount } from '../modules/payout-methods/service.js';
import { transferReversed } from './payout-reversal.js';

export interface Touched {
  type: 'referral' | 'payment' | 'commission';
  id: string;
}

export interface Handled {
  outcome: Outcome;
  reason?: string | undefined;
  touched: Touched[];
  /** The link key whose link would let the event apply. */
  waitingOn?: string | undefined;
  referralId?: string | undefined;
  /** Link keys this event linked: events waiting on them are processed now. */
  linked: string[];
}

type Handler<K extends Fact['kind']> = (tx: Tx, program: ProgramRow, fact: Extract<Fact, { kind: K }>, now: number) => Promise<Handled>;

const ignored = (reason: string, waitingOn?: string): Handled => ({ outcome: 'ignored', reason, touched: [], waitingOn, linked: [] });

/** Tally's payment key for a platform's payment: its own namespace beside the company's keys. */
export const paymentKey = (platform: string, key: string): string => `${platform}:${key}`;

interface Found {
  referral: ReferralRow;
  /** True when the event made the referral (a click id named with the customer's address). */
  created: boolean;
  /** Found by the customer's address alone: review may hold what it earns (modules/review). */
  byEmail?: boolean;
}

/** What a lead reward's conditions read of the customer the event names (docs/rewards.md). */
const leadFacts = (who: Customer) => ({ customer_country: who.country, metadata: stringsOf(who.metadata) });

/** A referral by a click id, made from the click (or the partner's key `pk`) when the customer's address is known and none exists yet. */
async function byClick(tx: Tx, program: ProgramRow, grId: string, who: Customer, now: number, pk?: string): Promise<Found | undefined> {
  const existing = await referrals.findByGrId(tx, program.id, grId);
  if (existing) return { referral: existing, created: false };
  if (!who.email) return undefined;
  try {
    const made = await convertIn(tx, program.id, { email: who.email, gr_id: grId, pk, ...leadFacts(who) }, now);
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
 * then a referral link's partner key, then tally_gr_id or tally_referral_id metadata. A click id makes the referral from its
 * click when none exists yet and the object tells the customer's address, wherever the
 * click id was put: the snippet's track() may never have run.
 */
async function byMarks(tx: Tx, program: ProgramRow, who: Customer, now: number): Promise<Found | undefined> {
  if (who.clickId) {
    const found = await byClick(tx, program, who.clickId, who, now);
    if (found) return found;
  }
  if (who.link) {
    const found = await byClick(tx, program, who.link.visit, who, now, who.link.key);
    if (found) return found;
  }
  for (const m of who.metadata) {
    const grId = typeof m.tally_gr_id === 'string' ? m.tally_gr_id : undefined;
    const found = grId ? await byClick(tx, program, grId, who, now) : undefined;
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
async function findReferral(tx: Tx, program: ProgramRow, who: Customer, now: number): Promise<Found | undefined> {
  const marked = await byMarks(tx, program, who, now);
  if (marked) return marked;
  const linked = who.customer ? await billing.linked(tx, program.id, [who.customer]) : undefined;
  const byCustomer = linked ? await referrals.get(tx, program.id, linked) : undefined;
  if (byCustomer) return { referral: byCustomer, created: false };
  return (await byAddress(tx, program, who)) ?? byCode(tx, program, who, now);
}

/** The customer with the address the platform told when it made them, where the payment does not carry it. */
async function withEmail(tx: Tx, program: ProgramRow, who: Customer): Promise<Customer> {
  if (who.email || !who.customer) return who;
  return { ...who, email: await billing.rememberedEmail(tx, program.id, who.customer) };
}

/** The referral with the customer's address. */
async function byAddress(tx: Tx, program: ProgramRow, who: Customer): Promise<Found | undefined> {
  const norm = who.email ? emailOrNothing(who.email) : undefined;
  const byEmail = norm ? await referrals.findByEmail(tx, program.id, norm) : undefined;
  return byEmail ? { referral: byEmail, created: false, byEmail: true } : undefined;
}

/** The code a payment used, whichever way the platform names it. */
async function usedCode(tx: Tx, program: ProgramRow, who: Customer) {
  const linked = who.codeRefs?.length ? await billing.linked(tx, program.id, who.codeRefs) : undefined;
  return creditedByCheckout(tx, program.id, {
    promotionCodes: who.promotionCodes,
    codes: [...(who.codes ?? []), ...(linked ? [linked] : [])],
  });
}

/** A customer no referral names who used a partner's code: the code's partner's referral, made by the address. */
async function byCode(tx: Tx, program: ProgramRow, who: Customer, now: number): Promise<Found | undefined> {
  const code = who.email ? await usedCode(tx, program, who) : undefined;
  if (!code || !who.email) return undefined;
  try {
    const made = await convertIn(
      tx,
      program.id,
      { email: who.email, gr_id: `code:${code.code_id}`, discount_code: code.code, ...leadFacts(who) },
      now,
    );
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
async function codeWinner(tx: Tx, program: ProgramRow, who: Customer, referral: ReferralRow) {
  const code = await usedCode(tx, program, who);
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
async function linkCustomer(tx: Tx, program: ProgramRow, who: Customer, referral: ReferralRow, now: number): Promise<string[]> {
  if (!who.customer) return [];
  await billing.link(tx, program.id, who.customer, referral.id, now);
  return [who.customer];
}

/** A link and nothing paid: it names the referral among what it touched only when it made it. */
function linkedOnly(found: Found, linked: string[]): Handled {
  const touched: Touched[] = found.created ? [{ type: 'referral', id: found.referral.id }] : [];
  return { outcome: 'linked', touched, referralId: found.referral.id, linked };
}

/** Records the payment once (its key is the platform's id) and links its keys to it. */
async function credit(
  tx: Tx,
  program: ProgramRow,
  platform: string,
  referral: ReferralRow,
  paid: Paid,
  now: number,
  code?: { codeId: string; creditTo: PartnershipRow | undefined },
  flags: readonly Flag[] = [],
): Promise<Handled> {
  const key = paymentKey(platform, paid.key);
  const earlier = await payments.findByKey(tx, program.id, key);
  if (earlier) {
    for (const ref of paid.refs) await billing.link(tx, program.id, ref, earlier.id, now);
    return { ...ignored(`already credited by payment ${earlier.id}`), referralId: referral.id, linked: paid.refs };
  }
  if (paid.amount <= 0) return { ...ignored('nothing was paid after tax'), referralId: referral.id };
  const currency = currencyCode(paid.currency);
  const hash = createHash('sha256')
    .update(JSON.stringify([paid.amount, currency, platform, paid.key]))
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
    flags,
  );
  for (const ref of paid.refs) await billing.link(tx, program.id, ref, payment.id, now);
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
  const id = await billing.linked(tx, program.id, refs);
  return id ? payments.get(tx, program.id, id) : undefined;
}

const NO_REFERRAL = 'no referral matched: no click id, tally metadata, linked customer or e-mail address of a referral';

/** A payment, or a checkout that paid nothing (a subscription's first, a code that made it free). */
async function payment(
  tx: Tx,
  program: ProgramRow,
  platform: string,
  fact: Extract<Fact, { kind: 'payment' }>,
  now: number,
): Promise<Handled> {
  const { paid } = fact;
  const who = await withEmail(tx, program, fact.who);
  if (!paid && fact.unpaid === 'link_if_coded') {
    // A first invoice a code made free pays nothing, but makes the customer the code's partner's, for the renewals.
    const coded =
      who.promotionCodes?.length || who.codes?.length || who.codeRefs?.length ? await findReferral(tx, program, who, now) : undefined;
    return coded ? linkedOnly(coded, await linkCustomer(tx, program, who, coded.referral, now)) : ignored('nothing was paid');
  }
  const found = await findReferral(tx, program, who, now);
  if (!found) return fact.waits ? ignored(`${NO_REFERRAL} (yet)`, who.customer) : ignored(NO_REFERRAL);
  if (!paid) return linkedOnly(found, await linkCustomer(tx, program, who, found.referral, now));
  const flags = found.byEmail ? await emailMatchFlags(tx, program.id, found.referral) : [];
  const credited = await credit(
    tx,
    program,
    platform,
    found.referral,
    paid,
    now,
    await codeWinner(tx, program, who, found.referral),
    flags,
  );
  return { ...credited, linked: [...(await linkCustomer(tx, program, who, found.referral, now)), ...credited.linked] };
}

/** More keys of a recorded payment: a Stripe invoice's payment intent, named only by invoice_payment.paid since 2025-03-31. */
const paymentRefs: Handler<'payment_refs'> = async (tx, program, { of, refs }, now) => {
  const payment = of ? await paymentOf(tx, program, [of]) : undefined;
  if (!payment) return ignored('its invoice has credited no payment (yet)', of);
  for (const ref of refs) await billing.link(tx, program.id, ref, payment.id, now);
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

const refundTotal: Handler<'refund_total'> = async (tx, program, fact, now) => {
  const payment = await paymentOf(tx, program, fact.refs);
  if (!payment) return ignored('no credited payment for this charge (yet)', fact.refs[0]);
  if (fact.of <= 0) return ignored('the charge has no amount');
  // The charge's running total of refunds, as a share of the payment's charge.
  const total = Number((BigInt(payment.gross) * BigInt(fact.refunded)) / BigInt(fact.of));
  return refunded(payment, await applyRefund(tx, payment, total, now));
};

/** Takes `amount` back from a payment once: the id, linked, says it was taken. */
async function takeBack(tx: Tx, program: ProgramRow, payment: PaymentRow, id: string, amount: number, now: number): Promise<Handled> {
  const fresh = await lockPayment(tx, payment);
  if (await billing.linked(tx, program.id, [id])) return ignored('this was applied already');
  await billing.link(tx, program.id, id, payment.id, now);
  return refunded(fresh, await applyRefund(tx, fresh, fresh.refunded_gross + amount, now));
}

const refund: Handler<'refund'> = async (tx, program, fact, now) => {
  const payment = await paymentOf(tx, program, fact.refs);
  if (!payment) return ignored('no credited payment for this refund (yet)', fact.refs[0]);
  return takeBack(tx, program, payment, fact.id, fact.amount, now);
};

const dispute: Handler<'dispute'> = async (tx, program, fact, now) => {
  const payment = await paymentOf(tx, program, fact.refs);
  if (fact.status === 'open') {
    if (!payment) return ignored('no credited payment for the disputed charge (yet)', fact.refs[0]);
    const held = await holdForDispute(tx, payment, true, now);
    if (held === 0)
      return { ...ignored('nothing pending to hold: a lost dispute will claw back'), referralId: payment.referral_id ?? undefined };
    return {
      outcome: 'held',
      touched: [{ type: 'commission', id: payment.commission_id }],
      referralId: payment.referral_id ?? undefined,
      linked: [],
    };
  }
  if (!payment) return ignored('no credited payment for the disputed charge', fact.refs[0]);
  await holdForDispute(tx, payment, false, now);
  if (fact.status === 'won') {
    return {
      outcome: 'released',
      touched: [{ type: 'commission', id: payment.commission_id }],
      referralId: payment.referral_id ?? undefined,
      linked: [],
    };
  }
  // A lost dispute takes its amount once.
  return takeBack(tx, program, payment, fact.id, fact.amount, now);
};

const cancel: Handler<'cancel'> = async (tx, program, { who }, now) => {
  const found = await findReferral(tx, program, who, now);
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

const customer: Handler<'customer'> = async (tx, program, { who, byEmail }, now) => {
  if (!byEmail) {
    // The metadata links (its click id with the address may make the referral): an address alone is matched when the customer pays.
    const found = await byMarks(tx, program, who, now);
    if (!found) return ignored('no tally_gr_id or tally_referral_id metadata of a referral');
    return linkedOnly(found, await linkCustomer(tx, program, who, found.referral, now));
  }
  // Where payments do not carry the address (Paddle's), it is kept for them, and the
  // payments that waited for this customer are taken up again, whether or not it links.
  const norm = who.email ? emailOrNothing(who.email) : undefined;
  if (who.customer && who.email && norm) await billing.rememberEmail(tx, program.id, who.customer, who.email, norm, now);
  const found = (await byMarks(tx, program, who, now)) ?? (await byAddress(tx, program, who));
  const told = who.customer && norm ? [who.customer] : [];
  if (!found) return { ...ignored(`${NO_REFERRAL} (yet)`), linked: told };
  return linkedOnly(found, await linkCustomer(tx, program, who, found.referral, now));
};

/**
 * A platform's discount names its code: kept as a link from the discount to the code's
 * text, which payments naming the discount are credited by (a code made in Tally later
 * counts too); a discount without a code, or whose code was removed, leads nowhere.
 */
const discount: Handler<'discount'> = async (tx, program, { ref, code }, now) => {
  if (code) await billing.relink(tx, program.id, ref, code, now);
  else await billing.unlink(tx, program.id, ref);
  return { outcome: 'linked', touched: [], linked: [] };
};

/** A partner's connected account changed: their payout method's readiness follows it, if the news is not older than what is held. */
const payoutAccount: Handler<'payout_account'> = async (tx, program, fact, now) => {
  const applied = await applyStripeAccount(tx, program.id, fact, now);
  if (applied === 'unknown') return ignored('no partner of this program is paid through this connected account');
  if (applied === 'older') return ignored('Tally holds a newer state of this connected account');
  const ready = fact.payoutsEnabled && fact.currentlyDue.length === 0;
  return { outcome: 'linked', reason: ready ? 'the partner can be paid' : 'the partner cannot be paid yet', touched: [], linked: [] };
};

/** A payout run's transfer reversed: each reversal applied once, in part (owed again) or whole (the payout returned). */
const transferBack: Handler<'transfer_reversed'> = async (tx, program, fact, now) => {
  const applied = fact.item ? await transferReversed(tx, program.id, { ...fact, item: fact.item }, now) : undefined;
  if (!applied) return ignored('no paid payout of this program was made by this transfer, or its reversals were applied already');
  const reason = applied === 'returned' ? 'the payout was returned' : 'reversed in part: the amount is owed to the partner again';
  return { outcome: 'linked', reason, touched: [], linked: [] };
};

/** What a fact does, in the event's transaction; `platform` names its payments' keys. */
export function handle(tx: Tx, program: ProgramRow, platform: string, fact: Fact, now: number): Promise<Handled> {
  switch (fact.kind) {
    case 'payment':
      return payment(tx, program, platform, fact, now);
    case 'payment_refs':
      return paymentRefs(tx, program, fact, now);
    case 'refund_total':
      return refundTotal(tx, program, fact, now);
    case 'refund':
      return refund(tx, program, fact, now);
    case 'dispute':
      return dispute(tx, program, fact, now);
    case 'cancel':
      return cancel(tx, program, fact, now);
    case 'customer':
      return customer(tx, program, fact, now);
    case 'discount':
      return discount(tx, program, fact, now);
    case 'payout_account':
      return payoutAccount(tx, program, fact, now);
    case 'transfer_reversed':
      return transferBack(tx, program, fact, now);
    case 'nothing':
      return Promise.resolve(ignored(fact.reason));
  }
}
