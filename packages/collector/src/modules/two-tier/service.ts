// Two-tier referrals' rules (docs/two-tier.md): the program's settings (kept in memory, as every
// setting a change reads is), who recruited whom, and what share a recruit's commission pays.

import type { Db, Queryable, Tx } from '../../platform/db/db.js';
import { remembered } from '../../platform/db/remembered.js';
import { addMonths, minimumPayout } from '../../core/payout-terms.js';
import { commissionAmount } from '../../core/money.js';
import type { Person, RecruitmentRow, RecruitView, SecondTierRow, TwoTierSettings } from './model.js';
import * as repo from './repo.js';

const parseCaps = (json: string): Record<string, number> => JSON.parse(json) as Record<string, number>;

/** A program that never set two-tier referrals: off, at 10 %, forever, uncapped. */
export const DEFAULT_SETTINGS: TwoTierSettings = Object.freeze({ enabled: false, shareBps: 1000, durationMonths: null, caps: {} });

/** The program's settings as stored, or null when it never set them (so a reaction costs nothing there). */
export function storedSettings(db: Queryable, programId: string): Promise<TwoTierSettings | null> {
  return remembered(db, `two-tier:${programId}`, async () => {
    const row = await repo.settings(db, programId);
    if (!row) return null;
    return { enabled: row.enabled === 1, shareBps: row.share_bps, durationMonths: row.duration_months, caps: parseCaps(row.caps) };
  });
}

export async function settingsOf(db: Queryable, programId: string): Promise<TwoTierSettings> {
  return (await storedSettings(db, programId)) ?? DEFAULT_SETTINGS;
}

export async function updateSettings(db: Db, programId: string, changes: Partial<TwoTierSettings>, now: number): Promise<TwoTierSettings> {
  return db.transaction(async (tx) => {
    const next = { ...(await settingsOf(tx, programId)), ...changes };
    await repo.putSettings(tx, {
      program_id: programId,
      enabled: next.enabled ? 1 : 0,
      share_bps: next.shareBps,
      duration_months: next.durationMonths,
      caps: minimumPayout(next.caps, 'caps') ?? '{}',
      updated_at: now,
    });
    return { ...next, caps: parseCaps(minimumPayout(next.caps, 'caps') ?? '{}') };
  });
}

export function recordRecruitment(tx: Tx, row: RecruitmentRow): Promise<number> {
  return repo.insertRecruitment(tx, row);
}

export function recruitmentOf(db: Queryable, programId: string, partnershipId: string): Promise<RecruitmentRow | undefined> {
  return repo.recruitment(db, programId, partnershipId);
}

export const secondTierOf = repo.secondTierOf;
export const recordSecondTier = (tx: Tx, row: SecondTierRow): Promise<number> => repo.insertSecondTier(tx, row);

/**
 * The recruiter's share of a commission of `amount` made at `at` by a recruit who applied at
 * `joinedAt`, of which `granted` was already given in its currency: the percentage rounded
 * half up as every commission's, 0 once the duration ended, never past the cap.
 */
export function shareFor(
  s: TwoTierSettings,
  c: { amount: number; currency: string; at: number },
  joinedAt: number,
  granted: number,
): number {
  if (s.durationMonths !== null && c.at >= addMonths(joinedAt, s.durationMonths)) return 0;
  const share = commissionAmount(c.amount, s.shareBps);
  const cap = s.caps[c.currency];
  return Math.max(0, cap === undefined ? share : Math.min(share, cap - granted));
}

export const grantedFor = repo.granted;

async function withEarned(db: Queryable, programId: string, people: Person[]): Promise<RecruitView[]> {
  const earned = await repo.earnedFrom(
    db,
    programId,
    people.map((p) => p.partnership_id),
  );
  return people.map((p) => ({
    ...p,
    joined_at: Number(p.joined_at),
    earned: earned.filter((e) => e.recruit_id === p.partnership_id).map((e) => ({ currency: e.currency, amount: Number(e.amount) })),
  }));
}

/** Who recruited the partnership (joined_at: when), and whom it recruited, with what each one's commissions paid it. */
export async function recruitmentView(
  db: Queryable,
  programId: string,
  partnershipId: string,
): Promise<{ recruiter: Person | null; recruits: RecruitView[] }> {
  const recruiter = await repo.recruiterOf(db, programId, partnershipId);
  return {
    recruiter: recruiter ? { ...recruiter, joined_at: Number(recruiter.joined_at) } : null,
    recruits: await withEarned(db, programId, await repo.recruitsOf(db, programId, partnershipId)),
  };
}
