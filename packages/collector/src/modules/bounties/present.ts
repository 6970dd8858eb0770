// Bounties, awards and submissions as the API and the events show them: pure functions of their rows.

import type { Resource } from '../../platform/resource.js';
import type { BountyAwardPayload, BountySubmissionPayload } from '../../events/types.js';
import { type AwardRow, type BountyRow, groupIdsOf, type Progress, type SubmissionRow } from './model.js';

const n = (v: number | null): number | null => (v === null ? null : Number(v));

function bountyAttributes(row: BountyRow) {
  return {
    name: row.name,
    description: row.description,
    kind: row.kind,
    group_ids: groupIdsOf(row),
    starts_at: Number(row.starts_at),
    ends_at: Number(row.ends_at),
    amount: Number(row.amount),
    currency: row.currency,
    metric: row.metric,
    target: n(row.target),
    max_submissions: n(row.max_submissions),
    max_urls: n(row.max_urls),
    max_text: n(row.max_text),
    requires_url: row.requires_url === 1,
  };
}

export function renderBounty(row: BountyRow): Resource {
  return {
    id: row.id,
    type: 'bounty',
    attributes: {
      ...bountyAttributes(row),
      archived: row.archived_at !== null,
      archived_at: n(row.archived_at),
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

export function renderSubmission(row: SubmissionRow, bounty?: BountyRow): BountySubmissionPayload {
  return {
    id: row.id,
    type: 'bounty_submission',
    attributes: {
      bounty_id: row.bounty_id,
      bounty_name: bounty?.name ?? '',
      partner_id: row.partner_id,
      partnership_id: row.partnership_id,
      urls: JSON.parse(row.urls) as string[],
      text: row.text,
      state: row.state,
      reject_reason: row.reject_reason,
      commission_id: row.commission_id,
      amount: Number(bounty?.amount ?? 0),
      currency: bounty?.currency ?? '',
      decided_at: n(row.decided_at),
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

export function renderAward(row: AwardRow, bounty: BountyRow): BountyAwardPayload {
  return {
    id: row.commission_id,
    type: 'bounty_award',
    attributes: {
      bounty_id: row.bounty_id,
      bounty_name: bounty.name,
      partner_id: row.partner_id,
      commission_id: row.commission_id,
      amount: Number(bounty.amount),
      currency: bounty.currency,
      progress: Number(row.progress),
      created_at: row.created_at,
    },
  };
}

/** A bounty as the partner sees it: its terms, their progress or their submissions. */
export function renderPartnerBounty(
  row: BountyRow,
  mine: { progress: Progress | null; awarded: boolean; submissions: SubmissionRow[] },
): Resource {
  const counted = mine.submissions.filter((s) => s.state !== 'rejected').length;
  return {
    id: row.id,
    type: 'bounty',
    attributes: {
      ...bountyAttributes(row),
      progress: mine.progress,
      awarded: mine.awarded,
      submissions_left: row.kind === 'submission' ? Math.max(0, Number(row.max_submissions) - counted) : null,
      submissions: mine.submissions.map((s) => renderSubmission(s, row)),
    },
  };
}
