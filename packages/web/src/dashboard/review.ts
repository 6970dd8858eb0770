// Review's signals as the dashboard names them: a title and a line saying what each
// holds, for Settings → Review (turning them on or off) and the review queue (a held
// referral's reasons in words). The collector's own list is in its review/signals.ts; a
// signal this list does not know yet is shown by its name.

export const SIGNAL_TEXT = {
  no_click: {
    title: 'No landing before the conversion',
    description: "The visitor's click id was never seen on a landing through a partner's link before they converted.",
  },
  address_burst: {
    title: 'Many people from one address',
    description: 'More than 5 different people converted from one client address within an hour.',
  },
  browser_burst: {
    title: 'Many people from one browser',
    description: "More than 2 different people converted with one browser's click id within a day.",
  },
  click_rate: {
    title: 'Clicks at a rate no person makes',
    description:
      "The converting address made 100 new clicks on the program's links within an hour. Off by default: a mobile carrier's shared address carries many people's clicks.",
  },
  partner_address: {
    title: "A partner's own address",
    description: "The customer's e-mail is a partner's own or payout address, in this program or any other.",
  },
  disposable_email: {
    title: 'A disposable e-mail domain',
    description: "The customer's e-mail is at a throwaway domain (mailinator.com and the like).",
  },
  paid_ads: {
    title: 'Paid ads on the brand',
    description:
      'The landing carried a paid ad’s click id (gclid, fbclid, msclkid, ttclid…): turn it on when partners may not advertise on your brand. Off by default.',
  },
  shared_payout: {
    title: 'A payout address shared by several partners',
    description: "The credited partner's payout address is another partner's too.",
  },
  email_match: {
    title: 'Matched by e-mail alone',
    description: "A billing platform's payment matched the referral by the customer's e-mail only, with no landing before it.",
  },
  quick_payment: {
    title: 'Paid within seconds of the landing',
    description:
      "A referral's first payment came within 10 seconds of its landing, faster than a person signs up and pays. Off by default: a billing platform's payment time is its own clock.",
  },
} as const;

export type SignalName = keyof typeof SIGNAL_TEXT;
export const SIGNAL_NAMES = Object.keys(SIGNAL_TEXT) as SignalName[];

/** A signal's title; its own name for one the dashboard does not know. */
export function signalTitle(signal: string): string {
  if (Object.hasOwn(SIGNAL_TEXT, signal)) return SIGNAL_TEXT[signal as SignalName].title;
  const words = signal.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
