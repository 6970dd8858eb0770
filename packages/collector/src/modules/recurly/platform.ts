// Recurly as a billing platform (docs/recurly.md), from its JSON webhook notifications. They
// name an object by id only ({id, object_type, site_id, event_type, event_time}), so
// `expand` reads the invoice, its account and coupon redemptions, or the subscription from
// Recurly's API v3 with the program's key, and the event is kept with what it read: the
// fact, a reprocessing and an event waiting on another read it again without asking.
// Link keys: `recurly:invoice:<id>`, `recurly:account:<id>`.

import { minorFromDecimal } from '../../core/money.js';
import { fail } from '../../platform/errors.js';
import { parseJsonObject } from '../../platform/json.js';
import type { ProgramRow } from '../programs/model.js';
import { RECURLY_API, get, type RecurlyKey } from './api.js';
import {
  NOT_ACTED_ON,
  countryCode,
  defined,
  obj,
  seconds,
  str,
  tunnelTest,
  type Credential,
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

/** The window Recurly's own client libraries allow a signature: five minutes either way. */
export const RECURLY_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * Recurly's money is a JSON number or string in major units (12.34): as minor units
 * exactly, by the currency's digits. A number is read as JavaScript writes it back, which
 * is the shortest decimal that is that number, so 0.1 stays "0.1", never 0.1000000000000000055.
 */
function minor(v: unknown, currency: string): number | undefined {
  const text = typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v : undefined;
  return text === undefined ? undefined : minorFromDecimal(text, currency);
}

/** An account's custom fields ([{name, value}]) as one object: tally_gr_id or tally_referral_id may be among them. */
function customFields(...owners: Array<Json | undefined>): Record<string, string> {
  const pairs = owners.flatMap((o) => objects(o?.custom_fields)).map((f) => [str(f.name), str(f.value)] as const);
  return Object.fromEntries(pairs.filter((p): p is readonly [string, string] => p[0] !== undefined && p[1] !== undefined));
}

/** Who an invoice's or a subscription's account is, with what the full account (when read) adds. */
function customerOf(mini: Json | undefined, account: Json | undefined, also: Json | undefined): Customer {
  const fields = customFields(account, also);
  return {
    customer: str(mini?.id) ? `recurly:account:${str(mini?.id)}` : undefined,
    email: str(mini?.email) ?? str(account?.email),
    clickId: fields.tally_gr_id,
    metadata: [fields],
    country: countryCode(obj(account?.address)?.country),
  };
}

const invoiceKey = (id: unknown): string | undefined => (str(id) ? `recurly:invoice:${str(id)}` : undefined);

/** A charge invoice paid: its total after discounts, tax excluded, earns; the total with tax is what refunds are shares of. */
function invoicePaid(invoice: Json, event: Verified): Paid | undefined {
  const currency = str(invoice.currency)?.toUpperCase() ?? '';
  const total = minor(invoice.total, currency) ?? 0;
  const tax = Math.min(total, Math.max(0, minor(invoice.tax, currency) ?? 0));
  const id = str(invoice.id);
  if (!id || invoice.state !== 'paid' || total - tax <= 0) return undefined;
  const lines = objects(obj(invoice.line_items)?.data);
  return {
    key: `invoice:${id}`,
    refs: [`recurly:invoice:${id}`],
    amount: total - tax,
    gross: total,
    currency,
    paidAt: seconds(invoice.closed_at) ?? event.created,
    sold: {
      product_ids: defined(lines.map((l) => str(l.plan_code) ?? str(l.item_code))),
      price_ids: defined(lines.map((l) => str(l.add_on_code))),
      customer_country: countryCode(obj(invoice.address)?.country),
      metadata: {},
    },
  };
}

/** What `expand` read of the API, kept on the event beside the notification. */
interface Read {
  invoice?: Json;
  account?: Json;
  coupon_redemptions?: Json;
  subscription?: Json;
}

type Reader = (read: Read, event: Verified) => Fact;

const gone = (what: string): Fact => ({ kind: 'nothing', reason: `Recurly's API has no such ${what} (deleted, or of another site)` });

const chargePaid: Reader = ({ invoice, account, coupon_redemptions }, event) => {
  if (!invoice) return gone('invoice');
  const who = customerOf(obj(invoice.account), account, undefined);
  const codes = defined(objects(coupon_redemptions?.data).map((r) => str(obj(r.coupon)?.code)));
  // A purchase with no referral found stays as it is; a renewal may be of a customer linked later.
  const waits = invoice.origin !== 'purchase';
  const paid = invoicePaid(invoice, event);
  return {
    kind: 'payment',
    who: { ...who, codes, country: who.country ?? paid?.sold.customer_country },
    paid,
    waits,
    unpaid: 'link_if_coded',
  };
};

/** A credit invoice made by a refund takes its total back from the charge invoice it names, once by its own id. */
const creditCreated: Reader = ({ invoice }) => {
  if (!invoice) return gone('invoice');
  const prior = invoiceKey(invoice.previous_invoice_id);
  const origin = str(invoice.origin) ?? '';
  if (!origin.includes('refund')) return { kind: 'nothing', reason: `a credit invoice of origin ${origin || 'unknown'}, not a refund` };
  if (!prior)
    return { kind: 'nothing', reason: 'the credit invoice names no previous_invoice_id: the refund of which invoice is not told' };
  const currency = str(invoice.currency)?.toUpperCase() ?? '';
  const amount = Math.abs(minor(invoice.total, currency) ?? 0);
  return { kind: 'refund', refs: [prior], id: invoiceKey(invoice.id) ?? '', amount };
};

const expired: Reader = ({ subscription }) =>
  subscription ? { kind: 'cancel', who: customerOf(obj(subscription.account), undefined, subscription) } : gone('subscription');

/** The notifications Tally acts on, as `<object_type>.<event_type>`, and the paths to read for each. */
const FACTS: Readonly<Record<string, { read: (id: string) => Partial<Record<keyof Read, string>>; fact: Reader }>> = {
  'charge_invoice.paid': {
    read: (id) => ({ invoice: `/invoices/${id}`, coupon_redemptions: `/invoices/${id}/coupon_redemptions` }),
    fact: chargePaid,
  },
  'credit_invoice.created': { read: (id) => ({ invoice: `/invoices/${id}` }), fact: creditCreated },
  'subscription.expired': { read: (id) => ({ subscription: `/subscriptions/${id}` }), fact: expired },
};

/** The API key and host a credential names; RECURLY_API_URL wins over the region's host. */
function keyOf(credential: Credential | undefined, apiUrl: string | undefined): RecurlyKey | undefined {
  const apiKey = credential?.api_key;
  if (!apiKey) return undefined;
  return { apiKey, base: apiUrl ?? RECURLY_API[credential.region === 'eu' ? 'eu' : 'us'] };
}

/** The notification with what the API tells of the object it names, for the events Tally acts on. */
async function expand(
  event: Verified,
  _program: ProgramRow,
  apiUrl: string | undefined,
  credential: Credential | undefined,
): Promise<Json> {
  const of = FACTS[event.type];
  if (!of) return event.body;
  const key = keyOf(credential, apiUrl);
  if (!key) {
    throw fail(
      'unavailable',
      "Recurly's notifications name objects by id only: set the program's Recurly API key, and Recurly's next try applies it",
    );
  }
  const read: Read = {};
  const paths = of.read(encodeURIComponent(String(event.body.id)));
  for (const [what, path] of Object.entries(paths) as Array<[keyof Read, string]>) read[what] = await get(key, path);
  // The invoice names its account by id and e-mail; the account's custom fields may carry the click id.
  const accountId = str(obj(read.invoice?.account)?.id);
  if (event.type === 'charge_invoice.paid' && accountId) read.account = await get(key, `/accounts/${encodeURIComponent(accountId)}`);
  return { ...event.body, tally_read: read };
}

/** `<ms timestamp>,<hex>,<hex>…`: the time, then one signature per secret key still valid (a rotation keeps both a day). */
function signaturesOf(header: string): { at: number; signatures: string[] } | undefined {
  const [at, ...signatures] = header.split(',').map((s) => s.trim());
  if (!at || !/^\d{1,15}$/.test(at) || signatures.length === 0 || !signatures.every((s) => /^[0-9a-f]{64}$/i.test(s))) return undefined;
  return { at: Number(at), signatures };
}

const verify: Platform['verify'] = async (payload, header, secrets, now) => {
  const raw = signatureOf(header, 'Recurly-Signature', secrets, 'Recurly secret key');
  const signed = signaturesOf(raw);
  if (
    !signed ||
    !hmacSigned(
      `${signed.at}.${payload}`,
      signed.signatures.map((g) => Buffer.from(g, 'hex')),
      secrets,
    )
  ) {
    throw fail('invalid_signature', "the Recurly-Signature header matches none of this program's secret keys");
  }
  if (Math.abs(now * 1000 - signed.at) > RECURLY_TOLERANCE_MS) {
    throw fail('invalid_signature', 'the notification was signed more than five minutes away from now: a replay, or a clock far off');
  }
  const body = parseJsonObject(payload) as Json;
  const [id, objectType, eventType] = [str(body.id), str(body.object_type), str(body.event_type)];
  if (!id || !objectType || !eventType) throw fail('invalid_field', 'the notification has no id, object_type or event_type');
  const at = str(body.event_time) ?? '';
  return {
    // No id of its own: the object, what happened to it, and when say which notification it is.
    id: `recurly:${objectType}.${eventType}:${id}:${at}`,
    type: `${objectType}.${eventType}`,
    created: seconds(at) ?? now,
    // A notification does not say whether it came from a sandbox site: the secret set for it does.
    livemode: true,
    body,
  };
};

export const recurlyPlatform: Platform = {
  name: 'recurly',
  title: 'Recurly',
  signatureHeader: 'recurly-signature',
  secret: {
    pattern: /^[A-Za-z0-9_-]{16,128}$/,
    explain: "the secret key must be the webhook endpoint's, as Recurly shows it: 16 to 128 letters, digits, - or _",
    hint: (secret) => `…${secret.slice(-4)}`,
  },
  setup: 'Recurly → Integrations → Webhooks → Configure → New endpoint, with the JSON payload; then copy its secret key',
  events: Object.keys(FACTS),
  testEvent:
    "Recurly → Integrations → Webhooks: in a sandbox site, a test purchase sends its notifications, and an endpoint's log resends one",
  localTest: tunnelTest('Recurly'),
  verify,
  credential: {
    explain: "a private API key of the site, and the site's region: its notifications name objects by id only",
    fields: [
      {
        name: 'api_key',
        label: 'Private API key',
        pattern: /^[A-Za-z0-9]{20,64}$/,
        explain: 'the private API key as Recurly shows it (Integrations → API Credentials): letters and digits',
        secret: true,
      },
      {
        name: 'region',
        label: "Site's region (us or eu)",
        pattern: /^(us|eu)$/,
        explain: 'the region of the site: us, or eu for a site in the EU data centre',
        secret: false,
      },
    ],
  },
  expand,
  fact(event) {
    if (event.type === 'subscription.canceled') {
      return {
        kind: 'nothing',
        reason: 'a canceled subscription runs to the end of its term and may be reactivated: subscription.expired churns the referral',
      };
    }
    const of = FACTS[event.type];
    return of ? of.fact((obj(event.body.tally_read) ?? {}) as Read, event) : NOT_ACTED_ON;
  },
};
