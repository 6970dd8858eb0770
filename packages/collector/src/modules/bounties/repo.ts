// Bounties, their awards and their submissions; and the partner's records a performance
// bounty counts (payments through their commission's partner, referrals), read in its period.

import type { Queryable } from '../../platform/db/db.js';
import { lister } from '../../platform/db/list.js';
import { insertRow, updateRow } from '../../platform/db/rows.js';
import type { AwardRow, BountyRow, SubmissionRow } from './model.js';

export const list = lister<BountyRow>('bounties', { kind: 'kind', created_at: 'created_at' });
export const submissions = lister<SubmissionRow>('bounty_submissions', {
  bounty_id: 'bounty_id',
  partner_id: 'partner_id',
  state: 'state',
  created_at: 'created_at',
});

export function get(db: Queryable, programId: string, id: string): Promise<BountyRow | undefined> {
  return db.get<BountyRow>('SELECT * FROM bounties WHERE program_id = ? AND id = ?', [programId, id]);
}

/** Every bounty of the program, newest first (kept in memory by the service). */
export function ofProgram(db: Queryable, programId: string): Promise<BountyRow[]> {
  return db.all<BountyRow>('SELECT * FROM bounties WHERE program_id = ? ORDER BY created_at DESC, id DESC', [programId]);
}

export async function insert(db: Queryable, row: BountyRow): Promise<void> {
  await insertRow(db, 'bounties', row);
}

export async function update(db: Queryable, row: BountyRow): Promise<void> {
  const { id: _, program_id, created_at: __, ...fields } = row;
  await updateRow(db, 'bounties', program_id, row.id, fields);
}

/** Sales: the partner's payments made in [from, to), not wholly refunded; held ones count once approved. */
const SALES = `SELECT COUNT(*) AS n FROM payments p JOIN commissions c ON c.id = p.commission_id
  WHERE p.program_id = ? AND c.partner_id = ? AND p.created_at >= ? AND p.created_at < ? AND p.refunded < p.amount
    AND (c.review IS NULL OR c.review = 'approved')`;
/** Revenue: what those payments in the currency kept after refunds. */
const REVENUE = `SELECT COALESCE(SUM(p.amount - p.refunded), 0) AS n FROM payments p JOIN commissions c ON c.id = p.commission_id
  WHERE p.program_id = ? AND c.partner_id = ? AND p.created_at >= ? AND p.created_at < ? AND p.currency = ?
    AND (c.review IS NULL OR c.review = 'approved')`;
/** Leads: the partner's sign-ups in [from, to) that review holds not (or approved). */
const LEADS = `SELECT COUNT(*) AS n FROM referrals
  WHERE program_id = ? AND partner_id = ? AND created_at >= ? AND created_at < ? AND (review IS NULL OR review = 'approved')`;

/** What the partner's records count toward the bounty's metric in its period. */
export async function measure(db: Queryable, bounty: BountyRow, partnerId: string): Promise<number> {
  const period = [bounty.program_id, partnerId, bounty.starts_at, bounty.ends_at];
  const [sql, params] =
    bounty.metric === 'revenue' ? [REVENUE, [...period, bounty.currency]] : [bounty.metric === 'leads' ? LEADS : SALES, period];
  return Number((await db.get<{ n: number | string }>(sql, params))?.n ?? 0);
}

export function award(db: Queryable, bountyId: string, partnerId: string): Promise<AwardRow | undefined> {
  return db.get<AwardRow>('SELECT * FROM bounty_awards WHERE bounty_id = ? AND partner_id = ?', [bountyId, partnerId]);
}

/** The award, unless the partner has one for the bounty: resolves to whether it was written. */
export async function insertAward(db: Queryable, row: AwardRow): Promise<boolean> {
  return (await insertRow(db, 'bounty_awards', row, 'ON CONFLICT (bounty_id, partner_id) DO NOTHING')) === 1;
}

/** The partner's awards in the program. */
export function awardsOf(db: Queryable, programId: string, partnerId: string): Promise<AwardRow[]> {
  return db.all<AwardRow>('SELECT * FROM bounty_awards WHERE program_id = ? AND partner_id = ?', [programId, partnerId]);
}

export function getSubmission(db: Queryable, programId: string, id: string): Promise<SubmissionRow | undefined> {
  return db.get<SubmissionRow>('SELECT * FROM bounty_submissions WHERE program_id = ? AND id = ?', [programId, id]);
}

/** The partner's submissions in the program, newest first. */
export function submissionsOf(db: Queryable, programId: string, partnerId: string): Promise<SubmissionRow[]> {
  return db.all<SubmissionRow>(
    'SELECT * FROM bounty_submissions WHERE program_id = ? AND partner_id = ? ORDER BY created_at DESC, id DESC',
    [programId, partnerId],
  );
}

/** The partner's submissions to the bounty that count against its limit: those not rejected. */
export async function countedSubmissions(db: Queryable, bountyId: string, partnerId: string): Promise<number> {
  const row = await db.get<{ n: number | string }>(
    "SELECT COUNT(*) AS n FROM bounty_submissions WHERE bounty_id = ? AND partner_id = ? AND state <> 'rejected'",
    [bountyId, partnerId],
  );
  return Number(row?.n ?? 0);
}

export async function insertSubmission(db: Queryable, row: SubmissionRow): Promise<void> {
  await insertRow(db, 'bounty_submissions', row);
}

/** A pending submission decided: conditional on it being pending still, so it is decided once. */
export async function decide(
  db: Queryable,
  row: SubmissionRow,
  change: Pick<SubmissionRow, 'state' | 'reject_reason' | 'commission_id' | 'decided_at' | 'updated_at'>,
): Promise<boolean> {
  return (await updateRow(db, 'bounty_submissions', row.program_id, row.id, { ...change }, { state: 'pending' })) === 1;
}
