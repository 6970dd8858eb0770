// Recurly's JSON webhook notifications and the API v3 objects they name, as Recurly sends
// them, written from its public references (docs.recurly.com's charge invoice, credit
// invoice and subscription notification pages and its signature verification page; the
// API v2021-02-25 reference's Invoice, AccountMini, Account, CouponRedemption and
// Subscription, as its generated client's resources list their fields), signed as Recurly
// signs them. No code is taken from anywhere; only the outside world is faked here.
//
// What a notification carries: {id, object_type, site_id, event_type, event_time, uuid} and
// nothing else; money on the API is a JSON number in the currency's major units.

import { createHmac, randomBytes } from 'node:crypto';
import { T0, type Collector } from './harness.js';
import type { Posted } from './stripe-fixtures.js';

type Json = Record<string, unknown>;

const SITE_ID = 'qc326l1hl8k9';
const iso = (unix: number): string => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

let serial = Math.floor(Math.random() * 36 ** 6);
/** An id as Recurly's: twelve lower-case letters and digits, unique in the run. */
export function rcId(): string {
  serial++;
  return `${serial.toString(36).padStart(6, '0')}${randomBytes(3).toString('hex')}`.slice(0, 12);
}

/** A JSON notification: the object by id and what happened to it, at `at` (unix seconds). */
export function rcNotification(objectType: string, eventType: string, id: string, at = T0): Json {
  return {
    id,
    object_type: objectType,
    site_id: SITE_ID,
    event_type: eventType,
    event_time: iso(at),
    uuid: randomBytes(16).toString('hex'),
  };
}

/** `recurly-signature`: the time in milliseconds, then a hex HMAC-SHA256 of "<time>.<body>" per secret key. */
export function rcSignature(body: string, secrets: readonly string[], atMs: number): string {
  const sigs = secrets.map((s) => createHmac('sha256', s).update(`${atMs}.${body}`).digest('hex'));
  return [String(atMs), ...sigs].join(',');
}

/** A webhook endpoint's secret key, as Recurly shows one: 32 letters and digits. */
export function newRcSecret(): string {
  return randomBytes(16).toString('hex');
}

/** A private API key, as Recurly shows one: 32 hex digits. */
export function newRcApiKey(): string {
  return randomBytes(16).toString('hex');
}

/** Posts a raw body to the collector's Recurly webhook, with `recurly-signature` when given. */
export async function postRc(c: Pick<Collector, 'url'>, endpoint: string, body: string, signature: string | undefined): Promise<Posted> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Recurly Webhooks' };
  if (signature !== undefined) headers['recurly-signature'] = signature;
  const res = await fetch(`${c.url}/v1/integrations/recurly/webhook/${endpoint}`, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export interface AccountOptions {
  id?: string;
  code?: string;
  email: string;
  customFields?: Record<string, string>;
  country?: string;
}

/** An AccountMini, as an invoice, a subscription or a redemption names its account. */
export function rcAccountMini(a: AccountOptions & { id: string }): Json {
  return {
    id: a.id,
    object: 'account',
    code: a.code ?? `user-${a.id}`,
    email: a.email,
    first_name: 'Verena',
    last_name: 'Example',
    company: null,
    parent_account_id: null,
    bill_to: 'self',
    dunning_campaign_id: null,
  };
}

/** An Account (GET /accounts/{id}), with its custom fields. */
export function rcAccount(a: AccountOptions & { id: string }): Json {
  return {
    ...rcAccountMini(a),
    state: 'active',
    hosted_login_token: randomBytes(16).toString('hex'),
    shipping_addresses: [],
    has_live_subscription: true,
    has_active_subscription: true,
    has_future_subscription: false,
    has_canceled_subscription: false,
    has_paused_subscription: false,
    has_past_due_invoice: false,
    created_at: iso(T0),
    updated_at: iso(T0),
    deleted_at: null,
    username: null,
    preferred_locale: 'en-US',
    preferred_time_zone: null,
    cc_emails: null,
    vat_number: null,
    tax_exempt: false,
    exemption_certificate: null,
    address: {
      phone: null,
      street1: '1 Main St',
      street2: null,
      city: 'San Francisco',
      region: 'CA',
      postal_code: '94105',
      country: a.country ?? 'US',
    },
    billing_info: null,
    custom_fields: Object.entries(a.customFields ?? {}).map(([name, value]) => ({ name, value })),
  };
}

export interface InvoiceOptions {
  id?: string;
  account: Json;
  type?: 'charge' | 'credit';
  origin?: string;
  state?: string;
  currency?: string;
  /** Major units, as Recurly's JSON numbers: 100 is 100.00. */
  subtotal: number;
  discount?: number;
  tax?: number;
  previousInvoiceId?: string | null;
  planCode?: string;
  subscriptionId?: string;
  closedAt?: number;
}

/** An Invoice (GET /invoices/{id}): a charge invoice, or a credit invoice (negative sums) naming the one it refunds. */
export function rcInvoice(o: InvoiceOptions): Json {
  const id = o.id ?? rcId();
  const credit = o.type === 'credit';
  const sign = credit ? -1 : 1;
  const discount = o.discount ?? 0;
  const tax = o.tax ?? 0;
  const total = o.subtotal - discount + tax;
  const line = {
    id: rcId(),
    object: 'line_item',
    uuid: randomBytes(16).toString('hex'),
    type: credit ? 'credit' : 'charge',
    item_code: null,
    item_id: null,
    state: 'invoiced',
    legacy_category: null,
    account: o.account,
    subscription_id: o.subscriptionId ?? null,
    plan_id: 'plan1abc',
    plan_code: o.planCode ?? 'pro-monthly',
    add_on_id: null,
    add_on_code: null,
    invoice_id: id,
    invoice_number: '1001',
    origin: 'plan',
    currency: o.currency ?? 'USD',
    amount: sign * o.subtotal,
    description: 'Pro (monthly)',
    quantity: 1,
    unit_amount: sign * o.subtotal,
    subtotal: sign * o.subtotal,
    discount: sign * discount,
    tax: sign * tax,
    taxable: tax > 0,
    refund: credit,
    start_date: iso(T0),
    end_date: null,
    created_at: iso(T0),
    updated_at: iso(T0),
  };
  return {
    id,
    uuid: randomBytes(16).toString('hex'),
    object: 'invoice',
    type: o.type ?? 'charge',
    origin: o.origin ?? (credit ? 'refund' : 'purchase'),
    state: o.state ?? (credit ? 'closed' : 'paid'),
    account: o.account,
    billing_info_id: null,
    subscription_ids: o.subscriptionId ? [o.subscriptionId] : [],
    previous_invoice_id: o.previousInvoiceId ?? null,
    number: '1001',
    collection_method: 'automatic',
    po_number: null,
    net_terms: 0,
    net_terms_type: 'net',
    address: {
      name_on_account: null,
      company: null,
      first_name: 'Verena',
      last_name: 'Example',
      phone: null,
      street1: '1 Main St',
      street2: null,
      city: 'San Francisco',
      region: 'CA',
      postal_code: '94105',
      country: 'US',
    },
    shipping_address: null,
    currency: o.currency ?? 'USD',
    discount: sign * discount,
    subtotal: sign * o.subtotal,
    tax: sign * tax,
    total: sign * total,
    refundable_amount: credit ? null : total,
    paid: credit ? 0 : total,
    balance: 0,
    tax_info: null,
    used_tax_service: false,
    vat_number: null,
    vat_reverse_charge_notes: null,
    terms_and_conditions: null,
    customer_notes: null,
    line_items: { object: 'list', has_more: false, next: null, data: [line] },
    has_more_line_items: false,
    transactions: [],
    credit_payments: [],
    created_at: iso(o.closedAt ?? T0),
    updated_at: iso(o.closedAt ?? T0),
    due_at: iso(o.closedAt ?? T0),
    closed_at: iso(o.closedAt ?? T0),
    dunning_campaign_id: null,
    dunning_events_sent: 0,
    final_dunning_event: false,
    business_entity_id: null,
  };
}

/** GET /invoices/{id}/coupon_redemptions: a list of CouponRedemption, each with its coupon's code. */
export function rcRedemptions(account: Json, codes: readonly string[]): Json {
  const data = codes.map((code) => ({
    id: rcId(),
    object: 'coupon_redemption',
    account,
    subscription_id: null,
    coupon: {
      id: rcId(),
      object: 'coupon',
      code,
      name: `${code} partner discount`,
      state: 'redeemable',
      discount: { type: 'percent', percent: 20 },
      coupon_type: 'single_code',
      expired_at: null,
    },
    state: 'active',
    currency: 'USD',
    discounted: 20,
    created_at: iso(T0),
    updated_at: iso(T0),
    removed_at: null,
  }));
  return { object: 'list', has_more: false, next: null, data };
}

/** A Subscription (GET /subscriptions/{id}). */
export function rcSubscription(o: { id?: string; account: Json; state?: string; customFields?: Record<string, string> }): Json {
  return {
    id: o.id ?? rcId(),
    object: 'subscription',
    uuid: randomBytes(16).toString('hex'),
    account: o.account,
    plan: { id: 'plan1abc', object: 'plan', code: 'pro-monthly', name: 'Pro (monthly)' },
    state: o.state ?? 'expired',
    currency: 'USD',
    unit_amount: 30,
    quantity: 1,
    canceled_at: iso(T0),
    expires_at: iso(T0),
    current_period_started_at: iso(T0),
    current_period_ends_at: iso(T0),
    custom_fields: Object.entries(o.customFields ?? {}).map(([name, value]) => ({ name, value })),
    created_at: iso(T0),
    updated_at: iso(T0),
  };
}
