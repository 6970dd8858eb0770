// The program's records as tables with the API's own filters and paging (kept in the
// URL), links between related records, state changes behind a confirmation, and a CSV
// download of what the table shows.

import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso/router';
import { useListAddress } from '../../common/list-address.js';
import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { dateTime, money, startOfDay } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Confirm } from '../../common/forms.js';
import { Empty, Pager, Show, Table, type Column } from '../../common/ui.js';
import { href } from '../session.js';
import { TRACK_CALL } from '../track-call.js';
import { stateWord } from '../language.js';
import { t, tx } from './words.js';

type Referral = Answer<'/v1/referrals'>['data'][number];
type Commission = Answer<'/v1/commissions'>['data'][number];
type Payment = Answer<'/v1/payments'>['data'][number];
type Click = Answer<'/v1/clicks'>['data'][number];

const when = <T extends { attributes: { created_at: number } }>(): Column<T> => ({
  label: t('records.created'),
  minor: true,
  cell: (r) => dateTime(r.attributes.created_at),
  text: (r) => new Date(r.attributes.created_at * 1000).toISOString(),
});

/** A state change behind a confirmation; `reason` asks for one (rejecting a commission). */
interface Change {
  title: string;
  confirm: string;
  danger?: boolean;
  reason?: boolean;
  run: (reason: string) => Promise<unknown>;
}

function useChange(reload: () => void) {
  const [change, setChange] = useState<Change | null>(null);
  const dialog = change && (
    <Confirm
      title={change.title}
      confirm={change.confirm}
      danger={change.danger}
      onClose={() => setChange(null)}
      onConfirm={async (form) => {
        await change.run(String(form.get('reason') ?? '').trim());
        reload();
      }}
    >
      {change.reason ? (
        <label>
          {t('records.reason')} <span class="hint">{t('records.reasonHint')}</span>
          <input name="reason" required maxLength={500} />
        </label>
      ) : (
        <p>{t('records.cannotUndo')}</p>
      )}
    </Confirm>
  );
  return { dialog, ask: setChange };
}

/** A record the review signals hold: a tag leading to where the review queue decides it (`subject`, as `referral=…` or `commission=…`). */
function HeldTag({ review, subject }: { review: string | null | undefined; subject: string | undefined }) {
  if (review !== 'held') return null;
  return subject ? (
    <a class="tag held" href={href(`/review?${subject}`)}>
      {t('records.held')}
    </a>
  ) : (
    <span class="tag held">{t('records.held')}</span>
  );
}

/**
 * Where a held commission is decided: with its referral when the referral is held (deciding
 * it decides its commissions), else on its own (a signal of its own held it: an e-mail
 * match, a refund rate, a quick payment). One GET /v1/referrals/{id} per held one's referral;
 * until they answer, the commission's own entry, which shows its referral's evidence too.
 */
function useHeldSubjects(rows: readonly Commission[]): (r: Commission) => string {
  const referralOf = (r: Commission) => (r.attributes.review === 'held' ? r.attributes.referral_id : undefined);
  const reviews = useEach(
    rows.map(referralOf).filter((id): id is string => id !== undefined),
    async (id, signal) => (await api.GET('/v1/referrals/{id}', { params: { path: { id } }, signal })).data.attributes.review,
  );
  return (r) => {
    const referral = referralOf(r);
    return referral && reviews[referral] === 'held' ? `referral=${encodeURIComponent(referral)}` : `commission=${encodeURIComponent(r.id)}`;
  };
}

/** Pending, but an open payout batch holds it: its batch pays it (or, cancelled, lets it go). */
const inOpenBatch = (r: Commission) => r.attributes.state === 'pending' && r.attributes.payout_batch_id !== undefined;

/** A commission in an open payout batch: a tag leading to that batch on the Payouts page. */
function BatchTag({ r }: { r: Commission }) {
  if (!inOpenBatch(r)) return null;
  return (
    <a class="tag batch" href={href(`/payouts?batch=${encodeURIComponent(r.attributes.payout_batch_id!)}`)}>
      {t('records.inBatch')}
    </a>
  );
}

function Action({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" class="link" onClick={onClick}>
      {label}
    </button>
  );
}

export function ReferralTable({ rows, reload }: { rows: Referral[]; reload: () => void }) {
  const { dialog, ask } = useChange(reload);
  const move = (r: Referral, state: 'churned' | 'rejected') =>
    ask({
      title:
        state === 'churned'
          ? t('records.churnTitle', { who: r.attributes.email ?? t('records.thisReferral') })
          : t('records.rejectTitle', { who: r.attributes.email ?? t('records.thisReferral') }),
      confirm: state === 'churned' ? t('records.markChurned') : t('records.reject'),
      danger: state === 'rejected',
      run: () => api.PATCH('/v1/referrals/{id}', { params: { path: { id: r.id } }, body: { state } }),
    });
  const partner = usePartnersOfPartnerships(rows);
  const columns: Column<Referral>[] = [
    partner,
    {
      label: t('records.customer'),
      cell: (r) => r.attributes.email ?? r.attributes.uid ?? t('records.erased'),
      text: (r) => r.attributes.email ?? r.attributes.uid ?? '',
    },
    {
      label: t('records.state'),
      cell: (r) => (
        <>
          <span class={`state ${r.attributes.state}`}>{stateWord(`referralState.${r.attributes.state}`, r.attributes.state)}</span>{' '}
          <HeldTag review={r.attributes.review} subject={`referral=${encodeURIComponent(r.id)}`} />
        </>
      ),
      text: (r) => (r.attributes.review === 'held' ? `${r.attributes.state} (held for review)` : r.attributes.state),
    },
    when<Referral>(),
    {
      label: t('records.payments'),
      minor: true,
      cell: (r) => <a href={href(`/payments?referral_id_eq=${r.id}`)}>{t('records.payments')}</a>,
    },
    {
      label: t('records.actions'),
      cell: (r) => (
        <>
          {r.attributes.state === 'paid' && <Action label={t('records.churn')} onClick={() => move(r, 'churned')} />}
          {r.attributes.state !== 'rejected' && <Action label={t('records.reject')} onClick={() => move(r, 'rejected')} />}
        </>
      ),
    },
  ];
  return (
    <>
      <Table caption={t('records.referrals')} columns={columns} rows={rows} csv="referrals" />
      {dialog}
    </>
  );
}

/** When a pending commission can be paid: held by review or a dispute, waiting out the holding period, or now; a clawback says so. */
function payable(r: Commission) {
  const a = r.attributes;
  if (a.state !== 'pending') return '—';
  const note = a.clawback_of ? <span class="tag">{t('records.clawback')}</span> : null;
  // Held by review: no payout takes it until an owner approves its referral.
  if (a.review === 'held')
    return (
      <>
        {note}
        <span class="warn">{t('records.onceApproved')}</span>
      </>
    );
  if (a.on_hold)
    return (
      <>
        {note}
        <span class="warn">{t('records.disputed')}</span>
      </>
    );
  return (
    <>
      {note}
      {a.payable_at * 1000 > Date.now() ? t('records.payableFrom', { date: dateTime(a.payable_at) }) : t('records.payableNow')}
    </>
  );
}

/**
 * Partners' names by id, for a table whose rows name their partner by id only: one
 * GET /v1/partners/{id} per partner on the page (a page holds at most 50), besides those
 * `known` already. A partner that cannot be read keeps no name.
 */
export function usePartnerNames(ids: readonly string[], known: Readonly<Record<string, string>> = {}): Record<string, string> {
  const names = useEach(
    ids.filter((id) => !(id in known)),
    async (id, signal) => (await api.GET('/v1/partners/{id}', { params: { path: { id } }, signal })).data.attributes.name,
  );
  return { ...known, ...names };
}

/** One read per distinct id of a page's rows, by id; one that fails, or finds nothing, is left out. */
function useEach<V>(ids: readonly string[], read: (id: string, signal: AbortSignal) => Promise<V | null | undefined>): Record<string, V> {
  const wanted = [...new Set(ids)].sort();
  const one = (id: string, signal: AbortSignal) =>
    read(id, signal).then(
      (v) => (v === undefined || v === null ? [] : [[id, v] as const]),
      () => [],
    );
  const loaded = useLoad(
    wanted.length ? async (signal) => Object.fromEntries((await Promise.all(wanted.map((id) => one(id, signal)))).flat()) : null,
    wanted.join(','),
  );
  return loaded.data ?? {};
}

/**
 * The partner of each partnership, by partnership id, for the referrals and clicks, whose
 * records name their partnership only: one GET /v1/partnerships/{id} per partnership on the page.
 */
function usePartnershipPartners(ids: readonly string[]): Record<string, string> {
  return useEach(
    ids,
    async (id, signal) =>
      (await api.GET('/v1/partnerships/{id}', { params: { path: { id } }, signal })).data.relationships.partner.data?.id,
  );
}

/** The Partner column: a link to the partner's page, named once the name arrives; `partnerOf` finds a row's partner id. */
function partnerColumn<T>(partnerOf: (row: T) => string | undefined, names: Record<string, string>): Column<T> {
  return {
    label: t('records.partner'),
    cell: (r) => {
      const id = partnerOf(r);
      // Until the name arrives, the link says where it leads.
      return id ? <a href={href(`/partners/${id}`)}>{names[id] ?? t('records.partner')}</a> : '…';
    },
    text: (r) => partnerOf(r) ?? '',
  };
}

/** The partner of each row of a list that names its partnership only, with the partners' names. */
function usePartnersOfPartnerships<T extends { relationships: { partnership: { data: { id: string } | null } } }>(rows: readonly T[]) {
  const shipOf = (r: T) => r.relationships.partnership.data?.id;
  const partnerships = usePartnershipPartners(rows.map(shipOf).filter((id): id is string => id !== undefined));
  const names = usePartnerNames(Object.values(partnerships));
  return partnerColumn<T>((r) => partnerships[shipOf(r) ?? ''], names);
}

/** `partners`: names the page knows already (a partner's own page), by id. */
export function CommissionTable({ rows, reload, partners }: { rows: Commission[]; reload: () => void; partners?: Record<string, string> }) {
  const { dialog, ask } = useChange(reload);
  const names = usePartnerNames(
    rows.map((r) => r.attributes.partner_id),
    partners,
  );
  const heldSubject = useHeldSubjects(rows);
  const columns: Column<Commission>[] = [
    partnerColumn<Commission>((r) => r.attributes.partner_id, names),
    {
      label: t('records.amount'),
      numeric: true,
      cell: (r) => money(r.attributes.amount, r.attributes.currency),
      text: (r) => `${r.attributes.amount} ${r.attributes.currency}`,
    },
    {
      label: t('records.state'),
      cell: (r) => (
        <>
          <span class={`state ${r.attributes.state}`}>
            {stateWord(`commissionState.${r.attributes.state}`, r.attributes.state)}
            {r.attributes.reject_reason ? `: ${r.attributes.reject_reason}` : ''}
          </span>{' '}
          <HeldTag review={r.attributes.review} subject={heldSubject(r)} />
          <BatchTag r={r} />
        </>
      ),
      text: (r) =>
        r.attributes.review === 'held'
          ? `${r.attributes.state} (held for review)`
          : inOpenBatch(r)
            ? `${r.attributes.state} (in payout batch ${r.attributes.payout_batch_id})`
            : r.attributes.state,
    },
    {
      // 2: a recruiter's share of their recruit's commission (docs/two-tier.md).
      label: t('records.tier'),
      minor: true,
      cell: (r) => (r.attributes.tier === 2 ? <span class="tag">{t('records.tier2')}</span> : '1'),
      text: (r) => String(r.attributes.tier),
    },
    {
      // Which reward of the partner's group made it, in words ("20 % of a renewal, month 3 of 12").
      label: t('records.reward'),
      minor: true,
      cell: (r) => (r.attributes.reward_description ? <span class="wrap">{r.attributes.reward_description}</span> : '—'),
      text: (r) => r.attributes.reward_description ?? '',
    },
    {
      label: t('records.payable'),
      minor: true,
      cell: payable,
      text: (r) => (r.attributes.state === 'pending' ? new Date(r.attributes.payable_at * 1000).toISOString() : ''),
    },
    when<Commission>(),
    {
      label: t('records.actions'),
      cell: (r) =>
        r.attributes.state === 'pending' && (
          <>
            {/* Its batch marks it paid, with the file's checks: paying it alone would make that batch refuse. */}
            {!inOpenBatch(r) && (
              <Action
                label={t('records.markPaid')}
                onClick={() =>
                  ask({
                    title: t('records.markPaidTitle', { amount: money(r.attributes.amount, r.attributes.currency) }),
                    confirm: t('records.markPaid'),
                    run: () => api.PATCH('/v1/commissions/{id}', { params: { path: { id: r.id } }, body: { state: 'paid' } }),
                  })
                }
              />
            )}
            <Action
              label={t('records.reject')}
              onClick={() =>
                ask({
                  title: t('records.rejectTitle', { who: money(r.attributes.amount, r.attributes.currency) }),
                  confirm: t('records.reject'),
                  danger: true,
                  reason: true,
                  run: (reason) =>
                    api.PATCH('/v1/commissions/{id}', {
                      params: { path: { id: r.id } },
                      body: { state: 'rejected', reject_reason: reason },
                    }),
                })
              }
            />
          </>
        ),
    },
  ];
  return (
    <>
      <Table caption={t('records.commissions')} columns={columns} rows={rows} csv="commissions" />
      {dialog}
    </>
  );
}

function PaymentTable({ rows, reload }: { rows: Payment[]; reload: () => void }) {
  const { dialog, ask } = useChange(reload);
  const columns: Column<Payment>[] = [
    {
      label: t('records.amount'),
      numeric: true,
      cell: (r) => money(r.attributes.amount, r.attributes.currency),
      text: (r) => `${r.attributes.amount} ${r.attributes.currency}`,
    },
    {
      label: t('records.refunded'),
      numeric: true,
      cell: (r) => (r.attributes.refunded ? money(r.attributes.refunded, r.attributes.currency) : '—'),
      text: (r) => String(r.attributes.refunded),
    },
    {
      label: t('records.yourId'),
      minor: true,
      cell: (r) => <code>{r.attributes.idempotency_key}</code>,
      text: (r) => r.attributes.idempotency_key,
    },
    {
      label: t('records.paid'),
      cell: (r) => dateTime(r.attributes.paid_at),
      text: (r) => new Date(r.attributes.paid_at * 1000).toISOString(),
    },
    {
      label: t('records.actions'),
      cell: (r) =>
        r.attributes.refunded < r.attributes.amount && (
          <Action
            label={t('records.refund')}
            onClick={() =>
              ask({
                title: t('records.refundTitle', { amount: money(r.attributes.amount, r.attributes.currency) }),
                confirm: t('records.refund'),
                danger: true,
                run: () => api.POST('/v1/refunds', { body: { payment_id: r.attributes.idempotency_key } }),
              })
            }
          />
        ),
    },
  ];
  return (
    <>
      <Table caption={t('records.payments')} columns={columns} rows={rows} csv="payments" />
      {dialog}
    </>
  );
}

function ClickTable({ rows }: { rows: Click[]; reload: () => void }) {
  const partner = usePartnersOfPartnerships(rows);
  const columns: Column<Click>[] = [
    partner,
    { label: t('records.key'), minor: true, cell: (r) => r.attributes.key, text: (r) => r.attributes.key },
    { label: t('records.visitor'), minor: true, cell: (r) => <code>{r.attributes.gr_id}</code>, text: (r) => r.attributes.gr_id },
    {
      label: t('records.landingPage'),
      cell: (r) => (r.attributes.url ? <span class="wrap">{r.attributes.url}</span> : '—'),
      text: (r) => r.attributes.url ?? '',
    },
    { label: t('records.cameFrom'), minor: true, cell: (r) => r.attributes.referrer ?? '—', text: (r) => r.attributes.referrer ?? '' },
    when<Click>(),
  ];
  return <Table caption={t('records.clicks')} columns={columns} rows={rows} csv="clicks" />;
}

interface ListSpec<T> {
  title: string;
  /** The empty table's title: with filters, and without. */
  none: { filtered: string; yet: string };
  /** The prefix of the states' words (`referralState.`). */
  stateWords?: string;
  path: '/v1/referrals' | '/v1/commissions' | '/v1/payments' | '/v1/clicks';
  states?: readonly string[];
  /** Filters of the API passed through from the URL (besides state and dates). */
  passThrough: readonly ('partner_id_eq' | 'referral_id_eq' | 'partnership_id_eq')[];
  table: (props: { rows: T[]; reload: () => void }) => ComponentChildren;
  empty: ComponentChildren;
}

function ListPage<T extends { id: string }>(spec: ListSpec<T>) {
  const { path } = useLocation();
  const { query, page, set } = useListAddress();
  // The API's filters, from the page's URL: the list's own, its state, and the dates as whole days.
  const filters: Record<string, string> = {};
  for (const name of [...spec.passThrough, 'state_eq']) if (query[name]) filters[name] = query[name]!;
  if (query.from) filters.created_at_gt = startOfDay(query.from);
  if (query.to) filters.created_at_lt = new Date(Date.parse(startOfDay(query.to)) + 86_400_000).toISOString();
  const loaded = useLoad(
    (signal) =>
      api.GET(spec.path, { params: { query: { page, ...filters } }, signal }) as unknown as Promise<{
        data: T[];
        meta: { pagination: { has_more: boolean } };
      }>,
    JSON.stringify([spec.path, page, filters]),
  );
  return (
    <section>
      <h1>{spec.title}</h1>
      <div class="filters">
        {spec.states && (
          <label>
            <span>{t('records.state')}</span>
            <select value={query.state_eq ?? ''} onChange={(e) => set({ state_eq: e.currentTarget.value })}>
              <option value="">{t('records.any')}</option>
              {spec.states.map((s) => (
                <option value={s}>{stateWord(`${spec.stateWords ?? ''}${s}`, s)}</option>
              ))}
            </select>
          </label>
        )}
        <label>
          <span>{t('records.createdFrom')}</span>
          <input type="date" value={query.from ?? ''} onChange={(e) => set({ from: e.currentTarget.value })} />
        </label>
        <label>
          <span>{t('records.createdTo')}</span>
          <input type="date" value={query.to ?? ''} onChange={(e) => set({ to: e.currentTarget.value })} />
        </label>
        {spec.passThrough
          .filter((n) => query[n])
          .map((n) => (
            <p class="hint">
              {t(`records.only.${n}`, { id: query[n]! })} <a href={path}>{t('records.showAll')}</a>
            </p>
          ))}
      </div>
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title={Object.keys(filters).length > 0 ? spec.none.filtered : spec.none.yet}>{spec.empty}</Empty>
          ) : (
            <>
              {spec.table({ rows: answer.data, reload: loaded.reload })}
              <Pager page={page} hasMore={answer.meta.pagination.has_more} go={(p) => set({ page: String(p) })} />
            </>
          )
        }
      </Show>
    </section>
  );
}

const snippetHint = () => (
  <p>
    {tx('records.snippetHint', {
      link: <a href={href('/settings#snippet')}>{t('records.getSnippet')}</a>,
      call: <code>{TRACK_CALL}</code>,
    })}
  </p>
);

const connectHint = (key: 'records.commissionsEmpty' | 'records.paymentsEmpty') => (
  <p>
    {tx(key, {
      link: <a href={href('/settings#integrations')}>{t('records.connect')}</a>,
      call: <code>POST /v1/payments</code>,
    })}
  </p>
);

export const Referrals = () => (
  <ListPage<Referral>
    title={t('records.referrals')}
    none={{ filtered: t('records.noReferralsFiltered'), yet: t('records.noReferrals') }}
    path="/v1/referrals"
    states={['converted', 'paid', 'churned', 'rejected']}
    stateWords="referralState."
    passThrough={['partner_id_eq']}
    table={ReferralTable}
    empty={snippetHint()}
  />
);
export const Commissions = () => (
  <ListPage<Commission>
    title={t('records.commissions')}
    none={{ filtered: t('records.noCommissionsFiltered'), yet: t('records.noCommissions') }}
    path="/v1/commissions"
    states={['pending', 'paid', 'rejected']}
    stateWords="commissionState."
    passThrough={['partner_id_eq']}
    table={CommissionTable}
    empty={connectHint('records.commissionsEmpty')}
  />
);
export const Payments = () => (
  <ListPage<Payment>
    title={t('records.payments')}
    none={{ filtered: t('records.noPaymentsFiltered'), yet: t('records.noPayments') }}
    path="/v1/payments"
    passThrough={['referral_id_eq']}
    table={PaymentTable}
    empty={connectHint('records.paymentsEmpty')}
  />
);
export const Clicks = () => (
  <ListPage<Click>
    title={t('records.clicks')}
    none={{ filtered: t('records.noClicksFiltered'), yet: t('records.noClicks') }}
    path="/v1/clicks"
    passThrough={['partnership_id_eq']}
    table={ClickTable}
    empty={snippetHint()}
  />
);
