// Signing in with a passkey and no password (a chunk of its own, for the sign-in card): the
// browser offers the passkeys it holds for this site, and the device verifies its user.

import type { PasskeyCeremony } from './second-step.js';
import { PasskeyButton } from './passkey-button.js';
import { passkeyWord } from './passkey-words.js';
import { withPasskey } from './passkey.js';

export function PasskeySignIn({ passkey, done }: { passkey: PasskeyCeremony; done: () => void }) {
  return (
    <PasskeyButton
      label={passkeyWord('signIn')}
      run={async () => {
        await withPasskey(() => passkey.start(), passkey.finish);
        done();
      }}
    />
  );
}
