// What a billing platform's API needs from the program (a site and an API key, a shop and
// its token), for platforms that declare it (the API's `credential_fields`): one form over
// the fields, secrets typed in password fields and never shown again, only as their hints.
// Replaced whole; removed behind a confirmation.

import { useState } from 'preact/hooks';
import { api, type PathOf } from '../../common/api.js';
import { Confirm, Saving, text, useSubmit } from '../../common/forms.js';

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
      <h4 id={`${platform}-credential-title`}>{title} API access</h4>
      <p>{why}</p>
      <p>
        {hints ? (
          <>
            Set:{' '}
            {fields.map((f, i) => (
              <>
                {i > 0 && ', '}
                {f.label} <code>{hints[f.name]}</code>
              </>
            ))}
          </>
        ) : (
          'Not set.'
        )}
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
            Removed. Tally no longer calls {title}'s API.
          </p>
        )}
        <div class="buttons">
          <button type="submit" disabled={busy}>
            {hints ? 'Replace' : 'Save'}
          </button>
          {hints && (
            <button type="button" class="secondary" onClick={() => setAsking(true)}>
              Remove
            </button>
          )}
        </div>
      </form>
      {asking && (
        <Confirm
          title={`Remove the ${title} API access?`}
          confirm="Remove"
          danger
          onClose={() => setAsking(false)}
          onConfirm={async () => {
            await api.DELETE(path as never);
            setSaid('removed');
            saved();
          }}
        >
          <p>Tally stops calling {title}'s API for this program.</p>
        </Confirm>
      )}
    </section>
  );
}
