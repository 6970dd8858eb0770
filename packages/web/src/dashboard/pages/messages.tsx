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

const LANGUAGES = [
  ['en', 'English'],
  ['de', 'German'],
  ['fr', 'French'],
  ['es', 'Spanish'],
] as const;

export function Messages() {
  const threads = useLoad((signal) => api.GET('/v1/message_threads', { params: { query: { per_page: 50 } }, signal }), 'threads');
  return (
    <section>
      <h1>Messages</h1>
      <Show loaded={threads}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty title="No messages yet">
              <p>Write to a partner from their page, or send a broadcast below.</p>
            </Empty>
          ) : (
            <ul class="threads">
              {page.data.map((t) => (
                <li key={t.id}>
                  <a href={href(`/messages/${t.id}`)}>{t.attributes.partner_name}</a>{' '}
                  {t.attributes.unread > 0 && <span class="badge">{t.attributes.unread} unread</span>}{' '}
                  <span class="hint">{t.attributes.last_message_at ? dateTime(t.attributes.last_message_at) : ''}</span>
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
    const bodies = Object.fromEntries(LANGUAGES.map(([l]) => [l, text(form, `body-${l}`).trim()]).filter(([, b]) => b));
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
      <h2 id="broadcast-title">Broadcast</h2>
      <form aria-labelledby="broadcast-title" onSubmit={onSubmit}>
        <label>
          To
          <select name="group_id">
            <option value="">All accepted partners</option>
            {groups.data?.data.map((g) => (
              <option value={g.id}>{g.attributes.name}</option>
            ))}
          </select>
        </label>
        {LANGUAGES.map(([l, name]) => (
          <label>
            Message in {name}
            {l === 'en' ? '' : ' (optional)'}
            <textarea name={`body-${l}`} rows={3} maxLength={5000} required={l === 'en'} />
          </label>
        ))}
        <p class="hint">Each partner gets their language, else the program's, else the first written.</p>
        <label>
          Send at (empty: now)
          <input type="datetime-local" name="send_at" />
        </label>
        <Saving error={error} done={undefined} busy={busy} label="Send broadcast" />
      </form>
      <Show loaded={sent}>
        {(page) => (
          <ul class="broadcasts">
            {page.data.map((b) => (
              <li key={b.id}>
                {b.attributes.state === 'sent'
                  ? `Sent ${dateTime(b.attributes.sent_at ?? 0)} to ${b.attributes.recipients ?? 0}`
                  : `Scheduled for ${dateTime(b.attributes.send_at)}`}
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
        <a href={href('/messages')}>Messages</a> /
      </p>
      <Show loaded={thread}>
        {(t) => (
          <>
            <h1>{t.data.attributes.partner_name}</h1>
            <p>
              <a href={href(`/partners/${t.data.attributes.partner_id}`)}>Partner page</a>
            </p>
            <Thread
              id={id}
              side="team"
              words={{
                mine: 'Team',
                theirs: t.data.attributes.partner_name ?? 'Partner',
                empty: 'No messages yet.',
                reply: 'Message',
                send: 'Send',
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
