// Messages (docs/messages.md): the program's threads with partners, the latest first with
// what waits unread; one thread to read and answer; and broadcasts, a message to a group or
// every accepted partner, now or at a time, in each language the owner writes it in.

import { useRoute } from 'preact-iso/router';
import { api } from '../../common/api.js';
import { dateTime } from '../../common/format.js';
import { Saving, text, useSubmit } from '../../common/forms.js';
import { Thread } from '../../common/thread.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Show } from '../../common/ui.js';
import { href } from '../session.js';
import { t } from './words.js';

const LANGUAGES = ['en', 'de', 'fr', 'es'] as const;

export function Messages() {
  const threads = useLoad((signal) => api.GET('/v1/message_threads', { params: { query: { per_page: 50 } }, signal }), 'threads');
  return (
    <section>
      <h1>{t('title')}</h1>
      <Show loaded={threads}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty title={t('none')}>
              <p>{t('noneText')}</p>
            </Empty>
          ) : (
            <ul class="threads">
              {page.data.map((th) => (
                <li key={th.id}>
                  <a href={href(`/messages/${th.id}`)}>{th.attributes.partner_name}</a>{' '}
                  {th.attributes.unread > 0 && <span class="badge">{t('unread', { count: th.attributes.unread })}</span>}{' '}
                  <span class="hint">{th.attributes.last_message_at ? dateTime(th.attributes.last_message_at) : ''}</span>
                </li>
              ))}
            </ul>
          )
        }
      </Show>
      <Broadcasts />
    </section>
  );
}

function Broadcasts() {
  const groups = useLoad((signal) => api.GET('/v1/groups', { params: { query: { per_page: 50 } }, signal }), 'groups');
  const sent = useLoad((signal) => api.GET('/v1/broadcasts', { params: { query: { per_page: 10 } }, signal }), 'broadcasts');
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    const bodies = Object.fromEntries(LANGUAGES.map((l) => [l, text(form, `body-${l}`).trim()]).filter(([, b]) => b));
    const at = text(form, 'send_at');
    const group = text(form, 'group_id');
    await api.POST('/v1/broadcasts', {
      body: { bodies, group_id: group || null, ...(at ? { send_at: Math.floor(new Date(at).getTime() / 1000) } : {}) },
    });
    el.reset();
    sent.reload();
  });
  return (
    <section class="panel">
      <h2 id="broadcast-title">{t('broadcast')}</h2>
      <form aria-labelledby="broadcast-title" onSubmit={onSubmit}>
        <label>
          {t('to')}
          <select name="group_id">
            <option value="">{t('everyone')}</option>
            {groups.data?.data.map((g) => (
              <option value={g.id}>{g.attributes.name}</option>
            ))}
          </select>
        </label>
        {LANGUAGES.map((l) => (
          <label>
            {l === 'en' ? t(`messageIn.${l}`) : `${t(`messageIn.${l}`)} ${t('optional')}`}
            <textarea name={`body-${l}`} rows={3} maxLength={5000} required={l === 'en'} />
          </label>
        ))}
        <p class="hint">{t('languageHint')}</p>
        <label>
          {t('sendAt')}
          <input type="datetime-local" name="send_at" />
        </label>
        <Saving error={error} done={undefined} busy={busy} label={t('send')} />
      </form>
      <Show loaded={sent}>
        {(page) => (
          <ul class="broadcasts">
            {page.data.map((b) => (
              <li key={b.id}>
                {b.attributes.state === 'sent'
                  ? t('sent', { date: dateTime(b.attributes.sent_at ?? 0), count: b.attributes.recipients ?? 0 })
                  : t('scheduled', { date: dateTime(b.attributes.send_at) })}
                : {Object.values(b.attributes.bodies)[0]}
              </li>
            ))}
          </ul>
        )}
      </Show>
    </section>
  );
}

export function MessageThread() {
  const id = useRoute().params.id ?? '';
  const path = { params: { path: { id } } };
  const thread = useLoad((signal) => api.GET('/v1/message_threads/{id}', { ...path, signal }), id);
  return (
    <section>
      <p class="crumbs">
        <a href={href('/messages')}>{t('title')}</a> /
      </p>
      <Show loaded={thread}>
        {(th) => (
          <>
            <h1>{th.data.attributes.partner_name}</h1>
            <p>
              <a href={href(`/partners/${th.data.attributes.partner_id}`)}>{t('partnerPage')}</a>
            </p>
            <Thread
              id={id}
              side="team"
              words={{
                mine: t('team'),
                theirs: th.data.attributes.partner_name ?? t('partner'),
                empty: t('threadEmpty'),
                reply: t('reply'),
                send: t('sendReply'),
              }}
              load={(signal) =>
                api.GET('/v1/message_threads/{id}/messages', { ...path, params: { ...path.params, query: { per_page: 50 } }, signal })
              }
              send={(body) => api.POST('/v1/message_threads/{id}/messages', { ...path, body: { body } })}
              read={() => api.POST('/v1/message_threads/{id}/read', path)}
            />
          </>
        )}
      </Show>
    </section>
  );
}
