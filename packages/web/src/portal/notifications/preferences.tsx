// The partner's e-mail preferences (docs/notifications.md): which kinds of message the
// programs they joined send them, for all of them at once. Every kind is on until turned
// off here or by a message's unsubscribe link, which this then shows as off. Its words are
// its own catalogue (locales/), a part of the portal's: they follow the portal's language.

import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { Saving, useSubmit } from '../../common/forms.js';
import type { Catalogues } from '../../common/i18n.js';
import { useLoad } from '../../common/use-api.js';
import { Show } from '../../common/ui.js';
import { part } from '../language.js';
import en from './locales/en.js';

type Preferences = Answer<'/v1/portal/notifications'>['data']['attributes'];
type Kind = keyof Preferences;

const CATALOGUES: Catalogues<typeof en> = {
  en,
  de: () => import('./locales/de.js'),
  fr: () => import('./locales/fr.js'),
  es: () => import('./locales/es.js'),
};

/** In the order a partner meets them. */
const KINDS: readonly Kind[] = [
  'application_received',
  'application_approved',
  'application_declined',
  'first_referral',
  'commission_digest',
  'payout_sent',
  'clawback',
  'code_created',
];

/** In the portal's language: the words are fetched with the portal's own (language.ts). */
const t = part('notifications', CATALOGUES);

function Form({ saved }: { saved: Preferences }) {
  const [chosen, setChosen] = useState<Preferences>(saved);
  const [stored, setStored] = useState<Preferences>(saved);
  const [done, setDone] = useState(false);
  const changed = KINDS.some((k) => chosen[k] !== stored[k]);
  const { error, busy, onSubmit } = useSubmit(async () => {
    setDone(false);
    const answer = await api.PATCH('/v1/portal/notifications', { body: chosen });
    setStored(answer.data.attributes);
    setChosen(answer.data.attributes);
    setDone(true);
  });
  return (
    <form class="panel" onSubmit={onSubmit} aria-labelledby="notification-preferences">
      <h2 id="notification-preferences">{t('title')}</h2>
      <p class="hint">{t('intro')}</p>
      <fieldset class="choices">
        <legend>{t('legend')}</legend>
        {KINDS.map((kind) => (
          <label class="check" key={kind}>
            <input
              type="checkbox"
              name={kind}
              checked={chosen[kind]}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setChosen((c) => ({ ...c, [kind]: on }));
                setDone(false);
              }}
            />
            <span>
              <strong>{t(`kinds.${kind}.title`)}.</strong> {t(`kinds.${kind}.text`)}
            </span>
          </label>
        ))}
      </fieldset>
      {changed && !busy && <p class="hint">{t('unsaved')}</p>}
      <Saving error={error} done={done} busy={busy} label={t('save')} />
    </form>
  );
}

/** The signed-in partner's e-mail choices, as a panel of the portal's settings. */
export function NotificationPreferences() {
  const loaded = useLoad((signal) => api.GET('/v1/portal/notifications', { signal }), 'portal-notifications');
  // The portal re-renders its pages in a new language; the choices being made are kept.
  return <Show loaded={loaded}>{(answer) => <Form saved={answer.data.attributes} />}</Show>;
}
