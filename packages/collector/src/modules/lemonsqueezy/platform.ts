// Lemon Squeezy as a billing platform (docs/lemonsqueezy.md), from its webhooks as API v1
// sends them: a JSON:API resource under `data`, the event's name and the checkout's custom
// data under `meta`. Its ids are integers, each kind counted apart, so the link keys say
// the kind: `lemonsqueezy:order:123`. A subscription's first payment comes twice, as an
// order and as the subscription's `initial` invoice: the order is credited, and the
// invoice is linked to it through subscription_created (which names the order).

import { fail } from '../../platform/errors.js';
import type { ProgramRow } from '../programs/model.js';
import { orderCodes } from './api.js';
import { parseJsonObject } from '../../platform/json.js';
import {
  NOT_ACTED_ON,
  defined,
  int,
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
  hmacSigned,
  signatureOf,
} from '../billing/facts.js';

const key = (kind: string, id: unknown): string | undefined =>
  typeof id === 'string' || typeof id === 'number' ? `lemonsqueezy:${kind}:${id}` : undefined;

interface Resource {
  id: string;
  attributes: Json;
  custom: Json | undefined;
}

function customerOf(r: Resource): Customer {
  return {
    customer: key('customer', r.attributes.customer_id),
    email: str(r.attributes.user_email),
    clickId: str(r.custom?.tally_gr_id),
    metadata: metadata(r.custom),
  };
}

/** Where an order's code is kept, once asked of the API (lookup below). */
const orderCode = (orderId: string): string => `lemonsqueezy:order-code:${orderId}`;

/** The code of an order that had a discount, asked of Lemon Squeezy's API with the program's key. */
async function lookup(event: Verified, program: ProgramRow, apiUrl: string | undefined) {
  const data = obj(event.body.data);
  const discounted = (int(obj(data?.attributes)?.discount_total) ?? 0) > 0;
  if (event.type !== 'order_created' || !discounted || !program.lemonsqueezy_api_key) return [];
  const id = String(data?.id);
  const [code] = await orderCodes(program.lemonsqueezy_api_key, id, apiUrl);
  return code ? [{ key: orderCode(id), target: code }] : [];
}

/** An order's or an invoice's sums: `total` is after the discount, with tax; tax excluded is what earns. */
function paid(
  r: Resource,
  kind: 'order' | 'invoice',
  event: Verified,
  sold: Pick<Paid['sold'], 'product_ids' | 'price_ids'>,
): Paid | undefined {
  const a = r.attributes;
  const total = int(a.total) ?? 0;
  const tax = Math.min(total, Math.max(0, int(a.tax) ?? 0));
  if (a.status !== 'paid' || total - tax <= 0) return undefined;
  return {
    key: `${kind}:${r.id}`,
    refs: [`lemonsqueezy:${kind}:${r.id}`],
    amount: total - tax,
    gross: total,
    currency: str(a.currency) ?? '',
    paidAt: seconds(a.created_at) ?? event.created,
    sold: { ...sold, customer_country: undefined, metadata: stringsOf(metadata(r.custom)) },
  };
}

function refundTotal(r: Resource, kind: 'order' | 'invoice'): Fact {
  return {
    kind: 'refund_total',
    refs: [`lemonsqueezy:${kind}:${r.id}`],
    of: int(r.attributes.total) ?? 0,
    refunded: int(r.attributes.refunded_amount) ?? 0,
  };
}

type Reader = (r: Resource, event: Verified) => Fact;

const FACTS: Readonly<Record<string, Reader>> = {
  order_created: (r, e) => {
    const item = obj(r.attributes.first_order_item);
    const sold = { product_ids: defined([item?.product_id]).map(String), price_ids: defined([item?.variant_id]).map(String) };
    const who = { ...customerOf(r), codeRefs: [orderCode(r.id)] };
    return { kind: 'payment', who, paid: paid(r, 'order', e, sold), waits: false, unpaid: 'link' };
  },
  order_refunded: (r) => refundTotal(r, 'order'),
  // Names the order that began the subscription: its initial invoice leads there.
  subscription_created: (r) => ({
    kind: 'payment_refs',
    of: key('order', r.attributes.order_id),
    refs: defined([key('subscription', r.id)]),
  }),
  subscription_payment_success: (r, e) => {
    if (r.attributes.billing_reason === 'initial') {
      return { kind: 'payment_refs', of: key('subscription', r.attributes.subscription_id), refs: [`lemonsqueezy:invoice:${r.id}`] };
    }
    return {
      kind: 'payment',
      who: customerOf(r),
      paid: paid(r, 'invoice', e, { product_ids: [], price_ids: [] }),
      waits: true,
      unpaid: 'link_if_coded',
    };
  },
  subscription_payment_refunded: (r) => refundTotal(r, 'invoice'),
  subscription_cancelled: (r) => ({ kind: 'cancel', who: customerOf(r) }),
};

async function verify(
  payload: string,
  header: (name: string) => string | undefined,
  secrets: readonly string[],
  now: number,
): Promise<Verified> {
  const signature = signatureOf(header, 'X-Signature', secrets, 'Lemon Squeezy signing secret');
  if (!/^[0-9a-f]{64}$/i.test(signature) || !hmacSigned(payload, [Buffer.from(signature, 'hex')], secrets)) {
    throw fail('invalid_signature', "the X-Signature header matches none of this program's signing secrets");
  }
  const body = parseJsonObject(payload) as Json;
  const meta = obj(body.meta);
  const data = obj(body.data);
  const attributes = obj(data?.attributes);
  const name = str(meta?.event_name);
  if (!name || !data || !attributes || (typeof data.id !== 'string' && typeof data.id !== 'number')) {
    throw fail('invalid_field', 'the event has no meta.event_name or data with an id and attributes');
  }
  // No event id: the event's name, the resource and the time it was changed say which one it is.
  const changed = str(attributes.updated_at) ?? str(attributes.created_at) ?? '';
  return {
    id: `lemonsqueezy:${name}:${String(data.type)}:${String(data.id)}:${changed}`,
    type: name,
    created: seconds(changed) ?? now,
    livemode: meta?.test_mode !== true,
    body,
  };
}

export const lemonSqueezyPlatform: Platform = {
  name: 'lemonsqueezy',
  title: 'Lemon Squeezy',
  signatureHeader: 'x-signature',
  secret: {
    // Lemon Squeezy takes whatever the owner types there, 6 to 40 characters.
    pattern: /^\S{6,40}$/,
    explain: 'the signing secret is what you typed in the webhook form in Lemon Squeezy: 6 to 40 characters, no spaces',
    hint: (secret) => `…${secret.slice(-4)}`,
  },
  setup: 'Lemon Squeezy → Settings → Webhooks → add a webhook, with a signing secret of your own',
  events: Object.keys(FACTS),
  testEvent:
    'in test mode: a test checkout sends its events, and a test subscription can send one of its events by hand; Settings → Webhooks resends a logged one',
  localTest: tunnelTest('Lemon Squeezy'),
  verify,
  lookup,
  fact(event) {
    const of = FACTS[event.type];
    const data = obj(event.body.data) ?? {};
    const resource = { id: String(data.id), attributes: obj(data.attributes) ?? {}, custom: obj(obj(event.body.meta)?.custom_data) };
    return of ? of(resource, event) : NOT_ACTED_ON;
  },
};
