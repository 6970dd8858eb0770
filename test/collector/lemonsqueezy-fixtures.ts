// Lemon Squeezy's webhooks as Lemon Squeezy sends them, written from its public references
// (API v1: docs.lemonsqueezy.com's webhook, order, subscription and subscription invoice
// pages and its API changelog up to June 2025, checked against webhook bodies published in
// public repositories): JSON:API resource objects under `data`, with `meta` around them,
// signed as Lemon Squeezy signs them. No code is taken from anywhere; only the outside
// world is faked here, the collector receiving them is real.
//
// What a payload does not carry: an order names no discount code (only `discount_total` and
// a `discount-redemptions` relationship link; the code is on the discount redemption, from
// the API), no customer country, and no event id (`meta.webhook_id` is a UUID per delivery).

import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Collector } from './harness.js';
import type { Posted } from './stripe-fixtures.js';

type Json = Record<string, unknown>;

/** 2025-03-01 10:00:00 UTC, the harness's T0, as Lemon Squeezy writes times. */
const AT = '2025-03-01T10:00:00.000000Z';
const API = 'https://api.lemonsqueezy.com/v1';
const STORE_ID = 178_624;

// A random start, then a serial: ids unique in the run, and unlike another run's.
let next = 1_000_000 + Math.floor(Math.random() * 8_000_000);
/** An id as Lemon Squeezy's: an integer, sent as a string in `data.id` (and as a number in attributes). */
export function lsId(): string {
  next++;
  return String(next);
}

const num = (id: string): number => Number(id);

/** An amount in the currency's minor units, formatted as the `*_formatted` fields are ('$9.99', '€4.99', 'PLN0.00'). */
function formatted(cents: number, currency: string): string {
  const symbol: Record<string, string> = { USD: '$', EUR: '€', GBP: '£' };
  return `${symbol[currency] ?? currency}${(cents / 100).toFixed(2)}`;
}

/** A currency's rate to USD as LS writes it ('1.00000000'): 1 for USD, an example rate otherwise. */
function rateFor(currency: string, rate: number | undefined): number {
  return rate ?? (currency === 'USD' ? 1 : 1.15244947);
}

/** Relationships as a webhook carries them: links only, no `data` (nothing is included). */
function relationships(type: string, id: string, names: string[]): Json {
  return Object.fromEntries(
    names.map((name) => [name, { links: { self: `${API}/${type}/${id}/relationships/${name}`, related: `${API}/${type}/${id}/${name}` } }]),
  );
}

function statusFormatted(status: string): string {
  // Observed: 'Paid', 'Refunded'; 'Partial Refund' is this fixture's guess for partial_refund.
  return status === 'partial_refund' ? 'Partial Refund' : status.charAt(0).toUpperCase() + status.slice(1);
}

/** The money attributes an order and a subscription invoice share: order currency and USD. */
function amounts(o: {
  currency: string;
  rate: number;
  subtotal: number;
  discountTotal: number;
  tax: number;
  refundedAmount: number;
}): Json {
  const { currency, rate } = o;
  // LS: total = subtotal - discount_total + tax (tax-exclusive prices).
  const total = o.subtotal - o.discountTotal + o.tax;
  const usd = (n: number): number => Math.round(n * rate);
  return {
    currency,
    currency_rate: rate.toFixed(8),
    subtotal: o.subtotal,
    discount_total: o.discountTotal,
    tax: o.tax,
    total,
    refunded_amount: o.refundedAmount,
    subtotal_usd: usd(o.subtotal),
    discount_total_usd: usd(o.discountTotal),
    tax_usd: usd(o.tax),
    total_usd: usd(total),
    refunded_amount_usd: usd(o.refundedAmount),
    tax_inclusive: false,
    subtotal_formatted: formatted(o.subtotal, currency),
    discount_total_formatted: formatted(o.discountTotal, currency),
    tax_formatted: formatted(o.tax, currency),
    total_formatted: formatted(total, currency),
    refunded_amount_formatted: formatted(o.refundedAmount, currency),
  };
}

type PaymentStatus = 'paid' | 'refunded' | 'partial_refund' | 'pending' | 'failed';

/**
 * An `orders` resource, as `data` of order_created / order_refunded. `refunded_amount` is the
 * order's running total refunded (since August 2024); `refunded` is true only once fully
 * refunded; a partial refund leaves status 'partial_refund'. Options have no discount code:
 * the order carries none (see the header).
 */
export function lsOrder(o: {
  id?: string;
  customerId?: string;
  email: string;
  name?: string;
  currency?: string;
  /** The order currency's rate to USD; 1 for USD by default. */
  currencyRate?: number;
  /** Before discount and tax, in cents (an integer, as LS sends). */
  subtotal: number;
  discountTotal?: number;
  tax?: number;
  status?: PaymentStatus | 'fraudulent';
  /** Running total refunded, in cents; the whole total by default when status is 'refunded'. */
  refundedAmount?: number;
  productId?: string;
  variantId?: string;
  productName?: string;
  orderNumber?: number;
  createdAt?: string;
  updatedAt?: string;
  testMode?: boolean;
}): Json {
  const id = o.id ?? lsId();
  const currency = (o.currency ?? 'USD').toUpperCase();
  const rate = rateFor(currency, o.currencyRate);
  const discountTotal = o.discountTotal ?? 0;
  const tax = o.tax ?? 0;
  const total = o.subtotal - discountTotal + tax;
  const status = o.status ?? 'paid';
  const refundedAmount = o.refundedAmount ?? (status === 'refunded' ? total : 0);
  const refunded = status === 'refunded';
  const createdAt = o.createdAt ?? AT;
  const updatedAt = o.updatedAt ?? createdAt;
  const identifier = randomUUID();
  const testMode = o.testMode ?? true;
  const taxable = o.subtotal - discountTotal;
  return {
    type: 'orders',
    id,
    attributes: {
      store_id: STORE_ID,
      customer_id: num(o.customerId ?? lsId()),
      identifier,
      order_number: o.orderNumber ?? num(lsId()),
      user_name: o.name ?? 'A Customer',
      user_email: o.email,
      ...amounts({ currency, rate, subtotal: o.subtotal, discountTotal, tax, refundedAmount }),
      setup_fee: 0,
      setup_fee_usd: 0,
      setup_fee_formatted: formatted(0, currency),
      // null when no tax applied (the docs); a percentage string otherwise.
      tax_name: tax > 0 ? 'VAT' : null,
      tax_rate: tax > 0 && taxable > 0 ? ((tax / taxable) * 100).toFixed(2) : '0.00',
      status,
      status_formatted: statusFormatted(status),
      refunded,
      refunded_at: refundedAmount > 0 ? updatedAt : null,
      first_order_item: {
        id: num(lsId()),
        order_id: num(id),
        product_id: num(o.productId ?? lsId()),
        variant_id: num(o.variantId ?? lsId()),
        price_id: num(lsId()),
        quantity: 1,
        product_name: o.productName ?? 'Pro plan',
        variant_name: 'Default',
        price: o.subtotal,
        created_at: createdAt,
        updated_at: createdAt,
        test_mode: testMode,
      },
      urls: { receipt: `https://app.lemonsqueezy.com/my-orders/${identifier}?signature=${randomBytes(32).toString('hex')}` },
      created_at: createdAt,
      updated_at: updatedAt,
      test_mode: testMode,
    },
    relationships: relationships('orders', id, [
      'store',
      'customer',
      'order-items',
      'license-keys',
      'subscriptions',
      'discount-redemptions',
    ]),
    links: { self: `${API}/orders/${id}` },
  };
}

/**
 * A `subscription-invoices` resource, as `data` of subscription_payment_success /
 * subscription_payment_refunded (and _failed / _recovered). It names the subscription and
 * customer, but no order, product or variant: those are on the subscription.
 */
export function lsSubscriptionInvoice(o: {
  id?: string;
  subscriptionId: string;
  customerId?: string;
  email: string;
  name?: string;
  /** 'initial' comes with the subscription's first order (order_created is sent for it too). */
  billingReason?: 'initial' | 'renewal' | 'updated';
  subtotal: number;
  discountTotal?: number;
  tax?: number;
  currency?: string;
  currencyRate?: number;
  status?: 'paid' | 'refunded' | 'partial_refund' | 'pending' | 'void';
  refundedAmount?: number;
  createdAt?: string;
  updatedAt?: string;
  testMode?: boolean;
}): Json {
  const id = o.id ?? lsId();
  const currency = (o.currency ?? 'USD').toUpperCase();
  const rate = rateFor(currency, o.currencyRate);
  const discountTotal = o.discountTotal ?? 0;
  const tax = o.tax ?? 0;
  const total = o.subtotal - discountTotal + tax;
  const status = o.status ?? 'paid';
  const refundedAmount = o.refundedAmount ?? (status === 'refunded' ? total : 0);
  const createdAt = o.createdAt ?? AT;
  const updatedAt = o.updatedAt ?? createdAt;
  return {
    type: 'subscription-invoices',
    id,
    attributes: {
      store_id: STORE_ID,
      subscription_id: num(o.subscriptionId),
      customer_id: num(o.customerId ?? lsId()),
      user_name: o.name ?? 'A Customer',
      user_email: o.email,
      billing_reason: o.billingReason ?? 'renewal',
      card_brand: 'visa',
      card_last_four: '4242',
      ...amounts({ currency, rate, subtotal: o.subtotal, discountTotal, tax, refundedAmount }),
      status,
      status_formatted: statusFormatted(status),
      refunded: status === 'refunded',
      refunded_at: refundedAmount > 0 ? updatedAt : null,
      urls: {
        // null while pending (the docs).
        invoice_url:
          status === 'pending'
            ? null
            : `https://app.lemonsqueezy.com/my-orders/${randomUUID()}/subscription-invoice/${id}?signature=${randomBytes(32).toString('hex')}`,
      },
      created_at: createdAt,
      updated_at: updatedAt,
      test_mode: o.testMode ?? true,
    },
    relationships: relationships('subscription-invoices', id, ['store', 'subscription', 'customer']),
    links: { self: `${API}/subscription-invoices/${id}` },
  };
}

/** A `subscriptions` resource, as `data` of subscription_cancelled (and the other subscription_* events). */
export function lsSubscription(o: {
  id?: string;
  orderId?: string;
  customerId?: string;
  email: string;
  name?: string;
  status?: 'on_trial' | 'active' | 'paused' | 'past_due' | 'unpaid' | 'cancelled' | 'expired';
  productId?: string;
  variantId?: string;
  productName?: string;
  testMode?: boolean;
}): Json {
  const id = o.id ?? lsId();
  const status = o.status ?? 'cancelled';
  const cancelled = status === 'cancelled' || status === 'expired';
  const renewsAt = '2025-04-01T10:00:00.000000Z';
  const testMode = o.testMode ?? true;
  const signature = (): string => randomBytes(32).toString('hex');
  return {
    type: 'subscriptions',
    id,
    attributes: {
      store_id: STORE_ID,
      customer_id: num(o.customerId ?? lsId()),
      order_id: num(o.orderId ?? lsId()),
      order_item_id: num(lsId()),
      product_id: num(o.productId ?? lsId()),
      variant_id: num(o.variantId ?? lsId()),
      product_name: o.productName ?? 'Pro plan',
      variant_name: 'Monthly',
      user_name: o.name ?? 'A Customer',
      user_email: o.email,
      status,
      status_formatted: statusFormatted(status),
      card_brand: 'visa',
      card_last_four: '4242',
      payment_processor: 'stripe',
      pause: null,
      cancelled,
      trial_ends_at: null,
      billing_anchor: 1,
      first_subscription_item: {
        id: num(lsId()),
        subscription_id: num(id),
        price_id: num(lsId()),
        quantity: 1,
        is_usage_based: false,
        created_at: '2025-01-01T10:00:00.000000Z',
        updated_at: AT,
      },
      urls: {
        update_payment_method: `https://shop.lemonsqueezy.com/subscription/${id}/payment-details?expires=1740909600&signature=${signature()}`,
        customer_portal: `https://shop.lemonsqueezy.com/billing?expires=1740909600&user=1&signature=${signature()}`,
        customer_portal_update_subscription: `https://shop.lemonsqueezy.com/billing/${id}/update?expires=1740909600&user=1&signature=${signature()}`,
      },
      renews_at: renewsAt,
      // A cancelled subscription runs to the end of its period: its grace period.
      ends_at: cancelled ? renewsAt : null,
      created_at: '2025-01-01T10:00:00.000000Z',
      updated_at: AT,
      test_mode: testMode,
    },
    relationships: relationships('subscriptions', id, [
      'store',
      'customer',
      'order',
      'order-item',
      'product',
      'variant',
      'subscription-items',
      'subscription-invoices',
    ]),
    links: { self: `${API}/subscriptions/${id}` },
  };
}

/**
 * A `discount-redemptions` resource as the API returns it (GET /v1/discount-redemptions?
 * filter[order_id]=…), never in a webhook: the only place an order's discount code is.
 */
export function lsDiscountRedemption(o: { id?: string; orderId: string; code: string; amount: number; discountId?: string }): Json {
  const id = o.id ?? lsId();
  return {
    type: 'discount-redemptions',
    id,
    attributes: {
      discount_id: num(o.discountId ?? lsId()),
      order_id: num(o.orderId),
      discount_name: 'Partner discount',
      discount_code: o.code,
      discount_amount: 10,
      discount_amount_type: 'percent',
      amount: o.amount,
      created_at: AT,
      updated_at: AT,
    },
    relationships: relationships('discount-redemptions', id, ['discount', 'order']),
    links: { self: `${API}/discount-redemptions/${id}` },
  };
}

/**
 * The webhook body: the resource under `data`, and `meta` with the event's name, the test
 * mode, a `webhook_id` (a UUID, different on each event) and `custom_data` only when the
 * checkout set some (`checkout[custom][…]`; values arrive as the checkout sent them).
 */
export function lsEvent(
  eventName: string,
  data: Json,
  opts: { customData?: Record<string, unknown>; testMode?: boolean; webhookId?: string } = {},
): Json {
  return {
    data,
    meta: {
      test_mode: opts.testMode ?? true,
      event_name: eventName,
      webhook_id: opts.webhookId ?? randomUUID(),
      ...(opts.customData === undefined ? {} : { custom_data: opts.customData }),
    },
  };
}

/** The X-Signature header: the hex HMAC-SHA256 of the raw body, keyed with the signing secret. */
export function lsSignature(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** A signing secret: LS takes whatever the user types, 6 to 40 characters; here 32 random ones. */
export function newLsSecret(): string {
  return randomBytes(24).toString('base64url');
}

/** Posts a raw body to the collector's Lemon Squeezy webhook, with X-Signature when given and X-Event-Name. */
export async function postLs(
  c: Pick<Collector, 'url'>,
  endpoint: string,
  body: string,
  signature: string | undefined,
  eventName?: string,
): Promise<Posted> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  // LS always sends the event's name in a header too; taken from the body unless given.
  const name = eventName ?? eventNameOf(body);
  if (name !== undefined) headers['x-event-name'] = name;
  if (signature !== undefined) headers['x-signature'] = signature;
  const res = await fetch(`${c.url}/v1/integrations/lemonsqueezy/webhook/${endpoint}`, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

function eventNameOf(body: string): string | undefined {
  try {
    const name: unknown = JSON.parse(body)?.meta?.event_name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}
