// Chargebee as a billing platform (docs/chargebee.md), from its webhooks as API v2 sends
// them: an event (`id`, `event_type`, `occurred_at`) whose `content` holds the resources it
// is about (transaction, invoice, customer, subscription, credit_note). Chargebee signs
// nothing: its webhook URL is guarded by HTTP basic auth, whose username and password the
// owner sets there and pastes here as the secret. A payment is keyed by its invoice, so
// invoice_generated and payment_succeeded of one paid invoice credit it once.

import { createHash, timingSafeEqual } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { fail } from '../../platform/errors.js';
import { parseJsonObject } from '../../platform/json.js';
import {
  NOT_ACTED_ON,
  countryCode,
  defined,
  int,
  metadata,
  obj,
  str,
  stringsOf,
  tunnelTest,
  type Credential,
  type Customer,
  type Fact,
  type Json,
  type Paid,
  type Platform,
  type Verified,
  objects,
} from '../billing/facts.js';
import { retrieveEvent } from './api.js';

const key = (kind: string, id: unknown): string | undefined => (str(id) ? `chargebee:${kind}:${str(id)}` : undefined);

/** A resource's custom fields (`cf_tally_gr_id`) as metadata, without their prefix: the checkout may set either. */
function customFields(o: Json | undefined): Record<string, string> {
  const fields = Object.entries(o ?? {}).filter((e): e is [string, string] => e[0].startsWith('cf_') && typeof e[1] === 'string');
  return Object.fromEntries(fields.map(([k, v]) => [k.slice(3), v]));
}

/** The codes a customer typed: a coupon set's code, or the coupon's own id (Chargebee's coupons are named by the owner). */
function codesOf(invoice: Json | undefined, subscription: Json | undefined): string[] {
  const discounts = objects(invoice?.discounts).filter((d) => /coupon/.test(str(d.entity_type) ?? ''));
  const coupons = objects(subscription?.coupons);
  return defined([
    ...discounts.map((d) => str(d.coupon_set_code)),
    ...coupons.map((c) => str(c.coupon_code)),
    ...discounts.map((d) => str(d.entity_id)),
    ...coupons.map((c) => str(c.coupon_id)),
  ]);
}

function customerOf(content: Json): Customer {
  const customer = obj(content.customer);
  const subscription = obj(content.subscription);
  const invoice = obj(content.invoice);
  return {
    customer: key('customer', customer?.id ?? subscription?.customer_id ?? invoice?.customer_id),
    email: str(customer?.email) ?? str(obj(invoice?.billing_address)?.email),
    metadata: metadata(customFields(subscription), obj(subscription?.meta_data), customFields(customer), obj(customer?.meta_data)),
    country: countryCode(obj(invoice?.billing_address)?.country) ?? countryCode(obj(customer?.billing_address)?.country),
    codes: codesOf(invoice, subscription),
  };
}

/** A paid invoice: its total after discounts, net of tax, whether its prices include tax or not. */
function invoicePaid(invoice: Json | undefined, transaction: Json | undefined, event: Verified): Paid | undefined {
  const id = str(invoice?.id);
  const total = int(invoice?.total) ?? 0;
  const tax = Math.min(total, Math.max(0, int(invoice?.tax) ?? 0));
  if (!invoice || !id || invoice.status !== 'paid' || total - tax <= 0) return undefined;
  const lines = objects(invoice.line_items);
  return {
    key: `invoice:${id}`,
    refs: defined([key('invoice', id), key('txn', transaction?.id)]),
    amount: total - tax,
    gross: total,
    currency: str(invoice.currency_code) ?? '',
    paidAt: int(invoice.paid_at) ?? int(transaction?.date) ?? event.created,
    sold: {
      product_ids: [],
      price_ids: defined(lines.map((l) => str(l.entity_id))),
      customer_country: countryCode(obj(invoice.billing_address)?.country),
      metadata: stringsOf(metadata(customFields(invoice))),
    },
  };
}

const paymentFact = (content: Json, event: Verified): Fact => ({
  kind: 'payment',
  who: customerOf(content),
  paid: invoicePaid(obj(content.invoice), obj(content.transaction), event),
  // A renewal names no referral: it waits for its customer to be linked.
  waits: true,
  unpaid: 'link_if_coded',
});

/** A refund transaction, of its own amount, against the invoice its credit note names. */
function refundFact(content: Json): Fact {
  const txn = obj(content.transaction);
  const note = obj(content.credit_note);
  const linked = objects(txn?.linked_credit_notes);
  const invoice = str(note?.reference_invoice_id) ?? str(linked[0]?.cn_reference_invoice_id) ?? str(obj(content.invoice)?.id);
  const refs = defined([key('invoice', invoice), key('txn', txn?.reference_transaction_id)]);
  if (txn?.type !== 'refund' || txn.status !== 'success' || refs.length === 0) {
    return { kind: 'nothing', reason: 'not a successful refund of a payment' };
  }
  return { kind: 'refund', refs, id: key('txn', txn.id) ?? '', amount: int(txn.amount) ?? 0 };
}

const FACTS: Readonly<Record<string, (content: Json, event: Verified) => Fact>> = {
  payment_succeeded: paymentFact,
  // A paid invoice (a card charged at once, a 100 %-off one) credits as its payment would.
  invoice_generated: paymentFact,
  payment_refunded: refundFact,
  subscription_cancelled: (content) => ({ kind: 'cancel', who: customerOf(content) }),
};

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** The `username:password` of an `Authorization: Basic` header, or undefined. */
function basicCredentials(header: string | undefined): string | undefined {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '')?.[1];
  return encoded ? Buffer.from(encoded, 'base64').toString('utf8') : undefined;
}

async function verify(
  payload: string,
  header: (name: string) => string | undefined,
  secrets: readonly string[],
  now: number,
): Promise<Verified> {
  const given = basicCredentials(header('authorization'));
  if (!given) throw fail('invalid_signature', 'the request has no basic auth username and password (Authorization: Basic)');
  if (secrets.length === 0) throw fail('invalid_signature', 'no Chargebee webhook username and password are set for this program yet');
  // Digests of equal length, compared in constant time: how long it takes tells nothing of the password.
  const matches = secrets.map((s) => timingSafeEqual(digest(given), digest(s)));
  if (!matches.includes(true)) {
    throw fail('invalid_signature', "the basic auth username and password match none of this program's Chargebee webhook secrets");
  }
  const body = parseJsonObject(payload) as Json;
  if (!str(body.id) || !str(body.event_type) || !obj(body.content))
    throw fail('invalid_field', 'the event has no id, event_type or content');
  return {
    id: `chargebee:${String(body.id)}`,
    type: String(body.event_type),
    created: int(body.occurred_at) ?? now,
    // A test site is a site of its own: the event does not say which, the secret set for it does.
    livemode: true,
    body,
  };
}

function fact(event: Verified): Fact {
  const of = FACTS[event.type];
  return of ? of(obj(event.body.content) ?? {}, event) : NOT_ACTED_ON;
}

/**
 * With the program's credential, the event as Chargebee's API tells it: acted on only when
 * it means what the webhook said (decision 0391). Nothing to link: it returns no links.
 */
async function fetchBack(event: Verified, credential: Credential | undefined, apiUrl: string | undefined) {
  const site = credential?.site;
  const apiKey = credential?.api_key;
  if (!site || !apiKey) return [];
  const id = event.id.slice('chargebee:'.length);
  const kept = await retrieveEvent(site, apiKey, id, apiUrl);
  if (kept === 'refused') return [];
  if (kept === 'not_found') throw fail('invalid_signature', `Chargebee's API has no event ${id} on the site ${site}`);
  if (kept.event_type !== event.type || !isDeepStrictEqual(fact({ ...event, body: kept }), fact(event))) {
    throw fail('invalid_signature', `the event ${id} says something else than Chargebee's API tells of it`);
  }
  return [];
}

export const chargebeePlatform: Platform = {
  name: 'chargebee',
  title: 'Chargebee',
  signatureHeader: 'authorization',
  secret: {
    // RFC 7617: the username cannot hold a colon; the password may.
    pattern: /^[^:\s]{1,100}:\S{8,200}$/,
    explain:
      "the secret is the webhook's basic auth username and password as set in Chargebee, written username:password (a password of at least 8 characters, no spaces)",
    hint: (secret) => `${secret.slice(0, secret.indexOf(':'))}:…`,
  },
  setup:
    'Chargebee → Configure Chargebee → Webhooks → Add Webhook, with "Protect webhook URL with basic authentication" on, a username and a password of your own',
  events: Object.keys(FACTS),
  testEvent:
    'in your Chargebee test site: Configure Chargebee → Webhooks → your webhook → "Test Webhook"; a test checkout sends its events too',
  localTest: tunnelTest('Chargebee'),
  verify,
  credential: {
    explain: 'your site and an API key, to fetch each event back from Chargebee before acting on it',
    fields: [
      {
        name: 'site',
        label: 'Site',
        // The name in <site>.chargebee.com: letters, digits and dashes (a test site ends in -test).
        pattern: /^[a-z0-9][a-z0-9-]{0,62}$/,
        explain: 'the site is the name in your Chargebee address, <site>.chargebee.com: lower-case letters, digits and dashes',
        secret: false,
      },
      {
        name: 'api_key',
        label: 'API key',
        pattern: /^(live|test)_[A-Za-z0-9]{16,100}$/,
        explain: "the API key must be Chargebee's, as Configure Chargebee → API Keys shows it: live_… or test_… and letters and digits",
        secret: true,
      },
    ],
  },
  lookup: (event, _program, apiUrl, credential) => fetchBack(event, credential, apiUrl),
  fact,
};
