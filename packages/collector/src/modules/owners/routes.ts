// Signing in and out of the dashboard (docs/api.md, "Sign-in and sessions"). The session
// travels in an HttpOnly cookie that app.ts writes from the reply; no token is ever in
// the page's reach.

import { z } from 'zod';
import {
  changePassword,
  confirmOnSignIn,
  enrolOnSignIn,
  mustKeepFactor,
  redeem,
  sessionInfo,
  signIn,
  signInWithCode,
  signOut,
  startFrom,
  switchProgram,
  type NewSession,
  type SignedIn,
  updateAccount,
} from './service.js';
import { PASSWORD_MAX } from '../identity/passwords.js';
import {
  enrolmentSchema,
  factorRoutes,
  passkeySignInRoutes,
  recoveryCodes,
  renderChallenge,
  signInAnswer,
  renderEnrolment,
  resetRoute,
} from '../identity/http.js';
import { OWNERS } from '../identity/model.js';
import { route, type Reply } from '../../api/route.js';
import { one, unixTime } from '../../platform/http/schemas.js';
import type { Db } from '../../platform/db/db.js';
import { ROLES, type SessionRow } from './repo.js';
import { email } from '../../api/fields.js';
import { isLocale, LOCALES } from '../../core/locale.js';

const password = z.string().max(PASSWORD_MAX);

const sessionData = z.object({
  id: z.string(),
  type: z.literal('session'),
  attributes: z.object({
    email: z.string(),
    locale: z
      .enum(LOCALES)
      .nullable()
      .meta({ description: "The dashboard's language the user chose (PATCH /v1/auth/account); null: their browser's" }),
    program_id: z.string(),
    created_at: unixTime,
    programs: z.array(z.object({ id: z.string(), name: z.string(), role: z.enum(ROLES) })),
  }),
});
const sessionSchema = one(sessionData);

async function renderSession(db: Db, session: SessionRow) {
  const { user, memberships } = await sessionInfo(db, session);
  return {
    data: {
      id: session.id,
      type: 'session',
      attributes: {
        email: user.email ?? '',
        locale: isLocale(user.locale) ? user.locale : null,
        program_id: session.program_id,
        created_at: session.created_at,
        programs: memberships.map((m) => ({ id: m.program_id, name: m.program_name, role: m.role })),
      },
    },
  };
}

async function started(db: Db, made: NewSession): Promise<Reply> {
  return { status: 200, session: { token: made.token }, body: await renderSession(db, made.session) };
}

/** A session, or the challenge of the second step (no session yet). */
const signedIn = (db: Db, made: SignedIn): Promise<Reply> =>
  'challenge' in made ? Promise.resolve({ status: 200, body: renderChallenge(made) }) : started(db, made.session);

const signInSchema = signInAnswer(sessionData);

const current = (session: SessionRow | undefined): SessionRow => session as SessionRow; // 'session' routes always have one

export const authRoutes = [
  route({
    method: 'post',
    path: '/v1/auth/sign_in',
    summary:
      'Sign in to the dashboard (sets the session cookie); with a second factor, or one a program requires, the answer is a challenge for the second step instead',
    access: 'public',
    checksPassword: true,
    body: z.strictObject({ email: z.string().max(320), password }),
    status: 200,
    response: signInSchema,
    async handle({ db, body, now }) {
      return signedIn(db, await signIn(db, body.email, body.password, now));
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/sign_in/second_factor',
    summary:
      "Sign-in's second step: the challenge's token and a code from the authenticator app, or a recovery code (sets the session cookie)",
    access: 'public',
    checksPassword: true,
    body: z.strictObject({ token: z.string().max(200), code: z.string().min(1).max(40) }),
    status: 200,
    response: sessionSchema,
    async handle({ db, body, now, outbox }) {
      const made = await signInWithCode(db, body.token, body.code, now);
      outbox?.kick();
      return started(db, made);
    },
  }),
  ...passkeySignInRoutes({
    realm: OWNERS,
    base: '/v1/auth',
    issuer: 'Tally',
    response: sessionSchema,
    start: startFrom,
    reply: started,
  }),
  route({
    method: 'post',
    path: '/v1/auth/sign_in/enrol',
    summary: "Enrol an authenticator app during sign-in, when a program requires a second factor of its team (the challenge's token)",
    access: 'public',
    checksPassword: true,
    body: z.strictObject({ token: z.string().max(200) }),
    status: 201,
    response: enrolmentSchema,
    async handle({ db, body, now }) {
      return { status: 201, body: renderEnrolment(await enrolOnSignIn(db, body.token, now)) };
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/sign_in/enrol/confirm',
    summary: "Confirm the enrolment with the app's code and sign in; the answer holds the recovery codes, once",
    access: 'public',
    checksPassword: true,
    body: z.strictObject({ token: z.string().max(200), factor_id: z.string().max(100), code: z.string().min(1).max(40) }),
    status: 200,
    response: sessionSchema.extend({ meta: z.object({ recovery_codes: recoveryCodes.nullable() }) }),
    async handle({ db, body, now, outbox }) {
      const made = await confirmOnSignIn(db, { token: body.token, factorId: body.factor_id, code: body.code }, now);
      outbox?.kick();
      const reply = await started(db, made.started);
      return { ...reply, body: { ...(reply.body as object), meta: { recovery_codes: made.recoveryCodes ?? null } } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/redeem',
    summary: "Use a one-time sign-in link: set the password (and the first owner's e-mail), and sign in",
    access: 'public',
    checksPassword: true,
    body: z.strictObject({ token: z.string().max(200), email: email.optional(), password }),
    status: 200,
    response: signInSchema,
    async handle({ db, body, now, outbox }) {
      return signedIn(db, await redeem(db, body.token, body, now, outbox));
    },
  }),
  resetRoute('/v1/auth/reset', 'owner_reset', 'the dashboard'),
  route({
    method: 'get',
    path: '/v1/auth/session',
    summary: 'The signed-in user, the program the session acts for, and their programs; `data: null` when signed out',
    access: 'session',
    optionalSession: true,
    status: 200,
    response: z.object({ data: sessionData.nullable() }),
    async handle({ db, session }) {
      return { status: 200, body: session ? await renderSession(db, session) : { data: null } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/sign_out',
    summary: 'Sign out: ends the session and clears its cookie',
    access: 'session',
    status: 204,
    async handle({ db, session }) {
      await signOut(db, current(session).id);
      return { status: 204, session: 'end' };
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/password',
    summary: "Change the signed-in user's password; every other session of theirs ends",
    access: 'session',
    checksPassword: true,
    body: z.strictObject({ current_password: password, new_password: password }),
    status: 204,
    async handle({ db, session, body, now }) {
      await changePassword(db, current(session), body.current_password, body.new_password, now);
      return { status: 204 };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/auth/account',
    summary: "Change the signed-in user's own account: the dashboard's language, in every program they run",
    access: 'session',
    body: z.strictObject({
      locale: z.enum(LOCALES).nullable().optional().meta({ description: "en, de, fr or es; null: the browser's" }),
    }),
    status: 200,
    response: sessionSchema,
    async handle({ db, session, body, now }) {
      const s = current(session);
      await updateAccount(db, s, body, now);
      return { status: 200, body: await renderSession(db, s) };
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/program',
    summary: "Switch the session to another of the user's programs",
    access: 'session',
    body: z.strictObject({ program_id: z.string().max(100) }),
    status: 200,
    response: sessionSchema,
    async handle({ db, session, body }) {
      const s = current(session);
      await switchProgram(db, s, body.program_id);
      return { status: 200, body: await renderSession(db, { ...s, program_id: body.program_id }) };
    },
  }),
  ...factorRoutes({
    realm: OWNERS,
    base: '/v1/auth',
    access: 'session',
    issuer: 'Tally',
    signedIn: ({ session }) => ({ account: current(session).user_id, session: current(session).id }),
    mustKeepOne: mustKeepFactor,
  }),
];
