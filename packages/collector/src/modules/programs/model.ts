// The programs module's records as plain types, shared by its repository and the modules and flows that read them.

export interface ProgramRow {
  id: string;
  name: string;
  site_url: string;
  commission_rate_bps: number;
  /** How long the tracker keeps a referral, in days: the snippet's data-cookie-days. */
  cookie_days: number;
  /** Months from a referral's first payment in which its payments earn; 0: no limit. */
  recurring_months: number;
  /** Days after its payment before a commission can be paid out. */
  hold_days: number;
  /** JSON object: currency code → the least a payout may be, in minor units. */
  minimum_payout: string;
  /** Names the program's Stripe webhook URL; null until Stripe is connected. */
  stripe_endpoint_id: string | null;
  /** The public page's address, /p/<slug>/; null until the owner chooses one. */
  slug: string | null;
  description: string;
  /** 1: the public page is up and takes applications. */
  page_enabled: number;
  /** 1: applications are accepted at once. */
  auto_accept: number;
  /** 1: a code used by another partner's referral takes the payment; 0: the referral stands (docs/codes.md). */
  code_wins: number;
  /** 1: partners may make their own codes in the portal, starting with code_prefix, at most code_max_length long. */
  partner_codes: number;
  code_prefix: string;
  code_max_length: number;
  /** 1: a partnership gets a code (its key, with the prefix) when it is accepted. */
  auto_codes: number;
  /** A restricted Stripe API key, for the codes Tally makes in Stripe; never shown whole. */
  stripe_api_key: string | null;
  /** A Lemon Squeezy API key (read access): an order's discount code is only in its API. */
  lemonsqueezy_api_key: string | null;
  /** JSON: the review signals the program turned on or off (modules/review/signals.ts). */
  review_signals: string;
  /** The language partners get when neither they nor their browser choose one of ours (core/locale.ts). */
  locale: string;
  /** Invoices' billing details (docs/payouts.md#invoices): the legal name (else `name`), address and VAT ID; null: not given. */
  billing_name: string | null;
  billing_address: string | null;
  billing_vat_id: string | null;
  created_at: number;
  updated_at: number;
}
