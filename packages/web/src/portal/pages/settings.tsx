// The partner's name, the PayPal address they are paid at, and their password.

import { useState } from 'preact/hooks';
import { api } from '../../common/api.js';
import { text, useSubmit } from '../../common/forms.js';
import { Failure } from '../../common/ui.js';
import { usePortal } from '../session.js';

/** The shared submit, and the sentence `run` resolves to, said once it is done. */
function useForm(run: (form: FormData) => Promise<string>) {
  const [done, setDone] = useState<string>();
  const submit = useSubmit(async (form) => {
    setDone(undefined);
    setDone(await run(form));
  });
  return { ...submit, done };
}

export function Settings() {
  const { account, refresh } = usePortal();
  const a = account.attributes;
  const profile = useForm(async (form) => {
    await api.PATCH('/v1/portal/account', {
      body: { name: text(form, 'name').trim(), paypal_email: text(form, 'paypal_email').trim() || null },
    });
    refresh();
    return 'Saved. Payouts go to this PayPal address from now on.';
  });
  const password = useForm(async (form) => {
    await api.POST('/v1/portal/auth/password', {
      body: { current_password: text(form, 'current_password'), new_password: text(form, 'new_password') },
    });
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
        <button type="submit" disabled={profile.busy}>
          Save
        </button>
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
        <button type="submit" disabled={password.busy}>
          Change password
        </button>
      </form>
    </section>
  );
}
