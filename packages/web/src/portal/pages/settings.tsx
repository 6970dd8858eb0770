// The partner's name, the PayPal address they are paid at, and their password.

import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../common/api.js';
import { Failure } from '../../common/ui.js';
import { usePortal } from '../session.js';

function useForm(run: (form: FormData) => Promise<string>) {
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const onSubmit = async (e: TargetedSubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formEl = e.currentTarget;
    setError(undefined);
    setDone(undefined);
    try {
      setDone(await run(new FormData(formEl)));
    } catch (err) {
      setError(err);
    }
  };
  return { error, done, onSubmit };
}

export function Settings() {
  const { account, refresh } = usePortal();
  const a = account.attributes;
  const profile = useForm(async (form) => {
    await api('patch', '/v1/portal/account', undefined, { name: String(form.get('name') ?? '').trim(), paypal_email: String(form.get('paypal_email') ?? '').trim() || null });
    refresh();
    return 'Saved. Payouts go to this PayPal address from now on.';
  });
  const password = useForm(async (form) => {
    await api('post', '/v1/portal/auth/password', undefined, { current_password: String(form.get('current_password') ?? ''), new_password: String(form.get('new_password') ?? '') });
    return 'Password changed. Your other sessions have ended.';
  });
  return (
    <section>
      <h1>Settings</h1>
      <form class="panel" onSubmit={profile.onSubmit}>
        <h2>You</h2>
        <label>
          Name
          <input name="name" value={a.name} required maxLength={200} />
        </label>
        <label>
          PayPal e-mail <span class="hint">(where your payouts go)</span>
          <input name="paypal_email" type="email" value={a.paypal_email ?? ''} />
        </label>
        <p class="hint">You sign in as {a.email}.</p>
        {profile.error !== undefined && <Failure error={profile.error} />}
        {profile.done && (
          <p role="status" class="ok">
            {profile.done}
          </p>
        )}
        <button type="submit">Save</button>
      </form>
      <form class="panel" onSubmit={password.onSubmit}>
        <h2>Password</h2>
        <label>
          Current password
          <input name="current_password" type="password" autocomplete="current-password" required />
        </label>
        <label>
          New password <span class="hint">(at least 10 characters)</span>
          <input name="new_password" type="password" autocomplete="new-password" minLength={10} required />
        </label>
        {password.error !== undefined && <Failure error={password.error} />}
        {password.done && (
          <p role="status" class="ok">
            {password.done}
          </p>
        )}
        <button type="submit">Change password</button>
      </form>
    </section>
  );
}
