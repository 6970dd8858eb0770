// Signing in, and the one-time link's page where a new owner sets their password (and,
// for the first owner, the e-mail address they will sign in with).

import type { JSX, TargetedSubmitEvent } from 'preact';
import { useLocation } from 'preact-iso/router';
import { useState } from 'preact/hooks';
import { api, ApiError } from '../../common/api.js';
import { Failure } from '../../common/ui.js';
import { href } from '../session.js';

function lockedMessage(err: unknown): unknown {
  if (err instanceof ApiError && err.code === 'account_locked' && err.retryAfter) {
    const minutes = Math.ceil(err.retryAfter / 60);
    return new Error(`Too many wrong passwords in a row. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
  }
  return err;
}

/** A page of its own, outside the shell: a heading, a form, its error. */
function Card({ title, children }: { title: string; children: JSX.Element | JSX.Element[] }) {
  return (
    <main id="main" class="card-page">
      <div class="card">
        <p class="brand">Tally</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

function useSubmit(run: (form: FormData) => Promise<void>) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: TargetedSubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await run(new FormData(e.currentTarget));
    } catch (err) {
      setError(lockedMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, onSubmit };
}

const text = (form: FormData, name: string) => String(form.get(name) ?? '');

export function SignIn() {
  const { query, route } = useLocation();
  const next = query.next?.startsWith('/dashboard/') ? query.next : href('/');
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    await api('post', '/v1/auth/sign_in', undefined, { email: text(form, 'email'), password: text(form, 'password') });
    route(next);
  });
  return (
    <Card title="Sign in">
      <form onSubmit={onSubmit}>
        <label>
          E-mail
          <input name="email" type="email" autocomplete="username" required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        {error !== undefined ? <Failure error={error} /> : <></>}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p class="hint">
        No account yet? The first start of the server printed a one-time sign-in link; an owner can invite you from Settings, or run{' '}
        <code>npx tally users invite you@example.com</code>.
      </p>
    </Card>
  );
}

export function Welcome() {
  const { route } = useLocation();
  // The token is in the fragment, which browsers never send to a server or a Referer.
  const token = location.hash.slice(1);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    const email = text(form, 'email');
    await api('post', '/v1/auth/redeem', undefined, { token, password: text(form, 'password'), ...(email ? { email } : {}) });
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
        <p>Choose the password you will sign in with. The link works once, for 24 hours.</p>
        <label>
          E-mail <span class="hint">(the first owner chooses it here; invited people leave it empty)</span>
          <input name="email" type="email" autocomplete="username" />
        </label>
        <label>
          Password <span class="hint">(at least 10 characters)</span>
          <input name="password" type="password" autocomplete="new-password" minLength={10} required />
        </label>
        {error !== undefined ? <Failure error={error} /> : <></>}
        <button type="submit" disabled={busy}>
          Set password and sign in
        </button>
      </form>
    </Card>
  );
}
