// The owner's own e-mail preferences (docs/notifications.md): which kinds of message Tally
// sends them, for every program they own or administer. Every kind is on until turned off
// here or by a message's unsubscribe link, which this page then shows as off.

import { api, type Answer } from '../../common/api.js';
import { EmailChoices } from '../../common/email-choices.js';
import { useLoad } from '../../common/use-api.js';
import { Show } from '../../common/ui.js';
import { useSession } from '../session.js';
import { t } from './words.js';

type Kind = keyof Answer<'/v1/notifications/preferences'>['data']['attributes'];

/** Each kind in words: what happened, and how often it can come. */
const words = (kind: Kind) => ({ title: t(`kinds.${kind}.title`), text: t(`kinds.${kind}.text`) });

export function Notifications() {
  const { session } = useSession();
  const role = session.attributes.programs.find((p) => p.id === session.attributes.program_id)?.role;
  const loaded = useLoad((signal) => api.GET('/v1/notifications/preferences', { signal }), 'notification-preferences');
  return (
    <section>
      <h1 id="notifications-title">{t('title')}</h1>
      <p>{t('text', { email: session.attributes.email })}</p>
      {role === 'viewer' && (
        <p class="notice" role="note">
          {t('viewer')}
        </p>
      )}
      <Show loaded={loaded}>
        {(answer) => (
          <EmailChoices
            saved={answer.data.attributes}
            words={words}
            legend={t('legend')}
            unsaved={t('unsaved')}
            save={t('save')}
            labelledBy="notifications-title"
            readOnly={role === 'viewer'}
            store={async (chosen) => (await api.PATCH('/v1/notifications/preferences', { body: chosen })).data.attributes}
          />
        )}
      </Show>
    </section>
  );
}
