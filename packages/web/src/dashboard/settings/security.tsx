// Settings → Security (docs/security.md): the signed-in person's second factors, an
// authenticator app (enrol it with its QR code and first code) and passkeys, the recovery
// codes shown once with the first, removing one with the password and a code or a passkey,
// and whether the program's team must use one.

import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { Confirm, Saving, text, useSubmit } from '../../common/forms.js';
import { int } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Failure, Show } from '../../common/ui.js';
import { type Enrolment, EnrolmentCode, enrolmentOf, RecoveryCodeList } from '../../common/two-factor.js';
import { addPasskey, sessionProof } from '../../common/passkey.js';
import { PasskeyButton } from '../../common/passkey-button.js';
import { passkeyWord } from '../../common/passkey-words.js';
import { t } from './words.js';

type Factor = Answer<'/v1/auth/factors'>['data'][number];

// The labels the API gives a factor nobody named (identity's second-factor.ts, passkeys.ts): said
// as the kind in words; a name given through the API is shown as given.
const UNNAMED = { totp: 'Authenticator app', webauthn: 'Passkey' } as const;
const labelOf = (f: Factor): string =>
  f.attributes.label === UNNAMED[f.attributes.kind] ? t(`security.kinds.${f.attributes.kind}`) : f.attributes.label;

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div class="notice">
      <p>{t('security.codes')}</p>
      <RecoveryCodeList codes={codes} />
    </div>
  );
}

function Enrol({ done }: { done: (codes: string[] | null) => void }) {
  const [pending, setPending] = useState<Enrolment>();
  const start = useSubmit(async () => {
    const { data } = await api.POST('/v1/auth/factors/totp');
    setPending(enrolmentOf(data));
  });
  const confirm = useSubmit(async (form) => {
    if (!pending) return;
    const answer = await api.POST('/v1/auth/factors/{id}/confirm', {
      params: { path: { id: pending.id } },
      body: { code: text(form, 'code') },
    });
    done(answer.meta.recovery_codes);
  });
  if (!pending) {
    return (
      <form onSubmit={start.onSubmit}>
        {start.error !== undefined ? <Failure error={start.error} /> : null}
        <button type="submit" disabled={start.busy}>
          {t('security.enrol.add')}
        </button>
      </form>
    );
  }
  return (
    <form onSubmit={confirm.onSubmit}>
      <p>{t('security.enrol.scan')}</p>
      <EnrolmentCode enrolment={pending} qr={t('security.enrol.qr')} keyLabel={t('security.enrol.key')} />
      <label>
        {t('security.enrol.code')}
        <input name="code" autocomplete="one-time-code" inputMode="numeric" required />
      </label>
      {confirm.error !== undefined ? <Failure error={confirm.error} /> : null}
      <button type="submit" disabled={confirm.busy}>
        {t('security.enrol.confirm')}
      </button>
    </form>
  );
}

function TeamRule() {
  const loaded = useLoad((signal) => api.GET('/v1/team/settings', { signal }), 'team-settings');
  const [saved, setSaved] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    setSaved(false);
    await api.PATCH('/v1/team/settings', { body: { require_two_factor: form.get('require_two_factor') === 'on' } });
    setSaved(true);
    loaded.reload();
  });
  return (
    <Show loaded={loaded}>
      {(answer) => (
        <form onSubmit={onSubmit}>
          <label class="check">
            <input name="require_two_factor" type="checkbox" defaultChecked={answer.data.require_two_factor} /> {t('security.team.require')}
          </label>
          <Saving error={error} done={saved} busy={busy} label={t('security.team.save')} />
        </form>
      )}
    </Show>
  );
}

export function SecuritySettings() {
  const factors = useLoad((signal) => api.GET('/v1/auth/factors', { signal }), 'factors');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState<{ id: string; passkeys: boolean }>();
  const added = (made: string[] | null) => {
    if (made) setCodes(made);
    factors.reload();
  };
  return (
    <section class="panel">
      <h2>{t('sections.security')}</h2>
      <p>{t('security.intro')}</p>
      {codes ? <RecoveryCodes codes={codes} /> : null}
      <Show loaded={factors}>
        {(answer) => {
          const passkeys = answer.data.some((f) => f.attributes.kind === 'webauthn');
          const left = answer.meta.recovery_codes_left;
          return (
            <>
              {answer.data.length > 0 ? (
                <ul class="factors">
                  {answer.data.map((f) => (
                    <li>
                      {labelOf(f)} <span class="hint">{t('security.codesLeft', { count: left, n: int(left) })}</span>{' '}
                      <button type="button" class="secondary" onClick={() => setRemoving({ id: f.id, passkeys })}>
                        {t('remove')} <span class="visually-hidden">{labelOf(f)}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
              {answer.data.some((f) => f.attributes.kind === 'totp') ? null : <Enrol done={added} />}
              <PasskeyButton label={passkeyWord('add')} run={async () => added(await addPasskey('owner'))} />
            </>
          );
        }}
      </Show>
      {removing ? (
        <Confirm
          title={t('security.remove.title')}
          confirm={t('remove')}
          danger
          onClose={() => setRemoving(undefined)}
          onConfirm={async (form) => {
            const code = text(form, 'code');
            const second = code ? { code } : { passkey: await sessionProof('owner') };
            await api.POST('/v1/auth/factors/{id}/disable', {
              params: { path: { id: removing.id } },
              body: { password: text(form, 'password'), ...second },
            });
            factors.reload();
          }}
        >
          <label>
            {t('security.remove.password')}
            <input name="password" type="password" autocomplete="current-password" required />
          </label>
          <label>
            {t('security.remove.proof')}
            {removing.passkeys ? <span class="hint"> {t('security.remove.orPasskey')}</span> : null}
            <input name="code" autocomplete="one-time-code" required={!removing.passkeys} />
          </label>
        </Confirm>
      ) : null}
      <h3>{t('security.team.title')}</h3>
      <TeamRule />
    </section>
  );
}
