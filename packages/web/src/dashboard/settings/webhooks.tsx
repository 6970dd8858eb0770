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
import en from './locales/en.js';
import { t, tx } from './words.js';

type EventType = NonNullable<RequestBody<'/v1/webhook_endpoints', 'post'>['event_types']>[number];

// Every type the API takes, each with what makes it, to choose by: the catalogue's
// `webhooks.events` lists them (`referral.created` is `referral: { created }`), and the
// compiler refuses a type it lacks or one the API does not have.
type Events = typeof en.webhooks.events;
type Listed = { [G in keyof Events & string]: `${G}.${keyof Events[G] & string}` }[keyof Events & string];
const EVENT_TYPES = Object.entries(en.webhooks.events).flatMap(([group, types]) =>
  Object.keys(types).map((k) => `${group}.${k}`),
) as Listed[];
true satisfies [EventType, Listed] extends [Listed, EventType] ? true : never;

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
      <p>{tx(shown.until ? 'webhooks.secretNew' : 'webhooks.secretFirst', { url: <code class="secret">{shown.url}</code> })}</p>
      <p>
        <code class="secret">{shown.secret}</code> <CopyButton text={shown.secret} />
      </p>
      {shown.until && <p>{t('webhooks.oldSecret', { date: dateTime(shown.until) })}</p>}
    </div>
  );
}

function AddEndpoint({ added, cancel }: { added: (made: Endpoint) => void; cancel: () => void }) {
  const [only, setOnly] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    const types = form.getAll('event_types') as EventType[];
    if (only && types.length === 0) throw new Error(t('webhooks.chooseEvent'));
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
      <h3 id="add-endpoint-title">{t('webhooks.add')}</h3>
      <label>
        {t('webhooks.url')} <span class="hint">{t('webhooks.urlHint')}</span>
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
        {t('description')} <span class="hint">{t('webhooks.descriptionHint')}</span>
        <input name="description" maxLength={500} />
      </label>
      <fieldset class="choices">
        <legend>{t('webhooks.eventsLegend')}</legend>
        <label class="check">
          <input type="radio" name="which" checked={!only} onChange={() => setOnly(false)} /> {t('webhooks.allEvents')}
        </label>
        <label class="check">
          <input type="radio" name="which" checked={only} onChange={() => setOnly(true)} /> {t('webhooks.onlyThese')}
        </label>
        {only && (
          <div class="events">
            {EVENT_TYPES.map((type) => (
              <label class="check">
                <input type="checkbox" name="event_types" value={type} />
                <span>
                  <code>{type}</code> <span class="hint">{t(`webhooks.events.${type}`)}</span>
                </span>
              </label>
            ))}
          </div>
        )}
      </fieldset>
      {error !== undefined && !urlError && <Failure error={error} />}
      <div class="buttons">
        <button type="submit" disabled={busy}>
          {t('webhooks.add')}
        </button>
        <button type="button" class="secondary" onClick={cancel}>
          {t('webhooks.cancel')}
        </button>
      </div>
    </form>
  );
}

/** A change to one endpoint, asked first as every change in the dashboard is. */
type Change = keyof typeof en.webhooks.changes;
const DANGER: ReadonlySet<Change> = new Set(['disable', 'delete']);

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
  const act = (endpoint: Endpoint, change: Change) => (
    <button type="button" class="link" onClick={() => setAsking({ endpoint, change })}>
      {t(`webhooks.changes.${change}.confirm`)}
    </button>
  );
  const columns: Column<Endpoint>[] = [
    {
      label: t('webhooks.url'),
      cell: (e) => (
        <span class="wrap">
          <code>{e.attributes.url}</code>
          {e.attributes.description && <span class="hint"> {e.attributes.description}</span>}
        </span>
      ),
    },
    {
      label: t('state'),
      cell: (e) => (
        <span class="wrap">
          <EndpointState endpoint={e} />
        </span>
      ),
    },
    {
      label: t('webhooks.eventsLegend'),
      cell: (e) => <span class="wrap">{e.attributes.event_types.length ? e.attributes.event_types.join(', ') : t('webhooks.all')}</span>,
    },
    { label: t('secret'), cell: (e) => <code>{e.attributes.secret_hint}</code> },
    {
      label: t('actions'),
      // One above the other: side by side, five actions would push the table past a laptop's width.
      cell: (e) => (
        <span class="stack">
          <a href={deliveriesHref(e.id)}>{t('webhooks.deliveries')}</a>
          <SendTest
            link
            endpointId={e.id}
            url={e.attributes.url}
            done={(error) => setSaid(error === undefined ? { message: t('webhooks.testSent', { url: e.attributes.url }) } : { error })}
          />
          {e.attributes.enabled ? act(e, 'disable') : act(e, 'enable')}
          {act(e, 'rotate')}
          {act(e, 'delete')}
        </span>
      ),
    },
  ];
  return (
    <section class="panel" id="webhooks" aria-labelledby="webhooks-title">
      <div class="panel-head">
        <h2 id="webhooks-title">{t('sections.webhooks')}</h2>
        {!adding && (
          <button type="button" class="secondary" onClick={() => setAdding(true)}>
            {t('webhooks.add')}
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
            <Empty title={t('webhooks.none')}>
              <p>{t('webhooks.noneText')}</p>
              <p>
                {tx('webhooks.noneHow', {
                  scheme: <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>,
                  guide: <a href="/docs/webhooks.md">{t('webhooks.guide')}</a>,
                })}
              </p>
            </Empty>
          ) : (
            answer.data.length > 0 && <Table caption={t('webhooks.endpoints')} columns={columns} rows={answer.data} />
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
          title={t(`webhooks.changes.${asking.change}.title`)}
          confirm={t(`webhooks.changes.${asking.change}.confirm`)}
          danger={DANGER.has(asking.change)}
          onClose={() => setAsking(null)}
          onConfirm={() => run(asking)}
        >
          <p>
            <code class="secret">{asking.endpoint.attributes.url}</code>
          </p>
          <p>{t(`webhooks.changes.${asking.change}.says`)}</p>
        </Confirm>
      )}
    </section>
  );
}
