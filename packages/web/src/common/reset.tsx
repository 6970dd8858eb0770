// Asking for a new password by e-mail: one page for owners and partners, as the server
// has one rule for both (the answer is the same for any address; without SMTP it says so).

import { useState } from 'preact/hooks';
import { Card, text, useSubmit } from './forms.js';
import { Failure } from './ui.js';
import { say } from './words.js';

export function ResetPasswordCard({
  ask,
  who,
  withoutMail,
  signInHref,
}: {
  ask: (email: string) => Promise<boolean>;
  who: string;
  withoutMail: string;
  signInHref: string;
}) {
  const [sent, setSent] = useState<boolean | null>(null);
  const { error, busy, onSubmit } = useSubmit(async (form) => setSent(await ask(text(form, 'email'))));
  return (
    <Card title={say('reset.title')}>
      {sent === null ? (
        <form onSubmit={onSubmit}>
          <label>
            {say('reset.yourEmail')}
            {/* biome-ignore lint/a11y/noAutofocus: the page (or dialog) is this one form: typing starts in its first field */}
            <input name="email" type="email" autocomplete="username" required autoFocus />
          </label>
          {error !== undefined ? <Failure error={error} /> : null}
          <button type="submit" disabled={busy}>
            {say('reset.send')}
          </button>
        </form>
      ) : (
        <p role="status">{sent ? say('reset.sent', { who }) : withoutMail}</p>
      )}
      <p class="hint">
        <a href={signInHref}>{say('reset.back')}</a>
      </p>
    </Card>
  );
}
