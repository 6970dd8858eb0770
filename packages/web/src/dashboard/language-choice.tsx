// The owner's language, chosen in the header on every page: saved on their account
// (PATCH /v1/auth/account), then the session reloads and the shell switches to it.
// "Your browser's" (null) gives the choice back to the browser.

import { api } from '../common/api.js';
import { LanguageOptions } from '../common/language-options.js';
import type { Locale } from '../common/languages.js';
import { t } from './language.js';
import type { Session } from './session.js';

export function LanguageChoice({ session, refresh, fail }: { session: Session; refresh: () => void; fail: (err: unknown) => void }) {
  const chosen = session.attributes.locale ?? '';
  return (
    <label class="language-choice">
      <span class="visually-hidden">{t('shell.language')}</span>
      <select
        value={chosen}
        onChange={async (e) => {
          const select = e.currentTarget;
          try {
            await api.PATCH('/v1/auth/account', { body: { locale: (select.value || null) as Locale | null } });
            refresh();
          } catch (err) {
            select.value = chosen;
            fail(err);
          }
        }}
      >
        <LanguageOptions browser={t('shell.browserLanguage')} />
      </select>
    </label>
  );
}
