// Signing in, asking for a new password, and the one-time link's page where a new owner sets their password (and,
// for the first owner, the e-mail address they will sign in with). Signed out, nobody has chosen a language:
// these speak the browser's (language.ts's start), as the portal's sign-in pages do.

import { useLocation } from 'preact-iso/router';
import { api } from '../../common/api.js';
import { Card, text, useSubmit } from '../../common/forms.js';
import { SignInCard } from '../../common/sign-in-card.js';
import { ResetPasswordCard } from '../../common/reset.js';
import { Failure } from '../../common/ui.js';
import { href } from '../session.js';
import { t, tx } from './words.js';

export function SignIn() {
  return (
    <SignInCard
      title={t('signIn.title')}
      base="/dashboard"
      home={href('/')}
      signIn={(email, password) => api.POST('/v1/auth/sign_in', { body: { email, password } })}
      complete={(token, code) => api.POST('/v1/auth/sign_in/second_factor', { body: { token, code } })}
      passkey={{
        start: (token) => api.POST('/v1/auth/sign_in/passkey/options', { body: token ? { token } : {} }),
        finish: (token, response) => api.POST('/v1/auth/sign_in/passkey', { body: { token, response: response as never } }),
      }}
      enrol={{
        start: async (token) => {
          const { data } = await api.POST('/v1/auth/sign_in/enrol', { body: { token } });
          return { id: data.id, secret: data.attributes.secret, qrSvg: data.attributes.qr_svg };
        },
        confirm: async (token, id, code) =>
          (await api.POST('/v1/auth/sign_in/enrol/confirm', { body: { token, factor_id: id, code } })).meta.recovery_codes,
        words: { intro: t('enrol.intro'), recovery: t('enrol.recovery'), qr: t('enrol.qr'), key: t('enrol.key') },
      }}
    >
      <a href={href('/reset')}>{t('signIn.forgot')}</a>{' '}
      {tx('signIn.notYet', { command: <code>npx tally users invite you@example.com</code> })}
    </SignInCard>
  );
}

export function ResetPassword() {
  return (
    <ResetPasswordCard
      ask={async (email) => (await api.POST('/v1/auth/reset', { body: { email } })).meta.emailed}
      who={t('reset.who')}
      withoutMail={t('reset.withoutMail')}
      signInHref={href('/sign-in')}
    />
  );
}

export function Welcome() {
  const { route } = useLocation();
  // The token is in the fragment, which browsers never send to a server or a Referer.
  const token = location.hash.slice(1);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    const email = text(form, 'email');
    await api.POST('/v1/auth/redeem', { body: { token, password: text(form, 'password'), ...(email ? { email } : {}) } });
    history.replaceState(null, '', location.pathname);
    route(href('/'));
  });
  if (!token) {
    return (
      <Card title={t('welcome.incomplete')}>
        <p>{t('welcome.incompleteText')}</p>
      </Card>
    );
  }
  return (
    <Card title={t('welcome.title')}>
      <form onSubmit={onSubmit}>
        <p>{t('welcome.intro')}</p>
        <label>
          {t('welcome.email')} <span class="hint">{t('welcome.emailHint')}</span>
          <input name="email" type="email" autocomplete="username" />
        </label>
        <label>
          {t('welcome.password')} <span class="hint">{t('welcome.passwordHint')}</span>
          <input name="password" type="password" autocomplete="new-password" minLength={10} required />
        </label>
        {error !== undefined ? <Failure error={error} /> : null}
        <button type="submit" disabled={busy}>
          {t('welcome.set')}
        </button>
      </form>
    </Card>
  );
}
