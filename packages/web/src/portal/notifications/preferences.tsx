// The partner's e-mail preferences (docs/notifications.md): which kinds of message the
// programs they joined send them, for all of them at once. Every kind is on until turned
// off here or by a message's unsubscribe link, which this then shows as off. Its words are
// its own catalogue (locales/), a part of the portal's: they follow the portal's language.

import { api } from '../../common/api.js';
import { EmailChoices } from '../../common/email-choices.js';
import type { Catalogues } from '../../common/i18n.js';
import { useLoad } from '../../common/use-api.js';
import { Show } from '../../common/ui.js';
import { part } from '../language.js';
import en from './locales/en.js';

const CATALOGUES: Catalogues<typeof en> = {
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
};

/** In the portal's language: the words are fetched with the portal's own (language.ts). */
const t = part('notifications', CATALOGUES);

/** The signed-in partner's e-mail choices, as a panel of the portal's settings. */
export function NotificationPreferences() {
  const loaded = useLoad((signal) => api.GET('/v1/portal/notifications', { signal }), 'portal-notifications');
  // The portal re-renders its pages in a new language; the choices being made are kept.
  return (
    <Show loaded={loaded}>
      {(answer) => (
        <EmailChoices
          class="panel"
          saved={answer.data.attributes}
          words={(kind) => ({ title: t(`kinds.${kind}.title`), text: t(`kinds.${kind}.text`) })}
          legend={t('legend')}
          unsaved={t('unsaved')}
          save={t('save')}
          labelledBy="notification-preferences"
          store={async (chosen) => (await api.PATCH('/v1/portal/notifications', { body: chosen })).data.attributes}
        >
          <h2 id="notification-preferences">{t('title')}</h2>
          <p class="hint">{t('intro')}</p>
        </EmailChoices>
      )}
    </Show>
  );
}
