// The owner's own e-mail preferences (docs/notifications.md): which kinds of message Tally
// sends them, for every program they own or administer. Every kind is on until turned off
// here or by a message's unsubscribe link, which this page then shows as off.

import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { Saving, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Show } from '../../common/ui.js';
import { useSession } from '../session.js';

type Preferences = Answer<'/v1/notifications/preferences'>['data']['attributes'];
type Kind = keyof Preferences;

/** Each kind in words: what happened, and how often it can come. */
const KINDS: ReadonlyArray<{ kind: Kind; title: string; text: string }> = [
  { kind: 'new_application', title: 'A partner applies', text: 'Someone applied on your public page and waits for you to accept them.' },
  {
    kind: 'webhook_failing',
    title: 'A webhook endpoint is failing',
    text: 'Deliveries to one of your endpoints have failed for an hour, or Tally disabled it.',
  },
  {
    kind: 'billing_failing',
    title: 'Billing events fail',
    text: 'Events from your billing platform could not be applied. At most one e-mail a day.',
  },
  {
    kind: 'review_waiting',
    title: 'Money is held for review',
    text: 'Referrals or commissions were held and wait for your decision. At most one e-mail a day.',
  },
  {
    kind: 'weekly_summary',
    title: 'The weekly summary',
    text: "Each Monday: last week's clicks, referrals, customers, revenue and commissions against the week before.",
  },
];

function PreferencesForm({ saved, readOnly }: { saved: Preferences; readOnly: boolean }) {
  const [chosen, setChosen] = useState<Preferences>(saved);
  const [stored, setStored] = useState<Preferences>(saved);
  const [done, setDone] = useState(false);
  const changed = KINDS.some(({ kind }) => chosen[kind] !== stored[kind]);
  const { error, busy, onSubmit } = useSubmit(async () => {
    setDone(false);
    const answer = await api.PATCH('/v1/notifications/preferences', { body: chosen });
    setStored(answer.data.attributes);
    setChosen(answer.data.attributes);
    setDone(true);
  });
  return (
    <form onSubmit={onSubmit} aria-labelledby="notifications-kinds">
      <fieldset class="choices" disabled={readOnly}>
        <legend id="notifications-kinds">E-mail me when</legend>
        {KINDS.map(({ kind, title, text }) => (
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
              <strong>{title}.</strong> {text}
            </span>
          </label>
        ))}
      </fieldset>
      {changed && !busy && <p class="hint">Not saved yet.</p>}
      {!readOnly && <Saving error={error} done={done} busy={busy} label="Save" />}
    </form>
  );
}

export function Notifications() {
  const { session } = useSession();
  const role = session.attributes.programs.find((p) => p.id === session.attributes.program_id)?.role;
  const loaded = useLoad((signal) => api.GET('/v1/notifications/preferences', { signal }), 'notification-preferences');
  return (
    <section>
      <h1>E-mail notifications</h1>
      <p>
        Which e-mails Tally sends you, {session.attributes.email}, for each program you own or administer. Each message also has a link that
        turns its kind off. Partners choose theirs in the portal.
      </p>
      {role === 'viewer' && (
        <p class="notice" role="note">
          Viewers get none of these e-mails; switch to a program you own or administer to change them.
        </p>
      )}
      <Show loaded={loaded}>{(answer) => <PreferencesForm saved={answer.data.attributes} readOnly={role === 'viewer'} />}</Show>
    </section>
  );
}
