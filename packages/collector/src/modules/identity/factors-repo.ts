// The SQL of second factors, once for both realms (migration 0051): factors (TOTP secrets,
// passkeys' public keys), recovery codes kept as SHA-256, the challenges that carry a
// sign-in from the password to the second step, and when a session last proved its holder.

import type { Queryable } from '../../platform/db/db.js';
import { insertRow } from '../../platform/db/rows.js';
import type { Realm } from './model.js';

export type FactorKind = 'totp' | 'webauthn';

export interface FactorRow {
  id: string;
  account: string;
  kind: FactorKind;
  label: string;
  /** TOTP: the base32 secret the authenticator shares. */
  secret: string | null;
  /** TOTP: the last time step accepted, so no code is taken twice. */
  last_step: number | null;
  /** Passkeys: the credential's id (base64url), its COSE public key (base64url), counter and transports (JSON). */
  credential_id: string | null;
  public_key: string | null;
  sign_count: number;
  transports: string | null;
  /** Null while enrolment waits for its first code. */
  confirmed_at: number | null;
  created_at: number;
  last_used_at: number | null;
}

/**
 * Why a challenge exists: a second factor after the password, enrolment a program requires,
 * a passkey's registration, its sign-in without a password, or its proof for step-up.
 */
export type ChallengePurpose = 'second_factor' | 'enrol' | 'passkey_sign_in' | 'passkey_register' | 'passkey_step_up';

export interface ChallengeRow {
  hash: string;
  account: string | null;
  purpose: ChallengePurpose;
  program_id: string | null;
  /** A passkey ceremony's challenge (base64url). */
  data: string | null;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

const factorColumns = (realm: Realm) =>
  `id, ${realm.fk} AS account, kind, label, secret, last_step, credential_id, public_key, sign_count, transports, confirmed_at, created_at, last_used_at`;

export async function insertFactor(db: Queryable, realm: Realm, row: FactorRow): Promise<void> {
  const { account, ...rest } = row;
  await insertRow(db, realm.factors, { ...rest, [realm.fk]: account });
}

/** The account's factors, confirmed ones first, oldest first. */
export function factorsOf(db: Queryable, realm: Realm, account: string): Promise<FactorRow[]> {
  return db.all<FactorRow>(
    `SELECT ${factorColumns(realm)} FROM ${realm.factors} WHERE ${realm.fk} = ? ORDER BY confirmed_at IS NULL, created_at, id`,
    [account],
  );
}

/** The account's confirmed factors (an enrolment waiting for its first code is none), oldest first. */
export function confirmedFactorsOf(db: Queryable, realm: Realm, account: string): Promise<FactorRow[]> {
  return db.all<FactorRow>(
    `SELECT ${factorColumns(realm)} FROM ${realm.factors} WHERE ${realm.fk} = ? AND confirmed_at IS NOT NULL ORDER BY created_at, id`,
    [account],
  );
}

export async function countConfirmed(db: Queryable, realm: Realm, account: string): Promise<number> {
  const row = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${realm.factors} WHERE ${realm.fk} = ? AND confirmed_at IS NOT NULL`, [
    account,
  ]);
  return Number(row?.n ?? 0);
}

export function factorByCredential(db: Queryable, realm: Realm, credentialId: string): Promise<FactorRow | undefined> {
  return db.get<FactorRow>(`SELECT ${factorColumns(realm)} FROM ${realm.factors} WHERE credential_id = ? AND confirmed_at IS NOT NULL`, [
    credentialId,
  ]);
}

export function confirmFactor(db: Queryable, realm: Realm, id: string, step: number | null, now: number): Promise<number> {
  return db.run(`UPDATE ${realm.factors} SET confirmed_at = ?, last_used_at = ?, last_step = ? WHERE id = ? AND confirmed_at IS NULL`, [
    now,
    now,
    step,
    id,
  ]);
}

/** Takes a TOTP step once: 0 when this step (or a later one) was taken already, by a parallel request too. */
export function takeStep(db: Queryable, realm: Realm, id: string, step: number, now: number): Promise<number> {
  return db.run(`UPDATE ${realm.factors} SET last_step = ?, last_used_at = ? WHERE id = ? AND (last_step IS NULL OR last_step < ?)`, [
    step,
    now,
    id,
    step,
  ]);
}

/**
 * A passkey's use: its counter moves only forwards (0 stays 0 for authenticators that keep
 * none), so of two uses at once only one is taken; 0 rows when this one lost.
 */
export function usePasskey(db: Queryable, realm: Realm, id: string, signCount: number, now: number): Promise<number> {
  return db.run(`UPDATE ${realm.factors} SET sign_count = ?, last_used_at = ? WHERE id = ? AND (sign_count < ? OR ? = 0)`, [
    signCount,
    now,
    id,
    signCount,
    signCount,
  ]);
}

export function deleteFactor(db: Queryable, realm: Realm, account: string, id: string): Promise<number> {
  return db.run(`DELETE FROM ${realm.factors} WHERE id = ? AND ${realm.fk} = ?`, [id, account]);
}

/** Enrolments started and never confirmed: a new one replaces them. */
export function deleteUnconfirmed(db: Queryable, realm: Realm, account: string, kind: FactorKind): Promise<number> {
  return db.run(`DELETE FROM ${realm.factors} WHERE ${realm.fk} = ? AND kind = ? AND confirmed_at IS NULL`, [account, kind]);
}

/** A new set of recovery codes: the old set is gone. */
export async function replaceRecoveryCodes(
  db: Queryable,
  realm: Realm,
  account: string,
  hashes: readonly string[],
  now: number,
): Promise<void> {
  await db.run(`DELETE FROM ${realm.recoveryCodes} WHERE ${realm.fk} = ?`, [account]);
  for (const hash of hashes) await insertRow(db, realm.recoveryCodes, { hash, [realm.fk]: account, used_at: null, created_at: now });
}

export function deleteRecoveryCodes(db: Queryable, realm: Realm, account: string): Promise<number> {
  return db.run(`DELETE FROM ${realm.recoveryCodes} WHERE ${realm.fk} = ?`, [account]);
}

/** Uses a recovery code once, in one statement: 0 when it is unknown or used. */
export function takeRecoveryCode(db: Queryable, realm: Realm, account: string, hash: string, now: number): Promise<number> {
  return db.run(`UPDATE ${realm.recoveryCodes} SET used_at = ? WHERE hash = ? AND ${realm.fk} = ? AND used_at IS NULL`, [
    now,
    hash,
    account,
  ]);
}

export async function unusedRecoveryCodes(db: Queryable, realm: Realm, account: string): Promise<number> {
  const row = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${realm.recoveryCodes} WHERE ${realm.fk} = ? AND used_at IS NULL`, [
    account,
  ]);
  return Number(row?.n ?? 0);
}

export async function insertChallenge(db: Queryable, realm: Realm, row: ChallengeRow): Promise<void> {
  const { account, ...rest } = row;
  await insertRow(db, realm.challenges, { ...rest, [realm.fk]: account });
}

const challengeColumns = (realm: Realm) => `hash, ${realm.fk} AS account, purpose, program_id, data, expires_at, used_at, created_at`;

/** The challenge, fresh and unused, of one purpose. */
export function challengeByHash(
  db: Queryable,
  realm: Realm,
  hash: string,
  purpose: ChallengePurpose,
  now: number,
): Promise<ChallengeRow | undefined> {
  return db.get<ChallengeRow>(
    `SELECT ${challengeColumns(realm)} FROM ${realm.challenges} WHERE hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?`,
    [hash, purpose, now],
  );
}

/** Takes a challenge once, checked for purpose, use and expiry in the same statement. */
export function takeChallenge(
  db: Queryable,
  realm: Realm,
  hash: string,
  purpose: ChallengePurpose,
  now: number,
): Promise<ChallengeRow | undefined> {
  return db.get<ChallengeRow>(
    `UPDATE ${realm.challenges} SET used_at = ? WHERE hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ? RETURNING ${challengeColumns(realm)}`,
    [now, hash, purpose, now],
  );
}

/** Keeps a passkey ceremony's challenge on a sign-in's second-step challenge, while it waits. */
export function setChallengeData(db: Queryable, realm: Realm, hash: string, data: string): Promise<number> {
  return db.run(`UPDATE ${realm.challenges} SET data = ? WHERE hash = ? AND used_at IS NULL`, [data, hash]);
}

export function deleteExpiredChallenges(db: Queryable, realm: Realm, now: number): Promise<number> {
  return db.run(`DELETE FROM ${realm.challenges} WHERE expires_at <= ?`, [now]);
}

/** When the session's holder last proved who they are (step-up). */
export function markVerified(db: Queryable, realm: Realm, sessionId: string, now: number): Promise<number> {
  return db.run(`UPDATE ${realm.sessions} SET verified_at = ? WHERE id = ?`, [now, sessionId]);
}
