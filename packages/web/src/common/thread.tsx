// A message thread as either side reads it (the dashboard's, the portal's): its messages
// oldest first, each body as plain text with its http(s) addresses made links and nothing
// else, and a reply box. Opening it marks it read. The words come from the app, which
// speaks English (the dashboard) or the partner's language (the portal).

import { useEffect } from 'preact/hooks';
import { dateTime } from './format.js';
import { Saving, text, useSubmit } from './forms.js';
import { useLoad } from './use-api.js';
import { Show } from './ui.js';

export interface Message {
  id: string;
  attributes: { author: 'team' | 'partner'; body: string; created_at: number; broadcast_id: string | null };
}

export interface ThreadWords {
  /** The reader's side and the other's, as each message is labelled. */
  mine: string;
  theirs: string;
  empty: string;
  reply: string;
  send: string;
}

const LINK = /(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'])/;

/** Text with its web addresses as links; Preact escapes the rest. */
export function Linked({ body }: { body: string }) {
  return (
    <>
      {body.split(LINK).map((part, i) =>
        i % 2 ? (
          <a href={part} rel="noopener noreferrer nofollow" target="_blank">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}

export function Thread(props: {
  id: string;
  side: 'team' | 'partner';
  words: ThreadWords;
  load: (signal: AbortSignal) => Promise<{ data: Message[] }>;
  send: (body: string) => Promise<unknown>;
  read: () => Promise<unknown>;
}) {
  const { words, side } = props;
  const loaded = useLoad(props.load, props.id);
  // Read once shown; a viewer's refusal (a dashboard role that may not write) changes nothing.
  useEffect(() => void props.read().catch(() => undefined), [props.id, loaded.data]);
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    await props.send(text(form, 'body'));
    el.reset();
    loaded.reload();
  });
  return (
    <div class="thread">
      <Show loaded={loaded}>
        {(page) =>
          page.data.length === 0 ? (
            <p class="hint">{words.empty}</p>
          ) : (
            <ol class="messages">
              {[...page.data].reverse().map((m) => (
                <li class={m.attributes.author === side ? 'message mine' : 'message'} key={m.id}>
                  <p class="meta">
                    <strong>{m.attributes.author === side ? words.mine : words.theirs}</strong> · {dateTime(m.attributes.created_at)}
                  </p>
                  <p class="body">
                    <Linked body={m.attributes.body} />
                  </p>
                </li>
              ))}
            </ol>
          )
        }
      </Show>
      <form class="reply" onSubmit={onSubmit}>
        <label>
          {words.reply}
          <textarea name="body" required maxLength={5000} rows={4} />
        </label>
        <Saving error={error} done={undefined} busy={busy} label={words.send} />
      </form>
    </div>
  );
}
