// What makes a conversion look wrong (docs/review.md). Each signal is on or off per program
// (`review_signals`), with a default; each says in a sentence what it saw, stored on what
// it flags. The thresholds are chosen so that a household or an office behind one address
// is not flagged on a normal day: four people of a household converting on one evening
// stay well under the address's five in an hour.

/** Different people converting from one client address within the window: more than this is flagged. */
export const ADDRESS_PEOPLE = 5;
export const ADDRESS_WINDOW_SECONDS = 3600;
/** Different people converting with one click id (one browser's cookie) within a day: more than this is flagged. */
export const BROWSER_PEOPLE = 2;
export const BROWSER_WINDOW_SECONDS = 86_400;
/** Click ids of paid ads, as the ad platforms add them to a landing's address. */
/** A partner's refund rate is weighed over their latest payments, against the program's latest. */
export const REFUND_RATE_OWN = 50;
export const REFUND_RATE_PROGRAM = 500;
/** Flagged from this many of the partner's payments, at a rate this far above the program's, and at least this high. */
export const REFUND_RATE_MIN_PAYMENTS = 10;
export const REFUND_RATE_TIMES = 3;
export const REFUND_RATE_FLOOR = 0.3;
/** A first payment this soon after the landing is faster than a person signs up and pays. */
export const QUICK_PAYMENT_SECONDS = 10;
export const PAID_AD_PARAMETERS = ['gclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'ttclid', 'twclid', 'li_fat_id', 'dclid', 'epik'];

export const SIGNALS = {
  no_click: { default: true, title: 'No landing before the conversion' },
  address_burst: { default: true, title: 'Many people from one address' },
  browser_burst: { default: true, title: 'Many people from one browser' },
  // Off by default: a mobile carrier's shared address (CGNAT) carries many people's clicks.
  click_rate: { default: false, title: 'Clicks at a rate no person makes' },
  partner_address: { default: true, title: "A partner's own address" },
  disposable_email: { default: true, title: 'A disposable e-mail domain' },
  paid_ads: { default: false, title: 'Paid ads on the brand' },
  shared_payout: { default: true, title: 'A payout address shared by several partners' },
  email_match: { default: true, title: 'Matched by e-mail alone' },
  // Off by default: a billing platform's payment time is its clock, not ours, and seconds apart are within their skew.
  quick_payment: { default: false, title: 'Paid within seconds of the landing' },
  refund_rate: { default: true, title: "A partner's refunds far above the program's" },
} as const;

export type Signal = keyof typeof SIGNALS;
export const SIGNAL_NAMES = Object.keys(SIGNALS) as Signal[];

/** A signal that fired, and what it saw. */
export interface Flag {
  signal: Signal;
  explain: string;
}

/** The program's choice of signals: its own settings over the defaults. */
export function signalsOn(settings: string | null | undefined): ReadonlySet<Signal> {
  let chosen: Record<string, unknown> = {};
  try {
    chosen = JSON.parse(settings || '{}') as Record<string, unknown>;
  } catch {
    chosen = {};
  }
  return new Set(SIGNAL_NAMES.filter((s) => (typeof chosen[s] === 'boolean' ? chosen[s] : SIGNALS[s].default)));
}

/** What a conversion's evidence says, as read by evidence.ts. */
export interface ConversionEvidence {
  /** When the visitor's first click with this click id landed; null: never. */
  clickAt: number | null;
  clickUrl: string | null;
  /** Other people who converted from the same address in the window, counted up to the threshold only (a flood costs no more). */
  sameAddress: number;
  /** Other people who converted with the same click id in the window, counted up to the threshold only. */
  sameBrowser: number;
  /** Whether the address reaches another partner's own or payout address, in this program. */
  partnerAddress: boolean;
  disposable: boolean;
  /** Whether the credited partner's payout address is another partner's of the program too. */
  sharedPayout: boolean;
  /** Whether the client's address spent its hour's allowance of new clicks (modules/clicks). */
  clickFlood?: boolean;
}

/** The flags a conversion raises among the signals the program has on. */
export function conversionFlags(e: ConversionEvidence, on: ReadonlySet<Signal>): Flag[] {
  const flags: Flag[] = [];
  const add = (signal: Signal, explain: string) => on.has(signal) && flags.push({ signal, explain });
  if (e.clickAt === null)
    add('no_click', 'no click with this click id landed before the conversion: the click id was never seen on a landing');
  if (e.sameAddress >= ADDRESS_PEOPLE) {
    add('address_burst', `more than ${ADDRESS_PEOPLE} different people converted from this address within an hour`);
  }
  if (e.sameBrowser >= BROWSER_PEOPLE) {
    add('browser_burst', `more than ${BROWSER_PEOPLE} different people converted with this browser's click id within a day`);
  }
  if (e.clickFlood) add('click_rate', "this address made 100 new clicks on the program's links within the hour: a rate no person makes");
  if (e.partnerAddress) add('partner_address', "the customer's address reaches a partner's own or payout address in this program");
  if (e.disposable) add('disposable_email', "the customer's address is at a disposable e-mail domain");
  // The landing's address is parsed only where the signal is on (off by default).
  const ads = on.has('paid_ads') ? paidAdParameters(e.clickUrl) : [];
  if (ads.length > 0) add('paid_ads', `the landing came from a paid ad (${ads.join(', ')}), which the program forbids on its brand`);
  if (e.sharedPayout) add('shared_payout', "the partner's payout address is another partner's too");
  return flags;
}

function paidAdParameters(url: string | null): string[] {
  if (!url) return [];
  try {
    const params = new URL(url).searchParams;
    return PAID_AD_PARAMETERS.filter((p) => params.has(p));
  } catch {
    return [];
  }
}
