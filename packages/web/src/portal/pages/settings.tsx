// The partner's name, the PayPal address they are paid at, the language the portal (and
// their e-mails) speak, which e-mails they get, their password, and the way to two-step sign-in.

import { useState } from 'preact/hooks';
import { api } from '../../common/api.js';
import { Saving, text, useSubmit } from '../../common/forms.js';
import type { Locale } from '../../common/i18n.js';
import { LanguageOptions } from '../../common/language-options.js';
import { t } from '../language.js';
import { NotificationPreferences } from '../notifications.js';
import { SecurityPanel } from '../security/panel.js';
import { usePortal } from '../session.js';

/** The shared submit, and the sentence `run` resolves to, said once it is done. */
function useForm(run: (form: FormData) => Promise<string>) {
  const [done, setDone] = useState<string>();
  const submit = useSubmit(async (form) => {
    setDone(undefined);
    setDone(await run(form));
  });
  return { ...submit, done };
}

export function Settings() {
  const { account, refresh } = usePortal();
  const a = account.attributes;
  const profile = useForm(async (form) => {
    await api.PATCH('/v1/portal/account', {
      // The PayPal address is not here: it is a payout method, confirmed by e-mail (Earnings).
      body: { name: text(form, 'name').trim() },
    });
    refresh();
    return t('settings.profileSaved');
  });
  // An empty field clears it: the invoice then prints nothing there (the name: the partner's name).
  const billing = useForm(async (form) => {
    const value = (name: string) => text(form, name).trim() || null;
    await api.PATCH('/v1/portal/account', {
      body: { billing_name: value('billing_name'), billing_address: value('billing_address'), billing_vat_id: value('billing_vat_id') },
    });
    refresh();
    return t('settings.billingSaved');
  });
  // Saved, the session reloads with the choice and the shell switches to it (language.ts).
  const language = useForm(async (form) => {
    const locale = (text(form, 'locale') || null) as Locale | null;
    await api.PATCH('/v1/portal/account', { body: { locale } });
    refresh();
    return t('settings.languageSaved');
  });
  const password = useForm(async (form) => {
    await api.POST('/v1/portal/auth/password', {
      body: { current_password: text(form, 'current_password'), new_password: text(form, 'new_password') },
    });
    return t('settings.passwordChanged');
  });
  return (
    <section>
      <h1>{t('settings.title')}</h1>
      <form class="panel" onSubmit={profile.onSubmit}>
        <h2>{t('settings.you')}</h2>
        <label>
          {t('settings.name')}
          <input name="name" value={a.name} required maxLength={200} />
        </label>
        <p class="hint">{t('settings.signedInAs', { email: a.email })}</p>
        <Saving error={profile.error} done={profile.done} busy={profile.busy} label={t('settings.save')} />
      </form>
      <form class="panel" onSubmit={billing.onSubmit}>
        <h2>{t('settings.billing')}</h2>
        <p class="hint">{t('settings.billingHint')}</p>
        <label>
          {t('settings.billingName')}
          <input name="billing_name" defaultValue={a.billing_name ?? ''} maxLength={200} />
        </label>
        <label>
          {t('settings.billingAddress')}
          <textarea name="billing_address" rows={3} maxLength={1000} defaultValue={a.billing_address ?? ''} />
        </label>
        <label>
          {t('settings.billingVatId')}
          <input name="billing_vat_id" defaultValue={a.billing_vat_id ?? ''} maxLength={50} />
        </label>
        <Saving error={billing.error} done={billing.done} busy={billing.busy} label={t('settings.save')} />
      </form>
      <form class="panel" onSubmit={language.onSubmit}>
        <h2>{t('settings.language')}</h2>
        <label>
          {t('settings.language')} <span class="hint">{t('settings.languageHint')}</span>
          <select name="locale" value={a.locale ?? ''}>
            <LanguageOptions browser={t('settings.browserLanguage')} />
          </select>
        </label>
        {/* Said in the language just chosen, once the shell has switched to it. */}
        <Saving
          error={language.error}
          done={language.done && t('settings.languageSaved')}
          busy={language.busy}
          label={t('settings.save')}
        />
      </form>
      <NotificationPreferences />
      <form class="panel" onSubmit={password.onSubmit}>
        <h2>{t('settings.password')}</h2>
        <label>
          {t('settings.currentPassword')}
          <input name="current_password" type="password" autocomplete="current-password" required />
        </label>
        <label>
          {t('settings.newPassword')} <span class="hint">{t('settings.passwordHint')}</span>
          <input name="new_password" type="password" autocomplete="new-password" minLength={10} required />
        </label>
        <Saving error={password.error} done={password.done} busy={password.busy} label={t('settings.changePassword')} />
      </form>
      <SecurityPanel />
    </section>
  );
}
