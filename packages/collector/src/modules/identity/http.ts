// What identity gives the routes of owners and partners alike: asking for a reset by e-mail,
// and the routes of a person's own second factors and step-up (docs/security.md).

import { z } from 'zod';
import { type Reply, type RouteInput, route } from '../../api/route.js';
import { enqueueSecurityNotice, requestReset } from '../mail/outbox.js';
import { fail } from '../../platform/errors.js';
import type { Db, Tx } from '../../platform/db/db.js';
import { one, resource, unixTime } from '../../platform/http/schemas.js';
import type { ChallengeRow, FactorRow } from './factors-repo.js';
import { credentialsById } from './repo.js';
import type { Credentials, Realm } from './model.js';
import { PASSWORD_MAX } from './passwords.js';
import {
  type AuthenticationResponseJSON,
  finishRegistration,
  provePasskeyOf,
  type RegistrationResponseJSON,
  relyingParty,
  signInWithPasskey,
  startProof,
  startRegistration,
} from './passkeys.js';
import {
  type Challenged,
  confirmTotp,
  disableFactor,
  listFactors,
  newRecoveryCodes,
  proveCode,
  reauthenticate,
  STEP_UP_SECONDS,
  startTotp,
  type TotpEnrolment,
} from './second-factor.js';

/**
 * Asking for a new password by e-mail: 202 whatever the address, in the same time, since
 * only the outbox's sender looks the address up. Without SMTP nothing can be sent, and the
 * answer says so.
 */
export function resetRoute(path: string, kind: 'partner_reset' | 'owner_reset', what: string) {
  return route({
    method: 'post',
    path,
    summary: `Ask for a link to set a new password for ${what}, e-mailed when the address has an account (the answer is the same either way)`,
    access: 'public',
    body: z.strictObject({ email: z.string().max(320) }),
    status: 202,
    response: z.object({ meta: z.object({ emailed: z.boolean() }) }),
    async handle({ db, body, now, outbox }): Promise<Reply> {
      if (!outbox) return { status: 202, body: { meta: { emailed: false } } };
      await requestReset(db, kind, body.email, now);
      outbox.kick();
      return { status: 202, body: { meta: { emailed: true } } };
    },
  });
}

const code = z.string().min(1).max(40);

/**
 * A browser's answer to a passkey ceremony (navigator.credentials as JSON), checked by
 * @simplewebauthn/server; browsers add fields of their own, so unknown ones are kept.
 */
const credentialJson = z.looseObject({
  id: z.string().min(1).max(1400),
  rawId: z.string().min(1).max(1400),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().max(4000) }),
  clientExtensionResults: z.looseObject({}).optional().default({}),
});

/** A proof by passkey: the ceremony's token (from …/passkey/options) and the browser's answer. */
export const passkeyProof = z.strictObject({ token: z.string().max(200), response: credentialJson });

/** A passkey ceremony's start: the options for navigator.credentials, and the token to send back with its answer. */
export const ceremonySchema = z.object({
  meta: z.object({
    token: z.string(),
    options: z.record(z.string(), z.unknown()).meta({ description: 'PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON' }),
  }),
});

export const renderCeremony = (c: { token: string; options: Record<string, unknown> }) => ({
  meta: { token: c.token, options: c.options },
});

/** A passkey's answer as the library types it: the schema checked its shape, the library checks the rest. */
export const asAssertion = (p: z.infer<typeof passkeyProof>) => ({
  token: p.token,
  response: p.response as unknown as AuthenticationResponseJSON,
});

const factorSchema = resource('factor', {
  kind: z.enum(['totp', 'webauthn']),
  label: z.string(),
  created_at: unixTime,
  last_used_at: unixTime.nullable(),
});

const renderFactor = (f: FactorRow) => ({
  id: f.id,
  type: 'factor' as const,
  attributes: { kind: f.kind, label: f.label, created_at: f.created_at, last_used_at: f.last_used_at },
});

/** An authenticator's enrolment: its secret once, as text, as an otpauth:// URI and as a QR code (SVG). */
export const enrolmentSchema = one(
  resource('totp_enrolment', { secret: z.string(), otpauth_uri: z.string(), qr_svg: z.string(), expires_at: unixTime.optional() }),
);

export const renderEnrolment = (e: TotpEnrolment) => ({
  data: { id: e.factorId, type: 'totp_enrolment' as const, attributes: { secret: e.secret, otpauth_uri: e.uri, qr_svg: e.qrSvg } },
});

/** Recovery codes, shown once: only their hashes are kept. */
export const recoveryCodes = z.array(z.string()).meta({ description: 'Shown once; each works once. Keep them apart from the phone.' });

/**
 * A sign-in's answer: the session's record, or (`data: null`) the challenge of its second
 * step in `meta.second_factor`, with no session yet. One object, so clients read one shape.
 */
export const signInAnswer = <T extends z.ZodType>(record: T) =>
  z.object({
    data: record.nullable(),
    meta: z
      .object({
        second_factor: z.object({
          token: z.string(),
          purpose: z.enum(['second_factor', 'enrol']),
          expires_at: unixTime,
          methods: z.array(z.enum(['totp', 'webauthn', 'recovery'])),
        }),
      })
      .optional()
      .meta({ description: 'Present when a second step must follow: send its token to …/sign_in/second_factor (or enrol)' }),
  });

export const renderChallenge = (c: Challenged) => ({
  data: null,
  meta: {
    second_factor: {
      token: c.challenge.token,
      purpose: c.challenge.purpose,
      expires_at: c.challenge.expiresAt,
      methods: c.challenge.methods,
    },
  },
});

/** How a realm's factor routes find the signed-in account: the dashboard's session or the portal's. */
export interface FactorRealm {
  realm: Realm;
  /** `/v1/auth` or `/v1/portal/auth`. */
  base: string;
  access: 'session' | 'partner';
  /** Shown by authenticator apps beside the address. */
  issuer: string;
  signedIn(input: RouteInput<unknown>): { account: string; session: string };
  /** Whether the account must keep a factor (a program of theirs requires one). */
  mustKeepOne(db: Db, account: string): Promise<boolean>;
}

async function credentials(db: Db, at: FactorRealm, input: RouteInput<unknown>): Promise<Credentials> {
  const found = await credentialsById(db, at.realm, at.signedIn(input).account);
  if (!found) throw fail('unauthorized', 'this session has ended');
  return found;
}

const kick = (outbox: RouteInput<unknown>['outbox']) => outbox?.kick();

/** The signed-in person's own factors: list, enrol an authenticator, confirm it, remove one, new recovery codes, step-up. */
export function factorRoutes(at: FactorRealm) {
  return [
    route({
      method: 'get',
      path: `${at.base}/factors`,
      summary: "The signed-in account's second factors, and how many recovery codes it has left",
      access: at.access,
      status: 200,
      response: z.object({ data: z.array(factorSchema), meta: z.object({ recovery_codes_left: z.number().int() }) }),
      async handle(input) {
        const list = await listFactors(input.db, at.realm, at.signedIn(input).account);
        return { status: 200, body: { data: list.factors.map(renderFactor), meta: { recovery_codes_left: list.recoveryCodesLeft } } };
      },
    }),
    route({
      method: 'post',
      path: `${at.base}/factors/totp`,
      summary: 'Start enrolling an authenticator app: its secret, otpauth:// URI and QR code, confirmed by its first code',
      access: at.access,
      status: 201,
      response: enrolmentSchema,
      async handle(input) {
        const account = await credentials(input.db, at, input);
        return { status: 201, body: renderEnrolment(await startTotp(input.db, at.realm, account, at.issuer, input.now)) };
      },
    }),
    ...passkeyRoutes(at),
    route({
      method: 'post',
      path: `${at.base}/factors/:id/confirm`,
      summary: "Confirm an authenticator app's enrolment with its current code; the first factor's answer holds the recovery codes, once",
      access: at.access,
      checksPassword: true,
      body: z.strictObject({ code }),
      status: 200,
      response: z.object({ meta: z.object({ recovery_codes: recoveryCodes.nullable() }) }),
      async handle(input) {
        const account = await credentials(input.db, at, input);
        const codes = await confirmTotp(
          input.db,
          at.realm,
          account,
          input.params.id ?? '',
          input.body.code,
          input.now,
          enqueueSecurityNotice,
        );
        kick(input.outbox);
        return { status: 200, body: { meta: { recovery_codes: codes ?? null } } };
      },
    }),
    route({
      method: 'post',
      path: `${at.base}/factors/:id/disable`,
      summary: 'Remove a second factor: needs the password and a current code (or a recovery code); the address is told',
      access: at.access,
      checksPassword: true,
      body: z.strictObject({ password: z.string().max(PASSWORD_MAX), ...secondProof }),
      status: 204,
      async handle(input) {
        const account = await credentials(input.db, at, input);
        const factorId = input.params.id ?? '';
        const { factors } = await listFactors(input.db, at.realm, account.id);
        if (factors.length === 1 && factors[0]?.id === factorId && (await at.mustKeepOne(input.db, account.id))) {
          throw fail('conflict', 'a program you run requires a second factor: add another before removing this one');
        }
        const second = secondFactorOf(at, input, account, input.body) ?? missingSecond();
        await disableFactor(
          input.db,
          at.realm,
          account,
          factorId,
          { password: input.body.password, second },
          input.now,
          enqueueSecurityNotice,
        );
        kick(input.outbox);
        return { status: 204 };
      },
    }),
    route({
      method: 'post',
      path: `${at.base}/recovery_codes`,
      summary: 'New recovery codes for a current code or passkey (the old ones stop working); shown once',
      access: at.access,
      checksPassword: true,
      body: z.strictObject(secondProof),
      status: 200,
      response: z.object({ meta: z.object({ recovery_codes: recoveryCodes }) }),
      async handle(input) {
        const account = await credentials(input.db, at, input);
        await (secondFactorOf(at, input, account, input.body) ?? missingSecond())();
        const codes = await newRecoveryCodes(input.db, at.realm, account.id, input.now, enqueueSecurityNotice);
        kick(input.outbox);
        return { status: 200, body: { meta: { recovery_codes: codes } } };
      },
    }),
    route({
      method: 'post',
      path: `${at.base}/reauthenticate`,
      summary:
        'Prove again who holds this session (a code, or the password when the account has no second factor), before what moves money',
      access: at.access,
      checksPassword: true,
      body: z.strictObject({ ...secondProof, password: z.string().max(PASSWORD_MAX).optional() }),
      status: 200,
      response: z.object({
        meta: z.object({ verified_at: unixTime, fresh_until: unixTime, method: z.enum(['totp', 'recovery', 'passkey', 'password']) }),
      }),
      async handle(input) {
        const account = await credentials(input.db, at, input);
        const { session } = at.signedIn(input);
        const second = secondFactorOf(at, input, account, input.body);
        const method = await reauthenticate(input.db, at.realm, account, session, { second, password: input.body.password }, input.now);
        kick(input.outbox);
        return { status: 200, body: { meta: { verified_at: input.now, fresh_until: input.now + STEP_UP_SECONDS, method } } };
      },
    }),
  ];
}

/** A second factor's proof, in a body: a code (or recovery code), or a passkey's answer. */
const secondProof = { code: code.optional(), passkey: passkeyProof.optional() };

const missingSecond = (): never => {
  throw fail('missing_field', 'give a code from your authenticator app, a recovery code or a passkey', { field: 'code' });
};

/** Proves the body's second factor for the signed-in account, when it gives one. */
function secondFactorOf(
  at: FactorRealm,
  input: RouteInput<unknown>,
  account: Credentials,
  body: { code?: string | undefined; passkey?: z.infer<typeof passkeyProof> | undefined },
): (() => Promise<'totp' | 'recovery' | 'passkey'>) | undefined {
  const { passkey, code } = body;
  if (passkey) {
    const rp = relyingParty(input.publicUrl, at.issuer);
    return async () => {
      await provePasskeyOf(input.db, at.realm, account.id, asAssertion(passkey), rp, input.now);
      return 'passkey';
    };
  }
  if (code) return () => proveCode(input.db, at.realm, account, code, input.now, enqueueSecurityNotice);
  return undefined;
}

/** A signed-in person's passkeys: adding one, and starting a proof of one (step-up, removing a factor). */
function passkeyRoutes(at: FactorRealm) {
  return [
    route({
      method: 'post',
      path: `${at.base}/factors/passkey/options`,
      summary: "Start adding a passkey: the options for the browser's navigator.credentials.create, and the token to send back",
      access: at.access,
      status: 200,
      response: ceremonySchema,
      async handle(input) {
        const account = await credentials(input.db, at, input);
        const rp = relyingParty(input.publicUrl, at.issuer);
        return { status: 200, body: renderCeremony(await startRegistration(input.db, at.realm, account, rp, input.now)) };
      },
    }),
    route({
      method: 'post',
      path: `${at.base}/factors/passkey`,
      summary: "Add a passkey: the browser's answer to …/factors/passkey/options; the first factor's answer holds the recovery codes, once",
      access: at.access,
      body: z.strictObject({ token: z.string().max(200), response: credentialJson, label: z.string().max(100).optional() }),
      status: 201,
      response: one(factorSchema).extend({ meta: z.object({ recovery_codes: recoveryCodes.nullable() }) }),
      async handle(input) {
        const account = await credentials(input.db, at, input);
        const { token, response, label } = input.body;
        const rp = relyingParty(input.publicUrl, at.issuer);
        const made = await finishRegistration(
          input.db,
          at.realm,
          account,
          { token, response: response as unknown as RegistrationResponseJSON, label },
          rp,
          input.now,
          enqueueSecurityNotice,
        );
        kick(input.outbox);
        return { status: 201, body: { data: renderFactor(made.factor), meta: { recovery_codes: made.recoveryCodes ?? null } } };
      },
    }),
    route({
      method: 'post',
      path: `${at.base}/passkey/options`,
      summary:
        "Start proving a passkey of the signed-in account (step-up, removing a factor, new recovery codes): navigator.credentials.get's options",
      access: at.access,
      status: 200,
      response: ceremonySchema,
      async handle(input) {
        const rp = relyingParty(input.publicUrl, at.issuer);
        const ceremony = await startProof(input.db, at.realm, rp, input.now, { account: at.signedIn(input).account });
        return { status: 200, body: renderCeremony(ceremony) };
      },
    }),
  ];
}

/**
 * A realm's sign-in by passkey: options (for a sign-in's second step with its token, or a
 * sign-in without a password), then the browser's answer, which starts the session as
 * `start` does after a code.
 */
export function passkeySignInRoutes<S>(at: {
  realm: Realm;
  base: string;
  issuer: string;
  response: z.ZodType;
  /** Starts the session a challenge was for (the account it proved filled in). */
  start: (tx: Tx, challenge: ChallengeRow, now: number) => Promise<S>;
  reply: (db: Db, made: S) => Promise<Reply>;
}) {
  return [
    route({
      method: 'post',
      path: `${at.base}/sign_in/passkey/options`,
      summary:
        "Start signing in with a passkey: with a sign-in's second-step token, for that account's passkeys; without, any passkey (no password)",
      access: 'public',
      body: z.strictObject({ token: z.string().max(200).optional() }),
      status: 200,
      response: ceremonySchema,
      async handle({ db, body, now, publicUrl }) {
        const rp = relyingParty(publicUrl, at.issuer);
        return { status: 200, body: renderCeremony(await startProof(db, at.realm, rp, now, { secondFactorToken: body.token })) };
      },
    }),
    route({
      method: 'post',
      path: `${at.base}/sign_in/passkey`,
      summary: "Sign in with a passkey: the options' token and the browser's answer (sets the session cookie)",
      access: 'public',
      checksPassword: true,
      body: passkeyProof,
      status: 200,
      response: at.response,
      async handle({ db, body, now, publicUrl, outbox }) {
        const rp = relyingParty(publicUrl, at.issuer);
        const made = await signInWithPasskey(db, at.realm, asAssertion(body), rp, now, (tx, c) => at.start(tx, c, now));
        outbox?.kick();
        return at.reply(db, made);
      },
    }),
  ];
}
