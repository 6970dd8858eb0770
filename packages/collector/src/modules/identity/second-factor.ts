// Second factors, once for owners and partners (docs/security.md): an authenticator's codes
// (TOTP) and passkeys, recovery codes for a lost phone, the challenge that carries a sign-in
// from the password to its second step, and step-up (a session's fresh proof before what
// moves money). Every code is counted as a password is (the account's failures and lock),
// and every change to an account's factors is told to its address through `notify`.

import { randomInt } from 'node:crypto';
import QRCode from 'qrcode';
import { fail } from '../../platform/errors.js';
import type { Db, Queryable, Tx } from '../../platform/db/db.js';
import { uuidv7 } from '../../core/ids.js';
import { hashToken } from '../tokens/service.js';
import * as store from './repo.js';
import * as factors from './factors-repo.js';
import type { ChallengePurpose, ChallengeRow, FactorKind, FactorRow } from './factors-repo.js';

export type { ChallengeRow } from './factors-repo.js';
import type { Credentials, Realm, SecurityEvent } from './model.js';
import { LOCK_AFTER, lockSeconds, locked, newSecret, provePassword } from './service.js';
import { newTotpSecret, otpauthUri, totpStep } from './totp.js';

/** A sign-in's second step, or a required enrolment, must follow its password within this. */
export const CHALLENGE_SECONDS = 10 * 60;
/** How long a proof of who holds a session counts for what moves money (decision 0421). */
export const STEP_UP_SECONDS = 10 * 60;
export const RECOVERY_CODES = 10;
/** No 0/o, 1/l/i: a code is read off paper. 31 letters, 10 of them: about 50 bits. */
const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Writes the e-mail telling an account what changed, in the change's transaction (the mail outbox, given by the routes). */
export type Notify = (tx: Tx, realm: Realm, account: string, event: SecurityEvent, now: number) => Promise<unknown>;

export const WRONG_CODE = 'the code is wrong or was used already';

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** A code as typed: case, spaces and dashes do not matter. */
const normalizeCode = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '');

export const hasSecondFactor = async (db: Queryable, realm: Realm, account: string): Promise<boolean> =>
  (await factors.countConfirmed(db, realm, account)) > 0;

/** The kinds of the account's confirmed factors: what a step-up or a second step may ask. */
export const confirmedKinds = async (db: Queryable, realm: Realm, account: string): Promise<FactorKind[]> => [
  ...new Set((await factors.confirmedFactorsOf(db, realm, account)).map((f) => f.kind)),
];

export interface FactorList {
  factors: FactorRow[];
  recoveryCodesLeft: number;
}

export async function listFactors(db: Queryable, realm: Realm, account: string): Promise<FactorList> {
  return {
    factors: await factors.confirmedFactorsOf(db, realm, account),
    recoveryCodesLeft: await factors.unusedRecoveryCodes(db, realm, account),
  };
}

/**
 * Counts a code before it is checked, as provePassword counts a password: the account's
 * failures and lock are one allowance for every guess, whichever credential it guesses.
 * `check` resolves to what the code proved, or undefined when it is wrong.
 */
async function counted<T>(db: Db, realm: Realm, account: Credentials, now: number, check: () => Promise<T | undefined>): Promise<T> {
  if (account.locked_until && account.locked_until > now) locked(account.locked_until, now);
  const n = await db.transaction(async (tx) => {
    const n = await store.countAttempt(tx, realm, account.id, now);
    if (n !== undefined && lockSeconds(n) > 0) await store.lockUntil(tx, realm, account.id, now + lockSeconds(n));
    return n;
  });
  if (n === undefined) {
    const fresh = await store.credentialsById(db, realm, account.id);
    locked(fresh?.locked_until ?? now + 60, now);
  }
  const proved = await check();
  if (proved === undefined) {
    if (lockSeconds(n) > 0) locked(now + lockSeconds(n), now);
    throw fail('invalid_credentials', WRONG_CODE, { field: 'code', meta: { attempts_left: Math.max(0, LOCK_AFTER - n) } });
  }
  await db.transaction((tx) => store.clearFailures(tx, realm, account.id));
  return proved;
}

/** A TOTP code of one of `list`, taking its time step so the same code never works twice. */
async function takeTotp(db: Db, realm: Realm, list: readonly FactorRow[], code: string, now: number): Promise<FactorRow | undefined> {
  for (const factor of list) {
    if (factor.kind !== 'totp' || !factor.secret) continue;
    const step = totpStep(factor.secret, code, now, factor.last_step);
    if (step === undefined) continue;
    const taken = await db.transaction((tx) =>
      factor.confirmed_at === null
        ? factors.confirmFactor(tx, realm, factor.id, step, now)
        : factors.takeStep(tx, realm, factor.id, step, now),
    );
    if (taken === 1) return factor;
  }
  return undefined;
}

export type ProvedBy = 'totp' | 'recovery';

/**
 * A code from the account's authenticator, or one of its recovery codes (used up, and the
 * account told): what a second step of sign-in, disabling a factor and step-up ask.
 */
export async function proveCode(db: Db, realm: Realm, account: Credentials, code: string, now: number, notify: Notify): Promise<ProvedBy> {
  const list = await factors.confirmedFactorsOf(db, realm, account.id);
  if (list.length === 0) throw fail('conflict', 'this account has no second factor');
  return counted(db, realm, account, now, async () => {
    const typed = code.trim();
    if (/^\d{6}$/.test(typed)) return (await takeTotp(db, realm, list, typed, now)) ? 'totp' : undefined;
    return db.transaction(async (tx) => {
      if ((await factors.takeRecoveryCode(tx, realm, account.id, hashToken(normalizeCode(typed)), now)) !== 1) return undefined;
      await notify(tx, realm, account.id, 'recovery_code_used', now);
      return 'recovery' as const;
    });
  });
}

export interface TotpEnrolment {
  factorId: string;
  secret: string;
  uri: string;
  /** The URI as a QR code, an SVG document. */
  qrSvg: string;
}

/** Starts an authenticator's enrolment: its secret, shown once, and confirmed by its first code. */
export async function startTotp(db: Db, realm: Realm, account: Credentials, issuer: string, now: number): Promise<TotpEnrolment> {
  if ((await confirmedKinds(db, realm, account.id)).includes('totp')) {
    throw fail('conflict', 'this account has an authenticator app already: remove it first to enrol another');
  }
  const secret = newTotpSecret();
  const factorId = uuidv7(now * 1000);
  await db.transaction(async (tx) => {
    await factors.deleteUnconfirmed(tx, realm, account.id, 'totp');
    await factors.insertFactor(tx, realm, {
      id: factorId,
      account: account.id,
      kind: 'totp',
      label: 'Authenticator app',
      secret,
      last_step: null,
      credential_id: null,
      public_key: null,
      sign_count: 0,
      transports: null,
      confirmed_at: null,
      created_at: now,
      last_used_at: null,
    });
  });
  const uri = otpauthUri(issuer, account.email ?? account.id, secret);
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { factorId, secret, uri, qrSvg };
}

/** The first factor of an account comes with recovery codes, shown once; later ones keep the set. */
export async function afterEnrolment(
  tx: Tx,
  realm: Realm,
  account: string,
  event: SecurityEvent,
  now: number,
  notify: Notify,
): Promise<string[] | undefined> {
  await notify(tx, realm, account, event, now);
  if ((await factors.countConfirmed(tx, realm, account)) > 1) return undefined;
  return issueRecoveryCodes(tx, realm, account, now);
}

/** A new set of recovery codes in place of the old, kept as hashes: the codes themselves are shown once. */
async function issueRecoveryCodes(tx: Tx, realm: Realm, account: string, now: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await factors.replaceRecoveryCodes(
    tx,
    realm,
    account,
    codes.map((c) => hashToken(normalizeCode(c))),
    now,
  );
  return codes;
}

/** Confirms an enrolment with the authenticator's code (counted as any code is); the recovery codes when it is the first factor. */
export async function confirmTotp(
  db: Db,
  realm: Realm,
  account: Credentials,
  factorId: string,
  code: string,
  now: number,
  notify: Notify,
): Promise<string[] | undefined> {
  const pending = (await factors.factorsOf(db, realm, account.id)).find((f) => f.id === factorId && f.confirmed_at === null);
  if (!pending) throw fail('not_found', `no enrolment ${factorId} waits: start again`);
  await counted(db, realm, account, now, () => takeTotp(db, realm, [pending], code.trim(), now));
  return db.transaction((tx) => afterEnrolment(tx, realm, account.id, 'totp_enabled', now, notify));
}

/** New recovery codes, the old set gone: needs a second factor, proved by the caller. */
export async function newRecoveryCodes(db: Db, realm: Realm, account: string, now: number, notify: Notify): Promise<string[]> {
  return db.transaction(async (tx) => {
    const codes = await issueRecoveryCodes(tx, realm, account, now);
    await notify(tx, realm, account, 'recovery_codes_renewed', now);
    return codes;
  });
}

/**
 * Removes a factor: the password and a current second factor (`second`: a code, a recovery
 * code or a passkey, proved by the caller) both, so a session left open is not enough. The
 * last factor takes the recovery codes with it.
 */
export async function disableFactor(
  db: Db,
  realm: Realm,
  account: Credentials,
  factorId: string,
  proof: { password: string; second: () => Promise<unknown> },
  now: number,
  notify: Notify,
): Promise<void> {
  const list = await factors.factorsOf(db, realm, account.id);
  if (!list.some((f) => f.id === factorId)) throw fail('not_found', `no factor ${factorId}`);
  await provePassword(db, realm, account, proof.password, now, 'the password is wrong');
  await proof.second();
  await db.transaction(async (tx) => {
    await factors.deleteFactor(tx, realm, account.id, factorId);
    if ((await factors.countConfirmed(tx, realm, account.id)) === 0) await factors.deleteRecoveryCodes(tx, realm, account.id);
    await notify(tx, realm, account.id, 'factor_disabled', now);
  });
}

/** A challenge's token, for the browser to hold for CHALLENGE_SECONDS; its hash is stored. */
export async function issueChallenge(
  tx: Queryable,
  realm: Realm,
  account: string | null,
  purpose: ChallengePurpose,
  now: number,
  extra: { programId?: string | null; data?: string } = {},
): Promise<{ token: string; expiresAt: number }> {
  const token = newSecret();
  const expiresAt = now + CHALLENGE_SECONDS;
  await factors.insertChallenge(tx, realm, {
    hash: hashToken(token),
    account,
    purpose,
    program_id: extra.programId ?? null,
    data: extra.data ?? null,
    expires_at: expiresAt,
    used_at: null,
    created_at: now,
  });
  return { token, expiresAt };
}

const challengeGone = () =>
  fail('invalid_credentials', 'this sign-in is unknown, used or expired: sign in again with the password', { field: 'token' });

/** The challenge, fresh and unused, without taking it (the code is checked first). */
export async function peekChallenge(
  db: Queryable,
  realm: Realm,
  token: string,
  purpose: ChallengePurpose,
  now: number,
): Promise<ChallengeRow> {
  const found = await factors.challengeByHash(db, realm, hashToken(token), purpose, now);
  if (!found) throw challengeGone();
  return found;
}

/** Takes the challenge once: a second request with the same token, even in parallel, finds none. */
export async function takeChallenge(tx: Tx, realm: Realm, token: string, purpose: ChallengePurpose, now: number): Promise<ChallengeRow> {
  const taken = await factors.takeChallenge(tx, realm, hashToken(token), purpose, now);
  if (!taken) throw challengeGone();
  return taken;
}

/** Whether a session's last proof is fresh enough for what moves money. */
export const freshProof = (verifiedAt: number | null | undefined, now: number): boolean =>
  verifiedAt !== null && verifiedAt !== undefined && now - verifiedAt < STEP_UP_SECONDS;

/**
 * Proves again who holds a session (step-up): a second factor when the account has one
 * (`second`: a code or a passkey, proved by the caller), else its password. The session's
 * proof is then fresh for STEP_UP_SECONDS.
 */
export async function reauthenticate<By extends string>(
  db: Db,
  realm: Realm,
  account: Credentials,
  sessionId: string,
  proof: { second: (() => Promise<By>) | undefined; password?: string | undefined },
  now: number,
): Promise<By | 'password'> {
  let by: By | 'password';
  if (await hasSecondFactor(db, realm, account.id)) {
    if (!proof.second) {
      throw fail('missing_field', 'give a code from your authenticator app, a recovery code or a passkey', { field: 'code' });
    }
    by = await proof.second();
  } else {
    if (!proof.password) throw fail('missing_field', 'give your password', { field: 'password' });
    await provePassword(db, realm, account, proof.password, now, 'the password is wrong');
    by = 'password';
  }
  await db.transaction(async (tx) => {
    await store.clearFailures(tx, realm, account.id);
    await factors.markVerified(tx, realm, sessionId, now);
  });
  return by;
}

/** What a sign-in answers instead of a session when a second step must follow. */
export interface Challenged {
  challenge: {
    token: string;
    expiresAt: number;
    purpose: 'second_factor' | 'enrol';
    /** What the second step may use: the account's factors' kinds, and its recovery codes. */
    methods: ('totp' | 'webauthn' | 'recovery')[];
  };
}

/**
 * After a proved password (or a link): the second step's challenge when the account has a
 * factor, or must enrol one (`required`, a program's rule); undefined when a session may
 * start, and only then are the account's failures cleared. With a second step, only the
 * password's own count is taken back: a password known to a guesser buys its codes no
 * fresh allowance, and the person who knows it is not locked out by it.
 */
export async function secondStep(
  tx: Tx,
  realm: Realm,
  account: string,
  now: number,
  opts: { programId?: string | null; required?: boolean } = {},
): Promise<Challenged | undefined> {
  const kinds = await confirmedKinds(tx, realm, account);
  if (kinds.length === 0 && !opts.required) {
    await store.clearFailures(tx, realm, account);
    return undefined;
  }
  await store.forgiveAttempt(tx, realm, account);
  const purpose = kinds.length > 0 ? 'second_factor' : 'enrol';
  const { token, expiresAt } = await issueChallenge(tx, realm, account, purpose, now, { programId: opts.programId ?? null });
  return { challenge: { token, expiresAt, purpose, methods: kinds.length > 0 ? [...kinds, 'recovery'] : [] } };
}

/** Starts the session a challenge was for, in the transaction that takes it. */
export type StartFrom<S> = (tx: Tx, challenge: ChallengeRow) => Promise<S>;

async function challengedAccount(db: Db, realm: Realm, token: string, purpose: ChallengePurpose, now: number) {
  const challenge = await peekChallenge(db, realm, token, purpose, now);
  const account = challenge.account === null ? undefined : await store.credentialsById(db, realm, challenge.account);
  if (!account) throw challengeGone();
  return account;
}

/** A sign-in's second step: a code (or recovery code) for the challenge, then its session; the challenge is used once. */
export async function completeSecondFactor<S>(
  db: Db,
  realm: Realm,
  token: string,
  code: string,
  now: number,
  notify: Notify,
  start: StartFrom<S>,
): Promise<S> {
  const account = await challengedAccount(db, realm, token, 'second_factor', now);
  await proveCode(db, realm, account, code, now, notify);
  return db.transaction(async (tx) => start(tx, await takeChallenge(tx, realm, token, 'second_factor', now)));
}

/** Enrolment a program requires, during sign-in: the challenge stands for the session the person has not got yet. */
export async function startEnrolment(db: Db, realm: Realm, token: string, issuer: string, now: number): Promise<TotpEnrolment> {
  return startTotp(db, realm, await challengedAccount(db, realm, token, 'enrol', now), issuer, now);
}

export async function completeEnrolment<S>(
  db: Db,
  realm: Realm,
  input: { token: string; factorId: string; code: string },
  now: number,
  notify: Notify,
  start: StartFrom<S>,
): Promise<{ started: S; recoveryCodes: string[] | undefined }> {
  const account = await challengedAccount(db, realm, input.token, 'enrol', now);
  const recoveryCodes = await confirmTotp(db, realm, account, input.factorId, input.code, now, notify);
  const started = await db.transaction(async (tx) => start(tx, await takeChallenge(tx, realm, input.token, 'enrol', now)));
  return { started, recoveryCodes };
}
