// Paying partners: what is owed per partner and currency, payout runs through the providers'
// APIs (payout-runs.tsx), the export that makes PayPal's file (a batch holds its commissions
// until it is marked paid or cancelled), and past batches.

import { useLocation } from 'preact-iso/router';
import { useState } from 'preact/hooks';
import { api, apiHref, type Answer } from '../../common/api.js';
import { dateTime, int, money } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Confirm } from '../../common/forms.js';
import { Empty, Show, Table, type Column } from '../../common/ui.js';
import { href } from '../session.js';
import { PayoutRuns } from '../payout-runs.js';

type Owed = Answer<'/v1/payouts/owed'>['data'][number];
type Batch = Answer<'/v1/payout_batches'>['data'][number];
type Invoice = Answer<'/v1/invoices'>['data'][number];

/** Each partner's self-billing invoice of a paid batch (docs/payouts.md#invoices), newest first. */
const INVOICES: Column<Invoice>[] = [
  { label: 'Number', cell: (i) => i.attributes.label, text: (i) => i.attributes.label },
  {
    label: 'Partner',
    cell: (i) => <a href={href(`/partners/${i.attributes.partner_id}`)}>{i.attributes.supplier.name}</a>,
    text: (i) => i.attributes.supplier.name,
  },
  { label: 'Paid', cell: (i) => dateTime(i.attributes.paid_at), text: (i) => new Date(i.attributes.paid_at * 1000).toISOString() },
  {
    label: 'Amount',
    numeric: true,
    cell: (i) => money(i.attributes.amount, i.attributes.currency),
    text: (i) => `${i.attributes.amount} ${i.attributes.currency}`,
  },
  {
    label: 'PDF',
    cell: (i) => (
      <a class="button-link" href={apiHref('/v1/invoices/{id}/pdf', { path: { id: i.id } })} download>
        Download
      </a>
    ),
  },
];

const OWED: Column<Owed & { id: string }>[] = [
  { label: 'Partner', cell: (r) => <a href={href(`/partners/${r.partner_id}`)}>{r.name}</a>, text: (r) => r.name },
  {
    label: 'PayPal',
    cell: (r) => r.paypal_email ?? <span class="warn">missing: add it to pay them</span>,
    text: (r) => r.paypal_email ?? '',
  },
  { label: 'Commissions', numeric: true, cell: (r) => int(r.commissions), text: (r) => String(r.commissions) },
  { label: 'Owed', numeric: true, cell: (r) => money(r.amount, r.currency), text: (r) => `${r.amount} ${r.currency}` },
  { label: 'Next export', cell: (r) => <span class={r.due ? '' : 'warn'}>{dueText(r)}</span>, text: dueText },
];

/** Whether the next export pays the partner, and if not, why (the export skips them the same way). */
function dueText(r: Owed): string {
  if (r.due) return 'pays this';
  if (r.paypal_email === null) return 'skipped: no PayPal address';
  if (r.amount <= 0) return 'skipped: clawbacks exceed earnings, carried over';
  return `waits: below the minimum of ${money(r.minimum, r.currency)}`;
}

/** The batches' columns; `ask` opens the question before a batch is marked paid or cancelled. */
function batchColumnsOf(ask: (batch: Batch, action: 'paid' | 'cancel') => void): Column<Batch>[] {
  return [
    {
      label: 'Exported',
      cell: (b) => dateTime(b.attributes.created_at),
      text: (b) => new Date(b.attributes.created_at * 1000).toISOString(),
    },
    {
      label: 'Amount',
      numeric: true,
      cell: (b) => money(b.attributes.amount, b.attributes.currency),
      text: (b) => `${b.attributes.amount} ${b.attributes.currency}`,
    },
    { label: 'Partners', numeric: true, cell: (b) => int(b.attributes.partners), text: (b) => String(b.attributes.partners) },
    {
      label: 'State',
      cell: (b) => <span class={`state ${b.attributes.state}`}>{b.attributes.state}</span>,
      text: (b) => b.attributes.state,
    },
    {
      label: 'Actions',
      cell: (b) =>
        b.attributes.state === 'open' && (
          <>
            <a class="button-link" href={apiHref('/v1/payout_batches/{id}/file', { path: { id: b.id } })} download>
              Download file
            </a>
            <button type="button" class="link" onClick={() => ask(b, 'paid')}>
              Mark paid
            </button>
            <button type="button" class="link" onClick={() => ask(b, 'cancel')}>
              Cancel
            </button>
          </>
        ),
    },
  ];
}

/** What an export made: a file per currency to upload, or why there was nothing to pay. */
function ExportedNotice({ exported }: { exported: Batch[] }) {
  return (
    <div class="notice" role="status">
      {exported.length === 0 ? (
        <p>
          Nothing new to pay out: what is owed is in an open batch already, still in its holding period, below a minimum payout, or owed to
          partners without a PayPal address.
        </p>
      ) : (
        <p>
          Exported {exported.length} batch{exported.length > 1 ? 'es' : ''}. Download {exported.length > 1 ? 'each' : 'the'} file, upload it
          to PayPal Payouts, then mark it paid:{' '}
          {exported.map((b) => (
            <a class="button-link" href={apiHref('/v1/payout_batches/{id}/file', { path: { id: b.id } })} download>
              {b.attributes.currency} file
            </a>
          ))}
        </p>
      )}
    </div>
  );
}

export function Payouts() {
  // ?batch=ID: the batch a commission's "In payout batch" leads to, marked in the table.
  const { query } = useLocation();
  const loaded = useLoad(async (signal) => {
    const [owed, batches, invoices] = await Promise.all([
      api.GET('/v1/payouts/owed', { signal }),
      api.GET('/v1/payout_batches', { signal }),
      api.GET('/v1/invoices', { signal }),
    ]);
    return { owed: owed.data.map((o) => ({ ...o, id: `${o.partner_id}-${o.currency}` })), batches: batches.data, invoices: invoices.data };
  }, 'payouts');
  const [exported, setExported] = useState<Batch[] | null>(null);
  const [confirm, setConfirm] = useState<{ batch: Batch; action: 'paid' | 'cancel' } | null>(null);
  const [exporting, setExporting] = useState(false);
  const exportNow = async () => {
    const made = await api.POST('/v1/payout_batches', { body: {} });
    setExported(made.data);
    loaded.reload();
  };
  const batchColumns = batchColumnsOf((batch, action) => setConfirm({ batch, action }));
  return (
    <section>
      <div class="page-head">
        <h1>Payouts</h1>
        <button type="button" onClick={() => setExporting(true)}>
          Export PayPal file
        </button>
      </div>
      {exported && <ExportedNotice exported={exported} />}
      {/* Outside the owed figures' loading, so that a run's answer (who was skipped) outlives their reload. */}
      <PayoutRuns changed={loaded.reload} />
      <Show loaded={loaded}>
        {({ owed, batches, invoices }) => (
          <>
            <h2>Owed now</h2>
            {owed.length === 0 ? (
              <Empty title="Nothing is owed">
                <p>Pending commissions of accepted partners appear here until they are exported.</p>
              </Empty>
            ) : (
              <Table caption="Owed now" columns={OWED} rows={owed} csv="owed" />
            )}
            <h2>Batches</h2>
            {batches.length === 0 ? (
              <Empty title="No payouts yet">
                <p>Export a PayPal file above: it becomes a batch that holds its commissions until you mark it paid.</p>
              </Empty>
            ) : (
              <Table caption="Payout batches" columns={batchColumns} rows={batches} csv="payout-batches" current={query.batch} />
            )}
            <h2>Invoices</h2>
            {invoices.length === 0 ? (
              <Empty title="No invoices yet">
                <p>Marking a batch paid issues each of its partners a self-billing invoice, numbered in order.</p>
              </Empty>
            ) : (
              <Table caption="Invoices" columns={INVOICES} rows={invoices} csv="invoices" />
            )}
          </>
        )}
      </Show>
      {exporting && (
        <Confirm title="Export a PayPal file now?" confirm="Export" onClose={() => setExporting(false)} onConfirm={exportNow}>
          <p>
            Each currency's payable commissions go into a batch, which holds them until you mark it paid or cancel it. Nothing is paid until
            you upload the file to PayPal.
          </p>
        </Confirm>
      )}
      {confirm && (
        <Confirm
          title={
            confirm.action === 'paid'
              ? `Mark ${money(confirm.batch.attributes.amount, confirm.batch.attributes.currency)} paid?`
              : 'Cancel this batch?'
          }
          confirm={confirm.action === 'paid' ? 'Mark paid' : 'Cancel batch'}
          danger={confirm.action === 'cancel'}
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await api.POST(confirm.action === 'paid' ? '/v1/payout_batches/{id}/paid' : '/v1/payout_batches/{id}/cancel', {
              params: { path: { id: confirm.batch.id } },
            });
            // The banner offers files still to upload: a batch paid or cancelled leaves it, and an empty banner goes.
            setExported((made) => {
              const left = made?.filter((b) => b.id !== confirm.batch.id) ?? null;
              return left?.length ? left : null;
            });
            loaded.reload();
          }}
        >
          <p>
            {confirm.action === 'paid'
              ? 'Do this once PayPal has paid the file: its commissions become paid. Nothing moves if any of them changed since the export.'
              : 'Its commissions are free for the next export. Only for a file that was never uploaded, or that PayPal refused.'}
          </p>
        </Confirm>
      )}
    </section>
  );
}
