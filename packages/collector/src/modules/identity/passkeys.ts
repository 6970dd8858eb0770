// Passkeys (WebAuthn, decision 0425), once for owners and partners: registered by a
// signed-in account, then a second factor after the password, a sign-in of their own with
// no password (a discoverable credential, the person verified by the device), and a proof
// for step-up and for removing a factor. @simplewebauthn/server checks the ceremonies; it is
// loaded with the first passkey, as PDFKit is with the first PDF, so start stays light.
//
// The relying party is the collector's public address (PUBLIC_URL), never the request's
// Host: a phishing proxy could name any host, but not the origin the browser signs.

import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { uuidv7 } from '../../core/ids.js';
import type { Db, Queryable, Tx } from '../../platform/db/db.js';
import { fail } from '../../platform/errors.js';
import { hashToken } from '../tokens/service.js';
import * as factors from './factors-repo.js';
import type { ChallengePurpose, ChallengeRow, FactorRow } from './factors-repo.js';
import type { Credentials, Realm } from './model.js';
import * as store from './repo.js';
import { afterEnrolment, issueChallenge, type Notify, peekChallenge, type StartFrom } from './second-factor.js';

export type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

const webauthn = () => import('@simplewebauthn/server');

/** Who the browser's passkeys are for: the public address's host and origin. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export const relyingParty = (publicUrl: string, name: string): RelyingParty => {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name };
};

/** What the browser gets to start a ceremony: the library's options, and the token that carries its challenge back. */
export interface Ceremony {
  token: string;
  options: Record<string, unknown>;
}

const passkeysOf = async (db: Queryable, realm: Realm, account: string): Promise<FactorRow[]> =>
  (await factors.confirmedFactorsOf(db, realm, account)).filter((f) => f.kind === 'webauthn');

const descriptor = (f: FactorRow) => ({
  id: f.credential_id ?? '',
  ...(f.transports ? { transports: JSON.parse(f.transports) } : {}),
});

const refused = () =>
  fail('invalid_credentials', 'the passkey did not prove this: try again, or use another factor', { field: 'response' });

/** Starts registering a passkey for a signed-in account; its challenge waits with the account's. */
export async function startRegistration(db: Db, realm: Realm, account: Credentials, rp: RelyingParty, now: number): Promise<Ceremony> {
  const { generateRegistrationOptions } = await webauthn();
  const existing = await passkeysOf(db, realm, account.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: account.email ?? account.id,
    userID: new TextEncoder().encode(account.id),
    attestationType: 'none',
    excludeCredentials: existing.map(descriptor),
    // Discoverable, so the same passkey signs in without the address or a password.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const { token } = await db.transaction((tx) =>
    issueChallenge(tx, realm, account.id, 'passkey_register', now, { data: options.challenge }),
  );
  return { token, options: options as unknown as Record<string, unknown> };
}

/** Finishes a registration: the passkey is a confirmed factor (the first brings recovery codes, shown once). */
export async function finishRegistration(
  db: Db,
  realm: Realm,
  account: Credentials,
  input: { token: string; response: RegistrationResponseJSON; label?: string | undefined },
  rp: RelyingParty,
  now: number,
  notify: Notify,
): Promise<{ factor: FactorRow; recoveryCodes: string[] | undefined }> {
  const challenge = await peekChallenge(db, realm, input.token, 'passkey_register', now);
  if (challenge.account !== account.id || !challenge.data) throw refused();
  const { verifyRegistrationResponse } = await webauthn();
  const checked = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: challenge.data,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!checked?.verified) throw refused();
  const { credential } = checked.registrationInfo;
  const factor: FactorRow = {
    id: uuidv7(now * 1000),
    account: account.id,
    kind: 'webauthn',
    label: input.label?.trim() || 'Passkey',
    secret: null,
    last_step: null,
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    sign_count: credential.counter,
    transports: credential.transports ? JSON.stringify(credential.transports) : null,
    confirmed_at: now,
    created_at: now,
    last_used_at: now,
  };
  const recoveryCodes = await db.transaction(async (tx) => {
    if (!(await factors.takeChallenge(tx, realm, hashToken(input.token), 'passkey_register', now))) throw refused();
    if (await factors.factorByCredential(tx, realm, credential.id)) throw fail('conflict', 'this passkey is registered already');
    await factors.insertFactor(tx, realm, factor);
    return afterEnrolment(tx, realm, account.id, 'passkey_added', now, notify);
  });
  return { factor, recoveryCodes };
}

/**
 * Options to prove a passkey. With a sign-in's second-step token, for that account's
 * passkeys (the challenge is kept on the token); with an account (step-up, removing a
 * factor), for its passkeys; with neither, any passkey of this realm (a sign-in without a
 * password, which the device must verify).
 */
export async function startProof(
  db: Db,
  realm: Realm,
  rp: RelyingParty,
  now: number,
  to: { secondFactorToken?: string | undefined; account?: string | undefined },
): Promise<Ceremony> {
  const { generateAuthenticationOptions } = await webauthn();
  const pending = to.secondFactorToken ? await peekChallenge(db, realm, to.secondFactorToken, 'second_factor', now) : undefined;
  const account = pending?.account ?? to.account;
  const allow = account ? await passkeysOf(db, realm, account) : [];
  if (account && allow.length === 0) throw fail('conflict', 'this account has no passkey');
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: allow.map(descriptor),
    userVerification: account ? 'preferred' : 'required',
  });
  const token = await db.transaction(async (tx) => {
    if (pending && to.secondFactorToken) {
      await factors.setChallengeData(tx, realm, pending.hash, options.challenge);
      return to.secondFactorToken;
    }
    const purpose: ChallengePurpose = account ? 'passkey_step_up' : 'passkey_sign_in';
    return (await issueChallenge(tx, realm, account ?? null, purpose, now, { data: options.challenge })).token;
  });
  return { token, options: options as unknown as Record<string, unknown> };
}

/** The challenge a proof answers, of whichever purpose its token was issued for. */
async function proofChallenge(db: Db, realm: Realm, token: string, purposes: readonly ChallengePurpose[], now: number) {
  for (const purpose of purposes) {
    const found = await factors.challengeByHash(db, realm, hashToken(token), purpose, now);
    if (found?.data) return found;
  }
  throw fail('invalid_credentials', 'this passkey request is unknown, used or expired: start again', { field: 'token' });
}

/**
 * Checks a passkey's answer to its challenge: the account's own passkey (any of the realm's
 * for a sign-in without a password, verified by the device). Then, in one transaction, the
 * challenge is taken once and the counter moved forwards (a parallel use of either loses),
 * and `then` runs with the challenge and the account it proved.
 */
async function provePasskey<S>(
  db: Db,
  realm: Realm,
  input: { token: string; response: AuthenticationResponseJSON },
  rp: RelyingParty,
  now: number,
  purposes: readonly ChallengePurpose[],
  then: (tx: Tx, challenge: ChallengeRow, account: string) => Promise<S>,
): Promise<S> {
  const challenge = await proofChallenge(db, realm, input.token, purposes, now);
  const factor = await factors.factorByCredential(db, realm, input.response.id);
  if (!factor?.public_key || (challenge.account !== null && factor.account !== challenge.account)) throw refused();
  const { verifyAuthenticationResponse } = await webauthn();
  const checked = await verifyAuthenticationResponse({
    response: input.response,
    expectedChallenge: challenge.data ?? '',
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: factor.credential_id ?? '',
      publicKey: new Uint8Array(Buffer.from(factor.public_key, 'base64url')),
      counter: factor.sign_count,
      ...(factor.transports ? { transports: JSON.parse(factor.transports) } : {}),
    },
    requireUserVerification: challenge.account === null,
  }).catch(() => undefined);
  if (!checked?.verified) throw refused();
  return db.transaction(async (tx) => {
    const taken = await factors.takeChallenge(tx, realm, challenge.hash, challenge.purpose, now);
    if (!taken || (await factors.usePasskey(tx, realm, factor.id, checked.authenticationInfo.newCounter, now)) !== 1) throw refused();
    return then(tx, taken, factor.account);
  });
}

/** A step-up's or a removal's passkey proof for a signed-in account, its challenge used once. */
export async function provePasskeyOf(
  db: Db,
  realm: Realm,
  account: string,
  input: { token: string; response: AuthenticationResponseJSON },
  rp: RelyingParty,
  now: number,
): Promise<void> {
  await provePasskey(db, realm, input, rp, now, ['passkey_step_up'], async (_tx, _challenge, proved) => {
    if (proved !== account) throw refused();
  });
}

/**
 * A sign-in with a passkey: the second step after the password (its token), or the whole
 * sign-in with none. The challenge is taken once, then the session starts as a code's would.
 */
export async function signInWithPasskey<S>(
  db: Db,
  realm: Realm,
  input: { token: string; response: AuthenticationResponseJSON },
  rp: RelyingParty,
  now: number,
  start: StartFrom<S>,
): Promise<S> {
  return provePasskey(db, realm, input, rp, now, ['second_factor', 'passkey_sign_in'], async (tx, taken, account) => {
    await store.clearFailures(tx, realm, account);
    return start(tx, { ...taken, account });
  });
}
