// The SQL of the two-tier tables, for both engines.

import type { Queryable } from '../../platform/db/db.js';
import { insertRow } from '../../platform/db/rows.js';
import type { Person, RecruitmentRow, SecondTierRow, SettingsRow } from './model.js';

export function settings(db: Queryable, programId: string): Promise<SettingsRow | undefined> {
  return db.get<SettingsRow>('SELECT * FROM two_tier_settings WHERE program_id = ?', [programId]);
}

export function putSettings(db: Queryable, row: SettingsRow): Promise<number> {
  return insertRow(
    db,
    'two_tier_settings',
    row,
    `ON CONFLICT (program_id) DO UPDATE SET enabled = excluded.enabled, share_bps = excluded.share_bps,
       duration_months = excluded.duration_months, caps = excluded.caps, updated_at = excluded.updated_at`,
  );
}

export function insertRecruitment(db: Queryable, row: RecruitmentRow): Promise<number> {
  return insertRow(db, 'recruitments', row);
}

export function recruitment(db: Queryable, programId: string, partnershipId: string): Promise<RecruitmentRow | undefined> {
  return db.get<RecruitmentRow>('SELECT * FROM recruitments WHERE program_id = ? AND partnership_id = ?', [programId, partnershipId]);
}

const PEOPLE = `SELECT ps.id AS partnership_id, pa.id AS partner_id, pa.name AS name, r.created_at AS joined_at
                  FROM recruitments r JOIN partnerships ps ON ps.id = r.%s JOIN partners pa ON pa.id = ps.partner_id`;

/** The partnership's recruits, oldest first (a deleted one is gone with its partnership). */
export function recruitsOf(db: Queryable, programId: string, recruiterId: string): Promise<Person[]> {
  return db.all<Person>(
    `${PEOPLE.replace('%s', 'partnership_id')} WHERE r.program_id = ? AND r.recruiter_id = ? ORDER BY r.created_at, ps.id`,
    [programId, recruiterId],
  );
}

/** Who recruited the partnership, if anyone did. */
export function recruiterOf(db: Queryable, programId: string, partnershipId: string): Promise<Person | undefined> {
  return db.get<Person>(`${PEOPLE.replace('%s', 'recruiter_id')} WHERE r.program_id = ? AND r.partnership_id = ?`, [
    programId,
    partnershipId,
  ]);
}

/** What each recruit's commissions paid their recruiter, net of clawbacks, per currency. */
export function earnedFrom(
  db: Queryable,
  programId: string,
  recruitIds: readonly string[],
): Promise<{ recruit_id: string; currency: string; amount: number }[]> {
  if (recruitIds.length === 0) return Promise.resolve([]);
  return db.all(
    `SELECT st.recruit_id AS recruit_id, c.currency AS currency, SUM(c.amount) AS amount
       FROM second_tiers st JOIN commissions c ON c.tier_of = st.source_id
      WHERE st.program_id = ? AND st.recruit_id IN (${recruitIds.map(() => '?').join(', ')}) AND c.state <> 'rejected'
      GROUP BY st.recruit_id, c.currency ORDER BY c.currency`,
    [programId, ...recruitIds],
  );
}

export function secondTierOf(db: Queryable, sourceId: string): Promise<SecondTierRow | undefined> {
  return db.get<SecondTierRow>('SELECT * FROM second_tiers WHERE source_id = ?', [sourceId]);
}

export function insertSecondTier(db: Queryable, row: SecondTierRow): Promise<number> {
  return insertRow(db, 'second_tiers', row);
}

/** What the recruit's commissions were granted for their recruiter so far in the currency: what a cap counts. */
export async function granted(db: Queryable, recruitId: string, currency: string): Promise<number> {
  const row = await db.get<{ n: number | null }>('SELECT SUM(amount) AS n FROM second_tiers WHERE recruit_id = ? AND currency = ?', [
    recruitId,
    currency,
  ]);
  return Number(row?.n ?? 0);
}
