// Step-up's dialog: a code from the authenticator app (or a recovery code), or a passkey,
// when the account has a second factor, else the password, sent to the app's reauthenticate route.

import { api } from './api.js';
import { Confirm, text } from './forms.js';
import { sessionProof } from './passkey.js';
import { PasskeyButton } from './passkey-button.js';
import { passkeyWord } from './passkey-words.js';
import { say } from './words.js';

type Proof = { code: string } | { password: string } | { passkey: { token: string; response: never } };

export function StepUpDialog({ meta, done }: { meta: Record<string, unknown>; done: (proved: boolean) => void }) {
  const code = meta.proof === 'code';
  const portal = meta.reauthenticate === '/v1/portal/auth/reauthenticate';
  const send = async (body: Proof) => {
    if (portal) await api.POST('/v1/portal/auth/reauthenticate', { body });
    else await api.POST('/v1/auth/reauthenticate', { body });
    done(true);
  };
  const prove = (form: FormData) => send(code ? { code: text(form, 'code') } : { password: text(form, 'password') });
  const withKey = async () => send({ passkey: await sessionProof(portal ? 'partner' : 'owner') });
  return (
    <Confirm title={say('twoFactor.stepUp')} confirm={say('twoFactor.go')} onConfirm={prove} onClose={() => done(false)}>
      {code ? <p>{say('twoFactor.hint')}</p> : null}
      {meta.passkey === true ? <PasskeyButton label={passkeyWord('use')} run={withKey} /> : null}
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
