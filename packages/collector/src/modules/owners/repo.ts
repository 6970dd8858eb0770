// Owners of programs: users, their memberships, their sessions and their one-time
// sign-in links. Sessions and links are found by the SHA-256 of what the browser holds.

import type { Queryable } from '../../platform/db/db.js';
import type { Credentials } from '../identity/model.js';
import type { ProgramRow } from '../programs/model.js';
import { insertRow } from '../../platform/db/rows.js';

/** An owner's account; `email` is null for the first start's user until its link is redeemed. */
export interface UserRow extends Credentials {
  /** The dashboard's language they chose (core/locale.ts); null: their browser's. */
  locale: string | null;
  created_at: number;
  updated_at: number;
}

export interface SessionRow {
  id: string;
  hash: string;
  user_id: string;
  /** The program the session acts for; the user switches it. */
  program_id: string;
  created_at: number;
  last_seen_at: number;
  verified_at: number | null;
}

/** owner: everything; admin: everything but members and secret tokens; viewer: reads only. */
export const ROLES = ['owner', 'admin', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export interface Membership {
  user_id: string;
  email: string | null;
  program_id: string;
  program_name: string;
  role: Role;
  created_at: number;
  /** Whether the user has set a password, i.e. can sign in. */
  active: boolean;
}

export async function insertUser(db: Queryable, row: UserRow): Promise<void> {
  await insertRow(db, 'users', row);
}

export function userById(db: Queryable, id: string): Promise<UserRow | undefined> {
  return db.get<UserRow>('SELECT * FROM users WHERE id = ?', [id]);
}

export function userByEmail(db: Queryable, emailNorm: string): Promise<UserRow | undefined> {
  return db.get<UserRow>('SELECT * FROM users WHERE email_norm = ?', [emailNorm]);
}

export function deleteUser(db: Queryable, id: string): Promise<number> {
  return db.run('DELETE FROM users WHERE id = ?', [id]);
}

/** Adds the user to the program; a member already keeps the role they have. */
export async function addMembership(db: Queryable, userId: string, programId: string, role: Role, now: number): Promise<void> {
  await db.run(
    'INSERT INTO memberships (user_id, program_id, role, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, program_id) DO NOTHING',
    [userId, programId, role, now],
  );
}

export function removeMembership(db: Queryable, userId: string, programId: string): Promise<number> {
  return db.run('DELETE FROM memberships WHERE user_id = ? AND program_id = ?', [userId, programId]);
}

const MEMBERSHIP = `SELECT m.user_id, u.email, m.program_id, p.name AS program_name, m.role, m.created_at,
                           CASE WHEN u.password_hash IS NULL THEN 0 ELSE 1 END AS active
                      FROM memberships m JOIN users u ON u.id = m.user_id JOIN programs p ON p.id = m.program_id`;

const asMembership = (r: Membership): Membership => ({ ...r, active: Boolean(r.active) });

export async function membershipsOfUser(db: Queryable, userId: string): Promise<Membership[]> {
  const rows = await db.all<Membership>(`${MEMBERSHIP} WHERE m.user_id = ? ORDER BY m.created_at, m.program_id`, [userId]);
  return rows.map(asMembership);
}

export async function membersOfProgram(db: Queryable, programId: string): Promise<Membership[]> {
  const rows = await db.all<Membership>(`${MEMBERSHIP} WHERE m.program_id = ? ORDER BY m.created_at, m.user_id`, [programId]);
  return rows.map(asMembership);
}

export async function allMemberships(db: Queryable): Promise<Membership[]> {
  const rows = await db.all<Membership>(`${MEMBERSHIP} ORDER BY m.program_id, m.created_at, m.user_id`);
  return rows.map(asMembership);
}

export function countMemberships(db: Queryable, userId: string): Promise<{ n: number } | undefined> {
  return db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memberships WHERE user_id = ?', [userId]);
}

/** The session and its program, only while the user is still a member of that program (and in which role). */
export async function sessionByHash(
  db: Queryable,
  hash: string,
): Promise<{ session: SessionRow; program: ProgramRow; role: Role } | undefined> {
  const row = await db.get<
    ProgramRow & {
      s_id: string;
      s_user_id: string;
      s_created_at: number;
      s_last_seen_at: number;
      s_verified_at: number | null;
      m_role: Role;
    }
  >(
    `SELECT s.id AS s_id, s.user_id AS s_user_id, s.created_at AS s_created_at, s.last_seen_at AS s_last_seen_at,
            s.verified_at AS s_verified_at, m.role AS m_role, p.*
       FROM sessions s
       JOIN memberships m ON m.user_id = s.user_id AND m.program_id = s.program_id
       JOIN programs p ON p.id = s.program_id
      WHERE s.hash = ?`,
    [hash],
  );
  if (!row) return undefined;
  const { s_id, s_user_id, s_created_at, s_last_seen_at, s_verified_at, m_role, ...program } = row;
  return {
    session: {
      id: s_id,
      hash,
      user_id: s_user_id,
      program_id: program.id,
      created_at: s_created_at,
      last_seen_at: s_last_seen_at,
      verified_at: s_verified_at,
    },
    program,
    role: m_role,
  };
}

export function setUserLocale(db: Queryable, id: string, locale: string | null, now: number): Promise<number> {
  return db.run('UPDATE users SET locale = ?, updated_at = ? WHERE id = ?', [locale, now, id]);
}

export function switchSession(db: Queryable, id: string, programId: string): Promise<number> {
  return db.run('UPDATE sessions SET program_id = ? WHERE id = ?', [programId, id]);
}

/** Sessions of the user that act for the program: they end when the membership does. */
export function deleteProgramSessionsOf(db: Queryable, userId: string, programId: string): Promise<number> {
  return db.run('DELETE FROM sessions WHERE user_id = ? AND program_id = ?', [userId, programId]);
}

/**
 * An invitation to run a program: made for an address, accepted with its one-time link by
 * whoever signs up with it, or by the user of that address, who proves their password.
 * One per address and program; inviting again replaces its link.
 */
export interface InvitationRow {
  id: string;
  program_id: string;
  email: string;
  email_norm: string;
  role: Role;
  hash: string;
  created_at: number;
  expires_at: number;
}

export async function upsertInvitation(db: Queryable, row: InvitationRow): Promise<InvitationRow> {
  await insertRow(
    db,
    'invitations',
    row,
    'ON CONFLICT (program_id, email_norm) DO UPDATE SET role = excluded.role, hash = excluded.hash, created_at = excluded.created_at, expires_at = excluded.expires_at',
  );
  return (await db.get<InvitationRow>('SELECT * FROM invitations WHERE program_id = ? AND email_norm = ?', [
    row.program_id,
    row.email_norm,
  ]))!;
}

/** Takes a fresh invitation once, by its link's hash. */
export function takeInvitation(db: Queryable, hash: string, now: number): Promise<InvitationRow | undefined> {
  return db.get<InvitationRow>('DELETE FROM invitations WHERE hash = ? AND expires_at > ? RETURNING *', [hash, now]);
}

/** Whether a program other than `programId` has an open invitation of the address. */
export async function invitedElsewhere(db: Queryable, emailNorm: string, programId: string, now: number): Promise<boolean> {
  const row = await db.get('SELECT 1 AS one FROM invitations WHERE email_norm = ? AND program_id <> ? AND expires_at > ? LIMIT 1', [
    emailNorm,
    programId,
    now,
  ]);
  return row !== undefined;
}

/** An open invitation's new link (the one e-mailed to the address): the old one stops working. */
export function rehashInvitation(db: Queryable, id: string, hash: string, now: number): Promise<InvitationRow | undefined> {
  return db.get<InvitationRow>('UPDATE invitations SET hash = ? WHERE id = ? AND expires_at > ? RETURNING *', [hash, id, now]);
}

export function invitationByHash(db: Queryable, hash: string): Promise<InvitationRow | undefined> {
  return db.get<InvitationRow>('SELECT * FROM invitations WHERE hash = ?', [hash]);
}

export function invitationsOfProgram(db: Queryable, programId: string): Promise<InvitationRow[]> {
  return db.all<InvitationRow>('SELECT * FROM invitations WHERE program_id = ? ORDER BY created_at, id', [programId]);
}

export function deleteInvitation(db: Queryable, programId: string, id: string): Promise<number> {
  return db.run('DELETE FROM invitations WHERE program_id = ? AND id = ?', [programId, id]);
}

export function deleteExpiredInvitations(db: Queryable, now: number): Promise<number> {
  return db.run('DELETE FROM invitations WHERE expires_at <= ?', [now]);
}

export function setRole(db: Queryable, userId: string, programId: string, role: Role): Promise<number> {
  return db.run('UPDATE memberships SET role = ? WHERE user_id = ? AND program_id = ?', [role, userId, programId]);
}

export async function countOwners(db: Queryable, programId: string): Promise<number> {
  const row = await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memberships WHERE program_id = ? AND role = 'owner'", [programId]);
  return Number(row?.n ?? 0);
}

/** Whether any program the user runs requires a second factor of its team (team_settings). */
export async function twoFactorRequired(db: Queryable, userId: string): Promise<boolean> {
  const row = await db.get(
    `SELECT 1 AS one FROM memberships m JOIN team_settings t ON t.program_id = m.program_id
      WHERE m.user_id = ? AND t.require_two_factor = 1 LIMIT 1`,
    [userId],
  );
  return row !== undefined;
}

export async function teamSettings(db: Queryable, programId: string): Promise<{ require_two_factor: boolean }> {
  const row = await db.get<{ require_two_factor: number }>('SELECT require_two_factor FROM team_settings WHERE program_id = ?', [
    programId,
  ]);
  return { require_two_factor: Number(row?.require_two_factor ?? 0) === 1 };
}

export function setTeamSettings(db: Queryable, programId: string, requireTwoFactor: boolean, now: number): Promise<number> {
  return db.run(
    `INSERT INTO team_settings (program_id, require_two_factor, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (program_id) DO UPDATE SET require_two_factor = excluded.require_two_factor, updated_at = excluded.updated_at`,
    [programId, requireTwoFactor ? 1 : 0, now],
  );
}

/** The program's members who have no confirmed second factor. */
export function membersWithoutFactor(db: Queryable, programId: string): Promise<{ user_id: string }[]> {
  return db.all<{ user_id: string }>(
    `SELECT m.user_id FROM memberships m
      WHERE m.program_id = ? AND NOT EXISTS (SELECT 1 FROM user_factors f WHERE f.user_id = m.user_id AND f.confirmed_at IS NOT NULL)`,
    [programId],
  );
}
