// Paddle Billing's notifications as Paddle sends them, written from its public references
// (API v1; the webhook pages under developer.paddle.com/webhooks as they stand in 2026,
// and the entity shapes of @paddle/paddle-node-sdk 3.8's notification types): the envelope
// and the entities Tally reads, with the fields around them that a real event carries,
// signed as Paddle signs them. No code is taken from either; only the outside world is
// faked here, the collector receiving them is real.
//
// What a transaction does not carry (so a handler must get it elsewhere): the customer's
// e-mail (customer.created / customer.updated), the customer's country (address.created,
// by address_id), and a discount's code (discount.created, by discount_id).

import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Collector } from './harness.js';
import type { Posted } from './stripe-fixtures.js';

type Json = Record<string, unknown>;

/** 2025-03-01 10:00:00 UTC, the harness's T0, as Paddle writes times (RFC 3339, microseconds). */
const AT = '2025-03-01T10:00:00.000000Z';

let serial = 0;
/**
 * A Paddle-looking id: the prefix, `_` and 26 lowercase alphanumerics (Paddle's pattern is
 * `^prefix_[a-z\d]{26}$`), unique in the test run: a serial, then random characters.
 */
export function paddleId(prefix: string): string {
  serial++;
  // 3 + 6 + 17 = 26 characters.
  const random = Array.from(randomBytes(17), (b) => (b % 36).toString(36)).join('');
  return `${prefix}_01t${serial.toString(36).padStart(6, '0')}${random}`;
}

/** Minor units as Paddle writes amounts: a string of an integer. */
const money = (n: number): string => String(Math.round(n));

/** Paddle's fee on a sale: 5% + 50 cents, rounded (the SDK's sample: 65215 → 3311). */
const paddleFee = (total: number): number => Math.round(total * 0.05 + 50);

/** A tax rate as Paddle writes it: a decimal string ('0.2', '0.08875'). */
function taxRate(taxable: number, tax: number): string {
  if (taxable <= 0 || tax <= 0) return '0';
  return String(Number((tax / taxable).toFixed(5)));
}

export interface TransactionOptions {
  id?: string;
  /**
   * 'completed' (transaction.completed: fully processed, with payout totals, invoice and,
   * for recurring items, subscription_id), 'paid' (transaction.paid: payment captured but
   * not yet processed, so fee, earnings and payout totals are null), or 'billed' (an issued
   * invoice, manually collected, no payment yet).
   */
  status?: 'completed' | 'paid' | 'billed';
  customerId?: string | null;
  /** Where the customer's country is: the address entity (address.created), not the transaction. */
  addressId?: string | null;
  subscriptionId?: string | null;
  /** How it was created: 'web' for a checkout, 'subscription_recurring' for a renewal, 'api', … */
  origin?: 'web' | 'api' | 'subscription_recurring' | 'subscription_charge' | 'subscription_update' | 'subscription_payment_method_change';
  /** Upper case, as Paddle's `currency_code`. */
  currency?: string;
  /** Before discount and tax, in minor units. */
  subtotal: number;
  /** Amount off, in minor units. */
  discount?: number;
  tax?: number;
  customData?: Record<string, unknown> | null;
  /** dsc_…: the transaction names the discount, never its code. */
  discountId?: string | null;
  priceId?: string;
  productId?: string;
  productName?: string;
  /** The line item's id (txnitm_…), for an adjustment to name. */
  itemId?: string;
  billedAt?: string;
  createdAt?: string;
}

/** A transaction entity, as `data` of transaction.completed / transaction.paid / transaction.billed. */
export function transaction(o: TransactionOptions): Json {
  const status = o.status ?? 'completed';
  const currency = (o.currency ?? 'USD').toUpperCase();
  const subtotal = o.subtotal;
  const discount = o.discount ?? 0;
  const tax = o.tax ?? 0;
  // Paddle: total = subtotal - discount + tax; grand_total = total - credit (no credit here).
  const total = subtotal - discount + tax;
  const processed = status === 'completed';
  const fee = processed ? paddleFee(total) : null;
  const earnings = fee === null ? null : total - tax - fee;
  const subscriptionId = o.subscriptionId ?? null;
  const recurring = subscriptionId !== null || (o.origin ?? 'web').startsWith('subscription');
  const id = o.id ?? paddleId('txn');
  const priceId = o.priceId ?? paddleId('pri');
  const productId = o.productId ?? paddleId('pro');
  const createdAt = o.createdAt ?? AT;
  const billedAt = o.billedAt ?? AT;
  const rate = taxRate(subtotal - discount, tax);
  const lineTotals = { subtotal: money(subtotal), discount: money(discount), tax: money(tax), total: money(total) };
  const billingCycle = recurring ? { interval: 'month', frequency: 1 } : null;
  const manual = status === 'billed';
  const totals = {
    subtotal: money(subtotal),
    discount: money(discount),
    tax: money(tax),
    total: money(total),
    credit: '0',
    credit_to_balance: '0',
    // What is still due: all of it on an unpaid invoice, nothing once paid.
    balance: manual ? money(total) : '0',
    grand_total: money(total),
    grand_total_tax: money(tax),
    fee: fee === null ? null : money(fee),
    earnings: earnings === null ? null : money(earnings),
    currency_code: currency,
  };
  // Payout totals are in the seller's balance currency; here the same currency at rate 1.
  const payoutTotals = processed ? { ...totals, exchange_rate: '1', fee_rate: '0.05' } : null;
  const adjustedTotals = {
    subtotal: money(subtotal),
    tax: money(tax),
    total: money(total),
    grand_total: money(total),
    grand_total_tax: money(tax),
    fee: totals.fee,
    earnings: totals.earnings,
    currency_code: currency,
    retained_fee: '0',
  };
  return {
    id,
    status,
    customer_id: o.customerId === undefined ? paddleId('ctm') : o.customerId,
    address_id: o.addressId === undefined ? paddleId('add') : o.addressId,
    business_id: null,
    custom_data: o.customData ?? null,
    currency_code: currency,
    origin: o.origin ?? 'web',
    subscription_id: subscriptionId,
    // Completed transactions get an invoice number; paid ones not yet.
    invoice_id: processed || manual ? paddleId('inv') : null,
    invoice_number: processed || manual ? `325-${String(10_000 + serial)}` : null,
    collection_mode: manual ? 'manual' : 'automatic',
    discount_id: o.discountId ?? null,
    billing_details: manual
      ? {
          enable_checkout: true,
          payment_terms: { interval: 'day', frequency: 14 },
          purchase_order_number: null,
          additional_information: null,
        }
      : null,
    billing_period: recurring ? { starts_at: billedAt, ends_at: addMonth(billedAt) } : null,
    items: [
      {
        price_id: priceId,
        price: {
          id: priceId,
          product_id: productId,
          description: recurring ? 'Monthly' : 'One-time purchase',
          type: 'standard',
          name: recurring ? 'Monthly' : 'One-time',
          billing_cycle: billingCycle,
          trial_period: null,
          tax_mode: 'account_setting',
          unit_price: { amount: money(subtotal), currency_code: currency },
          unit_price_overrides: [],
          quantity: { minimum: 1, maximum: 1 },
          status: 'active',
          custom_data: null,
          import_meta: null,
          created_at: '2025-01-15T09:00:00.000000Z',
          updated_at: '2025-01-15T09:00:00.000000Z',
        },
        quantity: 1,
        proration: null,
      },
    ],
    details: {
      tax_rates_used: [{ tax_rate: rate, totals: lineTotals }],
      totals,
      adjusted_totals: adjustedTotals,
      payout_totals: payoutTotals,
      adjusted_payout_totals: processed
        ? {
            subtotal: money(subtotal),
            tax: money(tax),
            total: money(total),
            fee: totals.fee,
            earnings: totals.earnings,
            currency_code: currency,
            exchange_rate: '1',
            retained_fee: '0',
            chargeback_fee: { amount: '0', original: null },
          }
        : null,
      line_items: [
        {
          id: o.itemId ?? paddleId('txnitm'),
          price_id: priceId,
          quantity: 1,
          proration: null,
          tax_rate: rate,
          unit_totals: lineTotals,
          totals: lineTotals,
          product: {
            id: productId,
            name: o.productName ?? 'Pro plan',
            description: null,
            type: 'standard',
            tax_category: 'standard',
            image_url: null,
            custom_data: null,
            status: 'active',
            import_meta: null,
            created_at: '2025-01-15T09:00:00.000000Z',
            updated_at: '2025-01-15T09:00:00.000000Z',
          },
        },
      ],
    },
    payments: manual
      ? []
      : [
          {
            payment_attempt_id: randomUUID(),
            stored_payment_method_id: randomUUID(),
            payment_method_id: paddleId('paymtd'),
            amount: money(total),
            status: 'captured',
            error_code: null,
            method_details: {
              type: 'card',
              card: { type: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030, cardholder_name: 'A Customer' },
              paypal: null,
              south_korea_local_card: null,
              underlying_details: null,
            },
            created_at: billedAt,
            captured_at: billedAt,
          },
        ],
    checkout: { url: `https://shop.example/pay?_ptxn=${id}` },
    created_at: createdAt,
    updated_at: billedAt,
    billed_at: billedAt,
    revised_at: null,
  };
}

function addMonth(iso: string): string {
  const d = new Date(iso);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export type AdjustmentAction = 'refund' | 'credit' | 'chargeback' | 'chargeback_warning' | 'chargeback_reverse' | 'credit_reverse';

/**
 * An adjustment entity, as `data` of adjustment.created / adjustment.updated. Each adjustment
 * is one refund, credit or chargeback of its own amount (not a running total of the
 * transaction's). A live refund is created 'pending_approval' (adjustment.created) and
 * becomes 'approved' or 'rejected' (adjustment.updated); credits and chargebacks are created
 * 'approved'. The default here is 'approved' for every action: pass the status a test means.
 */
export function adjustment(o: {
  id?: string;
  transactionId: string;
  action: AdjustmentAction;
  type?: 'full' | 'partial';
  status?: 'pending_approval' | 'approved' | 'rejected' | 'reversed';
  /** The amount adjusted, tax included, in minor units (positive, as Paddle writes it). */
  total: number;
  tax?: number;
  currency?: string;
  customerId?: string;
  subscriptionId?: string | null;
  reason?: string;
  /** The transaction's line item (txnitm_…) it adjusts. */
  itemId?: string;
  createdAt?: string;
  updatedAt?: string;
}): Json {
  const currency = (o.currency ?? 'USD').toUpperCase();
  const tax = o.tax ?? 0;
  const subtotal = o.total - tax;
  // The share of Paddle's fee given back with the refund; the rest of it Paddle keeps.
  const fee = Math.round(o.total * 0.05);
  const earnings = subtotal - fee;
  const type = o.type ?? 'full';
  const chargeback = o.action === 'chargeback' || o.action === 'chargeback_warning';
  const totals = {
    subtotal: money(subtotal),
    tax: money(tax),
    total: money(o.total),
    fee: money(fee),
    earnings: money(earnings),
    currency_code: currency,
    retained_fee: '0',
  };
  const createdAt = o.createdAt ?? AT;
  return {
    id: o.id ?? paddleId('adj'),
    action: o.action,
    type,
    transaction_id: o.transactionId,
    subscription_id: o.subscriptionId ?? null,
    customer_id: o.customerId ?? paddleId('ctm'),
    reason: o.reason ?? defaultReason(o.action),
    // Only credits go to the customer's credit balance.
    credit_applied_to_balance: o.action === 'credit' ? true : null,
    currency_code: currency,
    status: o.status ?? 'approved',
    items: [
      {
        id: paddleId('adjitm'),
        item_id: o.itemId ?? paddleId('txnitm'),
        type,
        amount: money(o.total),
        proration: null,
        totals: { subtotal: money(subtotal), tax: money(tax), total: money(o.total) },
      },
    ],
    totals,
    payout_totals: {
      ...totals,
      // Paddle's dispute fee, charged on chargebacks only.
      chargeback_fee: chargeback ? { amount: '1500', original: null } : null,
    },
    created_at: createdAt,
    updated_at: o.updatedAt ?? createdAt,
  };
}

function defaultReason(action: AdjustmentAction): string {
  switch (action) {
    case 'refund':
      return 'Customer requested a refund';
    case 'credit':
      return 'Goodwill credit';
    default:
      return 'Disputed with the card issuer';
  }
}

/** A subscription entity, as `data` of subscription.canceled (and the other subscription.* events). */
export function subscription(o: {
  id?: string;
  customerId: string;
  status?: 'active' | 'canceled' | 'past_due' | 'paused' | 'trialing';
  customData?: Record<string, unknown> | null;
  currency?: string;
  canceledAt?: string;
  priceId?: string;
  productId?: string;
  /** In minor units. */
  unitPrice?: number;
  discountId?: string | null;
}): Json {
  const status = o.status ?? 'canceled';
  const currency = (o.currency ?? 'USD').toUpperCase();
  const priceId = o.priceId ?? paddleId('pri');
  const productId = o.productId ?? paddleId('pro');
  const canceled = status === 'canceled';
  const canceledAt = canceled ? (o.canceledAt ?? AT) : null;
  return {
    id: o.id ?? paddleId('sub'),
    status,
    customer_id: o.customerId,
    address_id: paddleId('add'),
    business_id: null,
    currency_code: currency,
    created_at: '2025-01-01T10:00:00.000000Z',
    updated_at: canceledAt ?? AT,
    started_at: '2025-01-01T10:00:00.000000Z',
    first_billed_at: '2025-01-01T10:00:00.000000Z',
    // A canceled subscription bills no more.
    next_billed_at: canceled ? null : '2025-04-01T10:00:00.000000Z',
    paused_at: null,
    canceled_at: canceledAt,
    discount: o.discountId ? { id: o.discountId, starts_at: '2025-01-01T10:00:00.000000Z', ends_at: null } : null,
    collection_mode: 'automatic',
    billing_details: null,
    current_billing_period: canceled ? null : { starts_at: '2025-03-01T10:00:00.000000Z', ends_at: '2025-04-01T10:00:00.000000Z' },
    billing_cycle: { interval: 'month', frequency: 1 },
    scheduled_change: null,
    items: [
      {
        status: 'active',
        quantity: 1,
        recurring: true,
        created_at: '2025-01-01T10:00:00.000000Z',
        updated_at: canceledAt ?? AT,
        previously_billed_at: '2025-03-01T10:00:00.000000Z',
        next_billed_at: null,
        trial_dates: null,
        price: {
          id: priceId,
          product_id: productId,
          description: 'Monthly',
          tax_mode: 'account_setting',
          billing_cycle: { interval: 'month', frequency: 1 },
          trial_period: null,
          unit_price: { amount: money(o.unitPrice ?? 2900), currency_code: currency },
        },
        product: {
          id: productId,
          name: 'Pro plan',
          description: null,
          type: 'standard',
          tax_category: 'standard',
          image_url: null,
          custom_data: null,
          status: 'active',
          created_at: '2025-01-15T09:00:00.000000Z',
        },
      },
    ],
    custom_data: o.customData ?? null,
    import_meta: null,
  };
}

/** A customer entity, as `data` of customer.created / customer.updated: where the e-mail is. */
export function customer(o: { id?: string; email: string; name?: string | null; customData?: Record<string, unknown> | null }): Json {
  return {
    id: o.id ?? paddleId('ctm'),
    name: o.name ?? null,
    email: o.email,
    marketing_consent: false,
    status: 'active',
    custom_data: o.customData ?? null,
    locale: 'en',
    created_at: AT,
    updated_at: AT,
    import_meta: null,
  };
}

/** An address entity, as `data` of address.created / address.updated: where the country is. */
export function address(o: { id?: string; customerId: string; countryCode: string; postalCode?: string | null }): Json {
  return {
    id: o.id ?? paddleId('add'),
    customer_id: o.customerId,
    description: null,
    first_line: null,
    second_line: null,
    city: null,
    postal_code: o.postalCode ?? null,
    region: null,
    country_code: o.countryCode.toUpperCase(),
    custom_data: null,
    status: 'active',
    created_at: AT,
    updated_at: AT,
    import_meta: null,
  };
}

/** A discount entity, as `data` of discount.created / discount.updated: where a code is. */
export function discount(o: {
  id?: string;
  code: string | null;
  type?: 'percentage' | 'flat' | 'flat_per_seat';
  /** A percentage ('10' = 10%) or, for flat types, minor units. */
  amount?: string;
  currency?: string;
  customData?: Record<string, unknown> | null;
}): Json {
  const type = o.type ?? 'percentage';
  return {
    id: o.id ?? paddleId('dsc'),
    status: 'active',
    description: 'Partner discount',
    enabled_for_checkout: true,
    code: o.code,
    type,
    mode: 'standard',
    amount: o.amount ?? '10',
    // Percentages have no currency.
    currency_code: type === 'percentage' ? null : (o.currency ?? 'USD').toUpperCase(),
    recur: false,
    maximum_recurring_intervals: null,
    usage_limit: null,
    restrict_to: null,
    expires_at: null,
    times_used: 0,
    discount_group_id: null,
    custom_data: o.customData ?? null,
    import_meta: null,
    created_at: AT,
    updated_at: AT,
  };
}

/** The notification envelope: every webhook Paddle sends has these five fields. */
export function paddleEvent(eventType: string, data: Json, opts: { eventId?: string; occurredAt?: string } = {}): Json {
  return {
    event_id: opts.eventId ?? paddleId('evt'),
    event_type: eventType,
    occurred_at: opts.occurredAt ?? AT,
    notification_id: paddleId('ntf'),
    data,
  };
}

/**
 * The Paddle-Signature header for `body` at `ts` (unix seconds): `ts=…;h1=…`, h1 the hex
 * HMAC-SHA256 of `${ts}:${body}` keyed with the whole endpoint secret key. Checked against
 * @paddle/paddle-node-sdk 3.8 (WebhooksValidator and NodeCrypto.computeHmac): it splits the
 * header on ';' and '=', signs `${ts}:${rawBody}` with createHmac('sha256', secretKey) in hex,
 * and reproduces its test vector (VALID_SECRET, '{"data": ["1", "2"]}', ts 1698796800 →
 * a300428748dce5c7…). Its verifier also refuses a ts more than 5 seconds old by the real
 * clock, so a test signing at the harness's clock cannot go through the SDK unchanged.
 */
export function paddleSignature(body: string, secret: string, ts: number): string {
  const h1 = createHmac('sha256', secret).update(`${ts}:${body}`).digest('hex');
  return `ts=${ts};h1=${h1}`;
}

/**
 * A secret shaped like a notification destination's `endpoint_secret_key`:
 * `pdl_ntfset_`, the destination's id (ntfset_'s 26 characters), `_` and 32 random
 * base64 characters, as keys issued today look (older docs showed 64 hex characters).
 */
export function newPaddleSecret(): string {
  const destination = paddleId('ntfset').slice('ntfset_'.length);
  return `pdl_ntfset_${destination}_${randomBytes(24).toString('base64')}`;
}

/** Posts a raw body to the collector's Paddle webhook, with a Paddle-Signature header when given. */
export async function postPaddle(c: Pick<Collector, 'url'>, endpoint: string, body: string, header: string | undefined): Promise<Posted> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (header !== undefined) headers['paddle-signature'] = header;
  const res = await fetch(`${c.url}/v1/integrations/paddle/webhook/${endpoint}`, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
