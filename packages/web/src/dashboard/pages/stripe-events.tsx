// Stripe's events as Tally received them: what each did (credited, linked, refunded,
// held, released, churned), or why it did nothing, with links to the records it touched
// and a button to process one again (after the customer's referral has appeared, say).

import { useLocation } from 'preact-iso/router';
import { useState } from 'preact/hooks';
import { api, messageOf, type Answer } from '../../common/api.js';
import { dateTime } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Pager, Show, Table, type Column } from '../../common/ui.js';
import { href } from '../session.js';

type StripeEvent = Answer<'/v1/integrations/stripe/events'>['data'][number];

const OUTCOMES = ['credited', 'linked', 'refunded', 'held', 'released', 'churned', 'ignored', 'failed'] as const;

/** Where a touched record is seen in the dashboard. */
const RECORD_PAGES: Record<string, (id: string) => string> = {
  referral: (id) => href(`/payments?referral_id_eq=${id}`),
  payment: () => href('/payments'),
  commission: () => href('/commissions'),
};

function Touched({ event }: { event: StripeEvent }) {
  const touched = event.attributes.touched;
  if (touched.length === 0)
    return <span class="hint">{event.attributes.waiting_on ? `waiting for ${event.attributes.waiting_on}` : '—'}</span>;
  return (
    <>
      {touched.map((t) => (
        <a class="tag" href={RECORD_PAGES[t.type]?.(t.id) ?? '#'}>
          {t.type}
        </a>
      ))}
    </>
  );
}

function Reprocess({ event, done }: { event: StripeEvent; done: (message: string) => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      class="link"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          const again = await api.POST('/v1/integrations/stripe/events/{id}/process', { params: { path: { id: event.id } } });
          done(`${event.id}: ${again.data.attributes.outcome}${again.data.attributes.reason ? ` (${again.data.attributes.reason})` : ''}`);
        } catch (err) {
          done(`${event.id}: ${messageOf(err)}`);
        } finally {
          setBusy(false);
        }
      }}
    >
      Process again
    </button>
  );
}

export function StripeEvents() {
  const { query, path, route } = useLocation();
  const page = Math.max(1, Number(query.page) || 1);
  const filters = { page, ...(query.outcome_eq ? { outcome_eq: query.outcome_eq } : {}) };
  const loaded = useLoad(
    (signal) => api.GET('/v1/integrations/stripe/events', { params: { query: filters }, signal }),
    JSON.stringify(filters),
  );
  const [said, setSaid] = useState<string>();
  const set = (change: Record<string, string>) => route(`${path}?${new URLSearchParams({ ...query, page: '1', ...change })}`, true);
  const columns: Column<StripeEvent>[] = [
    {
      label: 'Received',
      cell: (e) => dateTime(e.attributes.received_at),
      text: (e) => new Date(e.attributes.received_at * 1000).toISOString(),
    },
    { label: 'Type', cell: (e) => <code>{e.attributes.type}</code>, text: (e) => e.attributes.type },
    {
      label: 'Outcome',
      cell: (e) => (
        <>
          <span class={`state ${e.attributes.outcome}`}>{e.attributes.outcome}</span>
          {e.attributes.reason && <span class="hint"> {e.attributes.reason}</span>}
          {!e.attributes.livemode && <span class="tag">test</span>}
        </>
      ),
      text: (e) => `${e.attributes.outcome}${e.attributes.reason ? `: ${e.attributes.reason}` : ''}`,
    },
    { label: 'Records', cell: (e) => <Touched event={e} />, text: (e) => e.attributes.touched.map((t) => `${t.type} ${t.id}`).join(' ') },
    { label: 'Event', cell: (e) => <code>{e.id}</code>, text: (e) => e.id },
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
      <h1>Stripe events</h1>
      <div class="filters">
        <label>
          <span>Outcome</span>
          <select value={query.outcome_eq ?? ''} onChange={(e) => set({ outcome_eq: e.currentTarget.value })}>
            <option value="">Any</option>
            {OUTCOMES.map((o) => (
              <option value={o}>{o}</option>
            ))}
          </select>
        </label>
      </div>
      {said && (
        <p role="status" class="ok">
          {said}
        </p>
      )}
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title={query.outcome_eq ? 'No events with this outcome' : 'No Stripe events yet'}>
              <p>
                Connect Stripe in the <a href={href('/settings#stripe')}>settings</a>, then send a test event from Stripe's webhook page: it
                appears here with what it did.
              </p>
            </Empty>
          ) : (
            <>
              <Table caption="Stripe events" columns={columns} rows={answer.data} csv="stripe-events" />
              <Pager page={page} hasMore={answer.meta.pagination.has_more} go={(p) => set({ page: String(p) })} />
            </>
          )
        }
      </Show>
    </section>
  );
}
