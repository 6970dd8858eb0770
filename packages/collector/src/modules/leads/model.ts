// The leads module's records as plain types, shared by its repository, its rules and the flows that read them.

export const LEAD_STAGES = ['new', 'qualified', 'won', 'lost'] as const;
export type LeadStage = (typeof LEAD_STAGES)[number];

/** A person a partner named before they signed up (docs/leads.md). */
export interface LeadRow {
  id: string;
  program_id: string;
  partner_id: string;
  partnership_id: string;
  name: string;
  /** As sent; duplicates are found by email_norm. */
  email: string;
  email_norm: string;
  /** The address's company domain, lower case; null for a free-mail domain, which names no company. */
  domain: string | null;
  company: string | null;
  notes: string | null;
  stage: LeadStage;
  stage_set_at: number;
  /** Why the owner lost it; set with stage lost only. */
  lost_reason: string | null;
  /** The referral a won lead made or was linked to. */
  referral_id: string | null;
  /** Who sent it: the partner (portal) or the owner on the partner's behalf (API, dashboard). */
  submitted_by: 'partner' | 'owner';
  created_at: number;
  updated_at: number;
}
