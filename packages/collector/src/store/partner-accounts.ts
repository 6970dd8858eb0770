// Partners' accounts for the portal: the person, their sessions and one-time links (found
// by the SHA-256 of what the browser holds), and what their account reaches: the partner
// records linked to it, each in one program, and the partnerships of those.

import type { Queryable } from './db.js';
import type { PartnershipRow } from './partnerships.js';
import { insertRow } from './rows.js';

export interface AccountRow {
  id: string;
  email: string;
  email_norm: string;
  password_hash: string | null;
  failed_count: number;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface PartnerSessionRow {
  id: string;
  hash: string;
  account_id: string;
  created_at: number;
  last_seen_at: number;
}

export interface PartnerLinkRow {
  hash: string;
  account_id: string;
  expires_at: number;
  used_at: number | null;
}

/** A partnership the account reaches, with what the portal shows of its program and partner record. */
export interface ReachedPartnership extends PartnershipRow {
  program_name: string;
  program_slug: string | null;
  program_site_url: string;
  program_rate_bps: number;
  partner_name: string;
  paypal_email: string | null;
}

export async function insertAccount(db: Queryable, row: AccountRow): Promise<void> {
  await insertRow(db, 'partner_accounts', row);
}

export function accountById(db: Queryable, id: string): Promise<AccountRow | undefined> {
  return db.get<AccountRow>('SELECT * FROM partner_accounts WHERE id = ?', [id]);
}

export function accountByEmail(db: Queryable, emailNorm: string): Promise<AccountRow | undefined> {
  return db.get<AccountRow>('SELECT * FROM partner_accounts WHERE email_norm = ?', [emailNorm]);
}

export function setPassword(db: Queryable, id: string, passwordHash: string, now: number): Promise<number> {
  return db.run('UPDATE partner_accounts SET password_hash = ?, failed_count = 0, locked_until = NULL, updated_at = ? WHERE id = ?', [passwordHash, now, id]);
}

export function recordFailure(db: Queryable, id: string, failedCount: number, lockedUntil: number | null): Promise<number> {
  return db.run('UPDATE partner_accounts SET failed_count = ?, locked_until = ? WHERE id = ?', [failedCount, lockedUntil, id]);
}

export function clearFailures(db: Queryable, id: string): Promise<number> {
  return db.run('UPDATE partner_accounts SET failed_count = 0, locked_until = NULL WHERE id = ? AND failed_count <> 0', [id]);
}

/** Links the program's partner record to the account (a partner record has one account at most). */
export function linkPartner(db: Queryable, programId: string, partnerId: string, accountId: string): Promise<number> {
  return db.run('UPDATE partners SET account_id = ? WHERE program_id = ? AND id = ? AND (account_id IS NULL OR account_id = ?)', [accountId, programId, partnerId, accountId]);
}

/** The partner record an invitation's link names: which program it is in, and the account it is linked to, if any. */
export function invitedPartner(db: Queryable, partnerId: string): Promise<{ id: string; program_id: string; account_id: string | null } | undefined> {
  return db.get('SELECT id, program_id, account_id FROM partners WHERE id = ?', [partnerId]);
}

/** True when the account reaches a partner record in a program other than `programId`. */
export async function reachesOtherProgram(db: Queryable, accountId: string, programId: string): Promise<boolean> {
  return (await db.get('SELECT 1 AS one FROM partners WHERE account_id = ? AND program_id <> ? LIMIT 1', [accountId, programId])) !== undefined;
}

/** The name and PayPal address the partner gives in the portal, on every partner record of the account. */
export function updatePartnerRecords(db: Queryable, accountId: string, fields: { name?: string; paypal_email?: string | null; paypal_email_norm?: string | null }, now: number): Promise<number> {
  const set = Object.keys(fields).map((c) => `${c} = ?`);
  return db.run(`UPDATE partners SET ${set.join(', ')}, updated_at = ? WHERE account_id = ?`, [...Object.values(fields), now, accountId]);
}

export function partnershipsOf(db: Queryable, accountId: string): Promise<ReachedPartnership[]> {
  return db.all<ReachedPartnership>(
    `SELECT s.*, p.name AS program_name, p.slug AS program_slug, p.site_url AS program_site_url, p.commission_rate_bps AS program_rate_bps,
            pa.name AS partner_name, pa.paypal_email
       FROM partners pa
       JOIN partnerships s ON s.program_id = pa.program_id AND s.partner_id = pa.id
       JOIN programs p ON p.id = pa.program_id
      WHERE pa.account_id = ?
      ORDER BY s.created_at, s.id`,
    [accountId],
  );
}

export async function insertSession(db: Queryable, row: PartnerSessionRow): Promise<void> {
  await insertRow(db, 'partner_sessions', row);
}

export function sessionByHash(db: Queryable, hash: string): Promise<PartnerSessionRow | undefined> {
  return db.get<PartnerSessionRow>('SELECT * FROM partner_sessions WHERE hash = ?', [hash]);
}

export function touchSession(db: Queryable, id: string, now: number): Promise<number> {
  return db.run('UPDATE partner_sessions SET last_seen_at = ? WHERE id = ?', [now, id]);
}

export function deleteSession(db: Queryable, id: string): Promise<number> {
  return db.run('DELETE FROM partner_sessions WHERE id = ?', [id]);
}

/** Every session of the account but `keep` (none kept when it is null). */
export function deleteSessionsOf(db: Queryable, accountId: string, keep: string | null): Promise<number> {
  return db.run('DELETE FROM partner_sessions WHERE account_id = ? AND id <> ?', [accountId, keep ?? '']);
}

export async function insertLink(db: Queryable, row: PartnerLinkRow): Promise<void> {
  await insertRow(db, 'partner_links', row);
}

/** Takes the link once: 1 when it was fresh and unused, 0 otherwise. */
export function useLink(db: Queryable, hash: string, now: number): Promise<number> {
  return db.run('UPDATE partner_links SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ?', [now, hash, now]);
}

export function linkByHash(db: Queryable, hash: string): Promise<PartnerLinkRow | undefined> {
  return db.get<PartnerLinkRow>('SELECT * FROM partner_links WHERE hash = ?', [hash]);
}

export interface PartnerPayoutRow {
  id: string;
  currency: string;
  amount: number;
  commissions: number;
  created_at: number;
  paid_at: number | null;
  cancelled_at: number | null;
}

/** The payout batches that hold or held the partner's commissions, newest first: their share of each. */
export function payoutsOf(db: Queryable, programId: string, partnerId: string): Promise<PartnerPayoutRow[]> {
  return db.all<PartnerPayoutRow>(
    `SELECT b.id, b.currency, SUM(i.amount) AS amount, COUNT(*) AS commissions, b.created_at, b.paid_at, b.cancelled_at
       FROM payout_items i JOIN payout_batches b ON b.id = i.batch_id
      WHERE i.partner_id = ? AND b.program_id = ?
      GROUP BY b.id, b.currency, b.created_at, b.paid_at, b.cancelled_at
      ORDER BY b.created_at DESC, b.id DESC
      LIMIT 100`,
    [partnerId, programId],
  );
}
