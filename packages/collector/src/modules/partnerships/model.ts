// The partnerships module's records as plain types, shared by its repository and the modules and flows that read them.

export type PartnershipState = 'pending' | 'accepted' | 'declined';

export interface PartnershipRow {
  id: string;
  program_id: string;
  partner_id: string;
  key: string;
  state: PartnershipState;
  /** JSON array of strings; the slugs table holds the same values for lookups. */
  competitor_slugs: string;
  created_by: 'company' | 'partner';
  commission_rate_bps: number | null;
  /** The commission rules (modules/programs/repo.ts), each null for the program's own. */
  /** What the partner wrote when applying on the program's page. */
  application_note: string | null;
  /** Why an owner declined it, told to the partner (modules/notifications); none otherwise. */
  decline_reason?: string | null;
  recurring_months: number | null;
  hold_days: number | null;
  minimum_payout: string | null;
  /** Its partner group (modules/rewards); null only on rows written before groups: the default group. */
  group_id: string | null;
  state_set_at: number;
  created_at: number;
  updated_at: number;
}

/** A partnership with the addresses its own partner could use to refer themself. */
export interface CreditedPartnership extends PartnershipRow {
  partner_email_norm: string;
  partner_paypal_email_norm: string | null;
  /** The link (modules/links) whose key credited it; null or absent: the partnership's own key, or no slug. */
  link_id?: string | null;
}
