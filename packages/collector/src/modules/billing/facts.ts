// What a billing platform tells Tally, in Tally's own words (docs/billing.md). Each platform
// (modules/stripe, modules/paddle, modules/lemonsqueezy) verifies its signed webhook and
// turns the event into one fact; apply.ts does the same thing with a fact whoever sent it.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { fail } from '../../platform/errors.js';
import type { ProgramRow } from '../programs/model.js';

export type Json = Record<string, unknown>;

/** Who paid, as far as the event tells: what the ways of finding the referral read. */
export interface Customer {
  /** The platform's customer, as a link key (see `Platform`). */
  customer?: string | undefined;
  email?: string | undefined;
  /** The click id the checkout passed (a Checkout's client_reference_id, custom data). */
  clickId?: string | undefined;
  /** A partner's key the customer's referral link carried, with no click id (a Shopify order's landing site): the referral is made for it, `visit` its click id. */
  link?: { key: string; visit: string } | undefined;
  /** Objects that may carry tally_gr_id or tally_referral_id; their string values are the metadata a lead reward reads. */
  metadata: Array<Record<string, string>>;
  /** The customer's country (ISO 3166 alpha-2, upper case), where the event tells it: a lead reward's conditions read it. */
  country?: string | undefined;
  /** Stripe's promotion codes (promo_…) the customer used: they lead to a code by its Stripe id. */
  promotionCodes?: string[] | undefined;
  /** Codes the customer typed, as text: they lead to a code of the program by its name. */
  codes?: string[] | undefined;
  /** The platform's discounts used, as link keys: each leads to the code its `discount` fact named. */
  codeRefs?: string[] | undefined;
}

/** The products and prices of a payment's lines, the customer's country and the metadata, as far as the event tells. */
export interface Sold {
  product_ids: string[];
  price_ids: string[];
  customer_country: string | undefined;
  metadata: Record<string, string>;
}

/** A payment to record: its key on the platform, the link keys it may be found by later, and its sums. */
export interface Paid {
  /** The platform's id of the payment; Tally's idempotency key is `<platform>:<key>`. */
  key: string;
  refs: string[];
  /** Minor units (ISO 4217's), tax excluded. */
  amount: number;
  /** The charge, tax included, in the platform's units: refunds are shares of it. */
  gross: number;
  currency: string;
  /** Unix seconds. */
  paidAt: number;
  /** What was bought and by whom, for rewards with conditions (modules/rewards). */
  sold: Sold;
}

export type Fact =
  /** A customer the platform made or changed: linked by what it names (and, with `byEmail`, by its address). */
  | { kind: 'customer'; who: Customer; byEmail?: boolean }
  /**
   * A payment, or a checkout that paid nothing. `waits`: with no referral found, it waits
   * for the customer to be linked (a renewal), instead of being ignored for good. `unpaid`:
   * what a checkout that paid nothing does (link the customer; or only when a code was used).
   */
  | { kind: 'payment'; who: Customer; paid: Paid | undefined; waits: boolean; unpaid: 'link' | 'link_if_coded' }
  /** More keys for a payment recorded under `of` (a Stripe invoice's payment intent and charge). */
  | { kind: 'payment_refs'; of: string | undefined; refs: string[] }
  /** The refunds of a charge as a running total, against the charge's own amount. */
  | { kind: 'refund_total'; refs: string[]; of: number; refunded: number }
  /** One refund, credit or chargeback of `amount` (gross units), applied once by its `id`. */
  | { kind: 'refund'; refs: string[]; id: string; amount: number }
  /** A dispute opened (the commission is held), won (released) or lost (its amount taken back once, by `id`). */
  | { kind: 'dispute'; refs: string[]; id: string; status: 'open' | 'won' | 'lost'; amount: number }
  /** A discount on the platform and the code customers type for it (Paddle's): later payments name only the discount. */
  | { kind: 'discount'; ref: string; code: string | undefined }
  /** A subscription ended: its referral churns. */
  | { kind: 'cancel'; who: Customer }
  /**
   * A partner's connected account (Stripe Connect) as of `at` (unix seconds): whether it may be
   * paid out, and what the provider still asks of it (modules/payout-methods).
   */
  | { kind: 'payout_account'; account: string; payoutsEnabled: boolean; currentlyDue: string[]; at: number }
  /**
   * A transfer to a connected account reversed (in full or not), naming the payout run item it
   * paid, with its reversals by id and amount (minor units) (flows/payout-reversal.ts).
   */
  | {
      kind: 'transfer_reversed';
      transfer: string;
      item: string | undefined;
      full: boolean;
      reversals: { id: string; amount: number }[];
    }
  | { kind: 'nothing'; reason: string };

/** An event whose signature held, read as far as every platform's log needs. */
export interface Verified {
  /** The key it is stored and deduplicated by: the platform's event id, prefixed beside Stripe's. */
  id: string;
  type: string;
  /** When the platform made it (unix seconds). */
  created: number;
  livemode: boolean;
  body: Json;
}

/** One field of what a platform's API needs from a program: an API key, a site or shop name. */
export interface CredentialField {
  name: string;
  label: string;
  pattern: RegExp;
  /** The error when a value does not match `pattern`. */
  explain: string;
  /** A secret is answered as a hint only (its last four characters); others as they are. */
  secret: boolean;
}

/** A program's credential for a platform: its fields' values by name. */
export type Credential = Readonly<Record<string, string>>;

/**
 * A billing platform: how it signs, what it sends, what each event means. Adding one is a
 * folder with such an object and a line in platforms.ts (docs/billing.md, "Adding a platform").
 */
export interface Platform {
  /** Its name in URLs, the log and the idempotency keys: `stripe`, `paddle`, `lemonsqueezy`. */
  name: string;
  title: string;
  /** The header carrying the signature, in lower case. */
  signatureHeader: string;
  /** The signing secret as the platform shows it, checked when an owner pastes it. */
  secret: { pattern: RegExp; explain: string; hint: (secret: string) => string };
  /** Where the owner sets the endpoint up, for the steps shown to them. */
  setup: string;
  /** The events to select in the platform's settings: those it says something about. */
  events: readonly string[];
  /** How the owner has the platform send a test event, to see the connection work. */
  testEvent: string;
  /** How its events reach an endpoint the platform cannot: a collector on this machine. */
  localTest: (endpointUrl: string, events: readonly string[]) => string;
  /** The verified event, or a 400 invalid_signature / malformed_json. `now` is unix seconds. */
  verify(payload: string, header: (name: string) => string | undefined, secrets: readonly string[], now: number): Promise<Verified>;
  /**
   * What the platform's API needs from a program, when Tally calls it: set through
   * `PUT /v1/integrations/<name>/credential`, kept in billing_credentials, handed to `lookup`.
   */
  credential?: { fields: readonly CredentialField[]; explain: string };
  /**
   * What the event needs from the platform's API before it means anything, as links to
   * record (a Lemon Squeezy order's code: its webhook names none). `apiUrl`: the API
   * elsewhere than the platform's own address (tests, proxies; `<NAME>_API_URL`).
   * `credential`: the program's, when the platform declares one and the program set it.
   */
  lookup?(
    event: Verified,
    program: ProgramRow,
    apiUrl: string | undefined,
    credential?: Credential | undefined,
  ): Promise<Array<{ key: string; target: string }>>;
  /**
   * The event's body with what the platform's API tells of the objects it names, for a
   * platform whose webhooks name them by id only (Recurly's): kept as the event's payload,
   * so its fact, a reprocessing and a waiting event read it again without asking.
   */
  expand?(event: Verified, program: ProgramRow, apiUrl: string | undefined, credential: Credential | undefined): Promise<Json>;
  /** What the event means. Pure: it reads the body only. */
  fact(event: Verified): Fact;
}

/** How a platform without a forwarding tool of its own reaches a collector on this machine: a tunnel. */
export const tunnelTest =
  (title: string) =>
  (url: string): string =>
    `${title} cannot reach this address: open a tunnel to this collector (cloudflared, ngrok…), start Tally with PUBLIC_URL set to the tunnel's https address, and enter the URL then shown here (${new URL(url).pathname} on the tunnel)`;

/** What every platform says of an event it sends that Tally does not act on. */
export const NOT_ACTED_ON: Fact = { kind: 'nothing', reason: 'not an event Tally acts on' };

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
export const obj = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const int = (v: unknown): number | undefined => (Number.isSafeInteger(v) ? (v as number) : undefined);
export const defined = <T>(xs: readonly (T | undefined)[]): T[] => [...new Set(xs.filter((x): x is T => x !== undefined))];

/** The objects of a JSON array (an order's lines, an invoice's discounts); anything else is none. */
export const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj).filter((o): o is Json => o !== undefined) : []);

/**
 * The signature header's value (`name` as the platform writes it), or the refusal every
 * platform gives: none was sent, or the program has no `secret` (its kind, by the platform's name) to check it with.
 */
export function signatureOf(
  header: (name: string) => string | undefined,
  name: string,
  secrets: readonly string[],
  secret: string,
): string {
  const value = header(name.toLowerCase());
  if (!value) throw fail('invalid_signature', `the request has no ${name} header`);
  if (secrets.length === 0) throw fail('invalid_signature', `no ${secret} is set for this program yet`);
  return value;
}

/**
 * Whether one of the program's secrets signed `signed` with HMAC-SHA256 as one of the
 * digests `given` (decoded from the header), each compared in constant time.
 */
export function hmacSigned(signed: string, given: readonly Buffer[], secrets: readonly string[]): boolean {
  return secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(signed, 'utf8').digest();
    return given.some((g) => g.length === expected.length && timingSafeEqual(g, expected));
  });
}

/** The string values of metadata-like objects, merged with the last winning. */
export const stringsOf = (sources: ReadonlyArray<Record<string, unknown>>): Record<string, string> =>
  Object.fromEntries(sources.flatMap((m) => Object.entries(m).filter((e): e is [string, string] => typeof e[1] === 'string')));

/** The objects among `sources` that may carry tally_gr_id or tally_referral_id. */
export function metadata(...sources: unknown[]): Array<Record<string, string>> {
  return sources.map(obj).filter((m): m is Record<string, string> => m !== undefined);
}

/** Unix seconds of an RFC 3339 time, as Paddle and Lemon Squeezy write them. */
export const seconds = (iso: unknown): number | undefined => {
  const ms = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
};

/** A two-letter country code, upper case, or nothing. */
export const countryCode = (v: unknown): string | undefined => {
  const c = str(v);
  return c && /^[A-Za-z]{2}$/.test(c) ? c.toUpperCase() : undefined;
};
