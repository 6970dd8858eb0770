// The partner's thread with the program's team, as a card of the embed: the same thread as
// the portal's (common/thread.tsx), through the embed's bearer session.

import { api } from '../common/api.js';
import { Thread } from '../common/thread.js';
import { t } from './language.js';
import { auth } from './session.js';

export function MessagesCard({ id, program }: { id: string; program: string }) {
  return (
    <section class="panel" aria-labelledby="messages-title">
      <h2 id="messages-title">{t('messages.title', { program })}</h2>
      <Thread
        id={id}
        side="partner"
        words={{
          mine: t('messages.mine'),
          theirs: program,
          empty: t('messages.empty'),
          reply: t('messages.reply'),
          send: t('messages.send'),
        }}
        load={(signal) => api.GET('/v1/embed/message_thread/messages', { ...auth(), params: { query: { per_page: 50 } }, signal })}
        send={(body) => api.POST('/v1/embed/message_thread/messages', { ...auth(), body: { body } })}
        read={() => api.POST('/v1/embed/message_thread/read', auth())}
      />
    </section>
  );
}
