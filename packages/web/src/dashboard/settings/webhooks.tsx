// Outgoing webhooks in the settings: the program's endpoints (what each is sent, whether
// it is sending, and why not), adding one, and its signing secret, shown once when it is
// made or rotated: the API never shows it again. Each endpoint's deliveries have a page
// of their own (webhook-deliveries/).

import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type RequestBody } from '../../common/api.js';
import { dateTime } from '../../common/format.js';
import { Confirm, text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { CopyButton, Empty, Failure, Show, Table, type Column } from '../../common/ui.js';
import { deliveriesHref, EndpointState, SendTest, type Endpoint } from '../webhooks.js';

type EventType = NonNullable<RequestBody<'/v1/webhook_endpoints', 'post'>['event_types']>[number];

// A record of every type the API takes (the compiler refuses one missing or unknown),
// each with what makes it, to choose by.
const EVENT_TYPES = {
  'referral.created': 'a conversion made a referral',
  'referral.converted': "a referral's first payment",
  'referral.updated': "a referral's state changed",
  'partnership.created': 'a partnership was made, or a partner applied',
  'partnership.updated': 'a partnership was accepted, declined or changed',
  'partnership.group_changed': 'a partnership moved to another partner group',
  'partnership.recruited': "a partner applied through another partner's recruitment link",
  'commission.created': 'a commission was earned, entered or clawed back',
  'commission.updated': 'a commission was paid, rejected, reduced or held',
  'payment.created': 'a payment was recorded',
  'payout.created': 'a payout batch was exported',
  'payout.paid': 'a payout batch was marked paid, or a payout run paid a partner',
  'payout.failed': "a payout run's payout failed or came back",
  'discount_code.created': 'a partner got a promotion code',
  'discount_code.used': "a promotion code credited a partner's sale",
  'discount_code.disabled': 'a promotion code was disabled',
  'discount_code.enabled': 'a promotion code was enabled again',
  'review.held': 'a referral or commission was held for review, with the reasons',
  'review.decided': 'an owner approved or rejected a held referral, or banned its partner',
  'message.created': "a message in a partnership's thread, from the team (a broadcast's too) or the partner",
  'resource.created': 'a brand resource was added for partners',
  'resource.deleted': 'a brand resource was deleted',
  'bounty.awarded': "a partner reached a performance bounty's target, and its commission was made",
  'bounty_submission.created': 'a partner submitted proof for a bounty',
  'bounty_submission.updated': 'a bounty submission was approved (its commission made) or rejected',
  'lead.created': 'a partner submitted a lead, or an owner did for a partner',
  'lead.updated': "a lead's stage moved: qualified, won (with its referral) or lost",
  'link.created': "a partner's link was made (by them, or for them)",
  'link.updated': "a partner's link was approved, disabled or enabled again",
} satisfies Record<EventType, string>;

/** A secret just made: by adding the endpoint, or by rotating (then the old one still signs until `until`). */
interface Shown {
  url: string;
  secret: string;
  until?: number | undefined;
}

function SecretOnce({ shown }: { shown: Shown }) {
  // Focus moves here from the form or dialog that made it, so a keyboard's next Tab is the copy button.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [shown]);
  return (
    <div class="notice" role="status" tabIndex={-1} ref={ref}>
      <p>
        {shown.until ? 'The new signing secret' : 'The signing secret'} of <code class="secret">{shown.url}</code>, shown only now: it will
        not be shown again. Your server checks with it that each webhook comes from Tally.
      </p>
      <p>
        <code class="secret">{shown.secret}</code> <CopyButton text={shown.secret} />
      </p>
      {shown.until && (
        <p>The old secret also signs every webhook until {dateTime(shown.until)}: switch your server to the new one before then.</p>
      )}
    </div>
  );
}

function AddEndpoint({ added, cancel }: { added: (made: Endpoint) => void; cancel: () => void }) {
  const [only, setOnly] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    const types = form.getAll('event_types') as EventType[];
    if (only && types.length === 0) throw new Error('Choose at least one event, or all events.');
    const made = await api.POST('/v1/webhook_endpoints', {
      body: {
        url: text(form, 'url').trim(),
        description: text(form, 'description').trim() || undefined,
        event_types: only ? types : [],
      },
    });
    added(made.data);
  });
  // A refused URL (http, a private address) is said beside the field; anything else under the form.
  const urlError = error instanceof ApiError && error.field === 'url' ? error : undefined;
  return (
    <form class="add-endpoint" onSubmit={onSubmit} aria-labelledby="add-endpoint-title">
      <h3 id="add-endpoint-title">Add endpoint</h3>
      <label>
        URL <span class="hint">(https, on your server: Tally POSTs each event there)</span>
        <input
          ref={first}
          name="url"
          type="url"
          required
          maxLength={2048}
          placeholder="https://example.com/tally"
          spellcheck={false}
          aria-invalid={urlError ? 'true' : undefined}
          aria-describedby={urlError ? 'webhook-url-error' : undefined}
        />
      </label>
      {urlError && (
        <div id="webhook-url-error">
          <Failure error={urlError} />
        </div>
      )}
      <label>
        Description <span class="hint">(optional: what receives them)</span>
        <input name="description" maxLength={500} />
      </label>
      <fieldset class="choices">
        <legend>Events</legend>
        <label class="check">
          <input type="radio" name="which" checked={!only} onChange={() => setOnly(false)} /> All events, and types added later
        </label>
        <label class="check">
          <input type="radio" name="which" checked={only} onChange={() => setOnly(true)} /> Only these:
        </label>
        {only && (
          <div class="events">
            {Object.entries(EVENT_TYPES).map(([type, what]) => (
              <label class="check">
                <input type="checkbox" name="event_types" value={type} />
                <span>
                  <code>{type}</code> <span class="hint">{what}</span>
                </span>
              </label>
            ))}
          </div>
        )}
      </fieldset>
      {error !== undefined && !urlError && <Failure error={error} />}
      <div class="buttons">
        <button type="submit" disabled={busy}>
          Add endpoint
        </button>
        <button type="button" class="secondary" onClick={cancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A change to one endpoint, asked first as every change in the dashboard is. */
type Change = 'disable' | 'enable' | 'rotate' | 'delete';
const CHANGES: Record<Change, { title: string; confirm: string; danger?: boolean; says: string }> = {
  disable: {
    title: 'Disable this endpoint?',
    confirm: 'Disable',
    danger: true,
    says: 'Tally stops sending to it, and its pending deliveries end as failed. Enable it again later and resend what it missed.',
  },
  enable: {
    title: 'Enable this endpoint?',
    confirm: 'Enable',
    says: 'New events are sent to it again, and its run of failures starts over. What it missed meanwhile is not sent by itself: resend it from its deliveries.',
  },
  rotate: {
    title: 'Rotate its signing secret?',
    confirm: 'Rotate secret',
    says: 'A new secret is made and shown once. For 24 hours the old one signs every webhook beside it, so your server can switch without refusing one.',
  },
  delete: {
    title: 'Delete this endpoint?',
    confirm: 'Delete',
    danger: true,
    says: 'Tally stops sending to it at once, and its deliveries are deleted with it. This cannot be undone.',
  },
};

export function WebhookSettings() {
  const loaded = useLoad((signal) => api.GET('/v1/webhook_endpoints', { signal }), 'webhook endpoints');
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [said, setSaid] = useState<{ error?: unknown; message?: string }>({});
  const [asking, setAsking] = useState<{ endpoint: Endpoint; change: Change } | null>(null);
  const run = async ({ endpoint, change }: { endpoint: Endpoint; change: Change }) => {
    const params = { path: { id: endpoint.id } };
    if (change === 'delete') await api.DELETE('/v1/webhook_endpoints/{id}', { params });
    else if (change === 'rotate') {
      const a = (await api.POST('/v1/webhook_endpoints/{id}/rotate_secret', { params })).data.attributes;
      setShown({ url: a.url, secret: a.secret ?? '', until: a.previous_secret_until });
    } else await api.PATCH('/v1/webhook_endpoints/{id}', { params, body: { enabled: change === 'enable' } });
    loaded.reload();
  };
  const act = (label: string, endpoint: Endpoint, change: Change) => (
    <button type="button" class="link" onClick={() => setAsking({ endpoint, change })}>
      {label}
    </button>
  );
  const columns: Column<Endpoint>[] = [
    {
      label: 'URL',
      cell: (e) => (
        <span class="wrap">
          <code>{e.attributes.url}</code>
          {e.attributes.description && <span class="hint"> {e.attributes.description}</span>}
        </span>
      ),
    },
    {
      label: 'State',
      cell: (e) => (
        <span class="wrap">
          <EndpointState endpoint={e} />
        </span>
      ),
    },
    {
      label: 'Events',
      cell: (e) => <span class="wrap">{e.attributes.event_types.length ? e.attributes.event_types.join(', ') : 'all events'}</span>,
    },
    { label: 'Secret', cell: (e) => <code>{e.attributes.secret_hint}</code> },
    {
      label: 'Actions',
      // One above the other: side by side, five actions would push the table past a laptop's width.
      cell: (e) => (
        <span class="stack">
          <a href={deliveriesHref(e.id)}>Deliveries</a>
          <SendTest
            link
            endpointId={e.id}
            url={e.attributes.url}
            done={(error) =>
              setSaid(
                error === undefined
                  ? { message: `A test event is on its way to ${e.attributes.url}: see it among its deliveries.` }
                  : { error },
              )
            }
          />
          {e.attributes.enabled ? act('Disable', e, 'disable') : act('Enable', e, 'enable')}
          {act('Rotate secret', e, 'rotate')}
          {act('Delete', e, 'delete')}
        </span>
      ),
    },
  ];
  return (
    <section class="panel" id="webhooks" aria-labelledby="webhooks-title">
      <div class="panel-head">
        <h2 id="webhooks-title">Webhooks</h2>
        {!adding && (
          <button type="button" class="secondary" onClick={() => setAdding(true)}>
            Add endpoint
          </button>
        )}
      </div>
      {shown && <SecretOnce shown={shown} />}
      {said.message && (
        <p role="status" class="ok">
          {said.message}
        </p>
      )}
      {said.error !== undefined && <Failure error={said.error} />}
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 && !adding ? (
            <Empty title="No webhook endpoints yet">
              <p>
                Webhooks tell your own servers the moment something happens in the program: a referral signs up or pays, a partner applies,
                a commission is earned, a payout is paid. Your app can then reward a customer, update a CRM or post to a chat, without
                asking the API over and over.
              </p>
              <p>
                Add an https URL on your server: Tally sends each event there, signed by the{' '}
                <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> scheme, and retries until it answers 2xx.{' '}
                <a href="/docs/webhooks.md">The webhooks guide</a> has a receiver that verifies it in a few lines, the events and what each
                carries.
              </p>
            </Empty>
          ) : (
            answer.data.length > 0 && <Table caption="Webhook endpoints" columns={columns} rows={answer.data} />
          )
        }
      </Show>
      {adding && (
        <AddEndpoint
          cancel={() => setAdding(false)}
          added={(made) => {
            setShown({ url: made.attributes.url, secret: made.attributes.secret ?? '' });
            setAdding(false);
            loaded.reload();
          }}
        />
      )}
      {asking && (
        <Confirm
          title={CHANGES[asking.change].title}
          confirm={CHANGES[asking.change].confirm}
          danger={CHANGES[asking.change].danger}
          onClose={() => setAsking(null)}
          onConfirm={() => run(asking)}
        >
          <p>
            <code class="secret">{asking.endpoint.attributes.url}</code>
          </p>
          <p>{CHANGES[asking.change].says}</p>
        </Confirm>
      )}
    </section>
  );
}
