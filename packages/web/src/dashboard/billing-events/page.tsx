// The billing platforms' events as Tally received them, every platform in one log: what
// each did (credited, linked, refunded, held, released, churned), or why it did nothing,
// with links to the records it touched and a button to process one again (after the
// customer's referral has appeared, say). Filtered by platform, outcome and type, in the
// page's address. /stripe, the Stripe-only page it was, leads here with Stripe chosen (app.tsx).

import { useLocation } from 'preact-iso/router';
import { useListAddress } from '../../common/list-address.js';
import { useState } from 'preact/hooks';
import { api } from '../../common/api.js';
import { dateTime } from '../../common/format.js';
import { Confirm, useSubmit, text } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Pager, Show, Table, type Column } from '../../common/ui.js';
import { type BillingEvent, isPlatform, PLATFORM_TITLES, PLATFORMS } from '../billing.js';
import { href } from '../session.js';
import { t, tx } from './words.js';

const OUTCOMES = ['credited', 'linked', 'refunded', 'held', 'released', 'churned', 'ignored', 'failed'] as const;
const FILTERS = ['platform_eq', 'outcome_eq', 'type_eq'] as const;

/** Where a touched record is seen in the dashboard. */
const RECORD_PAGES: Record<string, (id: string) => string> = {
  referral: (id) => href(`/payments?referral_id_eq=${encodeURIComponent(id)}`),
  payment: () => href('/payments'),
  commission: () => href('/commissions'),
};

function Touched({ event }: { event: BillingEvent }) {
  const { touched, waiting_on } = event.attributes;
  if (touched.length === 0) return <span class="hint">{waiting_on ? t('waitingFor', { what: waiting_on }) : '—'}</span>;
  return (
    <>
      {touched.map((r) => {
        const page = RECORD_PAGES[r.type];
        const word = t(`records.${r.type as 'referral'}`, { defaultValue: r.type });
        return page ? (
          <a class="tag" href={page(r.id)}>
            {word}
          </a>
        ) : (
          <span class="tag">{word}</span>
        );
      })}
    </>
  );
}

function Reprocess({ event, done }: { event: BillingEvent; done: (message: string) => void }) {
  const [asking, setAsking] = useState(false);
  const name = `${PLATFORM_TITLES[event.attributes.platform]} ${event.attributes.type} ${event.id}`;
  return (
    <>
      <button type="button" class="link" aria-label={t('againLabel', { name })} onClick={() => setAsking(true)}>
        {t('again')}
      </button>
      {asking && (
        <Confirm
          title={t('againTitle', { name })}
          confirm={t('again')}
          onClose={() => setAsking(false)}
          onConfirm={async () => {
            // The client encodes the id in the path: other platforms' ids hold a ':' (paddle:evt_…).
            const again = await api.POST('/v1/billing_events/{id}/process', { params: { path: { id: event.id } } });
            const a = again.data.attributes;
            const outcome = t(`outcomes.${a.outcome}`);
            done(`${name}: ${outcome}${a.reason ? ` (${a.reason})` : ''}`);
          }}
        >
          <p>{t('againText')}</p>
        </Confirm>
      )}
    </>
  );
}

export function BillingEvents() {
  const { path } = useLocation();
  const { query, page, set } = useListAddress();
  const filters: Partial<Record<(typeof FILTERS)[number], string>> = {};
  for (const name of FILTERS) if (query[name]) filters[name] = query[name];
  const loaded = useLoad(
    (signal) => api.GET('/v1/billing_events', { params: { query: { page, ...filters } }, signal }),
    JSON.stringify([page, filters]),
  );
  const [said, setSaid] = useState<string>();
  // No call of its own: it only changes the address, and the list follows.
  const byType = useSubmit(async (form) => set({ type_eq: text(form, 'type_eq').trim() }));
  const platform = isPlatform(filters.platform_eq) ? PLATFORM_TITLES[filters.platform_eq] : undefined;
  const columns: Column<BillingEvent>[] = [
    {
      label: t('received'),
      cell: (e) => dateTime(e.attributes.received_at),
      text: (e) => new Date(e.attributes.received_at * 1000).toISOString(),
    },
    {
      label: t('platform'),
      cell: (e) => PLATFORM_TITLES[e.attributes.platform],
      text: (e) => e.attributes.platform,
    },
    { label: t('type'), cell: (e) => <code>{e.attributes.type}</code>, text: (e) => e.attributes.type },
    {
      label: t('outcome'),
      // The reason wraps: a sentence on one line pushed the row's action out of sight.
      cell: (e) => (
        <span class="wrap">
          <span class={`state ${e.attributes.outcome}`}>{t(`outcomes.${e.attributes.outcome}`)}</span>
          {e.attributes.reason && <span class="hint"> {e.attributes.reason}</span>}
          {!e.attributes.livemode && <span class="tag">{t('test')}</span>}
        </span>
      ),
      text: (e) => `${e.attributes.outcome}${e.attributes.reason ? `: ${e.attributes.reason}` : ''}`,
    },
    {
      label: t('records.title'),
      cell: (e) => <Touched event={e} />,
      text: (e) => e.attributes.touched.map((t) => `${t.type} ${t.id}`).join(' '),
    },
    { label: t('event'), cell: (e) => <code class="secret">{e.id}</code>, text: (e) => e.id },
    {
      label: t('actions'),
      cell: (e) => (
        <Reprocess
          event={e}
          done={(message) => {
            setSaid(message);
            loaded.reload();
          }}
        />
      ),
    },
  ];
  return (
    <section>
      <h1>{t('title')}</h1>
      <div class="filters">
        <label>
          <span>{t('platform')}</span>
          <select value={filters.platform_eq ?? ''} onChange={(e) => set({ platform_eq: e.currentTarget.value })}>
            <option value="">{t('all')}</option>
            {PLATFORMS.map((p) => (
              <option value={p}>{PLATFORM_TITLES[p]}</option>
            ))}
          </select>
        </label>
        <label>
          <span>{t('outcome')}</span>
          <select value={filters.outcome_eq ?? ''} onChange={(e) => set({ outcome_eq: e.currentTarget.value })}>
            <option value="">{t('any')}</option>
            {OUTCOMES.map((o) => (
              <option value={o}>{t(`outcomes.${o}`)}</option>
            ))}
          </select>
        </label>
        {/* biome-ignore lint/a11y/useSemanticElements: <search> is too new for the browsers we serve; role="search" says the same */}
        <form role="search" onSubmit={byType.onSubmit}>
          <label>
            <span>{t('type')}</span>
            <input
              name="type_eq"
              type="search"
              value={filters.type_eq ?? ''}
              placeholder="invoice.paid"
              spellcheck={false}
              autocomplete="off"
            />
          </label>
          <button type="submit" class="secondary">
            {t('filter')}
          </button>
        </form>
      </div>
      {said && (
        <p role="status" class="ok">
          {said}
        </p>
      )}
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            Object.keys(filters).length > 0 ? (
              <Empty title={platform ? t('noneOfPlatform', { platform }) : t('noneFiltered')}>
                <p>
                  <a href={path}>{t('showEvery')}</a>.
                </p>
              </Empty>
            ) : (
              <Empty title={t('none')}>
                <p>{tx('noneText', { link: <a href={href('/settings#integrations')}>{t('settings')}</a> })}</p>
              </Empty>
            )
          ) : (
            <>
              <Table caption={t('title')} columns={columns} rows={answer.data} csv="billing-events" />
              <Pager page={page} hasMore={answer.meta.pagination.has_more} go={(p) => set({ page: String(p) })} />
            </>
          )
        }
      </Show>
    </section>
  );
}
