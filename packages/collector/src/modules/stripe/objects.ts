// What Tally reads of Stripe's objects, from the JSON an event carries. Events come in
// the API version of the endpoint, so both shapes are read where Stripe moved a field:
// since 2025-03-31 an invoice names its subscription under `parent.subscription_details`,
// its payments under `payments` (when included) and its taxes in `total_taxes`; before,
// at the top (`subscription`, `payment_intent`, `charge`, `tax`). An id field may also
// come expanded, as the object itself.

import {
  countryCode,
  defined,
  int,
  metadata,
  obj,
  str,
  stringsOf,
  type Customer,
  type Json,
  type Paid,
  type Sold,
} from '../billing/facts.js';

const list = (v: unknown): Json[] => (Array.isArray(obj(v)?.data) ? ((obj(v)!.data as unknown[]).map(obj).filter(Boolean) as Json[]) : []);
/** An id, given as a string or, expanded, as the object with its id. */
const idOf = (v: unknown): string | undefined => str(v) ?? str(obj(v)?.id);

/**
 * Stripe's minor units where they are not ISO 4217's: ISK is two-decimal in Stripe's API
 * (100 is one króna) and MGA zero-decimal. Every other currency's amounts are taken as
 * they are. Only the amount earning a commission is converted: gross amounts and refunds
 * stay in Stripe's units, as only their ratio is used.
 */
const STRIPE_DIGITS_LESS_ISO: Readonly<Record<string, number>> = { ISK: 2, MGA: -2 };

export function fromStripeUnits(amount: number, currency: string): number {
  const shift = STRIPE_DIGITS_LESS_ISO[currency.toUpperCase()] ?? 0;
  return shift >= 0 ? Math.round(amount / 10 ** shift) : amount * 10 ** -shift;
}

/**
 * Promotion codes from an object's discounts: a Checkout Session's `discounts[]` name theirs
 * (an id, or the object when expanded); an invoice's `discounts[]` are discount ids unless
 * expanded (then each names its promotion code); before 2025-03-31 an invoice had one
 * `discount` object.
 */
function promotionCodes(o: Json): string[] {
  const listed = Array.isArray(o.discounts) ? o.discounts.map((d) => idOf(obj(d)?.promotion_code)) : [];
  return defined([...listed, idOf(obj(o.discount)?.promotion_code)]).filter((id) => id.startsWith('promo_'));
}

/**
 * An invoice's lines: a price at `line.price` (before 2025-03-31) or at
 * `line.pricing.price_details` (since), each naming its product by id or expanded.
 */
function invoiceLines(inv: Json): Pick<Sold, 'product_ids' | 'price_ids'> {
  const prices = list(inv.lines).map((line) => {
    const legacy = obj(line.price);
    const details = obj(obj(line.pricing)?.price_details);
    return { price: idOf(legacy) ?? idOf(details?.price), product: idOf(legacy?.product) ?? idOf(details?.product) };
  });
  return { product_ids: defined(prices.map((p) => p.product)), price_ids: defined(prices.map((p) => p.price)) };
}

export function sessionCustomer(s: Json): Customer {
  return {
    customer: idOf(s.customer),
    email: str(obj(s.customer_details)?.email) ?? str(s.customer_email),
    clickId: str(s.client_reference_id),
    country: countryCode(obj(obj(s.customer_details)?.address)?.country),
    promotionCodes: promotionCodes(s),
    // A session carries its own metadata only (its subscription is an id): the
    // subscription's (subscription_data.metadata) comes with each of its invoices.
    metadata: metadata(s.metadata),
  };
}

/** A Checkout Session in payment mode that was paid; a subscription's are paid by its invoices. */
export function sessionPaid(s: Json, eventCreated: number): Paid | undefined {
  const total = int(s.amount_total) ?? 0;
  if (s.mode !== 'payment' || s.payment_status !== 'paid' || total <= 0) return undefined;
  const invoice = idOf(s.invoice);
  const intent = idOf(s.payment_intent);
  const id = str(s.id)!;
  const tax = Math.min(total, int(obj(s.total_details)?.amount_tax) ?? 0);
  return {
    // An invoice made by the session fires invoice.paid too: both name the payment by the invoice.
    key: invoice ?? intent ?? id,
    refs: defined([invoice, intent, id]),
    amount: fromStripeUnits(total - tax, String(s.currency ?? '')),
    gross: total,
    currency: String(s.currency ?? ''),
    paidAt: eventCreated,
    // A session's line items come only when expanded: the products are known from its invoice, or not at all.
    sold: {
      product_ids: [],
      price_ids: [],
      customer_country: countryCode(obj(obj(s.customer_details)?.address)?.country),
      metadata: stringsOf(metadata(s.metadata)),
    },
  };
}

export function invoiceCustomer(inv: Json): Customer {
  const parent = obj(obj(inv.parent)?.subscription_details);
  return {
    customer: idOf(inv.customer),
    email: str(inv.customer_email),
    country: countryCode(obj(inv.customer_address)?.country),
    metadata: metadata(parent?.metadata, obj(inv.subscription_details)?.metadata, inv.metadata),
    promotionCodes: promotionCodes(inv),
  };
}

export function invoiceSubscription(inv: Json): string | undefined {
  return idOf(obj(obj(inv.parent)?.subscription_details)?.subscription) ?? idOf(inv.subscription);
}

/** The payment intents and charges an invoice names: at the top before 2025-03-31, in `payments` since. */
function invoicePayments(inv: Json): string[] {
  const since = list(inv.payments).flatMap((p) => [idOf(obj(p.payment)?.payment_intent), idOf(obj(p.payment)?.charge)]);
  return defined([idOf(inv.payment_intent), idOf(inv.charge), ...since]);
}

function invoiceTax(inv: Json): number {
  const legacy = int(inv.tax);
  if (legacy !== undefined) return legacy;
  const taxes = Array.isArray(inv.total_taxes) ? inv.total_taxes.map((t) => int(obj(t)?.amount) ?? 0) : [];
  if (taxes.length > 0) return taxes.reduce((a, b) => a + b, 0);
  const total = int(inv.total);
  const excluding = int(inv.total_excluding_tax);
  return total !== undefined && excluding !== undefined ? total - excluding : 0;
}

/** A paid invoice with an amount: a subscription's first payment, a renewal, a trial that converts. */
export function invoicePaid(inv: Json, eventCreated: number): Paid | undefined {
  const paid = int(inv.amount_paid) ?? 0;
  const id = str(inv.id);
  if (paid <= 0 || !id) return undefined;
  const tax = Math.min(paid, Math.max(0, invoiceTax(inv)));
  return {
    key: id,
    refs: [id, ...invoicePayments(inv)],
    amount: fromStripeUnits(paid - tax, String(inv.currency ?? '')),
    gross: paid,
    currency: String(inv.currency ?? ''),
    paidAt: int(obj(inv.status_transitions)?.paid_at) ?? eventCreated,
    sold: {
      ...invoiceLines(inv),
      customer_country: countryCode(obj(inv.customer_address)?.country),
      metadata: stringsOf(invoiceCustomer(inv).metadata),
    },
  };
}

/** An invoice payment (invoice_payment.paid, since 2025-03-31): which intent and charge paid which invoice. */
export function invoicePaymentRefs(p: Json): { invoice: string | undefined; refs: string[] } {
  const payment = obj(p.payment);
  return { invoice: idOf(p.invoice), refs: defined([idOf(payment?.payment_intent), idOf(payment?.charge)]) };
}

/** A charge's refunds so far, as a running total: the ids to find its payment by, first the most specific. */
export function chargeRefund(ch: Json): { refs: string[]; amount: number; refunded: number } {
  return {
    refs: defined([idOf(ch.payment_intent), str(ch.id), idOf(ch.invoice)]),
    amount: int(ch.amount) ?? 0,
    refunded: int(ch.amount_refunded) ?? 0,
  };
}

export function dispute(d: Json): { refs: string[]; amount: number; status: string } {
  return { refs: defined([idOf(d.payment_intent), idOf(d.charge)]), amount: int(d.amount) ?? 0, status: String(d.status ?? '') };
}

export function subscriptionCustomer(sub: Json): Customer {
  return { customer: idOf(sub.customer), metadata: metadata(sub.metadata) };
}

export function customerObject(c: Json): Customer {
  return { customer: str(c.id), email: str(c.email), country: countryCode(obj(c.address)?.country), metadata: metadata(c.metadata) };
}

/**
 * A connected account's readiness for payouts: Stripe's Account object, as account.updated
 * carries it and GET /v1/accounts/:id answers it. Only strings count as requirements.
 */
export function payoutAccount(a: Json): { account: string; payoutsEnabled: boolean; currentlyDue: string[] } {
  const due = obj(a.requirements)?.currently_due;
  return {
    account: str(a.id) ?? '',
    payoutsEnabled: a.payouts_enabled === true,
    currentlyDue: Array.isArray(due) ? defined(due.map(str)) : [],
  };
}
