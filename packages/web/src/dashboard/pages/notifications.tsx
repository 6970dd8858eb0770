// The owner's own e-mail preferences (docs/notifications.md): which kinds of message Tally
// sends them, for every program they own or administer. Every kind is on until turned off
// here or by a message's unsubscribe link, which this page then shows as off.

import { api, type Answer } from '../../common/api.js';
import { EmailChoices } from '../../common/email-choices.js';
import { useLoad } from '../../common/use-api.js';
import { Show } from '../../common/ui.js';
import { useSession } from '../session.js';

type Kind = keyof Answer<'/v1/notifications/preferences'>['data']['attributes'];

/** Each kind in words: what happened, and how often it can come. */
const WORDS: Record<Kind, { title: string; text: string }> = {
  link_waiting: { title: 'A partner chooses a link key', text: "A key a partner chose waits for your approval on the partner's page." },
  new_application: { title: 'A partner applies', text: 'Someone applied on your public page and waits for you to accept them.' },
  webhook_failing: {
    title: 'A webhook endpoint is failing',
    text: 'Deliveries to one of your endpoints have failed for an hour, or Tally disabled it.',
  },
  billing_failing: {
    title: 'Billing events fail',
    text: 'Events from your billing platform could not be applied. At most one e-mail a day.',
  },
  review_waiting: {
    title: 'Money is held for review',
    text: 'Referrals or commissions were held and wait for your decision. At most one e-mail a day.',
  },
  payout_run_waiting: {
    title: 'A scheduled payout run waits',
    text: 'The payout schedule made a run that waits for an owner to approve it. At most one e-mail a run.',
  },
  partner_message: {
    title: 'A partner writes to you',
    text: 'A partner sent a message the team has not read for ten minutes. One e-mail per burst of messages.',
  },
  new_submission: {
    title: 'A partner submits to a bounty',
    text: 'A partner sent proof for a submission bounty; it waits for your approval.',
  },
  new_lead: {
    title: 'A partner submits a lead',
    text: 'A partner submitted someone who could become a customer, for you to qualify, win or lose.',
  },
  weekly_summary: {
    title: 'The weekly summary',
    text: "Each Monday: last week's clicks, referrals, customers, revenue and commissions against the week before.",
  },
};

export function Notifications() {
  const { session } = useSession();
  const role = session.attributes.programs.find((p) => p.id === session.attributes.program_id)?.role;
  const loaded = useLoad((signal) => api.GET('/v1/notifications/preferences', { signal }), 'notification-preferences');
  return (
    <section>
      <h1 id="notifications-title">E-mail notifications</h1>
      <p>
        Which e-mails Tally sends you, {session.attributes.email}, for each program you own or administer. Each message also has a link that
        turns its kind off. Partners choose theirs in the portal.
      </p>
      {role === 'viewer' && (
        <p class="notice" role="note">
          Viewers get none of these e-mails; switch to a program you own or administer to change them.
        </p>
      )}
      <Show loaded={loaded}>
        {(answer) => (
          <EmailChoices
            saved={answer.data.attributes}
            words={(kind) => WORDS[kind]}
            legend="E-mail me when"
            unsaved="Not saved yet."
            save="Save"
            labelledBy="notifications-title"
            readOnly={role === 'viewer'}
            store={async (chosen) => (await api.PATCH('/v1/notifications/preferences', { body: chosen })).data.attributes}
          />
        )}
      </Show>
    </section>
  );
}
