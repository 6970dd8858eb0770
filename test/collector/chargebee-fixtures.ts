// Chargebee's webhooks as Chargebee sends them, written from its public API reference (API v2,
// apidocs.chargebee.com/docs/api/events, and the transaction, invoice, customer,
// subscription and credit note resources as the reference and chargebee-node's types
// describe them): the event envelope and the resources in its `content`, with the fields
// around them a real event carries. Times are unix seconds, amounts the currency's minor
// units. Chargebee signs nothing: it sends the basic auth username and password the owner
// set for the webhook URL. Only the outside world is faked here.

import { randomBytes } from 'node:crypto';
import type { Collector } from './harness.js';
import type { Posted } from './stripe-fixtures.js';

type Json = Record<string, unknown>;

/** 2025-03-01 10:00:00 UTC, the harness's T0. */
export const T0 = Date.UTC(2025, 2, 1, 10) / 1000;
const DAY = 86_400;

let serial = 0;
/** A Chargebee-looking id: its prefix and 16 characters (`ev_16BHbhF4s42tO2lK`), unique in the run. */
export function cbId(prefix = ''): string {
  serial++;
  const random = randomBytes(12).toString('base64url').replace(/[-_]/g, 'x').slice(0, 11);
  return `${prefix}${serial.toString(36).padStart(5, '0')}${random}`;
}

/** A site's custom fields (top-level `cf_…` fields of the resource) and `meta_data`, where given. */
function extras(o: { cf?: Record<string, string> | undefined; metaData?: Json | undefined }): Json {
  const fields = Object.fromEntries(Object.entries(o.cf ?? {}).map(([k, v]) => [`cf_${k}`, v]));
  return o.metaData ? { ...fields, meta_data: o.metaData } : fields;
}

/** A billing address: the country is what Tally reads of it. */
const billingAddress = (country = 'DE'): Json => ({
  first_name: 'Ada',
  last_name: 'Buyer',
  country,
  validation_status: 'not_validated',
  object: 'billing_address',
});

export interface CustomerOptions {
  id?: string;
  email: string;
  /** Custom fields, as the site defines them (cf_tally_gr_id …): top-level fields of the resource. */
  cf?: Record<string, string>;
  metaData?: Json;
  country?: string;
}

/** A customer resource. */
export function customer(o: CustomerOptions): Json {
  return {
    id: o.id ?? cbId('16CQtCT'),
    first_name: 'Ada',
    last_name: 'Buyer',
    email: o.email,
    auto_collection: 'on',
    net_term_days: 0,
    allow_direct_debit: false,
    created_at: T0 - 60,
    taxability: 'taxable',
    updated_at: T0 - 60,
    pii_cleared: 'active',
    channel: 'web',
    resource_version: (T0 - 60) * 1000,
    deleted: false,
    object: 'customer',
    billing_address: billingAddress(o.country),
    card_status: 'valid',
    promotional_credits: 0,
    refundable_credits: 0,
    excess_payments: 0,
    unbilled_charges: 0,
    preferred_currency_code: 'USD',
    mrr: 0,
    primary_payment_source_id: cbId('pm_'),
    payment_method: {
      object: 'payment_method',
      type: 'card',
      reference_id: cbId('tok_'),
      gateway: 'chargebee',
      gateway_account_id: cbId('gw_'),
      status: 'valid',
    },
    ...extras(o),
  };
}

export interface SubscriptionOptions {
  id?: string;
  customerId: string;
  status?: 'active' | 'cancelled' | 'non_renewing' | 'in_trial';
  currency?: string;
  cf?: Record<string, string>;
  metaData?: Json;
  /** Coupons applied to the subscription: the coupon's id and, from a coupon set, the code typed. */
  coupons?: Array<{ couponId: string; couponCode?: string }>;
  cancelledAt?: number;
}

/** A subscription resource (Product Catalog 2.0: subscription_items of item prices). */
export function subscription(o: SubscriptionOptions): Json {
  const status = o.status ?? 'active';
  const cancelled = status === 'cancelled';
  return {
    id: o.id ?? cbId('AzZTZgTu'),
    billing_period: 1,
    billing_period_unit: 'month',
    customer_id: o.customerId,
    status,
    current_term_start: T0,
    current_term_end: T0 + 31 * DAY,
    next_billing_at: cancelled ? undefined : T0 + 31 * DAY,
    created_at: T0 - 60,
    started_at: T0,
    activated_at: T0,
    ...(cancelled ? { cancelled_at: o.cancelledAt ?? T0 + 40 * DAY, cancel_reason: 'not_paid' } : {}),
    created_from_ip: '203.0.113.7',
    updated_at: T0,
    has_scheduled_changes: false,
    channel: 'web',
    resource_version: T0 * 1000,
    deleted: false,
    object: 'subscription',
    currency_code: o.currency ?? 'USD',
    subscription_items: [
      {
        item_price_id: `pro-${o.currency ?? 'USD'}-Monthly`,
        item_type: 'plan',
        quantity: 1,
        unit_price: 3_000,
        amount: 3_000,
        free_quantity: 0,
        object: 'subscription_item',
      },
    ],
    due_invoices_count: 0,
    mrr: 3_000,
    has_scheduled_advance_invoices: false,
    ...(o.coupons
      ? {
          coupons: o.coupons.map((c) => ({
            coupon_id: c.couponId,
            applied_count: 1,
            ...(c.couponCode ? { coupon_code: c.couponCode } : {}),
            object: 'coupon',
          })),
        }
      : {}),
    ...extras(o),
  };
}

export interface InvoiceOptions {
  id?: string;
  customerId: string;
  subscriptionId?: string | null;
  status?: 'paid' | 'payment_due' | 'posted' | 'not_paid' | 'pending';
  currency?: string;
  /** The line items' amounts before discounts, in minor units. */
  subTotal: number;
  discount?: number;
  tax?: number;
  /** `tax_inclusive`: the prices (and sub_total) include the tax already. */
  priceType?: 'tax_exclusive' | 'tax_inclusive';
  /** A coupon the invoice applied: its id, and the code from a coupon set when one was typed. */
  coupon?: { id: string; setCode?: string };
  date?: number;
  country?: string;
  firstInvoice?: boolean;
  transactionId?: string;
}

/** An invoice resource: total = sub_total - discounts + tax (tax exclusive), or sub_total - discounts (inclusive). */
export function invoice(o: InvoiceOptions): Json {
  const id = o.id ?? String(10_000 + ++serial);
  const status = o.status ?? 'paid';
  const discount = o.discount ?? 0;
  const tax = o.tax ?? 0;
  const inclusive = o.priceType === 'tax_inclusive';
  const total = o.subTotal - discount + (inclusive ? 0 : tax);
  const date = o.date ?? T0;
  const paid = status === 'paid';
  const currency = o.currency ?? 'USD';
  return {
    id,
    customer_id: o.customerId,
    subscription_id: o.subscriptionId ?? undefined,
    recurring: typeof o.subscriptionId === 'string',
    status,
    price_type: o.priceType ?? 'tax_exclusive',
    date,
    due_date: date,
    net_term_days: 0,
    exchange_rate: 1.0,
    total,
    amount_paid: paid ? total : 0,
    amount_adjusted: 0,
    write_off_amount: 0,
    credits_applied: 0,
    amount_due: paid ? 0 : total,
    ...(paid ? { paid_at: date } : {}),
    updated_at: date,
    resource_version: date * 1000,
    deleted: false,
    object: 'invoice',
    first_invoice: o.firstInvoice ?? false,
    amount_to_collect: paid ? 0 : total,
    round_off_amount: 0,
    new_sales_amount: total,
    has_advance_charges: false,
    currency_code: currency,
    base_currency_code: currency,
    generated_at: date,
    is_gifted: false,
    term_finalized: true,
    channel: 'web',
    tax,
    sub_total: o.subTotal,
    line_items: [
      {
        id: cbId('li_'),
        date_from: date,
        date_to: date + 31 * DAY,
        unit_amount: o.subTotal,
        quantity: 1,
        amount: o.subTotal,
        pricing_model: 'flat_fee',
        is_taxed: tax > 0,
        tax_amount: tax,
        tax_rate: tax > 0 ? 19.0 : 0,
        object: 'line_item',
        subscription_id: o.subscriptionId ?? undefined,
        customer_id: o.customerId,
        description: 'Pro Monthly',
        entity_type: 'plan_item_price',
        entity_id: `pro-${currency}-Monthly`,
        tax_exempt_reason: tax > 0 ? undefined : 'tax_not_configured',
        discount_amount: discount,
        item_level_discount_amount: 0,
      },
    ],
    discounts: o.coupon
      ? [
          {
            amount: discount,
            description: o.coupon.id,
            entity_type: 'document_level_coupon',
            discount_type: 'percentage',
            entity_id: o.coupon.id,
            ...(o.coupon.setCode ? { coupon_set_code: o.coupon.setCode } : {}),
            object: 'discount',
          },
        ]
      : [],
    taxes: tax > 0 ? [{ name: 'VAT', amount: tax, description: 'VAT @ 19%', object: 'tax' }] : [],
    line_item_taxes: [],
    linked_payments: paid
      ? [
          {
            txn_id: o.transactionId ?? cbId('txn_'),
            applied_amount: total,
            applied_at: date,
            txn_status: 'success',
            txn_date: date,
            txn_amount: total,
          },
        ]
      : [],
    dunning_attempts: [],
    applied_credits: [],
    adjustment_credit_notes: [],
    issued_credit_notes: [],
    linked_orders: [],
    billing_address: billingAddress(o.country),
  };
}

/** What a payment and a refund transaction of an invoice's customer both carry. */
function transaction(inv: Json, type: 'payment' | 'refund', id: string, date: number, amount: number): Json {
  return {
    id,
    customer_id: inv.customer_id,
    subscription_id: inv.subscription_id,
    gateway_account_id: cbId('gw_'),
    payment_source_id: cbId('pm_'),
    payment_method: 'card',
    gateway: 'chargebee',
    type,
    date,
    exchange_rate: 1.0,
    amount,
    id_at_gateway: `cb_${cbId()}`,
    status: 'success',
    updated_at: date,
    resource_version: date * 1000,
    deleted: false,
    object: 'transaction',
    masked_card_number: '************1111',
    currency_code: inv.currency_code,
    base_currency_code: inv.currency_code,
  };
}

/** A payment transaction for an invoice. */
export function payment(o: { id?: string; invoice: Json; date?: number }): Json {
  const inv = o.invoice;
  const date = o.date ?? (inv.date as number);
  const linked = (inv.linked_payments as Json[])[0];
  return {
    ...transaction(inv, 'payment', o.id ?? (linked?.txn_id as string | undefined) ?? cbId('txn_'), date, inv.total as number),
    fraud_reason: 'Payment complete',
    amount_unused: 0,
    linked_invoices: [
      {
        invoice_id: inv.id,
        applied_amount: inv.total,
        applied_at: date,
        invoice_date: inv.date,
        invoice_total: inv.total,
        invoice_status: 'paid',
      },
    ],
    linked_credit_notes: [],
    linked_refunds: [],
    linked_payments: [],
    payment_method_details: '{"card":{"first_name":"Ada","last_name":"Buyer","iin":"411111","last4":"1111","funding_type":"credit"}}',
  };
}

/**
 * A refund: the refundable credit note issued against the invoice, and the refund
 * transaction that paid it out, naming the payment it refunds (reference_transaction_id).
 */
export function refund(o: { invoice: Json; paymentId: string; amount: number; id?: string; date?: number }): {
  transaction: Json;
  credit_note: Json;
} {
  const inv = o.invoice;
  const date = o.date ?? (inv.date as number) + DAY;
  const cnId = `CN-${++serial}`;
  const txnId = o.id ?? cbId('txn_');
  return {
    transaction: {
      ...transaction(inv, 'refund', txnId, date, o.amount),
      reference_transaction_id: o.paymentId,
      linked_invoices: [],
      linked_credit_notes: [
        {
          cn_id: cnId,
          applied_amount: o.amount,
          applied_at: date,
          cn_reason_code: 'product_unsatisfactory',
          cn_create_reason_code: 'Product Unsatisfactory',
          cn_date: date,
          cn_total: o.amount,
          cn_status: 'refunded',
          cn_reference_invoice_id: inv.id,
        },
      ],
      linked_refunds: [],
      linked_payments: [],
    },
    credit_note: {
      id: cnId,
      customer_id: inv.customer_id,
      subscription_id: inv.subscription_id,
      reference_invoice_id: inv.id,
      type: 'refundable',
      reason_code: 'product_unsatisfactory',
      status: 'refunded',
      date,
      price_type: inv.price_type,
      exchange_rate: 1.0,
      total: o.amount,
      amount_allocated: 0,
      amount_refunded: o.amount,
      amount_available: 0,
      refunded_at: date,
      generated_at: date,
      resource_version: date * 1000,
      deleted: false,
      object: 'credit_note',
      create_reason_code: 'Product Unsatisfactory',
      currency_code: inv.currency_code,
      round_off_amount: 0,
      fractional_correction: 0,
      sub_total: o.amount,
      line_items: [],
      discounts: [],
      taxes: [],
      linked_refunds: [
        { txn_id: txnId, applied_amount: o.amount, applied_at: date, txn_status: 'success', txn_date: date, txn_amount: o.amount },
      ],
      allocations: [],
    },
  };
}

/** The event envelope: what every webhook Chargebee sends has. */
export function cbEvent(eventType: string, content: Json, opts: { id?: string; occurredAt?: number } = {}): Json {
  return {
    id: opts.id ?? cbId('ev_'),
    occurred_at: opts.occurredAt ?? T0,
    source: 'system',
    object: 'event',
    api_version: 'v2',
    content,
    event_type: eventType,
    webhook_status: 'scheduled',
  };
}

/** A webhook's basic auth secret as the owner types it in Chargebee: `username:password`. */
export function newCbSecret(): string {
  return `tally-${randomBytes(3).toString('hex')}:${randomBytes(18).toString('base64url')}`;
}

/** The Authorization header Chargebee sends for a webhook protected by basic auth. */
export const basicAuth = (secret: string): string => `Basic ${Buffer.from(secret, 'utf8').toString('base64')}`;

/** Posts a raw body to the collector's Chargebee webhook, with an Authorization header when given. */
export async function postCb(
  c: Pick<Collector, 'url'>,
  endpoint: string,
  body: string,
  authorization: string | undefined,
): Promise<Posted> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== undefined) headers.authorization = authorization;
  const res = await fetch(`${c.url}/v1/integrations/chargebee/webhook/${endpoint}`, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
