// The sign-in card both apps show, and the second step that follows the password when the
// account has a second factor (a chunk of its own: most sign-ins never need it).

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { Card, text, useSubmit } from './forms.js';
import { lazyPart } from './lazy-page.js';
import type { Challenge, SecondStepProps } from './second-step.js';
import { afterSignIn } from './sign-in.js';
import { Failure } from './ui.js';
import { say } from './words.js';

/**
 * The second step, also after a one-time link's page (the portal's). Sign-in is outside the
 * app's Router: without a boundary of its own, its first showing threw (an uncaught promise)
 * and the page kept the step on screen after the session began.
 */
export const SecondStep = /* @__PURE__ */ lazyPart(() => import('./second-step.js').then((m) => m.SecondStep));
const PasskeySignIn = /* @__PURE__ */ lazyPart(() => import('./passkey-sign-in.js').then((m) => m.PasskeySignIn));

/**
 * Signing in, for owners and partners alike: `signIn` calls the app's route; afterwards
 * the person goes back where they were (`?next=` under `base`) or to `home`.
 */
export function SignInCard({
  title,
  base,
  home,
  signIn,
  children,
  ...second
}: {
  title: string;
  base: string;
  home: string;
  /** Resolves to the answer: with `meta.second_factor`, a second step follows (docs/security.md). */
  signIn: (email: string, password: string) => Promise<{ meta?: { second_factor?: Challenge } }>;
  children: ComponentChildren;
} & Omit<SecondStepProps, 'challenge' | 'done'>) {
  const { query, route } = useLocation();
  const next = afterSignIn(base, query.next, home);
  const [challenge, setChallenge] = useState<Challenge>();
  const passkey = second.passkey;
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    const step = (await signIn(text(form, 'email'), text(form, 'password'))).meta?.second_factor;
    if (step) setChallenge(step);
    else route(next);
  });
  if (challenge) return <SecondStep challenge={challenge} done={() => route(next)} {...second} />;
  return (
    <Card title={title}>
      <form onSubmit={onSubmit}>
        <label>
          {say('forms.email')}
          {/* biome-ignore lint/a11y/noAutofocus: the page (or dialog) is this one form: typing starts in its first field */}
          <input name="email" type="email" autocomplete="username" required autoFocus />
        </label>
        <label>
          {say('forms.password')}
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        {error !== undefined ? <Failure error={error} /> : null}
        <button type="submit" disabled={busy}>
          {say('forms.signIn')}
        </button>
      </form>
      {passkey && typeof PublicKeyCredential === 'function' ? <PasskeySignIn passkey={passkey} done={() => route(next)} /> : null}
      <p class="hint">{children}</p>
    </Card>
  );
}
