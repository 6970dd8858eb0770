// The partner's language (automatic: the browser's, else the program's), saved on this
// program's record only. How they are paid is the payout panels' (payment.tsx).

import { api } from '../common/api.js';
import { Saving, text, useSubmit } from '../common/forms.js';
import { LANGUAGE_NAMES, LOCALES, type Locale } from '../common/i18n.js';
import { useState } from 'preact/hooks';
import { t } from './language.js';
import { type Account, auth } from './session.js';

export function Settings({ account, onSaved }: { account: Account; onSaved: (a: Account) => Promise<void> }) {
  const a = account.attributes;
  const [done, setDone] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    setDone(false);
    const locale = text(form, 'locale');
    const saved = await api.PATCH('/v1/embed/account', { ...auth(), body: { locale: locale ? (locale as Locale) : null } });
    await onSaved(saved.data);
    setDone(true);
  });
  return (
    <section class="panel" aria-labelledby="settings-title">
      <h2 id="settings-title">{t('settings.title')}</h2>
      <form onSubmit={onSubmit} class="settings">
        <label>
          {t('settings.language')}
          <select name="locale" value={a.locale ?? ''}>
            <option value="">{t('settings.automatic')}</option>
            {LOCALES.map((l) => (
              <option value={l} lang={l} key={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
        </label>
        <Saving error={error} done={done} busy={busy} label={t('settings.save')} />
      </form>
    </section>
  );
}
