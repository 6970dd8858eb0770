// Paying partners: what is owed per partner and currency, payout runs through the providers'
// APIs (runs.tsx), the export that makes PayPal's file (a batch holds its commissions
// until it is marked paid or cancelled), and past batches.

import { useLocation } from 'preact-iso/router';
import { useState } from 'preact/hooks';
import { api, apiHref, type Answer } from '../../common/api.js';
import { dateTime, int, money } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Confirm } from '../../common/forms.js';
import { Empty, Show, Table, type Column } from '../../common/ui.js';
import { href } from '../session.js';
import { PayoutRuns } from './runs.js';
import { t } from './words.js';

type Owed = Answer<'/v1/payouts/owed'>['data'][number];
type Batch = Answer<'/v1/payout_batches'>['data'][number];
type Invoice = Answer<'/v1/invoices'>['data'][number];

// The columns are made when the page renders, so their headings are in the language spoken then.

/** Each partner's self-billing invoice of a paid batch (docs/payouts.md#invoices), newest first. */
const invoiceColumns = (): Column<Invoice>[] => [
  { label: t('invoices.number'), cell: (i) => i.attributes.label, text: (i) => i.attributes.label },
  {
    label: t('partner'),
    cell: (i) => <a href={href(`/partners/${i.attributes.partner_id}`)}>{i.attributes.supplier.name}</a>,
    text: (i) => i.attributes.supplier.name,
  },
  {
    label: t('invoices.paid'),
    cell: (i) => dateTime(i.attributes.paid_at),
    text: (i) => new Date(i.attributes.paid_at * 1000).toISOString(),
  },
  {
    label: t('amount'),
    numeric: true,
    cell: (i) => money(i.attributes.amount, i.attributes.currency),
    text: (i) => `${i.attributes.amount} ${i.attributes.currency}`,
  },
  {
    label: t('invoices.pdf'),
    cell: (i) => (
      <a class="button-link" href={apiHref('/v1/invoices/{id}/pdf', { path: { id: i.id } })} download>
        {t('invoices.download')}
      </a>
    ),
  },
];

const owedColumns = (): Column<Owed & { id: string }>[] => [
  { label: t('partner'), cell: (r) => <a href={href(`/partners/${r.partner_id}`)}>{r.name}</a>, text: (r) => r.name },
  {
    label: 'PayPal',
    cell: (r) => r.paypal_email ?? <span class="warn">{t('owed.missing')}</span>,
    text: (r) => r.paypal_email ?? '',
  },
  { label: t('owed.commissions'), numeric: true, cell: (r) => int(r.commissions), text: (r) => String(r.commissions) },
  { label: t('owedColumn'), numeric: true, cell: (r) => money(r.amount, r.currency), text: (r) => `${r.amount} ${r.currency}` },
  { label: t('owed.next'), cell: (r) => <span class={r.due ? '' : 'warn'}>{dueText(r)}</span>, text: dueText },
];

/** Whether the next export pays the partner, and if not, why (the export skips them the same way). */
function dueText(r: Owed): string {
  if (r.due) return t('owed.paysThis');
  if (r.paypal_email === null) return t('owed.noPaypal');
  if (r.amount <= 0) return t('owed.clawbacks');
  return t('owed.belowMinimum', { amount: money(r.minimum, r.currency) });
}

/** The batches' columns; `ask` opens the question before a batch is marked paid or cancelled. */
function batchColumnsOf(ask: (batch: Batch, action: 'paid' | 'cancel') => void): Column<Batch>[] {
  return [
    {
      label: t('batches.exported'),
      cell: (b) => dateTime(b.attributes.created_at),
      text: (b) => new Date(b.attributes.created_at * 1000).toISOString(),
    },
    {
      label: t('amount'),
      numeric: true,
      cell: (b) => money(b.attributes.amount, b.attributes.currency),
      text: (b) => `${b.attributes.amount} ${b.attributes.currency}`,
    },
    { label: t('batches.partners'), numeric: true, cell: (b) => int(b.attributes.partners), text: (b) => String(b.attributes.partners) },
    {
      label: t('state'),
      cell: (b) => <span class={`state ${b.attributes.state}`}>{t(`batchStates.${b.attributes.state}`)}</span>,
      text: (b) => b.attributes.state,
    },
    {
      label: t('actions'),
      cell: (b) =>
        b.attributes.state === 'open' && (
          <>
            <a class="button-link" href={apiHref('/v1/payout_batches/{id}/file', { path: { id: b.id } })} download>
              {t('batches.downloadFile')}
            </a>
            <button type="button" class="link" onClick={() => ask(b, 'paid')}>
              {t('batches.markPaid')}
            </button>
            <button type="button" class="link" onClick={() => ask(b, 'cancel')}>
              {t('batches.cancel')}
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
        <p>{t('export.nothing')}</p>
      ) : (
        <p>
          {t('export.made', { count: exported.length, n: int(exported.length) })}{' '}
          {exported.map((b) => (
            <a class="button-link" href={apiHref('/v1/payout_batches/{id}/file', { path: { id: b.id } })} download>
              {t('export.file', { currency: b.attributes.currency })}
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
        <h1>{t('title')}</h1>
        <button type="button" onClick={() => setExporting(true)}>
          {t('export.button')}
        </button>
      </div>
      {exported && <ExportedNotice exported={exported} />}
      {/* Outside the owed figures' loading, so that a run's answer (who was skipped) outlives their reload. */}
      <PayoutRuns changed={loaded.reload} />
      <Show loaded={loaded}>
        {({ owed, batches, invoices }) => (
          <>
            <h2>{t('owed.title')}</h2>
            {owed.length === 0 ? (
              <Empty title={t('owed.none')}>
                <p>{t('owed.noneText')}</p>
              </Empty>
            ) : (
              <Table caption={t('owed.title')} columns={owedColumns()} rows={owed} csv="owed" />
            )}
            <h2>{t('batches.title')}</h2>
            {batches.length === 0 ? (
              <Empty title={t('batches.none')}>
                <p>{t('batches.noneText')}</p>
              </Empty>
            ) : (
              <Table caption={t('batches.caption')} columns={batchColumns} rows={batches} csv="payout-batches" current={query.batch} />
            )}
            <h2>{t('invoices.title')}</h2>
            {invoices.length === 0 ? (
              <Empty title={t('invoices.none')}>
                <p>{t('invoices.noneText')}</p>
              </Empty>
            ) : (
              <Table caption={t('invoices.title')} columns={invoiceColumns()} rows={invoices} csv="invoices" />
            )}
          </>
        )}
      </Show>
      {exporting && (
        <Confirm title={t('export.title')} confirm={t('export.confirm')} onClose={() => setExporting(false)} onConfirm={exportNow}>
          <p>{t('export.text')}</p>
        </Confirm>
      )}
      {confirm && (
        <Confirm
          title={
            confirm.action === 'paid'
              ? t('batches.markPaidTitle', { amount: money(confirm.batch.attributes.amount, confirm.batch.attributes.currency) })
              : t('batches.cancelTitle')
          }
          confirm={confirm.action === 'paid' ? t('batches.markPaid') : t('batches.cancelConfirm')}
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
          <p>{confirm.action === 'paid' ? t('batches.markPaidText') : t('batches.cancelText')}</p>
        </Confirm>
      )}
    </section>
  );
}
