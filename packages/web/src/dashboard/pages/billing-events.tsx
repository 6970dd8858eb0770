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
  if (touched.length === 0) return <span class="hint">{waiting_on ? `waiting for ${waiting_on}` : '—'}</span>;
  return (
    <>
      {touched.map((t) => {
        const page = RECORD_PAGES[t.type];
        return page ? (
          <a class="tag" href={page(t.id)}>
            {t.type}
          </a>
        ) : (
          <span class="tag">{t.type}</span>
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
      <button type="button" class="link" aria-label={`Process again: ${name}`} onClick={() => setAsking(true)}>
        Process again
      </button>
      {asking && (
        <Confirm
          title={`Process ${name} again?`}
          confirm="Process again"
          onClose={() => setAsking(false)}
          onConfirm={async () => {
            // The client encodes the id in the path: other platforms' ids hold a ':' (paddle:evt_…).
            const again = await api.POST('/v1/billing_events/{id}/process', { params: { path: { id: event.id } } });
            const a = again.data.attributes;
            done(`${name}: ${a.outcome}${a.reason ? ` (${a.reason})` : ''}`);
          }}
        >
          <p>Tally handles it now as if it had just arrived: it may credit, link, refund, hold or release what it names.</p>
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
      label: 'Received',
      cell: (e) => dateTime(e.attributes.received_at),
      text: (e) => new Date(e.attributes.received_at * 1000).toISOString(),
    },
    {
      label: 'Platform',
      cell: (e) => PLATFORM_TITLES[e.attributes.platform],
      text: (e) => e.attributes.platform,
    },
    { label: 'Type', cell: (e) => <code>{e.attributes.type}</code>, text: (e) => e.attributes.type },
    {
      label: 'Outcome',
      // The reason wraps: a sentence on one line pushed the row's action out of sight.
      cell: (e) => (
        <span class="wrap">
          <span class={`state ${e.attributes.outcome}`}>{e.attributes.outcome}</span>
          {e.attributes.reason && <span class="hint"> {e.attributes.reason}</span>}
          {!e.attributes.livemode && <span class="tag">test</span>}
        </span>
      ),
      text: (e) => `${e.attributes.outcome}${e.attributes.reason ? `: ${e.attributes.reason}` : ''}`,
    },
    { label: 'Records', cell: (e) => <Touched event={e} />, text: (e) => e.attributes.touched.map((t) => `${t.type} ${t.id}`).join(' ') },
    { label: 'Event', cell: (e) => <code class="secret">{e.id}</code>, text: (e) => e.id },
    {
      label: 'Actions',
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
      <h1>Billing events</h1>
      <div class="filters">
        <label>
          <span>Platform</span>
          <select value={filters.platform_eq ?? ''} onChange={(e) => set({ platform_eq: e.currentTarget.value })}>
            <option value="">All</option>
            {PLATFORMS.map((p) => (
              <option value={p}>{PLATFORM_TITLES[p]}</option>
            ))}
          </select>
        </label>
        <label>
          <span>Outcome</span>
          <select value={filters.outcome_eq ?? ''} onChange={(e) => set({ outcome_eq: e.currentTarget.value })}>
            <option value="">Any</option>
            {OUTCOMES.map((o) => (
              <option value={o}>{o}</option>
            ))}
          </select>
        </label>
        {/* biome-ignore lint/a11y/useSemanticElements: <search> is too new for the browsers we serve; role="search" says the same */}
        <form role="search" onSubmit={byType.onSubmit}>
          <label>
            <span>Type</span>
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
            Filter
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
              <Empty title={`No ${platform ?? 'billing'} events match these filters`}>
                <p>
                  <a href={path}>Show every event</a>.
                </p>
              </Empty>
            ) : (
              <Empty title="No billing events yet">
                <p>
                  Connect Stripe, Paddle or Lemon Squeezy in the <a href={href('/settings#integrations')}>settings</a>, then send a test
                  event from the platform: it appears here with what it did.
                </p>
              </Empty>
            )
          ) : (
            <>
              <Table caption="Billing events" columns={columns} rows={answer.data} csv="billing-events" />
              <Pager page={page} hasMore={answer.meta.pagination.has_more} go={(p) => set({ page: String(p) })} />
            </>
          )
        }
      </Show>
    </section>
  );
}
