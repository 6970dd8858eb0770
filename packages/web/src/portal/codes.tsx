import { api } from '../common/api.js';
import { CodeList, useEveryCode } from '../common/code-list.js';
import { CODE_PATTERN } from '../common/codes.js';
import { text, useSubmit } from '../common/forms.js';
import { Failure, Show } from '../common/ui.js';
import { t, tx } from './language.js';
import type { Partnership } from './session.js';

export function CodesCard({ p }: { p: Partnership }) {
  const id = p.id;
  const program = p.attributes.program_name;
  const loaded = useEveryCode(
    (after, signal) =>
      api.GET('/v1/portal/partnerships/{id}/codes', { params: { path: { id }, query: { per_page: 50, starting_after: after } }, signal }),
    `codes/${id}`,
  );
  const rules = p.attributes.own_codes;
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    await api.POST('/v1/portal/partnerships/{id}/codes', { params: { path: { id } }, body: { code: text(form, 'code').trim() } });
    el.reset();
    loaded.reload();
  });
  return (
    <section class="panel codes-card" aria-labelledby="codes-title">
      <h2 id="codes-title">{t('codes.title')}</h2>
      <Show loaded={loaded}>
        {(codes) => {
          const on = codes.filter((c) => c.attributes.enabled);
          const off = codes.filter((c) => !c.attributes.enabled);
          return (
            <>
              {on.length ? (
                <CodeList
                  codes={on}
                  copy={(code) => t('codes.copy', { code })}
                  share={(code) => tx('codes.share', { code: <strong>{code}</strong> })}
                />
              ) : (
                <p>{t('codes.none')}</p>
              )}
              {off.length > 0 && <p class="hint">{t('codes.off', { program, codes: off.map((c) => c.attributes.code).join(', ') })}</p>}
            </>
          );
        }}
      </Show>
      {rules && (
        <form class="make-code" onSubmit={onSubmit} aria-labelledby="own-code-title">
          <h3 id="own-code-title">{t('codes.make')}</h3>
          <div class="fields">
            <label>
              {t('codes.code')}{' '}
              <span class="hint">
                {rules.prefix
                  ? t('codes.rulesPrefix', { max: rules.max_length, prefix: rules.prefix })
                  : t('codes.rules', { max: rules.max_length })}
              </span>
              <input
                name="code"
                required
                minLength={3}
                maxLength={rules.max_length}
                pattern={CODE_PATTERN}
                spellcheck={false}
                autocomplete="off"
              />
            </label>
          </div>
          {error !== undefined && <Failure error={error} />}
          <button type="submit" disabled={busy}>
            {t('codes.submit')}
          </button>
        </form>
      )}
    </section>
  );
}
