// Payout runs on the Payouts page (docs/payouts.md, "Payout runs"): make one of what is
// payable (its payouts, and who was skipped and why), approve it (owners only), send it
// through the providers' APIs, read each payout's state, refresh what PayPal has not told
// yet, and retry what failed. Every step asks first; the API decides, the page only offers.

import { useState } from 'preact/hooks';
import { api, apiHref, type Answer } from '../../common/api.js';
import { dateTime, int, money, parseMajor } from '../../common/format.js';
import { Confirm } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Show, Table, type Column } from '../../common/ui.js';
import { href, useRole } from '../session.js';
import { t } from './words.js';

type Run = Answer<'/v1/payout_runs/{id}'>['data'];
type Item = Answer<'/v1/payout_runs/{id}'>['included'][number];
type Document = Answer<'/v1/payout_runs/{id}'>['meta']['documents'][number];
type Skipped = Answer<'/v1/payout_runs', 'post'>['meta']['skipped'][number];
type Verb = 'make' | 'approve' | 'send' | 'retry' | 'refresh';
type ItemState = Item['attributes']['state'];

const METHOD_TITLES: Record<string, string> = { paypal: 'PayPal', stripe_connect: 'Stripe Connect', wise: 'Wise' };
const methodTitle = (m: string) => METHOD_TITLES[m] ?? m;

/** "3 pending · 1 failed": how many of the run's payouts are in each state (one the dashboard does not know by its name). */
const counts = (r: Run) =>
  Object.entries(r.attributes.items)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => t(`runs.counts.${state as ItemState}`, { count: n, n: int(n), defaultValue: `${int(n)} ${state}` }))
    .join(' · ') || t('runs.noPayouts');

/** A payout's invoice and credit notes, each its PDF. */
function Documents({ of }: { of: Document[] }) {
  if (of.length === 0) return <>—</>;
  return (
    <>
      {of.map((d, n) => (
        <span key={d.id}>
          {n > 0 && ' · '}
          <a
            href={apiHref(d.type === 'invoice' ? '/v1/invoices/{id}/pdf' : '/v1/credit_notes/{id}/pdf', { path: { id: d.id } })}
            download
            aria-label={t(d.type === 'invoice' ? 'runs.invoice' : 'runs.creditNote', { label: d.label })}
          >
            {d.label}
          </a>
        </span>
      ))}
    </>
  );
}

const feeOf = (i: Item) => (i.attributes.provider_fee === null ? '—' : money(i.attributes.provider_fee, i.attributes.currency));

/** The run's payouts; `documents`: each paid payout's invoice and credit notes. */
const itemColumns = (documents: Document[]): Column<Item>[] => {
  const of = (i: Item) => documents.filter((d) => d.payout_id === i.id);
  return [
    {
      label: t('partner'),
      cell: (i) => <a href={href(`/partners/${i.attributes.partner_id}`)}>{i.attributes.address}</a>,
      text: (i) => i.attributes.address,
    },
    { label: t('runs.method'), cell: (i) => methodTitle(i.attributes.method), text: (i) => i.attributes.method, minor: true },
    {
      label: t('amount'),
      numeric: true,
      cell: (i) => (
        <>
          {money(i.attributes.amount, i.attributes.currency)}
          {i.attributes.amount_reversed > 0 && i.attributes.state === 'paid' && (
            <span class="reason"> {t('runs.reversed', { amount: money(i.attributes.amount_reversed, i.attributes.currency) })}</span>
          )}
        </>
      ),
      text: (i) => `${i.attributes.amount} ${i.attributes.currency}`,
    },
    // What the provider charged the program, on top of the partner's amount.
    { label: t('runs.fee'), numeric: true, cell: feeOf, text: (i) => String(i.attributes.provider_fee ?? '') },
    {
      label: t('state'),
      cell: (i) => (
        <>
          <span class={`state ${i.attributes.state}`}>{t(`runs.itemStates.${i.attributes.state}`)}</span>
          {i.attributes.reason && <span class="reason">: {i.attributes.reason}</span>}
        </>
      ),
      text: (i) => (i.attributes.reason ? `${i.attributes.state}: ${i.attributes.reason}` : i.attributes.state),
    },
    {
      label: t('runs.invoiceColumn'),
      cell: (i) => <Documents of={of(i)} />,
      text: (i) =>
        of(i)
          .map((d) => d.label)
          .join(' '),
    },
    {
      label: t('runs.since'),
      cell: (i) => dateTime(i.attributes.state_set_at),
      text: (i) => String(i.attributes.state_set_at),
      minor: true,
    },
  ];
};

/** What a skipped partner is owed, in the API's major units ("-7.00": clawbacks exceed earnings); as sent when the currency is unknown (then minor units). */
function owedOf(s: Skipped): string {
  const negative = s.amount.startsWith('-');
  try {
    if (s.reason !== 'unknown currency')
      return money((negative ? -1 : 1) * parseMajor(s.amount.slice(negative ? 1 : 0), s.currency), s.currency);
  } catch {
    // Not an amount of the currency's digits: shown as sent rather than not at all.
  }
  return `${s.amount} ${s.currency}`;
}

/** The API's reason a partner was skipped, in words: its codes, and a provider's own detail as it said it. */
const SKIP_REASONS: Record<string, () => string> = {
  'no paypal_email': () => t('runs.skip.noPaypal'),
  'no valid tax form': () => t('runs.skip.noTaxForm'),
  'unknown currency': () => t('runs.skip.unknownCurrency'),
  'below minimum payout': () => t('runs.skip.belowMinimum'),
  'clawbacks exceed earnings': () => t('runs.skip.clawbacks'),
};
function whyNot(reason: string): string {
  const known = SKIP_REASONS[reason];
  if (known) return known();
  const detail = /^(stripe_connect|wise) not ready: (.*)$/.exec(reason);
  if (detail) return t(detail[1] === 'wise' ? 'runs.skip.wiseNotReady' : 'runs.skip.stripeNotReady', { why: detail[2] ?? '' });
  const currencies = /^wise recipient takes (\S+), not (\S+)$/.exec(reason);
  return currencies ? t('runs.skip.wiseCurrency', { takes: currencies[1] ?? '', currency: currencies[2] ?? '' }) : reason;
}

const skippedColumns = (): Column<Skipped & { id: string }>[] => [
  { label: t('partner'), cell: (s) => <a href={href(`/partners/${s.partner_id}`)}>{s.name}</a>, text: (s) => s.name },
  { label: t('owedColumn'), numeric: true, cell: owedOf, text: (s) => `${s.amount} ${s.currency}` },
  { label: t('runs.whyNot'), cell: (s) => whyNot(s.reason), text: (s) => s.reason },
];

/** What each step asks before it is taken. */
const question = (verb: Verb) => ({
  title: t(`runs.ask.${verb}.title`),
  confirm: t(`runs.ask.${verb}.confirm`),
  text: t(`runs.ask.${verb}.text`),
});

/** The buttons a run offers now, for the signed-in member's role. */
function RunActions({ run, items, role, ask }: { run: Run; items: Item[]; role: string | undefined; ask: (v: Verb) => void }) {
  const state = run.attributes.state;
  const has = (s: string) => items.some((i) => i.attributes.state === s);
  if (role === 'viewer') return <p class="hint">{t('runs.viewer')}</p>;
  return (
    <div class="buttons">
      {state === 'draft' &&
        (role === 'owner' ? (
          <button type="button" onClick={() => ask('approve')}>
            {t('runs.ask.approve.confirm')}
          </button>
        ) : (
          <p class="hint">{t('runs.waiting')}</p>
        ))}
      {state === 'approved' && (
        <button type="button" onClick={() => ask('send')}>
          {t('runs.ask.send.confirm')}
        </button>
      )}
      {state === 'sent' && has('failed') && (
        <button type="button" onClick={() => ask('retry')}>
          {t('runs.ask.retry.confirm')}
        </button>
      )}
      {state === 'sent' && (has('processing') || has('pending')) && (
        <button type="button" class="secondary" onClick={() => ask('refresh')}>
          {t('runs.refresh')}
        </button>
      )}
    </div>
  );
}

/** One run: its state, its payouts, what it offers to do. */
function RunPanel({
  run,
  items,
  documents,
  role,
  ask,
}: {
  run: Run;
  items: Item[];
  documents: Document[];
  role: string | undefined;
  ask: (v: Verb) => void;
}) {
  const a = run.attributes;
  return (
    <section class="panel payout-run" aria-labelledby="run-title">
      <div class="panel-head">
        <h3 id="run-title">{t('runs.runOf', { date: dateTime(a.created_at) })}</h3>
        <span class={`state ${a.state}`}>{t(`runs.states.${a.state}`)}</span>
      </div>
      <p>
        {t('runs.madeBy', { counts: counts(run), by: a.created_by })}
        {a.approved_at !== null && t('runs.approvedBy', { date: dateTime(a.approved_at), by: a.approved_by ?? '' })}
        {a.sent_at !== null && t('runs.sentAt', { date: dateTime(a.sent_at) })}
        {a.sent_at !== null && a.attempt > 1 && t('runs.attempt', { n: int(a.attempt) })}.
      </p>
      {items.length > 0 ? (
        <Table caption={t('runs.items')} columns={itemColumns(documents)} rows={items} csv="payout-run" />
      ) : (
        <p>{t('runs.empty')}</p>
      )}
      <RunActions run={run} items={items} role={role} ask={ask} />
    </section>
  );
}

/** `changed`: what is owed moved (a run claimed it, or a failure gave it back). */
export function PayoutRuns({ changed }: { changed: () => void }) {
  const role = useRole();
  const [picked, setPicked] = useState<string | null>(null);
  const [skipped, setSkipped] = useState<Skipped[] | null>(null);
  const [asking, setAsking] = useState<Verb | null>(null);
  const loaded = useLoad(async (signal) => {
    const runs = (await api.GET('/v1/payout_runs', { signal })).data;
    const id = picked ?? runs[0]?.id;
    const shown = id ? await api.GET('/v1/payout_runs/{id}', { params: { path: { id } }, signal }) : null;
    return { runs, shown };
  }, `runs-${picked}`);
  const act = async (verb: Verb) => {
    if (verb === 'make') {
      const made = await api.POST('/v1/payout_runs', {});
      setSkipped(made.meta.skipped);
      setPicked(made.data.id);
    } else {
      const id = loaded.data?.shown?.data.id ?? '';
      await api.POST(`/v1/payout_runs/{id}/${verb}`, { params: { path: { id } } });
    }
    loaded.reload();
    changed();
  };
  const runColumns: Column<Run>[] = [
    { label: t('runs.made'), cell: (r) => dateTime(r.attributes.created_at), text: (r) => String(r.attributes.created_at) },
    {
      label: t('state'),
      cell: (r) => <span class={`state ${r.attributes.state}`}>{t(`runs.states.${r.attributes.state}`)}</span>,
      text: (r) => r.attributes.state,
    },
    { label: t('runs.payouts'), cell: counts, text: counts },
    {
      label: t('actions'),
      cell: (r) => (
        <button
          type="button"
          class="link"
          aria-label={t('runs.openRun', { date: dateTime(r.attributes.created_at) })}
          onClick={() => setPicked(r.id)}
        >
          {t('runs.open')}
        </button>
      ),
    },
  ];
  return (
    <section aria-labelledby="runs-title">
      <div class="panel-head">
        <h2 id="runs-title">{t('runs.title')}</h2>
        {role !== 'viewer' && (
          <button type="button" onClick={() => setAsking('make')}>
            {t('runs.make')}
          </button>
        )}
      </div>
      <p class="hint">{t('runs.intro')}</p>
      {skipped && skipped.length > 0 && (
        <div class="notice" role="status">
          <p>{t('runs.notIn', { count: skipped.length, n: int(skipped.length) })}</p>
          <Table
            caption={t('runs.skipped')}
            columns={skippedColumns()}
            rows={skipped.map((s) => ({ ...s, id: `${s.partner_id}-${s.currency}` }))}
          />
        </div>
      )}
      <Show loaded={loaded}>
        {({ runs, shown }) =>
          runs.length === 0 || !shown ? (
            <Empty title={t('runs.none')}>
              <p>{t('runs.noneText')}</p>
            </Empty>
          ) : (
            <>
              <RunPanel run={shown.data} items={shown.included} documents={shown.meta.documents} role={role} ask={setAsking} />
              {runs.length > 1 && <Table caption={t('runs.title')} columns={runColumns} rows={runs} current={shown.data.id} />}
            </>
          )
        }
      </Show>
      {asking && (
        <Confirm
          title={question(asking).title}
          confirm={question(asking).confirm}
          onClose={() => setAsking(null)}
          onConfirm={() => act(asking)}
        >
          <p>{question(asking).text}</p>
        </Confirm>
      )}
    </section>
  );
}
