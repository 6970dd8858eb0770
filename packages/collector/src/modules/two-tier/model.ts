// The two-tier module's records as plain types (docs/two-tier.md): a program's settings, who
// recruited whom, and the share each recruit's commission paid its recruiter.

export interface SettingsRow {
  program_id: string;
  enabled: number;
  /** The recruiter's share of each of the recruit's commissions, in basis points. */
  share_bps: number;
  /** Months from the recruit's application during which their commissions pay a share; null: forever. */
  duration_months: number | null;
  /** JSON object: currency → the most a recruit's commissions pay their recruiter, in minor units; a currency absent has no cap. */
  caps: string;
  updated_at: number;
}

export interface TwoTierSettings {
  enabled: boolean;
  shareBps: number;
  durationMonths: number | null;
  caps: Record<string, number>;
}

export interface RecruitmentRow {
  /** The recruit's partnership. */
  partnership_id: string;
  program_id: string;
  /** The recruiter's partnership, whose link the recruit applied through. */
  recruiter_id: string;
  created_at: number;
}

export interface SecondTierRow {
  /** The recruit's (tier 1) commission. */
  source_id: string;
  /** The recruiter's (tier 2) commission made of it. */
  commission_id: string;
  program_id: string;
  recruit_id: string;
  currency: string;
  /** Both amounts as they were when the share was made: a later reduction of the source takes back the same fraction. */
  source_amount: number;
  amount: number;
  created_at: number;
}

/** A recruit or a recruiter as the other sees them: their name, and when the recruit applied. */
export interface Person {
  partnership_id: string;
  partner_id: string;
  name: string;
  joined_at: number;
}

/** A recruit, with what their commissions paid their recruiter so far, per currency. */
export interface RecruitView extends Person {
  earned: { currency: string; amount: number }[];
}
