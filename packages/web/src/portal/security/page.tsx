// Settings → Security (docs/security.md): the partner's two-step sign-in. Enrol an
// authenticator app (its QR code, then its first code), keep the recovery codes shown once
// (copied or downloaded), make new ones, or remove the app with the password and a code.

import { useEffect, useRef, useState } from 'preact/hooks';
import { type Answer, api } from '../../common/api.js';
import { Confirm, text, useSubmit } from '../../common/forms.js';
import { dateTime } from '../../common/format.js';
import { type Enrolment, EnrolmentCode, enrolmentOf, RecoveryCodeList } from '../../common/two-factor.js';
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

function ProofField() {
  return (
    <label>
      {t('proof')}
      <input name="code" autocomplete="one-time-code" required />
    </label>
  );
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
function Asking({ asked, id, close, saw }: { asked: 'renew' | 'remove'; id: string; close: () => void; saw: (codes?: string[]) => void }) {
  if (asked === 'renew') {
    return (
      <Confirm
        title={t('renew.title')}
        confirm={t('renew.make')}
        onClose={close}
        onConfirm={async (form) => {
          saw((await api.POST('/v1/portal/auth/recovery_codes', { body: { code: text(form, 'code') } })).meta.recovery_codes);
        }}
      >
        <p>{t('renew.text')}</p>
        <ProofField />
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
          body: { password: text(form, 'password'), code: text(form, 'code') },
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
      <ProofField />
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
        {(answer) =>
          answer.data.length === 0 ? (
            <Enrol done={(made) => after(made)} />
          ) : (
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
          )
        }
      </Show>
      {asked ? (
        <Asking
          asked={asked.what}
          id={asked.id}
          close={() => setAsked(undefined)}
          saw={(made) => (made ? after(made) : after(null, true))}
        />
      ) : null}
    </section>
  );
}
