// The review queue: referrals the review signals held (their commissions go into no payout
// meanwhile), newest first, each with its partner and its reasons in words, and the held
// commissions, among them those a signal of their own held (an e-mail match, a refund rate,
// a quick payment) on a referral that is not held. One selected (?referral= or ?commission=
// in the address, so the "Held for review" tags of the record tables lead here) shows its
// referral's evidence side by side: the click, the customer's address tag and browser, the
// customer's e-mail beside the partner's own and payout addresses. It is approved, rejected
// or its partner banned behind a confirmation asking why; the Decided tab lists every
// decision with who made it and when.

import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso/router';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { dateTime, int, money } from '../../common/format.js';
import { Confirm } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Failure, Loading, Pager, Show, Table, type Column } from '../../common/ui.js';
import { signalTitle } from '../review.js';
import { href, useSession } from '../session.js';
import { usePartnerNames } from '../records/page.js';
import { t, tx } from './words.js';

type Referral = Answer<'/v1/referrals'>['data'][number];
type Commission = Answer<'/v1/commissions'>['data'][number];
type Decision = Answer<'/v1/review_decisions'>['data'][number];
type Verdict = Decision['attributes']['decision'];
type Reason = { signal: string; explain: string };

const customerOf = (r: Referral) => r.attributes.email ?? r.attributes.uid ?? t('erased');

/** What a decision did, in words. */
const done = (verdict: Verdict) => t(`done.${verdict}`);

/**
 * One GET per id (a page holds at most 50), answers by id; an id that cannot be read is
 * left out. For what a list names by id only: a referral's partnership, a decision's referral.
 */
function useEach<T>(ids: readonly (string | null | undefined)[], one: (id: string, signal: AbortSignal) => Promise<T>): Record<string, T> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))].sort();
  const loaded = useLoad(
    wanted.length
      ? async (signal) =>
          Object.fromEntries(
            (
              await Promise.all(
                wanted.map((id) =>
                  one(id, signal).then(
                    (v) => [[id, v] as const],
                    () => [],
                  ),
                ),
              )
            ).flat(),
          ) as Record<string, T>
      : null,
    wanted.join(','),
  );
  return loaded.data ?? {};
}

const partnerOfPartnership = (id: string, signal: AbortSignal) =>
  api.GET('/v1/partnerships/{id}', { params: { path: { id } }, signal }).then((s) => s.data.relationships.partner.data?.id);

/** A duration in the largest unit that fits: "42 seconds", "3 minutes", "2 hours 5 minutes", "4 days". */
function duration(seconds: number): string {
  const unit = (count: number, word: 'seconds' | 'minutes' | 'hours' | 'days') => t(word, { count, n: int(count) });
  if (seconds < 60) return unit(Math.max(0, seconds), 'seconds');
  if (seconds < 3600) return unit(Math.floor(seconds / 60), 'minutes');
  if (seconds < 86_400) {
    const m = Math.floor((seconds % 3600) / 60);
    const hours = unit(Math.floor(seconds / 3600), 'hours');
    return m ? t('hoursMinutes', { hours, minutes: unit(m, 'minutes') }) : hours;
  }
  return unit(Math.floor(seconds / 86_400), 'days');
}

function Reasons({ reasons, explain }: { reasons: readonly Reason[] | null | undefined; explain?: boolean }) {
  if (!reasons?.length) return <>—</>;
  if (!explain) return <span class="wrap">{reasons.map((r) => signalTitle(r.signal)).join('; ')}</span>;
  return (
    <ul class="reasons">
      {reasons.map((r) => (
        <li>
          <strong>{signalTitle(r.signal)}</strong>: {r.explain}
        </li>
      ))}
    </ul>
  );
}

/** What is decided: a held referral, or a held commission (by its id). */
type Subject = { referral: string } | { commission: string };

/** A held referral's evidence, with its partner (its partnership's); for a commission, its referral's, and the commission. */
async function loadEvidence(subject: Subject, signal: AbortSignal) {
  const commission =
    'commission' in subject
      ? (await api.GET('/v1/commissions/{id}', { params: { path: { id: subject.commission } }, signal })).data
      : undefined;
  const id = 'referral' in subject ? subject.referral : (commission?.attributes.referral_id ?? '');
  const [evidence, referral] = await Promise.all([
    api.GET('/v1/referrals/{id}/evidence', { params: { path: { id } }, signal }),
    api.GET('/v1/referrals/{id}', { params: { path: { id } }, signal }),
  ]);
  const shipId = referral.data.relationships.partnership.data?.id;
  const partnerId = shipId ? await partnerOfPartnership(shipId, signal) : undefined;
  const partner = partnerId ? await api.GET('/v1/partners/{id}', { params: { path: { id: partnerId } }, signal }) : undefined;
  return { evidence: evidence.data.attributes, referral: referral.data, partner: partner?.data, commission };
}
type Shown = Awaited<ReturnType<typeof loadEvidence>>;

/** The same mailbox, ignoring case: the customer's address beside a partner's. */
const same = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();

function Fact({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

function EvidencePanel({ shown, decide, canDecide }: { shown: Shown; decide: (v: Verdict) => void; canDecide: boolean }) {
  const e = shown.evidence;
  const c = shown.commission?.attributes;
  // A commission's own review and reasons, beside its referral's evidence.
  const { review, review_reasons } = c ?? e;
  const heading = useRef<HTMLHeadingElement>(null);
  // Chosen from the list, the evidence is where the reader goes next: a keyboard too.
  useEffect(() => heading.current?.focus(), [shown.referral.id, shown.commission?.id]);
  const sameAs = (address: string | null) =>
    same(address, e.email) && (
      <>
        {' '}
        <strong class="warn">{t('evidence.theCustomersAddress')}</strong>
      </>
    );
  return (
    <section class="panel evidence" aria-labelledby="evidence-title">
      <h2 id="evidence-title" tabIndex={-1} ref={heading}>
        {c
          ? t('evidence.commissionTitle', { amount: money(c.amount, c.currency), email: e.email })
          : t('evidence.title', { email: e.email })}
      </h2>
      {review !== 'held' && <p class="notice">{t(`evidence.settled.${c ? 'commission' : 'referral'}.${review ?? 'none'}`)}</p>}
      <h3>{t('evidence.why')}</h3>
      <Reasons reasons={review_reasons} explain />
      <div class="evidence-grid">
        <section aria-labelledby="evidence-click">
          <h3 id="evidence-click">{t('evidence.click')}</h3>
          {e.click ? (
            <dl class="facts">
              <Fact term={t('evidence.landed')}>{dateTime(e.click.at)}</Fact>
              <Fact term={t('evidence.landingPage')}>{e.click.url ?? '—'}</Fact>
              <Fact term={t('evidence.cameFrom')}>{e.click.referrer ?? t('evidence.noReferrer')}</Fact>
              <Fact term={t('evidence.toConversion')}>
                {e.seconds_from_click === null ? '—' : t('evidence.afterClick', { duration: duration(e.seconds_from_click) })}
              </Fact>
            </dl>
          ) : (
            <p>{tx('evidence.noLanding', { title: <strong>{t('evidence.noLandingTitle')}</strong> })}</p>
          )}
        </section>
        <section aria-labelledby="evidence-customer">
          <h3 id="evidence-customer">{t('evidence.customer')}</h3>
          <dl class="facts">
            <Fact term={t('evidence.email')}>{e.email}</Fact>
            <Fact term={t('evidence.converted')}>{dateTime(e.converted_at)}</Fact>
            <Fact term={t('evidence.address')}>
              {e.address_tag ? (
                <>
                  <code>{e.address_tag}</code>,{' '}
                  {e.same_address_referrals === 0
                    ? t('evidence.noOther')
                    : t('evidence.others', { count: e.same_address_referrals, n: int(e.same_address_referrals) })}
                </>
              ) : (
                t('evidence.notSeen')
              )}
            </Fact>
            <Fact term={t('evidence.browser')}>{e.user_agent ?? t('evidence.notSeen')}</Fact>
          </dl>
        </section>
        <section aria-labelledby="evidence-partner">
          <h3 id="evidence-partner">{t('evidence.thePartner')}</h3>
          <dl class="facts">
            <Fact term={t('partner')}>
              {shown.partner ? <a href={href(`/partners/${shown.partner.id}`)}>{shown.partner.attributes.name}</a> : '—'}
            </Fact>
            <Fact term={t('evidence.ownEmail')}>
              {e.partner_email ?? '—'}
              {sameAs(e.partner_email)}
            </Fact>
            <Fact term={t('evidence.payoutAddress')}>
              {e.partner_paypal_email ?? t('evidence.noneGiven')}
              {sameAs(e.partner_paypal_email)}
            </Fact>
          </dl>
        </section>
      </div>
      {review === 'held' &&
        (canDecide ? (
          <div class="buttons">
            <button type="button" onClick={() => decide('approve')}>
              {t('evidence.approve')}
            </button>
            <button type="button" class="secondary danger" onClick={() => decide('reject')}>
              {t('evidence.reject')}
            </button>
            <button type="button" class="danger" onClick={() => decide('ban')}>
              {t('evidence.ban')}
            </button>
          </div>
        ) : (
          <p class="hint">{t('evidence.viewer')}</p>
        ))}
    </section>
  );
}

/** The confirmation of a decision, with the reason it asks for. */
function DecisionDialog({
  verdict,
  shown,
  onDone,
  onClose,
}: {
  verdict: Verdict;
  shown: Shown;
  onDone: (d: Decision) => void;
  onClose: () => void;
}) {
  const customer = shown.evidence.email;
  const partner = shown.partner?.attributes.name ?? t('decision.thisPartner');
  const c = shown.commission;
  const amount = c ? money(c.attributes.amount, c.attributes.currency) : '';
  const text: Record<Verdict, { title: string; confirm: string; body: ComponentChildren; hint: string }> = {
    approve: {
      title: t(c ? 'decision.approveCommission' : 'decision.approveReferral', { amount, customer }),
      confirm: t('evidence.approve'),
      body: <p>{t(c ? 'decision.approveCommissionText' : 'decision.approveReferralText')}</p>,
      hint: t('decision.approveHint'),
    },
    reject: {
      title: t(c ? 'decision.rejectCommission' : 'decision.rejectReferral', { amount, customer }),
      confirm: t('evidence.reject'),
      body: <p>{t(c ? 'decision.rejectCommissionText' : 'decision.rejectReferralText', { partner })}</p>,
      hint: t('decision.rejectHint'),
    },
    ban: {
      title: t('decision.banTitle', { partner }),
      confirm: t('evidence.ban'),
      body: <p>{tx('decision.banText', { every: <strong>{t('decision.banEvery', { partner })}</strong> })}</p>,
      hint: t('decision.banHint'),
    },
  };
  const asked = text[verdict];
  return (
    <Confirm
      title={asked.title}
      confirm={asked.confirm}
      danger={verdict !== 'approve'}
      onClose={onClose}
      onConfirm={async (form) => {
        const made = await api.POST('/v1/review_decisions', {
          body: {
            ...(c ? { commission_id: c.id } : { referral_id: shown.referral.id }),
            decision: verdict,
            reason: String(form.get('reason') ?? '').trim(),
          },
        });
        onDone(made.data);
      }}
    >
      {asked.body}
      <label>
        {t('reason')} <span class="hint">{asked.hint}</span>
        <input name="reason" required maxLength={500} autocomplete="off" />
      </label>
    </Confirm>
  );
}

/** The columns both held lists end with: when it was made, its reasons in words, the button that shows its evidence (`showOf` names it for a screen reader). */
function heldColumns<T extends Referral | Commission>(
  when: string,
  showOf: (row: T) => string,
  selected: string | undefined,
  select: (id: string) => void,
): Column<T>[] {
  return [
    {
      label: when,
      cell: (r) => dateTime(r.attributes.created_at),
      text: (r) => new Date(r.attributes.created_at * 1000).toISOString(),
    },
    {
      label: t('list.reasons'),
      cell: (r) => <Reasons reasons={r.attributes.review_reasons} />,
      text: (r) => (r.attributes.review_reasons ?? []).map((x) => signalTitle(x.signal)).join('; '),
    },
    {
      label: t('list.evidence'),
      cell: (r) => (
        <button type="button" class="link" aria-label={showOf(r)} aria-pressed={r.id === selected} onClick={() => select(r.id)}>
          {t('list.show')}
        </button>
      ),
    },
  ];
}

/** The held commissions, newest first: a commission a signal of its own held is decided here, on its own. */
function HeldCommissions({ selected, select, round }: { selected?: string | undefined; select: (id: string) => void; round: number }) {
  const [page, go] = useState(1);
  const loaded = useLoad(
    (signal) => api.GET('/v1/commissions', { params: { query: { review_eq: 'held', page } }, signal }),
    `held-commissions:${page}:${round}`,
  );
  const rows = loaded.data?.data ?? [];
  const names = usePartnerNames(rows.map((c) => c.attributes.partner_id));
  const showOf = (c: Commission) =>
    t('list.showOfCommission', {
      amount: money(c.attributes.amount, c.attributes.currency),
      partner: names[c.attributes.partner_id] ?? t('aPartner'),
    });
  const columns: Column<Commission>[] = [
    {
      label: t('amount'),
      cell: (c) => money(c.attributes.amount, c.attributes.currency),
      text: (c) => `${c.attributes.amount} ${c.attributes.currency}`,
    },
    {
      label: t('partner'),
      cell: (c) => <a href={href(`/partners/${c.attributes.partner_id}`)}>{names[c.attributes.partner_id] ?? t('partner')}</a>,
      text: (c) => c.attributes.partner_id,
    },
    ...heldColumns<Commission>(t('list.made'), showOf, selected, select),
  ];
  return (
    <section aria-labelledby="held-commissions">
      <h2 id="held-commissions">{t('list.heldCommissions')}</h2>
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            <p class="hint">{page > 1 ? t('list.noMoreCommissions') : t('list.noCommissions')}</p>
          ) : (
            <>
              <p class="hint">{t('list.commissionsText')}</p>
              <Table caption={t('list.heldCommissions')} columns={columns} rows={answer.data} csv="held-commissions" />
              <Pager page={page} hasMore={answer.meta.pagination.has_more} go={go} />
            </>
          )
        }
      </Show>
    </section>
  );
}

function Held({
  page,
  go,
  selected,
  select,
  round,
}: {
  page: number;
  go: (p: number) => void;
  selected?: string | undefined;
  select: (id: string) => void;
  /** Counts the decisions made here: each one reloads the list. */
  round: number;
}) {
  const loaded = useLoad(
    (signal) => api.GET('/v1/referrals', { params: { query: { review_eq: 'held', page } }, signal }),
    `held:${page}:${round}`,
  );
  const rows = loaded.data?.data ?? [];
  const partnerOf = useEach(
    rows.map((r) => r.relationships.partnership.data?.id),
    partnerOfPartnership,
  );
  const partnerIdOf = (r: Referral) => partnerOf[r.relationships.partnership.data?.id ?? ''];
  const names = usePartnerNames(rows.map(partnerIdOf).filter((id): id is string => !!id));
  const columns: Column<Referral>[] = [
    { label: t('customer'), cell: customerOf, text: customerOf },
    {
      label: t('partner'),
      cell: (r) => {
        const id = partnerIdOf(r);
        return id ? <a href={href(`/partners/${id}`)}>{names[id] ?? t('partner')}</a> : '—';
      },
      text: (r) => partnerIdOf(r) ?? '',
    },
    ...heldColumns<Referral>(t('list.converted'), (r) => t('list.showOf', { customer: customerOf(r) }), selected, select),
  ];
  return (
    <Show loaded={loaded}>
      {(answer) =>
        answer.data.length === 0 ? (
          <Empty title={page > 1 ? t('list.noMoreReferrals') : t('list.noReferrals')}>
            <p>{tx('list.referralsText', { link: <a href={href('/settings#review')}>{t('list.settingsLink')}</a> })}</p>
          </Empty>
        ) : (
          <>
            <Table caption={t('list.heldReferrals')} columns={columns} rows={answer.data} csv="held-referrals" />
            <Pager page={page} hasMore={answer.meta.pagination.has_more} go={go} />
          </>
        )
      }
    </Show>
  );
}

function Decided({ page, go }: { page: number; go: (p: number) => void }) {
  const loaded = useLoad((signal) => api.GET('/v1/review_decisions', { params: { query: { page } }, signal }), `decided:${page}`);
  const rows = loaded.data?.data ?? [];
  const names = usePartnerNames(rows.map((d) => d.attributes.partner_id));
  const customers = useEach(
    rows.map((d) => d.attributes.referral_id),
    (id, signal) =>
      api.GET('/v1/referrals/{id}', { params: { path: { id } }, signal }).then((r) => r.data.attributes.email ?? r.data.attributes.uid),
  );
  const columns: Column<Decision>[] = [
    {
      label: t('list.decidedAt'),
      cell: (d) => dateTime(d.attributes.created_at),
      text: (d) => new Date(d.attributes.created_at * 1000).toISOString(),
    },
    {
      label: t('list.decision'),
      cell: (d) => (
        <span class={`state ${d.attributes.decision === 'approve' ? 'accepted' : 'rejected'}`}>{done(d.attributes.decision)}</span>
      ),
      text: (d) => d.attributes.decision,
    },
    {
      label: t('customer'),
      cell: (d) => (d.attributes.referral_id ? (customers[d.attributes.referral_id] ?? '—') : '—'),
      text: (d) => d.attributes.referral_id ?? '',
    },
    {
      label: t('partner'),
      cell: (d) => <a href={href(`/partners/${d.attributes.partner_id}`)}>{names[d.attributes.partner_id] ?? t('partner')}</a>,
      text: (d) => d.attributes.partner_id,
    },
    { label: t('reason'), cell: (d) => <span class="wrap">{d.attributes.reason}</span>, text: (d) => d.attributes.reason },
    { label: t('list.by'), cell: (d) => d.attributes.decided_by, text: (d) => d.attributes.decided_by },
  ];
  return (
    <Show loaded={loaded}>
      {(answer) =>
        answer.data.length === 0 ? (
          <Empty title={page > 1 ? t('list.noMoreDecisions') : t('list.noDecisions')}>
            <p>{t('list.decisionsText')}</p>
          </Empty>
        ) : (
          <>
            <Table caption={t('list.decisions')} columns={columns} rows={answer.data} csv="review-decisions" />
            <Pager page={page} hasMore={answer.meta.pagination.has_more} go={go} />
          </>
        )
      }
    </Show>
  );
}

function Selected({ subject, done }: { subject: Subject; done: (d: Decision, shown: Shown) => void }) {
  const { session } = useSession();
  const role = session.attributes.programs.find((p) => p.id === session.attributes.program_id)?.role;
  const loaded = useLoad((signal) => loadEvidence(subject, signal), JSON.stringify(subject));
  const [asking, setAsking] = useState<Verdict | null>(null);
  if (loaded.error !== undefined) return <Failure error={loaded.error} retry={loaded.reload} />;
  const shown = loaded.data;
  if (!shown) return <Loading what={t('evidence.loading')} />;
  return (
    <>
      <EvidencePanel shown={shown} decide={setAsking} canDecide={role !== 'viewer'} />
      {asking && <DecisionDialog verdict={asking} shown={shown} onDone={(d) => done(d, shown)} onClose={() => setAsking(null)} />}
    </>
  );
}

export function Review() {
  const { query, path, route } = useLocation();
  const view = query.view === 'decided' ? 'decided' : 'held';
  const page = Math.max(1, Number(query.page) || 1);
  const [said, setSaid] = useState<{ decision: Decision; customer: string; partner: string }>();
  const [round, setRound] = useState(0);
  const set = (change: Record<string, string | undefined>) => {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...query, ...change })) if (v) next.set(k, v);
    const q = next.toString();
    route(q ? `${path}?${q}` : path, true);
  };
  const go = (p: number) => set({ page: String(p), referral: undefined, commission: undefined });
  const subject: Subject | undefined = query.referral
    ? { referral: query.referral }
    : query.commission
      ? { commission: query.commission }
      : undefined;
  return (
    <section>
      <h1>{t('title')}</h1>
      <p class="hint">{tx('intro', { link: <a href={href('/settings#review')}>{t('introLink')}</a> })}</p>
      <nav class="tabs" aria-label={t('title')}>
        <a href={path} aria-current={view === 'held' ? 'page' : undefined}>
          {t('held')}
        </a>
        <a href={`${path}?view=decided`} aria-current={view === 'decided' ? 'page' : undefined}>
          {t('decided')}
        </a>
      </nav>
      {said && (
        <p role="status" class="ok">
          {t(said.decision.attributes.decision === 'ban' ? 'saidBan' : 'said', {
            customer: said.customer,
            done: done(said.decision.attributes.decision),
            partner: said.partner,
            by: said.decision.attributes.decided_by,
            date: dateTime(said.decision.attributes.created_at),
          })}{' '}
          {view === 'held' && <a href={`${path}?view=decided`}>{t('seeDecisions')}</a>}
        </p>
      )}
      {view === 'decided' ? (
        <Decided page={page} go={go} />
      ) : (
        <>
          <Held page={page} go={go} selected={query.referral} select={(id) => set({ referral: id, commission: undefined })} round={round} />
          <HeldCommissions selected={query.commission} select={(id) => set({ commission: id, referral: undefined })} round={round} />
          {subject && (
            <Selected
              key={JSON.stringify(subject)}
              subject={subject}
              done={(decision, shown) => {
                setSaid({ decision, customer: shown.evidence.email, partner: shown.partner?.attributes.name ?? t('thePartner') });
                setRound((n) => n + 1);
                set({ referral: undefined, commission: undefined });
              }}
            />
          )}
        </>
      )}
    </section>
  );
}
