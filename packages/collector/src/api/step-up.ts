// Step-up (docs/security.md): what moves money or changes who runs a program asks a person
// signed in for a fresh proof of who they are, and tells their address once it is done.
// The rule is by route, here, so the modules' routes stay as they are.

import type { Middleware } from 'koa';
import type { Db } from '../platform/db/db.js';
import { fail } from '../platform/errors.js';
import { OWNERS, PARTNERS, type SecurityEvent } from '../modules/identity/model.js';
import { confirmedKinds, freshProof, STEP_UP_SECONDS } from '../modules/identity/second-factor.js';
import { enqueueSecurityNotice, type OutboxSender } from '../modules/mail/outbox.js';
import type { SessionRow } from '../modules/owners/repo.js';
import type { PartnerSessionRow } from '../modules/portal/repo.js';

export interface StepUp {
  /** What the account's address is told once the action succeeded; none when the action tells it itself. */
  event?: SecurityEvent;
  /** Only for some bodies (a secret token, not a publishable one); read before the body's schema. */
  when?: (body: unknown) => boolean;
}

/** The routes that ask, by `method path`. */
export const STEP_UP: Readonly<Record<string, StepUp>> = {
  'post /v1/portal/partnerships/:id/payout_method': { event: 'payout_method_changed' },
  'post /v1/payout_runs/:id/approve': { event: 'payout_run_approved' },
  'post /v1/tokens': { event: 'secret_token_created', when: (body) => (body as { kind?: unknown } | undefined)?.kind === 'secret' },
  'post /v1/members': { event: 'team_changed' },
  'patch /v1/members/:id': { event: 'team_changed' },
  'delete /v1/members/:id': { event: 'team_changed' },
  'patch /v1/team/settings': { event: 'team_changed' },
  // A new factor is a way back into the account: a stolen session must not add one
  // (each tells the address itself when it is added).
  ...Object.fromEntries(
    ['/v1/auth', '/v1/portal/auth'].flatMap((base) =>
      ['totp', ':id/confirm', 'passkey/options', 'passkey'].map((p) => [`post ${base}/factors/${p}`, {}]),
    ),
  ),
};

/**
 * Refuses with step_up_required while the session's last proof is older than
 * STEP_UP_SECONDS; a token is a server, not a person, and is not asked (decision 0422).
 * The notice is written after the action's own transaction: an action that failed is not told.
 */
export function stepUp(db: Db, now: () => number, outbox: OutboxSender | undefined, rule: StepUp): Middleware {
  return async (ctx, next) => {
    const owner = ctx.state.session as SessionRow | undefined;
    const partner = ctx.state.partnerSession as PartnerSessionRow | undefined;
    if ((!owner && !partner) || (rule.when && !rule.when(ctx.request.body))) return next();
    const realm = owner ? OWNERS : PARTNERS;
    const account = owner ? owner.user_id : (partner as PartnerSessionRow).account_id;
    if (!freshProof((owner ?? partner)?.verified_at, now())) {
      const kinds = await confirmedKinds(db, realm, account);
      const code = kinds.length > 0;
      const path = owner ? '/v1/auth/reauthenticate' : '/v1/portal/auth/reauthenticate';
      throw fail(
        'step_up_required',
        `confirm it is you first: ${code ? 'a code from your authenticator app, a recovery code or a passkey' : 'your password'} to ${path}, then try again`,
        {
          meta: {
            proof: code ? 'code' : 'password',
            passkey: kinds.includes('webauthn'),
            reauthenticate: path,
            fresh_for: STEP_UP_SECONDS,
          },
        },
      );
    }
    await next();
    const { event } = rule;
    if (ctx.status >= 300 || !event) return;
    await db.transaction((tx) => enqueueSecurityNotice(tx, realm, account, event, now()));
    outbox?.kick();
  };
}
