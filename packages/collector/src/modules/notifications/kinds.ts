// The kinds of notification, whom each goes to, and how long a row of each is kept.
// A partner's go to the partner record's address; an owner's to each owner and admin of
// the program, fanned out by the sender from one row for the program ('owners').

export const PARTNER_KINDS = [
  'application_received',
  'application_approved',
  'application_declined',
  'first_referral',
  'commission_digest',
  'payout_sent',
  'clawback',
  'code_created',
  'message_waiting',
  'bounty_awarded',
  'submission_approved',
  'submission_rejected',
  'lead_stage',
  'new_recruit',
  'link_approved',
] as const;
export const OWNER_KINDS = [
  'new_application',
  'webhook_failing',
  'billing_failing',
  'review_waiting',
  'payout_run_waiting',
  'partner_message',
  'new_submission',
  'new_lead',
  'link_waiting',
  'weekly_summary',
] as const;
export type PartnerKind = (typeof PARTNER_KINDS)[number];
export type OwnerKind = (typeof OWNER_KINDS)[number];
export type NotificationKind = PartnerKind | OwnerKind;

/** Who a person is to the preferences: a partner record, or an owner's user. */
export type Person = 'partner' | 'owner';
/** A row's recipient: one person, or the program's owners, whom the sender fans it out to. */
export type Audience = Person | 'owners';

export const isPartnerKind = (kind: string): kind is PartnerKind => (PARTNER_KINDS as readonly string[]).includes(kind);
export const isOwnerKind = (kind: string): kind is OwnerKind => (OWNER_KINDS as readonly string[]).includes(kind);
export const kindsOf = (person: Person): readonly NotificationKind[] => (person === 'partner' ? PARTNER_KINDS : OWNER_KINDS);

/** Rows are kept this long after they are made: a sent one's key keeps it once, its link unsubscribes. */
export const KEPT_SECONDS = 90 * 86_400;
/** After this many failed tries a message is given up (about a day and a half of retries). */
export const MAX_ATTEMPTS = 40;
/**
 * A message still unsent a week after the change it tells of is news no longer: left unsent
 * (an SMTP_URL set months after the first application must not send the backlog).
 */
export const STALE_SECONDS = 7 * 86_400;

/**
 * A message waits this long before its e-mail goes: a burst of messages shares one e-mail (one
 * row per thread, reader and read time), and a reader who read it meanwhile gets none.
 */
export const MESSAGE_WAIT_SECONDS = 10 * 60;
