// Signing in, asking for a new password, and the one-time link's page where a new owner sets their password (and,
// for the first owner, the e-mail address they will sign in with).

import { useLocation } from 'preact-iso/router';
import { api } from '../../common/api.js';
import { Card, text, useSubmit } from '../../common/forms.js';
import { SignInCard } from '../../common/sign-in-card.js';
import { ResetPasswordCard } from '../../common/reset.js';
import { Failure } from '../../common/ui.js';
import { href } from '../session.js';

export function SignIn() {
  return (
    <SignInCard
      title="Sign in"
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
      }}
    >
      <a href={href('/reset')}>Forgot your password?</a> No account yet? The first start of the server printed a one-time sign-in link; an
      owner can invite you from Settings, or run <code>npx tally users invite you@example.com</code>.
    </SignInCard>
  );
}

export function ResetPassword() {
  return (
    <ResetPasswordCard
      ask={async (email) => (await api.POST('/v1/auth/reset', { body: { email } })).meta.emailed}
      who="an account"
      withoutMail="This Tally cannot send e-mail. Whoever runs it can print a link for you with npx tally users reset <your e-mail>."
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
      <Card title="This link is incomplete">
        <p>Open the whole sign-in link you were given, or ask an owner for a new one.</p>
      </Card>
    );
  }
  return (
    <Card title="Welcome to Tally">
      <form onSubmit={onSubmit}>
        <p>
          Choose the password you will sign in with. Already have an account on this Tally? Give its password instead, and the invitation
          joins it. The link works once, for 24 hours.
        </p>
        <label>
          E-mail <span class="hint">(the first owner chooses it here; invited people leave it empty)</span>
          <input name="email" type="email" autocomplete="username" />
        </label>
        <label>
          Password <span class="hint">(at least 10 characters)</span>
          <input name="password" type="password" autocomplete="new-password" minLength={10} required />
        </label>
        {error !== undefined ? <Failure error={error} /> : null}
        <button type="submit" disabled={busy}>
          Set password and sign in
        </button>
      </form>
    </Card>
  );
}
