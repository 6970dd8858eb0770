// Stripe's events as Stripe sends them, written from its API reference (no network):
// the envelope and the objects Tally reads, with the fields around them that a real
// event carries, signed with the `stripe` package's own test header. Only the outside
// world is faked here; the collector receiving them is real.

import Stripe from 'stripe';

type Json = Record<string, unknown>;

let serial = 0;
/** A Stripe-looking id: the prefix and 24 characters, unique in the test run. */
export function stripeId(prefix: string): string {
  serial++;
  return `${prefix}_T${String(serial).padStart(6, '0')}${Math.random().toString(36).slice(2, 12).padEnd(10, 'x')}abcdefg`.slice(
    0,
    prefix.length + 25,
  );
}

export function checkoutSession(o: {
  id?: string;
  mode?: 'payment' | 'subscription' | 'setup';
  amount?: number;
  tax?: number;
  currency?: string;
  customer?: string | null;
  email?: string | null;
  clientReferenceId?: string | null;
  metadata?: Record<string, string>;
  paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required';
  paymentIntent?: string | null;
  invoice?: string | null;
  subscription?: string | null;
  /** Promotion codes used (promo_…), as a session's `discounts` names them. */
  promotionCodes?: string[];
  /** The country of the address the customer gave at checkout (`customer_details.address`). */
  customerCountry?: string;
}): Json {
  const mode = o.mode ?? 'payment';
  const address = o.customerCountry
    ? { city: null, country: o.customerCountry, line1: null, line2: null, postal_code: null, state: null }
    : null;
  const amount = o.amount ?? 0;
  return {
    id: o.id ?? stripeId('cs_test'),
    object: 'checkout.session',
    mode,
    status: 'complete',
    payment_status: o.paymentStatus ?? (mode === 'setup' ? 'no_payment_required' : 'paid'),
    amount_subtotal: amount - (o.tax ?? 0),
    amount_total: amount,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: o.tax ?? 0 },
    currency: (o.currency ?? 'usd').toLowerCase(),
    client_reference_id: o.clientReferenceId ?? null,
    customer: o.customer === undefined ? stripeId('cus') : o.customer,
    customer_creation: 'if_required',
    customer_details: o.email ? { email: o.email, name: 'A Customer', address, phone: null, tax_exempt: 'none', tax_ids: [] } : null,
    customer_email: null,
    metadata: o.metadata ?? {},
    payment_intent: o.paymentIntent === undefined ? (mode === 'payment' ? stripeId('pi') : null) : o.paymentIntent,
    invoice: o.invoice ?? null,
    subscription: o.subscription ?? null,
    discounts: (o.promotionCodes ?? []).map((promo) => ({ coupon: stripeId('co'), promotion_code: promo })),
    livemode: false,
    success_url: 'https://shop.example/thanks',
    url: null,
  };
}

/**
 * An invoice in the API's shape since 2025-03-31 (`parent`, `total_taxes`), as a webhook
 * delivers it: without `payments`, which Stripe includes only when a request expands it,
 * so the invoice names no payment intent; `invoice_payment.paid` does (invoicePayment).
 * `paymentIntent` gives the expanded shape (`GET /v1/invoices/:id?expand[]=payments`),
 * for a test that means that shape.
 */
export function invoice(o: {
  id?: string;
  customer: string;
  amountPaid: number;
  tax?: number;
  currency?: string;
  email?: string | null;
  subscription?: string | null;
  subscriptionMetadata?: Record<string, string>;
  paymentIntent?: string;
  paidAt?: number;
  billingReason?: string;
  /** Its lines' prices and products, in the 2025-03-31 shape (`pricing.price_details`). */
  lines?: Array<{ price: string; product: string }>;
  /** The customer's address's country, as the invoice copies it. */
  customerCountry?: string;
  /**
   * Promotion codes used: since 2025-03-31 `discounts` lists discount ids, here expanded
   * (`expand[]=discounts`) so each names its promotion code; `legacy` gives the one
   * `discount` object of older versions instead.
   */
  promotionCodes?: string[];
  discountShape?: 'expanded' | 'legacy';
}): Json {
  const tax = o.tax ?? 0;
  const subscription = o.subscription === undefined ? stripeId('sub') : o.subscription;
  const id = o.id ?? stripeId('in');
  const paidAt = o.paidAt ?? null;
  return {
    id,
    object: 'invoice',
    status: 'paid',
    billing_reason: o.billingReason ?? (subscription ? 'subscription_cycle' : 'manual'),
    collection_method: 'charge_automatically',
    currency: (o.currency ?? 'usd').toLowerCase(),
    customer: o.customer,
    customer_email: o.email ?? null,
    amount_due: o.amountPaid,
    amount_paid: o.amountPaid,
    amount_remaining: 0,
    subtotal: o.amountPaid - tax,
    total: o.amountPaid,
    total_excluding_tax: o.amountPaid - tax,
    total_taxes:
      tax > 0
        ? [
            {
              amount: tax,
              tax_behavior: 'exclusive',
              tax_rate_details: null,
              taxability_reason: 'standard_rated',
              taxable_amount: o.amountPaid - tax,
              type: 'tax_rate_details',
            },
          ]
        : [],
    parent: subscription
      ? {
          type: 'subscription_details',
          quote_details: null,
          subscription_details: { subscription, metadata: o.subscriptionMetadata ?? {} },
        }
      : null,
    lines: {
      object: 'list',
      data: (o.lines ?? []).map((l) => ({
        id: stripeId('il'),
        object: 'line_item',
        amount: o.amountPaid - tax,
        currency: (o.currency ?? 'usd').toLowerCase(),
        pricing: {
          type: 'price_details',
          price_details: { price: l.price, product: l.product },
          unit_amount_decimal: String(o.amountPaid - tax),
        },
        quantity: 1,
      })),
      has_more: false,
      url: `/v1/invoices/${id}/lines`,
    },
    ...(o.discountShape === 'legacy'
      ? {
          discount: o.promotionCodes?.[0]
            ? { id: stripeId('di'), object: 'discount', coupon: { id: stripeId('co') }, promotion_code: o.promotionCodes[0] }
            : null,
        }
      : {
          discounts: (o.promotionCodes ?? []).map((promo) => ({
            id: stripeId('di'),
            object: 'discount',
            coupon: { id: stripeId('co') },
            promotion_code: promo,
          })),
        }),
    customer_address: o.customerCountry
      ? { country: o.customerCountry, city: null, line1: null, line2: null, postal_code: null, state: null }
      : null,
    ...(o.paymentIntent === undefined
      ? {}
      : {
          payments: {
            object: 'list',
            data: [invoicePayment({ invoice: id, amountPaid: o.amountPaid, paymentIntent: o.paymentIntent })],
            has_more: false,
          },
        }),
    status_transitions: { finalized_at: paidAt, paid_at: paidAt, voided_at: null, marked_uncollectible_at: null },
    metadata: {},
    livemode: false,
  };
}

/** An invoice payment (the object of `invoice_payment.paid`, since 2025-03-31): which intent paid which invoice. */
export function invoicePayment(o: {
  invoice: string;
  amountPaid: number;
  paymentIntent: string;
  currency?: string;
  paidAt?: number;
}): Json {
  return {
    id: stripeId('inpay'),
    object: 'invoice_payment',
    amount_paid: o.amountPaid,
    amount_requested: o.amountPaid,
    created: o.paidAt ?? 1_740_823_200,
    currency: (o.currency ?? 'usd').toLowerCase(),
    invoice: o.invoice,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: o.paymentIntent },
    status: 'paid',
    status_transitions: { canceled_at: null, paid_at: o.paidAt ?? 1_740_823_200 },
  };
}

/** An invoice in the shape before 2025-03-31: `subscription`, `charge`, `payment_intent` and `tax` at the top. */
export function legacyInvoice(o: {
  id?: string;
  customer: string;
  amountPaid: number;
  tax?: number | null;
  currency?: string;
  subscription?: string | null;
  charge?: string;
  paymentIntent?: string;
  email?: string | null;
}): Json {
  return {
    id: o.id ?? stripeId('in'),
    object: 'invoice',
    status: 'paid',
    currency: (o.currency ?? 'usd').toLowerCase(),
    customer: o.customer,
    customer_email: o.email ?? null,
    amount_paid: o.amountPaid,
    total: o.amountPaid,
    tax: o.tax ?? null,
    subscription: o.subscription === undefined ? stripeId('sub') : o.subscription,
    charge: o.charge ?? stripeId('ch'),
    payment_intent: o.paymentIntent ?? stripeId('pi'),
    paid: true,
    metadata: {},
    livemode: false,
  };
}

export function charge(o: {
  id?: string;
  amount: number;
  amountRefunded: number;
  paymentIntent?: string | null;
  customer?: string;
  currency?: string;
}): Json {
  return {
    id: o.id ?? stripeId('ch'),
    object: 'charge',
    amount: o.amount,
    amount_captured: o.amount,
    amount_refunded: o.amountRefunded,
    refunded: o.amountRefunded >= o.amount,
    captured: true,
    paid: true,
    status: 'succeeded',
    currency: (o.currency ?? 'usd').toLowerCase(),
    customer: o.customer ?? null,
    payment_intent: o.paymentIntent ?? null,
    livemode: false,
  };
}

export function dispute(o: {
  id?: string;
  amount: number;
  charge: string;
  paymentIntent?: string | null;
  status?: string;
  currency?: string;
}): Json {
  return {
    id: o.id ?? stripeId('du'),
    object: 'dispute',
    amount: o.amount,
    charge: o.charge,
    payment_intent: o.paymentIntent ?? null,
    currency: (o.currency ?? 'usd').toLowerCase(),
    reason: 'fraudulent',
    status: o.status ?? 'needs_response',
    is_charge_refundable: false,
    livemode: false,
  };
}

export function subscription(o: { id?: string; customer: string; metadata?: Record<string, string>; status?: string }): Json {
  return {
    id: o.id ?? stripeId('sub'),
    object: 'subscription',
    customer: o.customer,
    status: o.status ?? 'canceled',
    metadata: o.metadata ?? {},
    cancel_at_period_end: false,
    canceled_at: null,
    livemode: false,
  };
}

export function customer(o: { id?: string; email?: string | null; metadata?: Record<string, string> }): Json {
  return {
    id: o.id ?? stripeId('cus'),
    object: 'customer',
    email: o.email ?? null,
    name: null,
    metadata: o.metadata ?? {},
    livemode: false,
  };
}

/** The event envelope, as in Stripe's API reference for the Event object. */
export function stripeEvent(type: string, object: Json, opts: { id?: string; created?: number; livemode?: boolean } = {}): Json {
  return {
    id: opts.id ?? stripeId('evt'),
    object: 'event',
    api_version: '2026-10-28.endive',
    created: opts.created ?? 1_740_823_200,
    type,
    livemode: opts.livemode ?? false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/** The Stripe-Signature header Stripe would send for `payload` at `timestamp` (unix seconds). */
export function signedHeader(payload: string, secret: string, timestamp: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

/** A signing secret shaped like Stripe's: whsec_ and 32 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
}

export interface Posted {
  status: number;
  headers: Headers;
  // any: each test reads the JSON it expects.
  body: any;
}

/** Posts the event to a webhook URL, signed with `secret` at `timestamp` unless `header` is given. */
export async function postEvent(
  url: string,
  event: Json | string,
  secret: string,
  opts: { timestamp: number; header?: string | null },
): Promise<Posted> {
  const payload = typeof event === 'string' ? event : JSON.stringify(event, null, 2);
  const header = opts.header === undefined ? signedHeader(payload, secret, opts.timestamp) : opts.header;
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
  };
  if (header !== null) headers['stripe-signature'] = header;
  const res = await fetch(url, { method: 'POST', headers, body: payload });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
