// One webhook endpoint's deliveries: what was sent, how it went, when it is tried next;
// one opened (its id in the URL) shows every attempt with the first bytes of the answer,
// and sends its event again. While a delivery is about to be tried, the page asks again
// by itself, so a test event is seen arriving without reloading.

import { useLocation, useRoute } from 'preact-iso/router';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { dateTime, int, locale } from '../../common/format.js';
import { useLoad, type Loaded } from '../../common/use-api.js';
import { Empty, Failure, Pager, Show, Table, type Column } from '../../common/ui.js';
import { href } from '../session.js';
import { EndpointState, SendTest } from '../webhooks.js';
import { t, tx } from './words.js';

type Delivery = Answer<'/v1/webhook_endpoints/{id}/deliveries'>['data'][number];
type Opened = Answer<'/v1/webhook_deliveries/{id}'>;
type Endpoint = Answer<'/v1/webhook_endpoints/{id}'>;
type Attempt = NonNullable<Opened['data']['attributes']['attempt_log']>[number];

const STATES = ['pending', 'succeeded', 'failed'] as const;
/** How often to ask again while a delivery is due within REFRESH_WITHIN. */
const REFRESH_MS = 2000;
const REFRESH_WITHIN = 60;

// Retries come seconds apart: attempts show their seconds, unlike the dashboard's other times.
const exactTime = (unix: number): string =>
  new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(unix * 1000));

/** What the endpoint last answered: the error when there was one (a status, a timeout, a refusal). */
const lastAnswer = (d: Delivery): string =>
  d.attributes.last_error ?? (d.attributes.last_status === undefined ? '—' : String(d.attributes.last_status));
const nextAttempt = (d: Delivery): string => (d.attributes.next_attempt_at === undefined ? '—' : exactTime(d.attributes.next_attempt_at));
const dueSoon = (d: { attributes: { state: string; next_attempt_at?: number } }): boolean =>
  d.attributes.state === 'pending' && (d.attributes.next_attempt_at ?? 0) - Date.now() / 1000 < REFRESH_WITHIN;

const attempts = (): Column<Attempt & { id: string }>[] => [
  { label: t('time'), cell: (a) => exactTime(a.attempted_at) },
  { label: t('status'), cell: (a) => a.status ?? '—' },
  { label: t('duration'), numeric: true, cell: (a) => `${int(a.duration_ms)} ms` },
  { label: t('error'), cell: (a) => a.error ?? '—' },
  { label: t('answer'), cell: (a) => (a.response ? <code class="wrap">{a.response}</code> : '—') },
];

function DeliveryDetail({
  id,
  loaded,
  closeHref,
  resent,
}: {
  id: string;
  loaded: Loaded<Opened>;
  closeHref: string;
  resent: (newId: string) => void;
}) {
  const [error, setError] = useState<unknown>();
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from the table: the reader lands on what opened, not back at the top.
  useEffect(() => heading.current?.focus(), [id, loaded.data !== undefined]);
  return (
    <section class="panel" aria-labelledby="delivery-title">
      <Show loaded={loaded}>
        {({ data: d }) => (
          <>
            <div class="panel-head">
              <h2 id="delivery-title" tabIndex={-1} ref={heading}>
                {tx('deliveryOf', { event: <code>{d.attributes.event_type}</code> })}
              </h2>
              <a href={closeHref}>{t('close')}</a>
            </div>
            <dl class="facts">
              <dt>{t('state')}</dt>
              <dd>
                <span class={`state ${d.attributes.state}`}>{t(`states.${d.attributes.state}`)}</span>
                {d.attributes.next_attempt_at !== undefined && ` ${t('nextAttemptAt', { date: exactTime(d.attributes.next_attempt_at) })}`}
              </dd>
              <dt>{t('event')}</dt>
              <dd>
                <code class="secret">{d.attributes.event_id}</code>
              </dd>
              <dt>{t('created')}</dt>
              <dd>{dateTime(d.attributes.created_at)}</dd>
            </dl>
            {d.attributes.attempt_log?.length ? (
              <Table
                caption={t('attempts')}
                columns={attempts()}
                rows={d.attributes.attempt_log.map((a, i) => ({ ...a, id: String(i) }))}
              />
            ) : (
              <p class="hint">{t('notTried')}</p>
            )}
            {error !== undefined && <Failure error={error} />}
            <div class="actions">
              <button
                type="button"
                onClick={async () => {
                  setError(undefined);
                  try {
                    resent((await api.POST('/v1/webhook_deliveries/{id}/resend', { params: { path: { id: d.id } } })).data.id);
                  } catch (err) {
                    setError(err);
                  }
                }}
              >
                {t('resend')}
              </button>
            </div>
          </>
        )}
      </Show>
    </section>
  );
}

/** The deliveries table's columns; `urlWith` makes each one's Open link (this page with `open`). */
function deliveryColumns(urlWith: (change: Record<string, string>) => string): Column<Delivery>[] {
  return [
    {
      label: t('created'),
      cell: (d) => dateTime(d.attributes.created_at),
      text: (d) => new Date(d.attributes.created_at * 1000).toISOString(),
    },
    { label: t('event'), cell: (d) => <code>{d.attributes.event_type}</code>, text: (d) => d.attributes.event_type },
    {
      label: t('state'),
      cell: (d) => <span class={`state ${d.attributes.state}`}>{t(`states.${d.attributes.state}`)}</span>,
      text: (d) => d.attributes.state,
    },
    { label: t('attempts'), numeric: true, cell: (d) => int(d.attributes.attempts), text: (d) => String(d.attributes.attempts) },
    { label: t('lastAnswer'), cell: lastAnswer, text: lastAnswer },
    {
      label: t('nextAttempt'),
      cell: nextAttempt,
      text: (d) => (d.attributes.next_attempt_at === undefined ? '' : new Date(d.attributes.next_attempt_at * 1000).toISOString()),
    },
    {
      label: t('actions'),
      cell: (d) => (
        <a
          href={urlWith({ open: d.id })}
          aria-label={t('openLabel', { event: d.attributes.event_type, date: dateTime(d.attributes.created_at) })}
        >
          {t('open')}
        </a>
      ),
    },
  ];
}

/** The endpoint the deliveries are of: its URL, its events, whether it is on, its secret's hint. */
function EndpointFacts({ endpoint }: { endpoint: Loaded<Endpoint> }) {
  return (
    <Show loaded={endpoint}>
      {({ data: e }) => (
        <dl class="facts">
          <dt>URL</dt>
          <dd>
            <code class="secret">{e.attributes.url}</code>
            {e.attributes.description && <span class="hint"> {e.attributes.description}</span>}
          </dd>
          <dt>{t('events')}</dt>
          <dd>{e.attributes.event_types.length ? e.attributes.event_types.join(', ') : t('allEvents')}</dd>
          <dt>{t('state')}</dt>
          <dd>
            <EndpointState endpoint={e} />
            {!e.attributes.enabled && (
              <>
                {' '}
                <a href={href('/settings#webhooks')}>{t('enableInSettings')}</a>
              </>
            )}
          </dd>
          <dt>{t('secret')}</dt>
          <dd>
            <code>{e.attributes.secret_hint}</code>
          </dd>
        </dl>
      )}
    </Show>
  );
}

export function WebhookDeliveries() {
  const { params } = useRoute();
  const { query, path, route } = useLocation();
  const id = params.id ?? '';
  const page = Math.max(1, Number(query.page) || 1);
  const filters = { page, ...(query.state_eq ? { state_eq: query.state_eq } : {}) };
  const [round, setRound] = useState(0);
  const endpoint = useLoad((signal) => api.GET('/v1/webhook_endpoints/{id}', { params: { path: { id } }, signal }), `${id}/${round}`);
  const list = useLoad(
    (signal) => api.GET('/v1/webhook_endpoints/{id}/deliveries', { params: { path: { id }, query: filters }, signal }),
    `${id}?${JSON.stringify(filters)}/${round}`,
  );
  const opened = useLoad(
    query.open ? (signal) => api.GET('/v1/webhook_deliveries/{id}', { params: { path: { id: query.open! } }, signal }) : null,
    `${query.open}/${round}`,
  );
  const [said, setSaid] = useState<{ error?: unknown; message?: string }>({});
  // An empty value leaves its parameter out: closing a delivery drops `open`, "Any" drops the state.
  const urlWith = (change: Record<string, string>) =>
    `${path}?${new URLSearchParams(Object.entries({ ...query, ...change }).filter(([, v]) => v))}`;
  const set = (change: Record<string, string>) => route(urlWith({ page: '1', ...change }), true);
  const refresh = () => setRound((r) => r + 1);
  // Ask again while something shown is about to be tried; a retry minutes away waits for a reload.
  const waiting = [...(list.data?.data ?? []), ...(query.open && opened.data ? [opened.data.data] : [])].some(dueSoon);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(refresh, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [waiting, round]);

  return (
    <section>
      <p class="crumbs">
        <a href={href('/settings#webhooks')}>{t('settings')}</a> / {t('webhooks')} /
      </p>
      <div class="page-head">
        <h1>{t('title')}</h1>
        <div class="buttons">
          <button type="button" class="secondary" onClick={refresh}>
            {t('refresh')}
          </button>
          <SendTest
            endpointId={id}
            done={(error) => {
              setSaid(error === undefined ? { message: t('testSent') } : { error });
              refresh();
            }}
          />
        </div>
      </div>
      <EndpointFacts endpoint={endpoint} />
      {said.message && (
        <p role="status" class="ok">
          {said.message}
        </p>
      )}
      {said.error !== undefined && <Failure error={said.error} />}
      {query.open && (
        <DeliveryDetail
          id={query.open}
          loaded={opened}
          closeHref={urlWith({ open: '' })}
          resent={(newId) => {
            setSaid({ message: t('resent') });
            route(urlWith({ open: newId }), true);
            refresh();
          }}
        />
      )}
      <div class="filters">
        <label>
          <span>{t('state')}</span>
          <select value={query.state_eq ?? ''} onChange={(e) => set({ state_eq: e.currentTarget.value })}>
            <option value="">{t('any')}</option>
            {STATES.map((s) => (
              <option value={s}>{t(`states.${s}`)}</option>
            ))}
          </select>
        </label>
      </div>
      <Show loaded={list}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title={query.state_eq ? t(`noneIn.${query.state_eq as (typeof STATES)[number]}`) : t('none')}>
              <p>{t('noneText')}</p>
            </Empty>
          ) : (
            <>
              <Table caption={t('title')} columns={deliveryColumns(urlWith)} rows={answer.data} csv="webhook-deliveries" />
              <Pager page={page} hasMore={answer.meta.pagination.has_more} go={(p) => set({ page: String(p) })} />
            </>
          )
        }
      </Show>
    </section>
  );
}
