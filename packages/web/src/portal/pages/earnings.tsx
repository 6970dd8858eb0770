// Each commission with its state, amount and the date it becomes payable; each payout
// that paid them, with the partner's share. Each list pages on its own. Then how the
// partner is paid in this program, and their tax form for it (payment/).

import { useLocation } from 'preact-iso/router';
import { api, apiHref, type Answer } from '../../common/api.js';
import { dateTime, int, money } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Pager, Show, Table, type Column } from '../../common/ui.js';
import { stateWord, t } from '../language.js';
import { usePortal } from '../session.js';
import { PayoutMethod, TaxForm } from '../payment/panels.js';

type Commission = Answer<'/v1/portal/partnerships/{id}/commissions'>['data'][number];
type Payout = Answer<'/v1/portal/partnerships/{id}/payouts'>['data'][number];
type Invoice = Answer<'/v1/portal/partnerships/{id}/invoices'>['data'][number];
type CreditNote = Answer<'/v1/portal/partnerships/{id}/credit_notes'>['data'][number];

function whenPayable(c: Commission): string {
  const a = c.attributes;
  if (a.state === 'paid') return a.paid_at ? t('earnings.paidOn', { date: dateTime(a.paid_at) }) : t('earnings.paid');
  if (a.state === 'rejected') return '—';
  if (a.under_review) return t('earnings.reviewing');
  if (a.on_hold) return t('earnings.held');
  return a.payable_at * 1000 > Date.now() ? dateTime(a.payable_at) : t('earnings.atNextPayout');
}

// The CSV keeps the API's values (ISO dates, minor units, state codes) under headings in the partner's language.
const commissions = (): Column<Commission>[] => [
  {
    label: t('earnings.date'),
    cell: (c) => dateTime(c.attributes.created_at),
    text: (c) => new Date(c.attributes.created_at * 1000).toISOString(),
  },
  {
    label: t('earnings.amount'),
    numeric: true,
    cell: (c) => money(c.attributes.amount, c.attributes.currency),
    text: (c) => `${c.attributes.amount} ${c.attributes.currency}`,
  },
  {
    label: t('earnings.state'),
    // Under review: the company holds it until they decide (what held it is theirs to see).
    cell: (c) => (
      <>
        <span class={`state ${c.attributes.state}`}>
          {c.attributes.clawback ? t('earnings.clawback') : stateWord(`commissionState.${c.attributes.state}`, c.attributes.state)}
          {c.attributes.reject_reason ? `: ${c.attributes.reject_reason}` : ''}
        </span>
        {c.attributes.under_review && <span class="tag held">{t('earnings.underReview')}</span>}
      </>
    ),
    text: (c) => (c.attributes.under_review ? `${c.attributes.state} (under review)` : c.attributes.state),
  },
  { label: t('earnings.payable'), cell: whenPayable, text: whenPayable },
];

const payouts = (): Column<Payout>[] => [
  {
    label: t('earnings.date'),
    cell: (b) => dateTime(b.attributes.created_at),
    text: (b) => new Date(b.attributes.created_at * 1000).toISOString(),
  },
  {
    label: t('earnings.amount'),
    numeric: true,
    cell: (b) => money(b.attributes.amount, b.attributes.currency),
    text: (b) => `${b.attributes.amount} ${b.attributes.currency}`,
  },
  {
    label: t('earnings.count'),
    numeric: true,
    cell: (b) => int(b.attributes.commissions),
    text: (b) => String(b.attributes.commissions),
  },
  {
    label: t('earnings.state'),
    cell: (b) => <span class={`state ${b.attributes.state}`}>{stateWord(`payoutState.${b.attributes.state}`, b.attributes.state)}</span>,
    text: (b) => b.attributes.state,
  },
];

/** A document's download link: the PDF route of the partnership `id`. */
const pdfColumn = <T extends { id: string }>(href: (row: T) => string): Column<T> => ({
  label: 'PDF',
  cell: (row) => (
    <a class="button-link" href={href(row)} download>
      {t('earnings.download')}
    </a>
  ),
});

/** A document's number, date and amount (an invoice, a credit note). */
function documentColumns<T extends { attributes: { label: string; amount: number; currency: string } }>(
  dateOf: (row: T) => number,
): Column<T>[] {
  return [
    { label: t('earnings.invoiceNumber'), cell: (i) => i.attributes.label, text: (i) => i.attributes.label },
    {
      label: t('earnings.date'),
      cell: (i) => dateTime(dateOf(i)),
      text: (i) => new Date(dateOf(i) * 1000).toISOString(),
    },
    {
      label: t('earnings.amount'),
      numeric: true,
      cell: (i) => money(i.attributes.amount, i.attributes.currency),
      text: (i) => `${i.attributes.amount} ${i.attributes.currency}`,
    },
  ];
}

/** The self-billing invoice of each paid payout, with its PDF; `id` is the partnership's. */
const invoices = (id: string): Column<Invoice>[] => [
  ...documentColumns<Invoice>((i) => i.attributes.paid_at),
  pdfColumn((i) => apiHref('/v1/portal/partnerships/{id}/invoices/{invoice}/pdf', { path: { id, invoice: i.id } })),
];

/** The credit notes correcting an invoice when a payout's money came back, with the invoice each corrects. */
const creditNotes = (id: string): Column<CreditNote>[] => [
  ...documentColumns<CreditNote>((n) => n.attributes.issued_at),
  { label: t('earnings.corrects'), cell: (n) => n.attributes.invoice_label, text: (n) => n.attributes.invoice_label },
  pdfColumn((n) => apiHref('/v1/portal/partnerships/{id}/credit_notes/{note}/pdf', { path: { id, note: n.id } })),
];

interface ListPanel<T> {
  title: string;
  /** The table's name for assistive technology. */
  caption: string;
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
function Panel<T extends { id: string }>({ title, caption, param, load, columns, csv, empty }: ListPanel<T>) {
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
              <Table caption={caption} columns={columns} rows={answer.data} csv={csv} />
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
      <h1>{t('nav.earnings')}</h1>
      {!current ? (
        <Empty title={t('app.noProgram')} />
      ) : (
        <>
          <Panel
            title={t('earnings.commissions')}
            caption={t('earnings.yourCommissions')}
            param="commissions_page"
            load={(id, page, signal) =>
              api.GET('/v1/portal/partnerships/{id}/commissions', { params: { path: { id }, query: { page } }, signal })
            }
            columns={commissions()}
            csv="commissions"
            empty={[t('earnings.noCommissions'), t('earnings.noCommissionsText')]}
          />
          <Panel
            title={t('earnings.payouts')}
            caption={t('earnings.yourPayouts')}
            param="payouts_page"
            load={(id, page, signal) =>
              api.GET('/v1/portal/partnerships/{id}/payouts', { params: { path: { id }, query: { page } }, signal })
            }
            columns={payouts()}
            csv="payouts"
            empty={[t('earnings.noPayouts'), t('earnings.noPayoutsText')]}
          />
          <Panel
            title={t('earnings.invoices')}
            caption={t('earnings.yourInvoices')}
            param="invoices_page"
            load={(id, page, signal) =>
              api.GET('/v1/portal/partnerships/{id}/invoices', { params: { path: { id }, query: { page } }, signal })
            }
            columns={invoices(current.id)}
            csv="invoices"
            empty={[t('earnings.noInvoices'), t('earnings.noInvoicesText')]}
          />
          <Panel
            title={t('earnings.creditNotes')}
            caption={t('earnings.yourCreditNotes')}
            param="credit_notes_page"
            load={(id, page, signal) =>
              api.GET('/v1/portal/partnerships/{id}/credit_notes', { params: { path: { id }, query: { page } }, signal })
            }
            columns={creditNotes(current.id)}
            csv="credit-notes"
            empty={[t('earnings.noCreditNotes'), t('earnings.noCreditNotesText')]}
          />
          <PayoutMethod id={current.id} />
          <TaxForm id={current.id} />
        </>
      )}
    </section>
  );
}
