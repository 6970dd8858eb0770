// The partner's messages with the program's team (docs/messages.md): the current
// partnership's thread, read when opened, with a reply box. A chunk of its own, with its words.

import { api } from '../../common/api.js';
import { Thread } from '../../common/thread.js';
import { usePortal } from '../session.js';
import { t } from './words.js';

export function Messages() {
  const { current } = usePortal();
  if (!current) return null;
  const path = { params: { path: { id: current.id } } };
  const program = current.attributes.program_name;
  return (
    <section>
      <h1>{t('title')}</h1>
      <p>{t('intro', { program })}</p>
      <Thread
        id={current.id}
        side="partner"
        words={{ mine: t('mine'), theirs: program, empty: t('empty'), reply: t('reply'), send: t('send') }}
        load={(signal) =>
          api.GET('/v1/portal/partnerships/{id}/message_thread/messages', {
            params: { ...path.params, query: { per_page: 50 } },
            signal,
          })
        }
        send={(body) => api.POST('/v1/portal/partnerships/{id}/message_thread/messages', { ...path, body: { body } })}
        read={() => api.POST('/v1/portal/partnerships/{id}/message_thread/read', path)}
      />
    </section>
  );
}
