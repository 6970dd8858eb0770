// Signing in to the portal, asking for a new password, and the one-time link's page (an
// invitation or a reset) where the partner sets it; either may ask for the second factor next.

import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api } from '../../common/api.js';
import { Card, text, useSubmit } from '../../common/forms.js';
import type { Challenge, PasskeyCeremony } from '../../common/second-step.js';
import { SecondStep, SignInCard } from '../../common/sign-in-card.js';
import { ResetPasswordCard } from '../../common/reset.js';
import { Failure } from '../../common/ui.js';
import { t } from '../language.js';
import { href } from '../session.js';

/** The second step, after the password or a one-time link's (docs/security.md). */
const complete = (token: string, code: string) => api.POST('/v1/portal/auth/sign_in/second_factor', { body: { token, code } });

/** A passkey, as the second step or alone (no password). */
const passkey: PasskeyCeremony = {
  start: (token) => api.POST('/v1/portal/auth/sign_in/passkey/options', { body: token ? { token } : {} }),
  finish: (token, response) => api.POST('/v1/portal/auth/sign_in/passkey', { body: { token, response: response as never } }),
};

export function SignIn() {
  return (
    <SignInCard
      title={t('signIn.title')}
      base="/portal"
      home={href('/')}
      signIn={(email, password) => api.POST('/v1/portal/auth/sign_in', { body: { email, password } })}
      complete={complete}
      passkey={passkey}
    >
      <a href={href('/reset')}>{t('signIn.forgot')}</a> {t('signIn.notYet')}
    </SignInCard>
  );
}

export function ResetPassword() {
  return (
    <ResetPasswordCard
      ask={async (email) => (await api.POST('/v1/portal/auth/reset', { body: { email } })).meta.emailed}
      who={t('signIn.who')}
      withoutMail={t('signIn.withoutMail')}
      signInHref={href('/sign-in')}
    />
  );
}

export function SetPassword() {
  const { route } = useLocation();
  const token = location.hash.slice(1);
  // An account with a second factor (invited by another program) gets its second step, not a session.
  const [challenge, setChallenge] = useState<Challenge>();
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    const answer = await api.POST('/v1/portal/auth/redeem', { body: { token, password: text(form, 'password') } });
    history.replaceState(null, '', href('/welcome'));
    if (answer.meta?.second_factor) setChallenge(answer.meta.second_factor);
    else route(href('/'));
  });
  if (challenge) return <SecondStep challenge={challenge} complete={complete} passkey={passkey} done={() => route(href('/'))} />;
  return (
    <Card title={t('signIn.choose')}>
      <form onSubmit={onSubmit}>
        <p>{t('signIn.afterwards')}</p>
        <label>
          {t('signIn.password')} <span class="hint">{t('signIn.passwordHint')}</span>
          {/* biome-ignore lint/a11y/noAutofocus: the page (or dialog) is this one form: typing starts in its first field */}
          <input name="password" type="password" autocomplete="new-password" minLength={10} required autoFocus />
        </label>
        {error !== undefined ? <Failure error={error} /> : null}
        <button type="submit" disabled={busy || !token}>
          {t('signIn.set')}
        </button>
      </form>
    </Card>
  );
}
