// Each commission with its state, amount and the date it becomes payable; each payout
// that paid them, with the partner's share. Each list pages on its own.

import { useLocation } from 'preact-iso/router';
import { api, type Answer } from '../../common/api.js';
import { dateTime, int, money } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Pager, Show, Table, type Column } from '../../common/ui.js';
import { usePortal } from '../session.js';

type Commission = Answer<'/v1/portal/partnerships/{id}/commissions'>['data'][number];
type Payout = Answer<'/v1/portal/partnerships/{id}/payouts'>['data'][number];

function whenPayable(c: Commission): string {
  const a = c.attributes;
  if (a.state === 'paid') return a.paid_at ? `paid ${dateTime(a.paid_at)}` : 'paid';
  if (a.state === 'rejected') return '—';
  if (a.under_review) return 'once the company has reviewed it';
  if (a.on_hold) return 'held: the payment is disputed';
  return a.payable_at * 1000 > Date.now() ? dateTime(a.payable_at) : 'at the next payout';
}

const COMMISSIONS: Column<Commission>[] = [
  { label: 'Date', cell: (c) => dateTime(c.attributes.created_at), text: (c) => new Date(c.attributes.created_at * 1000).toISOString() },
  {
    label: 'Amount',
    numeric: true,
    cell: (c) => money(c.attributes.amount, c.attributes.currency),
    text: (c) => `${c.attributes.amount} ${c.attributes.currency}`,
  },
  {
    label: 'State',
    // Under review: the company holds it until they decide (what held it is theirs to see).
    cell: (c) => (
      <>
        <span class={`state ${c.attributes.state}`}>
          {c.attributes.clawback ? 'refund taken back' : c.attributes.state}
          {c.attributes.reject_reason ? `: ${c.attributes.reject_reason}` : ''}
        </span>
        {c.attributes.under_review && <span class="tag held">Under review</span>}
      </>
    ),
    text: (c) => (c.attributes.under_review ? `${c.attributes.state} (under review)` : c.attributes.state),
  },
  { label: 'Payable', cell: whenPayable, text: whenPayable },
];

const PAYOUTS: Column<Payout>[] = [
  { label: 'Date', cell: (b) => dateTime(b.attributes.created_at), text: (b) => new Date(b.attributes.created_at * 1000).toISOString() },
  {
    label: 'Amount',
    numeric: true,
    cell: (b) => money(b.attributes.amount, b.attributes.currency),
    text: (b) => `${b.attributes.amount} ${b.attributes.currency}`,
  },
  { label: 'Commissions', numeric: true, cell: (b) => int(b.attributes.commissions), text: (b) => String(b.attributes.commissions) },
  {
    label: 'State',
    cell: (b) => <span class={`state ${b.attributes.state}`}>{b.attributes.state === 'open' ? 'being paid' : b.attributes.state}</span>,
    text: (b) => b.attributes.state,
  },
];

interface ListPanel<T> {
  title: string;
  /** The address's parameter for the list's page (two lists share this page). */
  param: string;
  /** A page of the list under the partnership `id`. */
  load: (id: string, page: number, signal: AbortSignal) => Promise<{ data: T[]; meta: { pagination: { has_more: boolean } } }>;
  columns: Column<T>[];
  csv: string;
  /** What to say, and what to do, while the list is empty. */
  empty: [string, string];
}

/** One of the partnership's lists, a page at a time, with its CSV download. */
function Panel<T extends { id: string }>({ title, param, load, columns, csv, empty }: ListPanel<T>) {
  const { current } = usePortal();
  const { query, path: at, route } = useLocation();
  const page = Math.max(1, Number(query[param]) || 1);
  const id = current?.id ?? '';
  const loaded = useLoad(current ? (signal) => load(id, page, signal) : null, `${id}/${page}`);
  return (
    <section class="panel">
      <h2>{title}</h2>
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 && page === 1 ? (
            <Empty title={empty[0]}>
              <p>{empty[1]}</p>
            </Empty>
          ) : (
            <>
              <Table caption={`Your ${title.toLowerCase()}`} columns={columns} rows={answer.data} csv={csv} />
              <Pager
                page={page}
                hasMore={answer.meta.pagination.has_more}
                go={(n) => route(`${at}?${new URLSearchParams({ ...query, [param]: String(n) })}`)}
              />
            </>
          )
        }
      </Show>
    </section>
  );
}

export function Earnings() {
  const { current } = usePortal();
  return (
    <section>
      <h1>Commissions and payouts</h1>
      {!current ? (
        <Empty title="No program yet" />
      ) : (
        <>
          <Panel
            title="Commissions"
            param="commissions_page"
            load={(id, page, signal) =>
              api.GET('/v1/portal/partnerships/{id}/commissions', { params: { path: { id }, query: { page } }, signal })
            }
            columns={COMMISSIONS}
            csv="commissions"
            empty={['No commissions yet', 'When a customer you referred pays, your share appears here, with the date it can be paid out.']}
          />
          <Panel
            title="Payouts"
            param="payouts_page"
            load={(id, page, signal) =>
              api.GET('/v1/portal/partnerships/{id}/payouts', { params: { path: { id }, query: { page } }, signal })
            }
            columns={PAYOUTS}
            csv="payouts"
            empty={['No payouts yet', 'Payouts go to your PayPal address: check it in Settings.']}
          />
        </>
      )}
    </section>
  );
}
