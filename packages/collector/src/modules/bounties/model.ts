// The bounties module's records as plain types (docs/bounties.md).

export type BountyKind = 'performance' | 'submission';
/** What a performance bounty counts in its period: payments, sign-ups (referrals), or revenue in the bounty's currency. */
export type BountyMetric = 'sales' | 'leads' | 'revenue';
export type SubmissionState = 'pending' | 'approved' | 'rejected';

export interface BountyRow {
  id: string;
  program_id: string;
  name: string;
  description: string;
  kind: BountyKind;
  /** JSON array of partner group ids; empty: every group of the program. */
  group_ids: string;
  /** The period, [starts_at, ends_at): records made in it count, submissions are taken in it. */
  starts_at: number;
  ends_at: number;
  /** The reward, in minor units of `currency`. */
  amount: number;
  currency: string;
  metric: BountyMetric | null;
  /** Sales or leads counted, or revenue in minor units of `currency`. */
  target: number | null;
  max_submissions: number | null;
  max_urls: number | null;
  max_text: number | null;
  requires_url: number;
  archived_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface AwardRow {
  bounty_id: string;
  partner_id: string;
  program_id: string;
  commission_id: string;
  /** The progress that reached the target, as measured then. */
  progress: number;
  created_at: number;
}

export interface SubmissionRow {
  id: string;
  program_id: string;
  bounty_id: string;
  partner_id: string;
  partnership_id: string;
  /** JSON array of the URLs given as proof. */
  urls: string;
  text: string;
  state: SubmissionState;
  reject_reason: string | null;
  /** The commission an approval made. */
  commission_id: string | null;
  decided_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A partner's progress toward a performance bounty; null for a submission bounty. */
export interface Progress {
  value: number;
  target: number;
}

export const groupIdsOf = (row: Pick<BountyRow, 'group_ids'>): string[] => JSON.parse(row.group_ids) as string[];

/** Whether the bounty is for a partner of `groupId` (their group, resolved to the default one when unset). */
export const coversGroup = (row: BountyRow, groupId: string): boolean => {
  const ids = groupIdsOf(row);
  return ids.length === 0 || ids.includes(groupId);
};

/** Open at `now`: not archived, and within its period. */
export const isOpen = (row: BountyRow, now: number): boolean => row.archived_at === null && row.starts_at <= now && now < row.ends_at;
