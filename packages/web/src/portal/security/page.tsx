// Settings → Security (docs/security.md): the partner's two-step sign-in. Enrol an
// authenticator app (its QR code, then its first code) or add passkeys, keep the recovery
// codes shown once (copied or downloaded), make new ones, or remove a factor with the
// password and a code (or a passkey).

import { useEffect, useRef, useState } from 'preact/hooks';
import { type Answer, api } from '../../common/api.js';
import { Confirm, text, useSubmit } from '../../common/forms.js';
import { dateTime } from '../../common/format.js';
import { type Enrolment, EnrolmentCode, enrolmentOf, RecoveryCodeList } from '../../common/two-factor.js';
import { addPasskey, sessionProof } from '../../common/passkey.js';
import { PasskeyButton } from '../../common/passkey-button.js';
import { passkeyWord } from '../../common/passkey-words.js';
import { useLoad } from '../../common/use-api.js';
import { Failure, Show } from '../../common/ui.js';
import { href, usePortal } from '../session.js';
import { t } from './words.js';

type Factors = Answer<'/v1/portal/auth/factors'>;
type Factor = Factors['data'][number];

/** Moves the focus to what just appeared (its heading), so that a keyboard or a screen reader follows it. */
function useFocusHere<E extends HTMLElement>() {
  const ref = useRef<E>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

/** A code, or (left empty, when the partner has a passkey) the passkey proves it. */
function ProofField({ passkeys }: { passkeys: boolean }) {
  return (
    <label>
      {t('proof')}
      {passkeys ? <span class="hint"> {t('proofPasskey')}</span> : null}
      <input name="code" autocomplete="one-time-code" required={!passkeys} />
    </label>
  );
}

/** The proof a dialog sends: the code typed, else the partner's passkey. */
async function proofOf(form: FormData): Promise<{ code: string } | { passkey: { token: string; response: never } }> {
  const code = text(form, 'code');
  if (code) return { code };
  return { passkey: await sessionProof('partner') };
}

/** Said once the app is removed, where the focus goes: the button that removed it is gone. */
function Removed() {
  const said = useFocusHere<HTMLParagraphElement>();
  return (
    <p role="status" class="ok" tabIndex={-1} ref={said}>
      {t('remove.done')}
    </p>
  );
}

/** The recovery codes, shown once: after the first app's confirmation, or new ones. */
function Codes({ codes }: { codes: string[] }) {
  const heading = useFocusHere<HTMLHeadingElement>();
  return (
    <section class="notice" aria-labelledby="recovery-title">
      <h2 id="recovery-title" tabIndex={-1} ref={heading}>
        {t('codes.title')}
      </h2>
      <p>{t('codes.text')}</p>
      <RecoveryCodeList codes={codes} save={{ copy: t('codes.copy'), download: t('codes.download') }} />
    </section>
  );
}

/** Scanning the QR code and confirming the app's first code; `done` gets the recovery codes (null when the account had some). */
function Confirming({ enrolment, done, cancel }: { enrolment: Enrolment; done: (codes: string[] | null) => void; cancel: () => void }) {
  // Not autofocus, which a browser honours once per document: after a dialog, it would not move.
  const field = useFocusHere<HTMLInputElement>();
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    const answer = await api.POST('/v1/portal/auth/factors/{id}/confirm', {
      params: { path: { id: enrolment.id } },
      body: { code: text(form, 'code') },
    });
    done(answer.meta.recovery_codes);
  });
  return (
    <form class="panel" onSubmit={onSubmit}>
      <p>{t('enrol.scan')}</p>
      <EnrolmentCode enrolment={enrolment} qr={t('enrol.qr')} keyLabel={t('enrol.key')} />
      <label>
        {t('enrol.code')}
        <input name="code" autocomplete="one-time-code" inputMode="numeric" required ref={field} />
      </label>
      {error !== undefined ? <Failure error={error} /> : null}
      <div class="buttons">
        <button type="submit" disabled={busy}>
          {t('enrol.confirm')}
        </button>
        <button type="button" class="secondary" onClick={cancel}>
          {t('enrol.cancel')}
        </button>
      </div>
    </form>
  );
}

function Enrol({ done }: { done: (codes: string[] | null) => void }) {
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const start = useSubmit(async () => {
    setEnrolment(enrolmentOf((await api.POST('/v1/portal/auth/factors/totp')).data));
  });
  if (enrolment) return <Confirming enrolment={enrolment} done={done} cancel={() => setEnrolment(undefined)} />;
  return (
    <form onSubmit={start.onSubmit}>
      {start.error !== undefined ? <Failure error={start.error} /> : null}
      <button type="submit" disabled={start.busy}>
        {t('enrol.add')}
      </button>
    </form>
  );
}

/** A factor's name in the portal's language; a kind it does not know yet by the API's own label. */
const kindName = (f: Factor): string => t(`factor.kinds.${f.attributes.kind}` as 'factor.kinds.totp', { defaultValue: f.attributes.label });

function FactorRow({ factor, left, renew, remove }: { factor: Factor; left: number; renew: () => void; remove: () => void }) {
  const a = factor.attributes;
  return (
    <li class="panel">
      <h2>{kindName(factor)}</h2>
      <p class="hint">
        {t('factor.added', { date: dateTime(a.created_at) })}
        {a.last_used_at ? `, ${t('factor.lastUsed', { date: dateTime(a.last_used_at) })}` : ''}; {t('factor.left', { count: left })}
      </p>
      <div class="buttons">
        <button type="button" class="secondary" onClick={renew}>
          {t('factor.renew')}
        </button>
        <button type="button" class="secondary" onClick={remove}>
          {t('factor.remove')}
        </button>
      </div>
    </li>
  );
}

/** What the dialogs do: new codes for a code, or the app removed for the password and a code. */
function Asking({
  asked,
  id,
  passkeys,
  close,
  saw,
}: {
  asked: 'renew' | 'remove';
  id: string;
  passkeys: boolean;
  close: () => void;
  saw: (codes?: string[]) => void;
}) {
  if (asked === 'renew') {
    return (
      <Confirm
        title={t('renew.title')}
        confirm={t('renew.make')}
        onClose={close}
        onConfirm={async (form) => {
          saw((await api.POST('/v1/portal/auth/recovery_codes', { body: await proofOf(form) })).meta.recovery_codes);
        }}
      >
        <p>{t('renew.text')}</p>
        <ProofField passkeys={passkeys} />
      </Confirm>
    );
  }
  return (
    <Confirm
      title={t('remove.title')}
      confirm={t('factor.remove')}
      danger
      onClose={close}
      onConfirm={async (form) => {
        await api.POST('/v1/portal/auth/factors/{id}/disable', {
          params: { path: { id } },
          body: { password: text(form, 'password'), ...(await proofOf(form)) },
        });
        saw();
      }}
    >
      <p>{t('remove.text')}</p>
      <label>
        {t('remove.password')}
        {/* biome-ignore lint/a11y/noAutofocus: the dialog asks for these two fields alone, the password first */}
        <input name="password" type="password" autocomplete="current-password" required autoFocus />
      </label>
      <ProofField passkeys={passkeys} />
    </Confirm>
  );
}

export function Security() {
  const { current } = usePortal();
  const factors = useLoad((signal) => api.GET('/v1/portal/auth/factors', { signal }), 'portal-factors');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [removed, setRemoved] = useState(false);
  const [asked, setAsked] = useState<{ what: 'renew' | 'remove'; id: string }>();
  // What a step changed is read again; new codes are shown, a removal said.
  const after = (made: string[] | null, gone = false) => {
    setCodes(made);
    setRemoved(gone);
    factors.reload();
  };
  return (
    <section>
      <p>
        <a href={href('/settings', current?.id)}>{t('page.back')}</a>
      </p>
      <h1>{t('page.title')}</h1>
      <p>{t('page.intro')}</p>
      {removed ? <Removed /> : null}
      {codes ? <Codes key={codes[0]} codes={codes} /> : null}
      <Show loaded={factors}>
        {(answer) => (
          <>
            {answer.data.length > 0 ? (
              <ul class="factors">
                {answer.data.map((f) => (
                  <FactorRow
                    factor={f}
                    left={answer.meta.recovery_codes_left}
                    renew={() => setAsked({ what: 'renew', id: f.id })}
                    remove={() => setAsked({ what: 'remove', id: f.id })}
                  />
                ))}
              </ul>
            ) : null}
            {answer.data.some((f) => f.attributes.kind === 'totp') ? null : <Enrol done={(made) => after(made)} />}
            <PasskeyButton label={passkeyWord('add')} run={async () => after(await addPasskey('partner'))} />
            {asked ? (
              <Asking
                asked={asked.what}
                id={asked.id}
                passkeys={answer.data.some((f) => f.attributes.kind === 'webauthn')}
                close={() => setAsked(undefined)}
                saw={(made) => (made ? after(made) : after(null, true))}
              />
            ) : null}
          </>
        )}
      </Show>
    </section>
  );
}
