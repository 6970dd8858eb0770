// Paddle Billing as a billing platform (docs/paddle.md), from its notifications as API v1
// sends them. A transaction names its customer, custom data and discount by id only: the
// customer's address comes with customer.created, a discount's code with discount.created,
// and each is linked when it comes, in whatever order. Paddle's ids carry their kind
// (txn_, ctm_, adj_, dsc_), so the link keys are `paddle:` and the id.

import type { Webhooks } from '@paddle/paddle-node-sdk';
import { fail } from '../../platform/errors.js';
import { parseJsonObject } from '../../platform/json.js';
import {
  NOT_ACTED_ON,
  defined,
  metadata,
  obj,
  seconds,
  str,
  stringsOf,
  tunnelTest,
  type Customer,
  type Fact,
  type Json,
  type Paid,
  type Platform,
  type Verified,
  signatureOf,
} from '../billing/facts.js';

/** The SDK's own window: a signature more than five seconds old is refused, by the real clock. */
export const PADDLE_TOLERANCE_SECONDS = 5;

const key = (id: unknown): string | undefined => (str(id) ? `paddle:${str(id)}` : undefined);
/** Paddle's amounts: strings of integers in the currency's minor units. */
const amount = (v: unknown): number | undefined => (typeof v === 'string' && /^-?\d{1,15}$/.test(v) ? Number(v) : undefined);

function customerOf(o: Json): Customer {
  const custom = obj(o.custom_data);
  return {
    customer: key(o.customer_id),
    clickId: str(custom?.tally_gr_id),
    metadata: metadata(custom),
    codeRefs: defined([key(o.discount_id)]),
  };
}

/** A transaction paid: its total after discount, net of tax; the charge with tax is what refunds are shares of. */
function transactionPaid(t: Json, event: Verified): Paid | undefined {
  const totals = obj(obj(t.details)?.totals);
  const total = amount(totals?.total) ?? 0;
  const tax = Math.min(total, Math.max(0, amount(totals?.tax) ?? 0));
  const id = str(t.id);
  if (!id || total - tax <= 0) return undefined;
  const items = Array.isArray(t.items) ? t.items.map(obj) : [];
  return {
    key: id,
    refs: [`paddle:${id}`],
    amount: total - tax,
    gross: amount(totals?.grand_total) ?? total,
    currency: str(totals?.currency_code) ?? str(t.currency_code) ?? '',
    paidAt: seconds(t.billed_at) ?? event.created,
    sold: {
      product_ids: defined(items.map((i) => str(obj(i?.price)?.product_id))),
      price_ids: defined(items.map((i) => str(i?.price_id) ?? str(obj(i?.price)?.id))),
      // A transaction names its address by id only: no country here.
      customer_country: undefined,
      metadata: stringsOf(metadata(t.custom_data)),
    },
  };
}

function adjustmentFact(a: Json): Fact {
  const refs = defined([key(a.transaction_id)]);
  const id = key(a.id) ?? '';
  const total = amount(obj(a.totals)?.total) ?? 0;
  const status = str(a.status);
  switch (a.action) {
    case 'refund':
    case 'credit':
      // A refund waits for Paddle's approval (adjustment.updated says approved or rejected).
      return status === 'approved'
        ? { kind: 'refund', refs, id, amount: total }
        : { kind: 'nothing', reason: `the ${String(a.action)} is ${status ?? 'without a status'}: only an approved one takes money back` };
    case 'chargeback_warning':
      return { kind: 'dispute', refs, id, status: 'open', amount: total };
    case 'chargeback':
      return { kind: 'dispute', refs, id, status: 'lost', amount: total };
    default:
      return {
        kind: 'nothing',
        reason: `a ${String(a.action)}: what a chargeback or a credit took back stays taken; pay the partner by hand if it should earn`,
      };
  }
}

type Reader = (o: Json, event: Verified) => Fact;

const transactionFact: Reader = (t, e) => ({
  kind: 'payment',
  who: customerOf(t),
  paid: transactionPaid(t, e),
  waits: true,
  unpaid: 'link_if_coded',
});

/** A customer's address is only here: it links the customer to the referral with that address. */
const customerFact: Reader = (c) => ({
  kind: 'customer',
  who: { customer: key(c.id), email: str(c.email), clickId: str(obj(c.custom_data)?.tally_gr_id), metadata: metadata(c.custom_data) },
  byEmail: true,
});

const discountFact: Reader = (d) => ({ kind: 'discount', ref: key(d.id) ?? '', code: d.status === 'active' ? str(d.code) : undefined });

const FACTS: Readonly<Record<string, Reader>> = {
  'transaction.completed': transactionFact,
  'transaction.paid': transactionFact,
  'adjustment.created': adjustmentFact,
  'adjustment.updated': adjustmentFact,
  'subscription.canceled': (s) => ({ kind: 'cancel', who: customerOf(s) }),
  'customer.created': customerFact,
  'customer.updated': customerFact,
  'discount.created': discountFact,
  'discount.updated': discountFact,
};

/** `ts=…;h1=…`: the time it was signed, to tell a stale signature from a wrong one. */
function signedAt(header: string): number | undefined {
  const ts = /(?:^|;)ts=(\d{1,12})(?:;|$)/.exec(header)?.[1];
  return ts ? Number(ts) : undefined;
}

// Loaded by the first Paddle event, not at start: the SDK is about 30 MB of a started
// collector's memory (issue 47). Its crypto is set up by its Paddle client; Tally uses only
// its webhook check.
let checker: Promise<Webhooks> | undefined;
const paddleWebhooks = (): Promise<Webhooks> =>
  (checker ??= import('@paddle/paddle-node-sdk').then((sdk) => {
    sdk.NodeRuntime.initialize();
    return new sdk.Webhooks();
  }));

async function verify(
  payload: string,
  header: (name: string) => string | undefined,
  secrets: readonly string[],
  now: number,
): Promise<Verified> {
  const signature = signatureOf(header, 'Paddle-Signature', secrets, 'Paddle secret key');
  // The SDK checks the HMAC and the age; it throws on a header it cannot read.
  const webhooks = await paddleWebhooks();
  const results = await Promise.all(secrets.map((s) => webhooks.isSignatureValid(payload, s, signature).catch(() => false)));
  if (!results.includes(true)) {
    const ts = signedAt(signature);
    const stale = ts !== undefined && ts + PADDLE_TOLERANCE_SECONDS < Date.now() / 1000;
    throw fail(
      'invalid_signature',
      stale
        ? `the event was signed more than ${PADDLE_TOLERANCE_SECONDS} seconds ago: a replay, or a clock far off`
        : "the Paddle-Signature header matches none of this program's secret keys",
    );
  }
  const body = parseJsonObject(payload) as Json;
  if (!str(body.event_id) || !str(body.event_type) || !obj(body.data))
    throw fail('invalid_field', 'the event has no event_id, event_type or data');
  return {
    id: `paddle:${String(body.event_id)}`,
    type: String(body.event_type),
    created: seconds(body.occurred_at) ?? now,
    // A notification does not say whether it came from the sandbox: the secret set for it does.
    livemode: true,
    body,
  };
}

export const paddlePlatform: Platform = {
  name: 'paddle',
  title: 'Paddle',
  signatureHeader: 'paddle-signature',
  secret: {
    pattern: /^pdl_ntfset_[A-Za-z0-9_+/=-]{20,200}$/,
    explain: "the secret key must be Paddle's, as the notification destination shows it: pdl_ntfset_ and then letters and digits",
    hint: (secret) => `pdl_ntfset_…${secret.slice(-4)}`,
  },
  setup: 'Paddle → Developer tools → Notifications → New destination; then copy its secret key',
  events: Object.keys(FACTS),
  testEvent:
    'Paddle → Developer tools → Simulations → New simulation, sent to this destination (its usage type must take simulated traffic), then Run',
  localTest: tunnelTest('Paddle'),
  verify,
  fact(event) {
    const of = FACTS[event.type];
    return of ? of(obj(event.body.data) ?? {}, event) : NOT_ACTED_ON;
  },
};
