// Payout runs on the Payouts page (docs/payouts.md, "Payout runs"): make one of what is
// payable (its payouts, and who was skipped and why), approve it (owners only), send it
// through the providers' APIs, read each payout's state, refresh what PayPal has not told
// yet, and retry what failed. Every step asks first; the API decides, the page only offers.

import { useState } from 'preact/hooks';
import { api, apiHref, type Answer } from '../common/api.js';
import { dateTime, money } from '../common/format.js';
import { Confirm } from '../common/forms.js';
import { useLoad } from '../common/use-api.js';
import { Empty, Show, Table, type Column } from '../common/ui.js';
import { href, useRole } from './session.js';

type Run = Answer<'/v1/payout_runs/{id}'>['data'];
type Item = Answer<'/v1/payout_runs/{id}'>['included'][number];
type Document = Answer<'/v1/payout_runs/{id}'>['meta']['documents'][number];
type Skipped = Answer<'/v1/payout_runs', 'post'>['meta']['skipped'][number];
type Verb = 'make' | 'approve' | 'send' | 'retry' | 'refresh';

const METHOD_TITLES: Record<string, string> = { paypal: 'PayPal', stripe_connect: 'Stripe Connect', wise: 'Wise' };
const methodTitle = (m: string) => METHOD_TITLES[m] ?? m;

/** "3 pending · 1 failed": how many of the run's payouts are in each state. */
const counts = (r: Run) =>
  Object.entries(r.attributes.items)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`)
    .join(' · ') || 'no payouts';

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
            aria-label={`${d.type === 'invoice' ? 'Invoice' : 'Credit note'} ${d.label} (PDF)`}
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
      label: 'Partner',
      cell: (i) => <a href={href(`/partners/${i.attributes.partner_id}`)}>{i.attributes.address}</a>,
      text: (i) => i.attributes.address,
    },
    { label: 'Method', cell: (i) => methodTitle(i.attributes.method), text: (i) => i.attributes.method, minor: true },
    {
      label: 'Amount',
      numeric: true,
      cell: (i) => (
        <>
          {money(i.attributes.amount, i.attributes.currency)}
          {i.attributes.amount_reversed > 0 && i.attributes.state === 'paid' && (
            <span class="reason"> ({money(i.attributes.amount_reversed, i.attributes.currency)} reversed)</span>
          )}
        </>
      ),
      text: (i) => `${i.attributes.amount} ${i.attributes.currency}`,
    },
    // What the provider charged the program, on top of the partner's amount.
    { label: 'Provider fee', numeric: true, cell: feeOf, text: (i) => String(i.attributes.provider_fee ?? '') },
    {
      label: 'State',
      cell: (i) => (
        <>
          <span class={`state ${i.attributes.state}`}>{i.attributes.state}</span>
          {i.attributes.reason && <span class="reason">: {i.attributes.reason}</span>}
        </>
      ),
      text: (i) => (i.attributes.reason ? `${i.attributes.state}: ${i.attributes.reason}` : i.attributes.state),
    },
    {
      label: 'Invoice',
      cell: (i) => <Documents of={of(i)} />,
      text: (i) =>
        of(i)
          .map((d) => d.label)
          .join(' '),
    },
    { label: 'Since', cell: (i) => dateTime(i.attributes.state_set_at), text: (i) => String(i.attributes.state_set_at), minor: true },
  ];
};

const SKIPPED: Column<Skipped & { id: string }>[] = [
  { label: 'Partner', cell: (s) => <a href={href(`/partners/${s.partner_id}`)}>{s.name}</a>, text: (s) => s.name },
  { label: 'Owed', numeric: true, cell: (s) => `${s.amount} ${s.currency}`, text: (s) => `${s.amount} ${s.currency}` },
  { label: 'Why not paid', cell: (s) => s.reason, text: (s) => s.reason },
];

/** What each step asks before it is taken. */
const QUESTIONS: Record<Verb, { title: string; confirm: string; text: string }> = {
  make: {
    title: 'Make a payout run now?',
    confirm: 'Make run',
    text: 'What is payable now becomes a draft run: one payout per partner and currency, holding its commissions. Nothing is paid until it is approved and sent; partners who cannot be paid yet are listed with the reason.',
  },
  approve: {
    title: 'Approve this payout run?',
    confirm: 'Approve',
    text: 'Once approved, the run can be sent: each payout goes to the partner through their payout method.',
  },
  send: {
    title: 'Send this payout run?',
    confirm: 'Send',
    text: 'Each payout is sent to its provider now (PayPal, Stripe Connect). Sending again never pays twice.',
  },
  retry: {
    title: 'Retry the failed payouts?',
    confirm: 'Retry failed',
    text: 'Only the payouts that failed are sent again, as a new batch; nothing else is sent.',
  },
  refresh: {
    title: 'Ask PayPal for the latest states?',
    confirm: 'Refresh',
    text: "The run's PayPal batches are read again and what changed is applied, as a missed webhook would have.",
  },
};

/** The buttons a run offers now, for the signed-in member's role. */
function RunActions({ run, items, role, ask }: { run: Run; items: Item[]; role: string | undefined; ask: (v: Verb) => void }) {
  const state = run.attributes.state;
  const has = (s: string) => items.some((i) => i.attributes.state === s);
  if (role === 'viewer') return <p class="hint">You are a viewer here: admins make and send runs, owners approve them.</p>;
  return (
    <div class="buttons">
      {state === 'draft' &&
        (role === 'owner' ? (
          <button type="button" onClick={() => ask('approve')}>
            Approve
          </button>
        ) : (
          <p class="hint">Waiting for an owner's approval: only an owner approves a run.</p>
        ))}
      {state === 'approved' && (
        <button type="button" onClick={() => ask('send')}>
          Send
        </button>
      )}
      {state === 'sent' && has('failed') && (
        <button type="button" onClick={() => ask('retry')}>
          Retry failed
        </button>
      )}
      {state === 'sent' && (has('processing') || has('pending')) && (
        <button type="button" class="secondary" onClick={() => ask('refresh')}>
          Refresh states
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
        <h3 id="run-title">Run of {dateTime(a.created_at)}</h3>
        <span class={`state ${a.state}`}>{a.state}</span>
      </div>
      <p>
        {counts(run)}. Made by {a.created_by}
        {a.approved_at !== null && `, approved ${dateTime(a.approved_at)} by ${a.approved_by}`}
        {a.sent_at !== null && `, sent ${dateTime(a.sent_at)}${a.attempt > 1 ? ` (attempt ${a.attempt})` : ''}`}.
      </p>
      {items.length > 0 ? (
        <Table caption="Payouts of the run" columns={itemColumns(documents)} rows={items} csv="payout-run" />
      ) : (
        <p>It holds no payouts.</p>
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
    { label: 'Made', cell: (r) => dateTime(r.attributes.created_at), text: (r) => String(r.attributes.created_at) },
    {
      label: 'State',
      cell: (r) => <span class={`state ${r.attributes.state}`}>{r.attributes.state}</span>,
      text: (r) => r.attributes.state,
    },
    { label: 'Payouts', cell: counts, text: counts },
    {
      label: 'Actions',
      cell: (r) => (
        <button
          type="button"
          class="link"
          aria-label={`Open the run of ${dateTime(r.attributes.created_at)}`}
          onClick={() => setPicked(r.id)}
        >
          Open
        </button>
      ),
    },
  ];
  return (
    <section aria-labelledby="runs-title">
      <div class="panel-head">
        <h2 id="runs-title">Payout runs</h2>
        {role !== 'viewer' && (
          <button type="button" onClick={() => setAsking('make')}>
            Make a payout run
          </button>
        )}
      </div>
      <p class="hint">
        A run pays partners through their payout methods, by the providers' APIs: an admin makes it, an owner approves it, then it is sent.
      </p>
      {skipped && skipped.length > 0 && (
        <div class="notice" role="status">
          <p>Not in the run: {skipped.length === 1 ? 'one partner' : `${skipped.length} partners`} cannot be paid yet.</p>
          <Table
            caption="Partners skipped by the run"
            columns={SKIPPED}
            rows={skipped.map((s) => ({ ...s, id: `${s.partner_id}-${s.currency}` }))}
          />
        </div>
      )}
      <Show loaded={loaded}>
        {({ runs, shown }) =>
          runs.length === 0 || !shown ? (
            <Empty title="No payout runs yet">
              <p>Make one above: it holds what is payable now until it is sent, or until its payouts fail and go back to payable.</p>
            </Empty>
          ) : (
            <>
              <RunPanel run={shown.data} items={shown.included} documents={shown.meta.documents} role={role} ask={setAsking} />
              {runs.length > 1 && <Table caption="Payout runs" columns={runColumns} rows={runs} current={shown.data.id} />}
            </>
          )
        }
      </Show>
      {asking && (
        <Confirm
          title={QUESTIONS[asking].title}
          confirm={QUESTIONS[asking].confirm}
          onClose={() => setAsking(null)}
          onConfirm={() => act(asking)}
        >
          <p>{QUESTIONS[asking].text}</p>
        </Confirm>
      )}
    </section>
  );
}
