// Sign-in's second step (docs/security.md), a chunk of its own: a code from the
// authenticator app or a recovery code, or the account's passkey; or, when a program requires a second factor of a
// member who has none, enrolling one (its QR code, then its first code, then the recovery
// codes, shown once).

import { useEffect, useState } from 'preact/hooks';
import { Card, text, useSubmit } from './forms.js';
import { withPasskey } from './passkey.js';
import { PasskeyButton } from './passkey-button.js';
import { passkeyWord } from './passkey-words.js';
import { type Enrolment, EnrolmentCode, RecoveryCodeList } from './two-factor.js';
import { Failure } from './ui.js';
import { say } from './words.js';

export interface Challenge {
  token: string;
  purpose: 'second_factor' | 'enrol';
  /** What the second step may use: 'webauthn' when the account has a passkey. */
  methods?: string[];
}

/** An app's passkey sign-in routes: the options (for a second step's token, or none), and the answer. */
export interface PasskeyCeremony {
  start(token?: string): Promise<{ meta: { token: string; options: Record<string, unknown> } }>;
  finish(token: string, response: Record<string, unknown>): Promise<unknown>;
}

/**
 * Enrolling at sign-in's words: only owners are made to enrol there, so the dashboard gives them
 * from its own catalogue, and they stay out of the shared one (and every app's entry).
 */
export interface EnrolWords {
  intro: string;
  recovery: string;
  qr: string;
  key: string;
}

export interface SecondStepProps {
  challenge: Challenge;
  complete: (token: string, code: string) => Promise<unknown>;
  enrol?: {
    start(token: string): Promise<Enrolment>;
    confirm(token: string, id: string, code: string): Promise<string[] | null>;
    words: EnrolWords;
  };
  passkey?: PasskeyCeremony;
  done: () => void;
}

function CodeField() {
  return (
    <label>
      {say('twoFactor.code')}
      {/* biome-ignore lint/a11y/noAutofocus: the card is this one field */}
      <input name="code" autocomplete="one-time-code" required autoFocus />
    </label>
  );
}

export function SecondStep({ challenge, complete, enrol, passkey, done }: SecondStepProps) {
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [codes, setCodes] = useState<string[]>();
  const [problem, setProblem] = useState<unknown>();
  useEffect(() => {
    if (challenge.purpose === 'enrol') enrol?.start(challenge.token).then(setEnrolment, setProblem);
  }, []);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    if (challenge.purpose === 'second_factor') {
      await complete(challenge.token, text(form, 'code'));
      done();
    } else if (enrol && enrolment) {
      setCodes((await enrol.confirm(challenge.token, enrolment.id, text(form, 'code'))) ?? []);
    }
  });
  if (codes) {
    return (
      <Card title={say('twoFactor.title')}>
        <p>{enrol?.words.recovery}</p>
        <RecoveryCodeList codes={codes} />
        <button type="button" onClick={done}>
          {say('twoFactor.go')}
        </button>
      </Card>
    );
  }
  return (
    <Card title={say('twoFactor.title')}>
      <form onSubmit={onSubmit}>
        {challenge.purpose === 'enrol' ? (
          <>
            <p>{enrol?.words.intro}</p>
            {enrolment && enrol ? <EnrolmentCode enrolment={enrolment} qr={enrol.words.qr} keyLabel={enrol.words.key} /> : null}
          </>
        ) : (
          <p>{say('twoFactor.hint')}</p>
        )}
        <CodeField />
        {(error ?? problem) !== undefined ? <Failure error={error ?? problem} /> : null}
        <button type="submit" disabled={busy}>
          {say('twoFactor.go')}
        </button>
      </form>
      {passkey && challenge.methods?.includes('webauthn') ? (
        <PasskeyButton
          label={passkeyWord('use')}
          primary
          run={async () => {
            await withPasskey(() => passkey.start(challenge.token), passkey.finish);
            done();
          }}
        />
      ) : null}
    </Card>
  );
}
