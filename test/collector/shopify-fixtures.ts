// Shopify's webhooks as Shopify sends them, written from its public references (shopify.dev:
// the Admin REST API's Order and Refund resources, the webhook topics orders/paid,
// refunds/create and orders/cancelled, "Webhooks delivery structure" and "Verify webhook
// deliveries"): the resource as the body, the topic, delivery id and time in X-Shopify-*
// headers, signed with X-Shopify-Hmac-Sha256, the base64 HMAC-SHA256 of the raw body keyed
// with the signing key. Only the outside world is faked here; the collector is real.
//
// What a payload does not carry: a referral, unless the cart had the attribute (note_attributes)
// or the landing site a gr_id; a refund names its order by id only, and no customer.

import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Collector } from './harness.js';
import type { Posted } from './stripe-fixtures.js';

type Json = Record<string, unknown>;

/** 2025-03-01 10:00:00 UTC, the harness's T0, as Shopify writes times (the shop's offset). */
export const AT = '2025-03-01T05:00:00-05:00';
export const SHOP = 'tally-test-shop.myshopify.com';

// A random start, then a serial: ids unique in the run, and unlike another run's.
let next = 5_000_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
/** An id as Shopify's: a 13-digit integer, counted per resource. */
export function shopifyId(): number {
  return ++next;
}

const DIGITS: Record<string, number> = { JPY: 0, KWD: 3 };
/** Minor units as Shopify writes money: a decimal string in major units ("19.99", "1500"). */
export function money(minor: number, currency: string): string {
  const digits = DIGITS[currency] ?? 2;
  return (minor / 10 ** digits).toFixed(digits);
}

/** A MoneyBag: the shop's currency and the customer's (presentment), the same unless a rate is given. */
function moneySet(minor: number, currency: string, shop?: { currency: string; rate: number }): Json {
  const inShop = shop ? { amount: money(Math.round(minor * shop.rate), shop.currency), currency_code: shop.currency } : undefined;
  return {
    shop_money: inShop ?? { amount: money(minor, currency), currency_code: currency },
    presentment_money: { amount: money(minor, currency), currency_code: currency },
  };
}

/** Hours after T0, as Shopify writes a time. */
export const later = (hours: number): string => new Date(Date.parse('2025-03-01T10:00:00Z') + hours * 3_600_000).toISOString();

export interface OrderOptions {
  id?: number;
  customerId?: number;
  email: string;
  /** The line items' total before discounts, in minor units of `currency`. */
  subtotal: number;
  discount?: { code: string; amount: number };
  tax?: number;
  shipping?: number;
  currency?: string;
  /** The shop's own currency and its rate, when the customer paid in another. */
  shop?: { currency: string; rate: number };
  /** The cart's attributes (the snippet sets tally_gr_id). */
  attributes?: Record<string, string>;
  landingSite?: string | null;
  country?: string;
  processedAt?: string;
  test?: boolean;
  cancelled?: { at: string; refunds: Json[] };
}

/** An order as the Order resource and orders/paid show it: paid in full, by card. */
export function shopifyOrder(o: OrderOptions): Json {
  const id = o.id ?? shopifyId();
  const currency = o.currency ?? 'USD';
  const discount = o.discount?.amount ?? 0;
  const tax = o.tax ?? 0;
  const shipping = o.shipping ?? 0;
  const total = o.subtotal - discount + shipping + tax;
  const set = (minor: number) => moneySet(minor, currency, o.shop);
  const shopMoney = (minor: number) => (set(minor).shop_money as Json).amount;
  const at = o.processedAt ?? AT;
  const customerId = o.customerId ?? shopifyId();
  const lineId = shopifyId();
  const address = {
    first_name: 'Bob',
    last_name: 'Norman',
    address1: 'Chestnut Street 92',
    city: 'Louisville',
    zip: '40202',
    country: 'United States',
    country_code: o.country ?? 'US',
    province_code: 'KY',
  };
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    app_id: 580111,
    browser_ip: '203.0.113.7',
    buyer_accepts_marketing: false,
    cancel_reason: o.cancelled ? 'customer' : null,
    cancelled_at: o.cancelled?.at ?? null,
    cart_token: randomBytes(16).toString('hex'),
    checkout_id: shopifyId(),
    checkout_token: randomBytes(16).toString('hex'),
    closed_at: null,
    confirmation_number: randomBytes(5).toString('hex').toUpperCase().slice(0, 9),
    confirmed: true,
    contact_email: o.email,
    created_at: at,
    currency: o.shop?.currency ?? currency,
    current_subtotal_price: shopMoney(o.subtotal - discount),
    current_subtotal_price_set: set(o.subtotal - discount),
    current_total_discounts: shopMoney(discount),
    current_total_discounts_set: set(discount),
    current_total_price: shopMoney(total),
    current_total_price_set: set(total),
    current_total_tax: shopMoney(tax),
    current_total_tax_set: set(tax),
    customer_locale: 'en-US',
    discount_codes: o.discount ? [{ code: o.discount.code, amount: money(discount, currency), type: 'fixed_amount' }] : [],
    email: o.email,
    estimated_taxes: false,
    financial_status: o.cancelled ? 'refunded' : 'paid',
    fulfillment_status: null,
    landing_site: o.landingSite === undefined ? '/' : o.landingSite,
    landing_site_ref: null,
    name: `#${1000 + (id % 9000)}`,
    note: null,
    note_attributes: Object.entries(o.attributes ?? {}).map(([name, value]) => ({ name, value })),
    number: id % 9000,
    order_number: 1000 + (id % 9000),
    order_status_url: `https://${SHOP}/69000000/orders/${randomBytes(16).toString('hex')}/authenticate?key=${randomBytes(16).toString('hex')}`,
    payment_gateway_names: [o.test ? 'bogus' : 'shopify_payments'],
    phone: null,
    presentment_currency: currency,
    processed_at: at,
    reference: null,
    referring_site: 'https://www.google.com/',
    source_identifier: null,
    source_name: 'web',
    subtotal_price: shopMoney(o.subtotal - discount),
    subtotal_price_set: set(o.subtotal - discount),
    tags: '',
    tax_lines: tax > 0 ? [{ price: money(tax, currency), rate: 0.06, title: 'State tax', price_set: set(tax), channel_liable: false }] : [],
    taxes_included: false,
    test: o.test ?? false,
    token: randomBytes(16).toString('hex'),
    total_discounts: shopMoney(discount),
    total_discounts_set: set(discount),
    total_line_items_price: shopMoney(o.subtotal),
    total_line_items_price_set: set(o.subtotal),
    total_outstanding: '0.00',
    total_price: shopMoney(total),
    total_price_set: set(total),
    total_shipping_price_set: set(shipping),
    total_tax: shopMoney(tax),
    total_tax_set: set(tax),
    total_tip_received: '0.00',
    total_weight: 0,
    updated_at: at,
    user_id: null,
    billing_address: address,
    customer: {
      id: customerId,
      email: o.email,
      created_at: AT,
      updated_at: at,
      first_name: 'Bob',
      last_name: 'Norman',
      state: 'enabled',
      note: null,
      verified_email: true,
      tax_exempt: false,
      phone: null,
      currency,
      tax_exemptions: [],
      admin_graphql_api_id: `gid://shopify/Customer/${customerId}`,
      default_address: { ...address, id: shopifyId(), customer_id: customerId, default: true },
    },
    discount_applications: o.discount
      ? [
          {
            target_type: 'line_item',
            type: 'discount_code',
            value: money(discount, currency),
            value_type: 'fixed_amount',
            allocation_method: 'across',
            target_selection: 'all',
            code: o.discount.code,
          },
        ]
      : [],
    fulfillments: [],
    line_items: [
      {
        id: lineId,
        admin_graphql_api_id: `gid://shopify/LineItem/${lineId}`,
        fulfillable_quantity: 1,
        fulfillment_service: 'manual',
        gift_card: false,
        name: 'Aeropress - Black',
        price: money(o.subtotal, currency),
        price_set: set(o.subtotal),
        product_exists: true,
        product_id: 632910392,
        quantity: 1,
        requires_shipping: true,
        sku: 'AERO-BLK',
        taxable: true,
        title: 'Aeropress',
        total_discount: money(discount, currency),
        total_discount_set: set(discount),
        variant_id: 808950810,
        variant_title: 'Black',
        vendor: 'Aerobie',
        tax_lines: [],
        discount_allocations: o.discount
          ? [{ amount: money(discount, currency), amount_set: set(discount), discount_application_index: 0 }]
          : [],
      },
    ],
    refunds: o.cancelled?.refunds ?? [],
    shipping_address: address,
    shipping_lines:
      shipping > 0
        ? [
            {
              id: shopifyId(),
              code: 'Standard',
              price: money(shipping, currency),
              price_set: set(shipping),
              title: 'Standard',
              source: 'shopify',
            },
          ]
        : [],
  };
}

/** A refund as the Refund resource and refunds/create show it: the money returned is in its transactions. */
export function shopifyRefund(o: {
  id?: number;
  orderId: number;
  amount: number;
  currency?: string;
  createdAt?: string;
  status?: string;
}): Json {
  const id = o.id ?? shopifyId();
  const currency = o.currency ?? 'USD';
  const at = o.createdAt ?? later(24);
  const txId = shopifyId();
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Refund/${id}`,
    order_id: o.orderId,
    created_at: at,
    note: 'Customer changed their mind',
    user_id: 548380009,
    processed_at: at,
    restock: false,
    duties: [],
    total_duties_set: moneySet(0, currency),
    return: null,
    refund_line_items: [],
    transactions: [
      {
        id: txId,
        admin_graphql_api_id: `gid://shopify/OrderTransaction/${txId}`,
        order_id: o.orderId,
        kind: 'refund',
        gateway: 'shopify_payments',
        status: o.status ?? 'success',
        message: 'Transaction approved',
        created_at: at,
        test: false,
        authorization: null,
        location_id: null,
        user_id: null,
        parent_id: shopifyId(),
        processed_at: at,
        device_id: null,
        error_code: null,
        source_name: 'web',
        receipt: {},
        amount: money(o.amount, currency),
        currency,
        payment_id: `c${shopifyId()}.2`,
        total_unsettled_set: moneySet(0, currency),
        manual_payment_gateway: false,
      },
    ],
    order_adjustments: [],
  };
}

/** The X-Shopify-Hmac-Sha256 header: the base64 HMAC-SHA256 of the raw body, keyed with the signing key. */
export function shopifyHmac(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

/** A signing key as the admin's webhooks settings show it: 64 hex digits. */
export function newShopifySecret(): string {
  return randomBytes(32).toString('hex');
}

export interface Delivery {
  topic: string;
  /** X-Shopify-Hmac-Sha256; none when null. */
  hmac: string | null;
  webhookId?: string;
  triggeredAt?: string;
}

/** Posts a raw body to the collector's Shopify webhook with the headers Shopify sends. */
export async function postShopify(c: Pick<Collector, 'url'>, endpoint: string, body: string, d: Delivery): Promise<Posted> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Shopify-Captain-Hook',
    'x-shopify-topic': d.topic,
    'x-shopify-shop-domain': SHOP,
    'x-shopify-api-version': '2025-01',
    'x-shopify-webhook-id': d.webhookId ?? randomUUID(),
    'x-shopify-event-id': randomUUID(),
    'x-shopify-triggered-at': d.triggeredAt ?? new Date(Date.parse('2025-03-01T10:00:00Z')).toISOString(),
  };
  if (d.hmac !== null) headers['x-shopify-hmac-sha256'] = d.hmac;
  const res = await fetch(`${c.url}/v1/integrations/shopify/webhook/${endpoint}`, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
