import type { Queryable } from '../../platform/db/db.js';
import { lister, STATE_SET_AT } from '../../platform/db/list.js';
import { addDelta, uncountClicks } from '../../events/deltas.js';
import { insertFirstWith, type Insert } from '../../platform/db/rows.js';
import type { ReferralState } from './model.js';

export interface ReferralRow {
  id: string;
  program_id: string;
  partnership_id: string;
  partner_id: string;
  /** As sent; matching uses email_norm. */
  email: string;
  email_norm: string;
  gr_id: string;
  uid: string | null;
  state: ReferralState;
  state_set_at: number;
  created_at: number;
  updated_at: number;
  /** 1: a click of the same visitor landed before the conversion; 0: none; null: before review came. */
  landed: number | null;
  /** A hash of the client's address (modules/review/evidence.ts), for public conversions. */
  client_hash: string | null;
  user_agent: string | null;
  /** null, or 'held' until an owner decides, then 'approved' or 'rejected' (modules/review). */
  review: ReviewState | null;
  /** JSON array of { signal, explain }: what held it. */
  review_reasons: string | null;
}

export type ReviewState = 'held' | 'approved' | 'rejected';

const COLUMNS = {
  review: 'review',
  state: 'state',
  email: 'email_norm',
  partner_id: 'partner_id',
  created_at: 'created_at',
  state_set_at: 'state_set_at',
};

/**
 * Inserts unless the program already has a referral for this person. The unique index
 * decides, not a prior read, so two racing requests cannot both create one.
 */
/** The person's first referral and, only if it is that, the rows that follow from it; false when they had one. */
export function insertFirstOfPerson(db: Queryable, row: ReferralRow, followers: readonly Insert[]): Promise<boolean> {
  return insertFirstWith(db, { table: 'referrals', row }, '(program_id, email_norm)', followers);
}

export function findByEmail(db: Queryable, programId: string, emailNorm: string): Promise<ReferralRow | undefined> {
  return db.get<ReferralRow>('SELECT * FROM referrals WHERE program_id = ? AND email_norm = ?', [programId, emailNorm]);
}

export function get(db: Queryable, programId: string, id: string): Promise<ReferralRow | undefined> {
  return db.get<ReferralRow>('SELECT * FROM referrals WHERE program_id = ? AND id = ?', [programId, id]);
}

export const list = lister<ReferralRow>('referrals', COLUMNS, { notBeforeCreation: ['state_set_at'] });

/** The program's earliest referral with this uid (the company's own customer id). */
export function findByUid(db: Queryable, programId: string, uid: string): Promise<ReferralRow | undefined> {
  return db.get<ReferralRow>('SELECT * FROM referrals WHERE program_id = ? AND uid = ? ORDER BY created_at, id LIMIT 1', [programId, uid]);
}

/** Moves a referral out of `from` in one conditional update; false when it was no longer in `from`. */
export async function move(
  db: Queryable,
  programId: string,
  id: string,
  from: ReferralState,
  to: ReferralState,
  now: number,
): Promise<boolean> {
  const changed = await db.run(
    `UPDATE referrals SET state = ?, ${STATE_SET_AT}, updated_at = ? WHERE program_id = ? AND id = ? AND state = ?`,
    [to, now, now, now, programId, id, from],
  );
  return changed === 1;
}

/** One person's referrals, by normalized e-mail: one per program, in all programs or in one. */
export function findEverywhere(db: Queryable, emailNorm: string, programId?: string): Promise<Array<{ id: string; program_id: string }>> {
  return programId
    ? db.all('SELECT id, program_id FROM referrals WHERE email_norm = ? AND program_id = ?', [emailNorm, programId])
    : // Program by program, each a lookup in the unique (program, e-mail) index: no index
      // on the e-mail alone for conversions to keep up to date. CROSS JOIN makes SQLite
      // walk programs first, as its planner knows no table sizes (no ANALYZE).
      db.all('SELECT r.id, r.program_id FROM programs p CROSS JOIN referrals r WHERE r.program_id = p.id AND r.email_norm = ?', [
        emailNorm,
      ]);
}

/**
 * Erases a referral: its clicks (by its click id), the link from its commissions and
 * payments, which keep their amounts, its billing platforms' links and the events it was
 * credited by, the events about it (webhooks) and the notifications naming it, and the referral itself. Run inside a transaction.
 */
export async function erase(db: Queryable, programId: string, id: string, now: number): Promise<boolean> {
  const row = await get(db, programId, id);
  if (!row) return false;
  await uncountClicks(db, 'c.program_id = ? AND c.gr_id = ?', [programId, row.gr_id]);
  await db.run('DELETE FROM clicks WHERE program_id = ? AND gr_id = ?', [programId, row.gr_id]);
  await addDelta(db, { program_id: programId, partner_id: row.partner_id, at: row.created_at, referrals: -1 });
  await db.run('UPDATE commissions SET referral_id = NULL, updated_at = ? WHERE referral_id = ?', [now, id]);
  await db.run('UPDATE payments SET referral_id = NULL, updated_at = ? WHERE referral_id = ?', [now, id]);
  // Billing platforms: the customer no longer leads to anyone, and no event credited to them keeps what was sent (their e-mail).
  await db.run('DELETE FROM billing_links WHERE target_id = ?', [id]);
  await db.run('DELETE FROM billing_customers WHERE program_id = ? AND email_norm = ?', [programId, row.email_norm]);
  await db.run(`UPDATE billing_events SET payload = '{}', referral_id = NULL WHERE referral_id = ?`, [id]);
  // Webhooks: every event that names the referral (itself, with its e-mail and uid, or as
  // its commissions' and payments' referral), with their deliveries. Erasing is rare, and
  // the program's events are 30 days' worth: a scan of them, rather than an index written
  // by every event for it. A referral's id is a UUID: nothing in it is a LIKE wildcard.
  await db.run('DELETE FROM events WHERE program_id = ? AND data LIKE ?', [programId, `%"${id}"%`]);
  // Notifications (modules/notifications) that name it, sent or waiting, by the same scan.
  await db.run('DELETE FROM notifications WHERE program_id = ? AND data LIKE ?', [programId, `%"${id}"%`]);
  return (await db.run('DELETE FROM referrals WHERE program_id = ? AND id = ?', [programId, id])) === 1;
}

/** The program's earliest referral made with this click id (a Checkout Session's client_reference_id). */
export function findByGrId(db: Queryable, programId: string, grId: string): Promise<ReferralRow | undefined> {
  return db.get<ReferralRow>('SELECT * FROM referrals WHERE program_id = ? AND gr_id = ? ORDER BY created_at, id LIMIT 1', [
    programId,
    grId,
  ]);
}
