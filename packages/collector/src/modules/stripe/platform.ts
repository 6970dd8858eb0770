// Stripe as a billing platform (docs/stripe.md): its signature, and what each event it
// sends means. Stripe's ids are the link keys as they are: they were so before the other
// platforms came, and Stripe's prefixes (cus_, in_, pi_, ch_) keep them apart.

import { NOT_ACTED_ON, obj, str, type Fact, type Platform, type Verified } from '../billing/facts.js';
import * as read from './objects.js';
import { verifyEvent } from './verify.js';

const objectOf = (event: Verified) => obj(obj(event.body.data)?.object) ?? {};

type Reader = (o: Record<string, unknown>, event: Verified) => Fact;

const checkout: Reader = (s, e) => ({
  kind: 'payment',
  who: read.sessionCustomer(s),
  paid: read.sessionPaid(s, e.created),
  waits: false,
  unpaid: 'link',
});

/** A transfer with its reversals (Stripe lists them newest first, and each is in the event of its own making). */
const transferReversal: Reader = (t) => {
  const list = obj(t.reversals)?.data;
  const reversals = (Array.isArray(list) ? list : [])
    .map((r) => obj(r) ?? {})
    .map((r) => ({ id: str(r.id) ?? '', amount: Number(r.amount) }))
    .filter((r) => r.id !== '' && Number.isSafeInteger(r.amount) && r.amount > 0)
    .reverse(); // oldest first, so their credit notes are numbered in the order they were made
  return {
    kind: 'transfer_reversed',
    transfer: str(t.id) ?? '',
    item: str(obj(t.metadata)?.tally_payout_item_id),
    full: t.reversed === true,
    reversals,
  };
};

const FACTS: Readonly<Record<string, Reader>> = {
  'checkout.session.completed': checkout,
  'checkout.session.async_payment_succeeded': checkout,
  'invoice.paid': (inv, e) => ({
    kind: 'payment',
    who: read.invoiceCustomer(inv),
    paid: read.invoicePaid(inv, e.created),
    waits: true,
    unpaid: 'link_if_coded',
  }),
  // Since 2025-03-31 the invoice names its payment intent only here.
  'invoice_payment.paid': (p) => {
    const { invoice, refs } = read.invoicePaymentRefs(p);
    return { kind: 'payment_refs', of: invoice, refs };
  },
  'charge.refunded': (ch) => {
    const c = read.chargeRefund(ch);
    return { kind: 'refund_total', refs: c.refs, of: c.amount, refunded: c.refunded };
  },
  'charge.dispute.created': (d) => ({ kind: 'dispute', ...read.dispute(d), id: str(d.id) ?? '', status: 'open' }),
  'charge.dispute.closed': (d) => {
    const { status, ...dispute } = read.dispute(d);
    return { kind: 'dispute', ...dispute, id: str(d.id) ?? '', status: status === 'lost' ? 'lost' : 'won' };
  },
  'customer.subscription.deleted': (sub) => ({ kind: 'cancel', who: read.subscriptionCustomer(sub) }),
  // Only the metadata links here: an address alone is matched when the customer pays.
  'customer.created': (c) => ({ kind: 'customer', who: read.customerObject(c) }),
  'customer.updated': (c) => ({ kind: 'customer', who: read.customerObject(c) }),
  // A partner's Express account, from the Connect endpoint: its readiness for payouts (docs/payouts.md).
  'account.updated': (a, e) => ({ kind: 'payout_account', ...read.payoutAccount(a), at: e.created }),
  // A payout run's transfer taken back, in part or whole: each reversal applied once (flows/payout-reversal.ts).
  'transfer.reversed': transferReversal,
  // Also sent when a reversal changes the transfer; its reversals already applied change nothing.
  'transfer.updated': transferReversal,
};

/** Stripe's signing secrets: whsec_ and base64 (Stripe's are 32 bytes; any length from 16 is taken). */
const SECRET = /^whsec_[A-Za-z0-9+/=]{24,200}$/;

export const stripePlatform: Platform = {
  name: 'stripe',
  title: 'Stripe',
  signatureHeader: 'stripe-signature',
  secret: {
    pattern: SECRET,
    explain: "the signing secret must be Stripe's, as its endpoint page shows it: whsec_ and then letters and digits",
    hint: (secret) => `whsec_…${secret.slice(-4)}`,
  },
  setup: 'Stripe Dashboard → Developers → Webhooks → Add endpoint; then reveal the signing secret',
  events: Object.keys(FACTS),
  testEvent: 'in test mode, with the Stripe CLI: stripe trigger checkout.session.completed (or make a test payment)',
  localTest: (url, events) =>
    `Stripe cannot reach this address: forward its test events with the Stripe CLI, stripe listen --forward-to ${url} --events ${events.join(',')}, and add the signing secret it prints (whsec_…) here`,
  verify: (payload, header, secrets, now) => verifyEvent(payload, header('stripe-signature'), secrets, now),
  fact(event) {
    const of = FACTS[event.type];
    return of ? of(objectOf(event), event) : NOT_ACTED_ON;
  },
};
