// The domain's events (docs/webhooks.md): one type per event, and its payload, the record as
// the API shows it. Webhooks deliver the payload as it is; e-mails, move rules and automatic
// codes read the attributes typed here, so renaming one in a module's present.ts fails the
// build instead of an e-mail.

import type { Resource } from '../platform/resource.js';

export const EVENT_TYPES = [
  'referral.created',
  'referral.converted',
  'referral.updated',
  'partnership.created',
  'partnership.updated',
  'partnership.group_changed',
  'partnership.recruited',
  'commission.created',
  'commission.updated',
  'payment.created',
  'payout.created',
  'payout.paid',
  'payout.failed',
  'discount_code.created',
  'discount_code.used',
  'discount_code.disabled',
  'discount_code.enabled',
  'review.held',
  'review.decided',
  'message.created',
  'resource.created',
  'resource.deleted',
  'bounty.awarded',
  'bounty_submission.created',
  'bounty_submission.updated',
  'lead.created',
  'lead.updated',
  'link.created',
  'link.updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What GET /v1/events lists, and for how long an event is kept. */
export const EVENTS_KEPT_SECONDS = 30 * 86_400;

/** A record whose attributes include `A` (the ones a subscriber reads), and whatever else its API shape has. */
export type Record_<A> = Resource & { attributes: A & Record<string, unknown> };

type To<Name extends string> = { [K in Name]: { data: { id: string; type: string } } };

export type ReferralPayload = Record_<{ state: string; review?: string | null }> & { relationships: To<'partnership'> };
export type PartnershipPayload = Record_<{
  state: string;
  key: string;
  created_by: string;
  state_set_at: number;
  updated_at: number;
  decline_reason?: string | null;
}> & { relationships: To<'partner'> };
/** A partnership that applied through a recruiter's link (docs/two-tier.md): the recruit's id, and both partners. */
export type RecruitmentPayload = Record_<{ recruiter_partnership_id: string; recruiter_partner_id: string; recruit_partner_id: string }>;
export type CommissionPayload = Record_<{
  partner_id: string;
  amount: number;
  currency: string;
  state: string;
  review?: string | null;
  clawback_of?: string | null;
  tier?: number;
  tier_of?: string | null;
}>;
export type PaymentPayload = Record_<{ amount: number; currency: string }>;
export type PayoutPayload = Record_<{ currency: string }>;
export type CodePayload = Record_<{ code: string; partner_id?: string | null }>;
export type LeadPayload = Record_<{ stage: string; partner_id: string; submitted_by: string; lost_reason?: string | null }> & {
  relationships: To<'partnership'>;
};
export type DecisionPayload = Record_<{ decision: string }>;
export type MessagePayload = Record_<{ thread_id: string; partner_id: string; author: 'team' | 'partner' }>;
export type ResourcePayload = Record_<{ kind: string; title: string }>;
export type BountyAwardPayload = Record_<{ bounty_id: string; bounty_name: string; partner_id: string; amount: number; currency: string }>;
export type BountySubmissionPayload = Record_<{
  bounty_id: string;
  bounty_name: string;
  partner_id: string;
  state: string;
  reject_reason: string | null;
  amount: number;
  currency: string;
}>;
export type LinkPayload = Record_<{ key: string; status: string; created_by: string }> & { relationships: To<'partnership'> };

/** Each event's payload. */
export interface EventPayloads {
  'referral.created': ReferralPayload;
  'referral.converted': ReferralPayload;
  'referral.updated': ReferralPayload;
  'partnership.created': PartnershipPayload;
  'partnership.updated': PartnershipPayload;
  'partnership.group_changed': PartnershipPayload;
  'partnership.recruited': RecruitmentPayload;
  'commission.created': CommissionPayload;
  'commission.updated': CommissionPayload;
  'payment.created': PaymentPayload;
  'payout.created': PayoutPayload;
  'payout.paid': PayoutPayload;
  // A payout run's item that failed or came back (returned): its commissions are payable again.
  'payout.failed': PayoutPayload;
  'discount_code.created': CodePayload;
  'discount_code.used': CodePayload;
  'discount_code.disabled': CodePayload;
  'discount_code.enabled': CodePayload;
  // A partner's link made, or its status changed (approved, disabled, enabled).
  'link.created': LinkPayload;
  'link.updated': LinkPayload;
  // A referral held at conversion, or a payment's commission held when it is paid.
  'review.held': ReferralPayload | CommissionPayload;
  'review.decided': DecisionPayload;
  // A message in a partnership's thread, from the team (a broadcast's too) or the partner.
  'message.created': MessagePayload;
  // A brand resource the owner added for partners (docs/resources.md), or deleted.
  'resource.created': ResourcePayload;
  'resource.deleted': ResourcePayload;
  // A performance bounty's target reached: its commission is made (docs/bounties.md).
  'bounty.awarded': BountyAwardPayload;
  'bounty_submission.created': BountySubmissionPayload;
  // Approved (its commission made) or rejected with a reason.
  'bounty_submission.updated': BountySubmissionPayload;
  // A partner's submitted lead (docs/leads.md), and each move of its stage.
  'lead.created': LeadPayload;
  'lead.updated': LeadPayload;
}

/** An event as its subscribers see it, in the transaction of its change. */
export type DomainEvent<T extends EventType = EventType> = {
  [K in T]: { id: string; programId: string; type: K; data: EventPayloads[K]; at: number };
}[T];

/** What the writer of a hot path knows already, which spares subscribers a row. */
export interface Known {
  /** False: the referral's partnership had one before, so this is not its first (the conversion reads it with its evidence). */
  firstOfPartnership?: boolean;
  /** Imported history (`tally import`): its events reach webhooks, but it sends no e-mail (docs/importing.md). */
  history?: boolean;
}
