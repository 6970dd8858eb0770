// Shopify as a billing platform (docs/shopify.md), from its order and refund webhooks as the
// Admin REST API's resources: the topic, the delivery's id and its time come in headers,
// the body is the order or the refund. An order is one payment, keyed by its id; what
// credits it is the cart attribute tally_gr_id the snippet set, the landing site's gr_id or
// partner key (?via=), the customer's address, or a discount code. Amounts are decimals in major units, in the
// currency the customer paid (presentment money), made minor units exactly here.

import { minorFromDecimal, minorUnit } from '../../core/money.js';
import { SHOP_DOMAIN } from './admin-api.js';
import { fail } from '../../platform/errors.js';
import { parseJsonObject } from '../../platform/json.js';
import {
  NOT_ACTED_ON,
  countryCode,
  defined,
  obj,
  seconds,
  str,
  tunnelTest,
  type Customer,
  type Fact,
  type Json,
  type Paid,
  type Platform,
  type Verified,
  hmacSigned,
  objects,
  signatureOf,
} from '../billing/facts.js';

/** Shopify's ids are integers, each resource counted apart: the link keys say the kind. */
const key = (kind: string, id: unknown): string | undefined =>
  typeof id === 'number' || (typeof id === 'string' && /^\d{1,20}$/.test(id)) ? `shopify:${kind}:${id}` : undefined;

/**
 * A decimal in major units ("19.99", "1500.00" yen) as minor units, exactly: zeros past the
 * currency's digits are dropped (Shopify writes two decimals for most), any other digit there refuses it.
 */
export function minorOf(amount: unknown, currency: string): number | undefined {
  const digits = minorUnit(currency);
  if (typeof amount !== 'string' || digits === undefined) return undefined;
  const trimmed = amount
    .trim()
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
  return minorFromDecimal(trimmed, currency);
}

/** A money set's amount in the customer's currency, or the plain field in the order's. */
function presentment(order: Json, set: string, plain: string): { amount: number; currency: string } | undefined {
  const money = obj(obj(order[set])?.presentment_money);
  const currency = str(money?.currency_code) ?? str(order.presentment_currency) ?? str(order.currency) ?? '';
  const amount = minorOf(money ? money.amount : order[plain], currency);
  return amount === undefined ? undefined : { amount, currency };
}

/** The cart's attributes, as the checkout kept them: `[{name, value}]`. */
function attributesOf(order: Json): Record<string, string> {
  const pairs = objects(order.note_attributes).flatMap((a) => {
    const name = str(a.name);
    return name && typeof a.value === 'string' ? [[name, a.value] as const] : [];
  });
  return Object.fromEntries(pairs);
}

/** The link parameters that carry a partner's key, in the tracker's order of precedence (packages/tracker/src/core.ts). */
const KEY_PARAMS = ['red', 'gr_pk', '_pk', 'via', 'ref', 'fpr', 'fp_ref', 'ps_partner_key'];

/** The landing site's query: the path the customer first opened ("/products/x?via=maya&gr_id=…"). */
function landingQuery(order: Json): URLSearchParams {
  const site = str(order.landing_site);
  try {
    return new URL(site ?? '/', 'https://shop.invalid').searchParams;
  } catch {
    return new URLSearchParams();
  }
}

/** A partner's key the landing site carried, when no click id came with it: the order is the visit. */
function landingLink(order: Json, query: URLSearchParams): Customer['link'] {
  const found = KEY_PARAMS.map((n) => str(query.get(n))).find((k) => k !== undefined);
  const visit = key('order', order.id);
  return found && visit ? { key: found, visit } : undefined;
}

function customerOf(order: Json): Customer {
  const customer = obj(order.customer);
  const attributes = attributesOf(order);
  const landing = landingQuery(order);
  return {
    customer: key('customer', customer?.id),
    email: str(order.email) ?? str(order.contact_email) ?? str(customer?.email),
    clickId: str(attributes.tally_gr_id) ?? str(landing.get('gr_id')),
    link: landingLink(order, landing),
    metadata: [attributes],
    country: countryCode(obj(order.billing_address)?.country_code) ?? countryCode(obj(order.shipping_address)?.country_code),
    codes: defined(objects(order.discount_codes).map((d) => str(d.code))),
  };
}

/** An order paid: its total after discounts, net of tax, in the customer's currency; the total with tax is what refunds are shares of. */
function orderPaid(order: Json, event: Verified): Paid | undefined {
  const total = presentment(order, 'total_price_set', 'total_price');
  const id = key('order', order.id);
  if (!total || !id) return undefined;
  const tax = Math.min(total.amount, Math.max(0, presentment(order, 'total_tax_set', 'total_tax')?.amount ?? 0));
  if (total.amount - tax <= 0) return undefined;
  const items = objects(order.line_items);
  return {
    key: `order:${String(order.id)}`,
    refs: [id],
    amount: total.amount - tax,
    gross: total.amount,
    currency: total.currency,
    paidAt: seconds(order.processed_at) ?? seconds(order.created_at) ?? event.created,
    sold: {
      product_ids: defined(items.map((i) => (i.product_id == null ? undefined : String(i.product_id)))),
      price_ids: defined(items.map((i) => (i.variant_id == null ? undefined : String(i.variant_id)))),
      customer_country: customerOf(order).country,
      metadata: attributesOf(order),
    },
  };
}

/** The money a refund returned: its successful refund transactions, in the customer's currency. */
function refundFact(refund: Json, orderId: unknown): Fact {
  const returned = objects(refund.transactions).filter((t) => t.kind === 'refund' && t.status === 'success');
  const amounts = returned.map((t) => minorOf(t.amount, str(t.currency) ?? ''));
  const amount = amounts.reduce<number>((sum, a) => sum + (a ?? 0), 0);
  const refs = defined([key('order', orderId ?? refund.order_id)]);
  const id = key('refund', refund.id);
  if (!id || refs.length === 0) return { kind: 'nothing', reason: 'the refund names no order or has no id' };
  if (amounts.includes(undefined))
    return { kind: 'nothing', reason: 'a refund transaction has an amount Tally cannot read in its currency' };
  if (amount <= 0) return { kind: 'nothing', reason: 'the refund returned no money (a restock, say): the sale stands' };
  return { kind: 'refund', refs, id, amount };
}

type Reader = (body: Json, event: Verified) => Fact;

const FACTS: Readonly<Record<string, Reader>> = {
  'orders/paid': (order, e) => ({ kind: 'payment', who: customerOf(order), paid: orderPaid(order, e), waits: false, unpaid: 'link' }),
  'refunds/create': (refund) => refundFact(refund, refund.order_id),
  // A cancellation takes back what its refund returned: the refund it made, by the same id
  // as its own refunds/create, so the two apply once in either order.
  'orders/cancelled': (order) => {
    if (!str(order.cancelled_at)) return { kind: 'nothing', reason: 'the order is not cancelled' };
    const last = objects(order.refunds)
      .sort((a, b) => (seconds(a.created_at) ?? 0) - (seconds(b.created_at) ?? 0))
      .pop();
    return last
      ? refundFact(last, order.id)
      : { kind: 'nothing', reason: 'cancelled without a refund: what was paid stays paid, and so does its commission' };
  },
};

async function verify(
  payload: string,
  header: (name: string) => string | undefined,
  secrets: readonly string[],
  now: number,
): Promise<Verified> {
  const signature = signatureOf(header, 'X-Shopify-Hmac-Sha256', secrets, 'Shopify signing key');
  if (!/^[A-Za-z0-9+/]{43}=$/.test(signature) || !hmacSigned(payload, [Buffer.from(signature, 'base64')], secrets)) {
    throw fail('invalid_signature', "the X-Shopify-Hmac-Sha256 header matches none of this program's signing keys");
  }
  const body = parseJsonObject(payload) as Json;
  const topic = header('x-shopify-topic');
  const delivery = header('x-shopify-webhook-id');
  if (!topic || !delivery || body.id === undefined) {
    throw fail('invalid_field', 'the webhook has no X-Shopify-Topic or X-Shopify-Webhook-Id header, or its body no id');
  }
  return {
    // The delivery's id is the same on each retry of it (Shopify's advice for duplicates).
    id: `shopify:${delivery}`,
    type: topic,
    created: seconds(header('x-shopify-triggered-at')) ?? seconds(body.updated_at) ?? now,
    // An order says whether it was a test (Bogus Gateway, a test mode); a refund does not.
    livemode: body.test !== true,
    body,
  };
}

export const shopifyPlatform: Platform = {
  name: 'shopify',
  title: 'Shopify',
  signatureHeader: 'x-shopify-hmac-sha256',
  secret: {
    // The admin's webhooks are signed with the key it shows there (64 hex digits); an app's, with its client secret.
    pattern: /^(?:shpss_)?[0-9a-f]{32,64}$/i,
    explain:
      'the signing key is the one Shopify shows under Settings → Notifications → Webhooks ("signed with …", 64 hex digits), or your app\'s client secret (shpss_…)',
    hint: (secret) => `…${secret.slice(-4)}`,
  },
  setup:
    'Shopify admin → Settings → Notifications → Webhooks → Create webhook, once per event, format JSON, the latest API version; then copy the key they are signed with',
  events: Object.keys(FACTS),
  testEvent:
    'Settings → Notifications → Webhooks → Send test beside a webhook: a sample order, which names no referral and is logged as ignored; a test order (Bogus Gateway) is a real one',
  localTest: tunnelTest('Shopify'),
  // For partners' codes made in the shop (flows/shopify-codes.ts): its webhooks need none.
  credential: {
    explain: "the shop's myshopify.com domain and an Admin API access token with the write_discounts scope",
    fields: [
      {
        name: 'shop',
        label: 'Shop domain (your-shop.myshopify.com)',
        pattern: SHOP_DOMAIN,
        explain: 'the shop is its myshopify.com domain, as the admin shows it: your-shop.myshopify.com',
        secret: false,
      },
      {
        name: 'access_token',
        label: 'Admin API access token (shpat_…), with the write_discounts scope',
        pattern: /^shp[a-z]{2}_[A-Za-z0-9]{32,64}$/,
        explain: "the access token is the custom app's Admin API access token, as Shopify shows it once: shpat_ and 32 letters and digits",
        secret: true,
      },
    ],
  },
  verify,
  fact(event) {
    const of = FACTS[event.type];
    return of ? of(event.body, event) : NOT_ACTED_ON;
  },
};
