// What a billing platform's API needs from the program (a site and an API key, a shop and
// its token), for platforms that declare it (the API's `credential_fields`): one form over
// the fields, secrets typed in password fields and never shown again, only as their hints.
// Replaced whole; removed behind a confirmation.

import { useState } from 'preact/hooks';
import { api, type PathOf } from '../../common/api.js';
import { Confirm, Saving, text, useSubmit } from '../../common/forms.js';
import { t, tx } from './words.js';

type CredentialPath = Extract<PathOf<'post'>, `/v1/integrations/${string}/credential`>;

export interface CredentialProps {
  platform: string;
  title: string;
  fields: ReadonlyArray<{ name: string; label: string; secret: boolean }>;
  /** The credential set, secrets as hints; null: none. */
  hints: Record<string, string> | null;
  /** What the platform's API is asked, and what happens without it. */
  why: string;
  saved: () => void;
}

export function PlatformCredential({ platform, title, fields, hints, why, saved }: CredentialProps) {
  const path = `/v1/integrations/${platform}/credential` as CredentialPath;
  const [said, setSaid] = useState<'saved' | 'removed' | null>(null);
  const [asking, setAsking] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    setSaid(null);
    const body = Object.fromEntries(fields.map((f) => [f.name, text(form, f.name).trim()]));
    await api.POST(path, { body } as never);
    el.reset();
    setSaid('saved');
    saved();
  });
  return (
    <section class="api-key platform-credential" aria-labelledby={`${platform}-credential-title`}>
      <h4 id={`${platform}-credential-title`}>{t('credential.title', { title })}</h4>
      <p>{why}</p>
      <p>
        {hints
          ? tx('credential.set', {
              fields: fields.map((f, i) => (
                <>
                  {i > 0 && ', '}
                  {f.label} <code>{hints[f.name]}</code>
                </>
              )),
            })
          : t('credential.none')}
      </p>
      <form onSubmit={onSubmit}>
        {fields.map((f) =>
          f.secret ? (
            <label key={f.name}>
              {f.label}
              <input name={f.name} type="password" required maxLength={500} autocomplete="off" spellcheck={false} />
            </label>
          ) : (
            <label key={f.name}>
              {f.label}
              <input
                name={f.name}
                type="text"
                required
                maxLength={500}
                autocomplete="off"
                spellcheck={false}
                defaultValue={hints?.[f.name] ?? ''}
              />
            </label>
          ),
        )}
        <Saving error={error} done={said === 'saved'} busy={busy} />
        {said === 'removed' && (
          <p role="status" class="ok">
            {t('credential.removed', { title })}
          </p>
        )}
        <div class="buttons">
          <button type="submit" disabled={busy}>
            {hints ? t('replace') : t('save')}
          </button>
          {hints && (
            <button type="button" class="secondary" onClick={() => setAsking(true)}>
              {t('remove')}
            </button>
          )}
        </div>
      </form>
      {asking && (
        <Confirm
          title={t('credential.removeTitle', { title })}
          confirm={t('remove')}
          danger
          onClose={() => setAsking(false)}
          onConfirm={async () => {
            await api.DELETE(path as never);
            setSaid('removed');
            saved();
          }}
        >
          <p>{t('credential.removing', { title })}</p>
        </Confirm>
      )}
    </section>
  );
}
