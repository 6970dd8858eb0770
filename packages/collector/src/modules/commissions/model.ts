// The commissions module's records as plain types, shared by its repository and the modules and flows that read them.

export type CommissionState = 'pending' | 'rejected' | 'paid';

export interface CommissionRow {
  id: string;
  program_id: string;
  partner_id: string;
  referral_id: string | null;
  /** Minor units (cents). */
  amount: number;
  currency: string;
  state: CommissionState;
  reject_reason: string | null;
  /** When it may be paid out: its payment's time plus the holding period. */
  payable_at: number;
  /** 1 while its payment is disputed: no payout takes it. */
  on_hold: number;
  /** For a clawback (a negative amount): the commission whose refunded share it takes back. */
  clawback_of: string | null;
  /** A second-tier commission (and its clawbacks): the recruit's commission it is the recruiter's share of (docs/two-tier.md). */
  tier_of: string | null;
  /** The reward that made it (modules/rewards); null for one entered by hand or made by a partnership's own rate. */
  reward_id: string | null;
  /** What made it, in words ("20 % of a renewal, month 3 of 12"); null for one entered by hand. */
  reward_description: string | null;
  /** null, or 'held' until an owner decides (no payout takes it), then 'approved' or 'rejected' (modules/review). */
  review: 'held' | 'approved' | 'rejected' | null;
  /** JSON array of { signal, explain }: what held it. */
  review_reasons: string | null;
  /** The payout batch that holds it (an export claimed it), until that batch is cancelled. */
  payout_batch_id: string | null;
  state_set_at: number;
  paid_at: number | null;
  created_at: number;
  updated_at: number;
}
