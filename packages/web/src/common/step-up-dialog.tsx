// Step-up's dialog: a code from the authenticator app (or a recovery code) when the account
// has a second factor, else the password, sent to the app's reauthenticate route.

import { api } from './api.js';
import { Confirm, text } from './forms.js';
import { say } from './words.js';

export function StepUpDialog({ meta, done }: { meta: Record<string, unknown>; done: (proved: boolean) => void }) {
  const code = meta.proof === 'code';
  const prove = async (form: FormData) => {
    const body = code ? { code: text(form, 'code') } : { password: text(form, 'password') };
    if (meta.reauthenticate === '/v1/portal/auth/reauthenticate') await api.POST('/v1/portal/auth/reauthenticate', { body });
    else await api.POST('/v1/auth/reauthenticate', { body });
    done(true);
  };
  return (
    <Confirm title={say('twoFactor.stepUp')} confirm={say('twoFactor.go')} onConfirm={prove} onClose={() => done(false)}>
      {code ? <p>{say('twoFactor.hint')}</p> : null}
      {code ? (
        <label>
          {say('twoFactor.code')}
          {/* biome-ignore lint/a11y/noAutofocus: the dialog is this one field */}
          <input name="code" autocomplete="one-time-code" required autoFocus />
        </label>
      ) : (
        <label>
          {say('forms.password')}
          {/* biome-ignore lint/a11y/noAutofocus: the dialog is this one field */}
          <input name="password" type="password" autocomplete="current-password" required autoFocus />
        </label>
      )}
    </Confirm>
  );
}
