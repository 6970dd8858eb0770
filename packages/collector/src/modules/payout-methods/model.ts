// How a partner is paid (docs/payouts.md, "How partners are paid"): one method per partner
// record of a program, and what makes it ready; and the program's rules for methods.

export const METHODS = ['paypal', 'stripe_connect', 'wise'] as const;
export type MethodName = (typeof METHODS)[number];

/** Why a partner cannot be paid yet; null when ready. */
export type NotReady = 'no_method' | 'not_offered' | 'country_not_allowed' | 'unconfirmed' | 'onboarding' | 'requirements_due';

export interface PayoutMethodRow {
  program_id: string;
  partner_id: string;
  method: MethodName;
  /** ISO 3166 alpha-2, as the partner gave it: where their account or bank is. */
  country: string | null;
  paypal_email: string | null;
  paypal_confirmed_at: number | null;
  /** SHA-256 of the confirmation link's token, while one is out. */
  confirm_hash: string | null;
  confirm_expires_at: number | null;
  stripe_account_id: string | null;
  stripe_payouts_enabled: number;
  /** JSON array of Stripe's requirements.currently_due. */
  stripe_currently_due: string;
  /** The `created` of the Stripe event (or the time of the read) the two fields above are from. */
  stripe_synced_at: number;
  wise_recipient_id: string | null;
  wise_currency: string | null;
  /** What the partner and owner are shown of the bank account, masked: "IBAN •••• 3000". */
  wise_display: string | null;
  created_at: number;
  updated_at: number;
}

export interface SettingsRow {
  program_id: string;
  /** JSON array of MethodName. */
  offered: string;
  /** JSON object: method → the countries that may use it; a method absent is open to every country. */
  countries: string;
  wise_api_token: string | null;
  wise_profile_id: string | null;
  wise_source_currency: string;
  /** off, weekly or monthly: when the schedule makes a payout run (flows/payout-schedule.ts). */
  schedule: ScheduleEvery;
  /** Weekly: the ISO weekday (1 Monday … 7 Sunday); monthly: the day of the month (1 … 28). */
  schedule_day: number;
  schedule_time_zone: string;
  /** When the schedule was last changed: a period that began before it is not made. */
  schedule_set_at: number | null;
  updated_at: number;
}

export interface Settings {
  offered: MethodName[];
  countries: Partial<Record<MethodName, string[]>>;
  wiseApiToken: string | null;
  wiseProfileId: string | null;
  wiseSourceCurrency: string;
  schedule: Schedule;
}

export const SCHEDULE_EVERY = ['off', 'weekly', 'monthly'] as const;
export type ScheduleEvery = (typeof SCHEDULE_EVERY)[number];

/** When the schedule makes a payout run: at the local midnight a period begins, in `timeZone`. */
export interface Schedule {
  every: ScheduleEvery;
  day: number;
  timeZone: string;
  setAt: number | null;
}

/** What a payout run needs of a partner: where to pay, and whether it may. */
export interface PayoutMethod {
  method: MethodName | null;
  ready: boolean;
  reason: NotReady | null;
  country: string | null;
  paypalEmail: string | null;
  stripeAccountId: string | null;
  wiseRecipientId: string | null;
  wiseCurrency: string | null;
}
