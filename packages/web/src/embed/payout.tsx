// The payout settings: the PayPal address the partner is paid at, and their language
// (automatic: the browser's, else the program's). Saved on this program's record only.

import { api } from '../common/api.js';
import { Saving, text, useSubmit } from '../common/forms.js';
import { LANGUAGE_NAMES, LOCALES, type Locale } from '../common/i18n.js';
import { useState } from 'preact/hooks';
import { t } from './language.js';
import { type Account, auth } from './session.js';

export function PayoutSettings({ account, onSaved }: { account: Account; onSaved: (a: Account) => Promise<void> }) {
  const a = account.attributes;
  const [done, setDone] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    setDone(false);
    const paypal = text(form, 'paypal_email').trim();
    const locale = text(form, 'locale');
    const saved = await api.PATCH('/v1/embed/account', {
      ...auth(),
      body: { paypal_email: paypal || null, locale: locale ? (locale as Locale) : null },
    });
    await onSaved(saved.data);
    setDone(true);
  });
  return (
    <section class="panel" aria-labelledby="settings-title">
      <h2 id="settings-title">{t('settings.title')}</h2>
      <form onSubmit={onSubmit} class="settings">
        <label>
          {t('settings.paypal')}
          <input name="paypal_email" type="email" autocomplete="email" value={a.paypal_email ?? ''} aria-describedby="paypal-hint" />
        </label>
        <p class="hint" id="paypal-hint">
          {t('settings.paypalHint')}
        </p>
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
