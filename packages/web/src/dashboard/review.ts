// Review's signals as the dashboard names them: a title and a line saying what each
// holds, for Settings → Review (turning them on or off) and the review queue (a held
// referral's reasons in words). Both areas say them, so their words are the entry's
// catalogue's (locales/, `signals.*`). The collector's own list is in its review/signals.ts;
// a signal this list does not know yet is shown by its name.

import { t } from './language.js';

const NAMES = [
  'no_click',
  'address_burst',
  'browser_burst',
  'click_rate',
  'partner_address',
  'disposable_email',
  'paid_ads',
  'shared_payout',
  'email_match',
  'quick_payment',
] as const;
export type SignalName = (typeof NAMES)[number];
export const SIGNAL_NAMES: SignalName[] = [...NAMES];

const known = (signal: string): signal is SignalName => (NAMES as readonly string[]).includes(signal);

/** A signal's title; its own name for one the dashboard does not know. */
export function signalTitle(signal: string): string {
  if (known(signal)) return t(`signals.${signal}.title`);
  const words = signal.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a signal holds, in a line; undefined for one the dashboard does not know. */
export const signalDescription = (signal: string): string | undefined => (known(signal) ? t(`signals.${signal}.description`) : undefined);
