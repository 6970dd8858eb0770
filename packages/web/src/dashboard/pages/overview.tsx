// The program at a glance for a range: headline figures against the period before, a
// chart with a choice of measure, the funnel from click to paying customer, the top
// partners, and what happened last.

import { api } from '../../common/api.js';
import { dateTime, int, mainCurrency, money, moneyMap, perClick, percent } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Show } from '../../common/ui.js';
import { href } from '../session.js';
import { TRACK_CALL } from '../track-call.js';
import { MeasureChart, sumMoney, type Stats } from '../../common/measures.js';
import { RangePicker, statsQuery, useRange, type Range } from '../../common/range.js';
import { stateWord, t, tx } from '../language.js';

type Totals = Stats['totals'];

const change = (now: number, before: number) =>
  before === 0 ? (now === 0 ? '' : t('overview.new')) : `${now >= before ? '+' : ''}${percent((now - before) / before)}`;

function Figure({ label, value, now, before }: { label: string; value: string; now: number; before: number }) {
  const delta = change(now, before);
  return (
    <div class="figure">
      <dt>{label}</dt>
      <dd>
        <span class="value">{value}</span>
        {delta && (
          <span class={`delta ${now >= before ? 'up' : 'down'}`} title={t('overview.against')}>
            {delta}
          </span>
        )}
      </dd>
    </div>
  );
}

function Funnel({ totals }: { totals: Totals }) {
  // Each step against the one before as a ratio, not a percentage: referrals recorded by a
  // server have no click, and a customer's first payment may come in a later period.
  const steps = [
    [t('overview.clicks'), totals.clicks, ''],
    [t('overview.referrals'), totals.referrals, t('overview.perClick')],
    [t('overview.customers'), totals.customers, t('overview.perReferral')],
  ] as const;
  const top = Math.max(1, ...steps.map(([, n]) => n));
  return (
    <section class="panel">
      <h2>{t('overview.funnel')}</h2>
      <ol class="funnel">
        {steps.map(([label, n, per], i) => (
          <li>
            <span class="step">{label}</span>
            <span class="bar" style={{ width: `${Math.max(2, (n / top) * 100)}%` }} />
            <span class="num">
              {int(n)}
              {i > 0 && steps[i - 1]![1] > 0 ? ` (${perClick(n / steps[i - 1]![1])} ${per})` : ''}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The applications waiting for a decision (pending partnerships a partner asked for), the latest first, with the partners' names. */
async function loadApplications(signal: AbortSignal) {
  const pending = await api.GET('/v1/partnerships', { params: { query: { state_eq: 'pending', per_page: 50 } }, signal });
  const applied = pending.data.filter((p) => p.attributes.created_by === 'partner' && p.relationships.partner.data);
  const shown = await Promise.all(
    applied.slice(0, 5).map(async (p) => {
      const id = p.relationships.partner.data!.id;
      const partner = await api.GET('/v1/partners/{id}', { params: { path: { id } }, signal });
      return { id, name: partner.data.attributes.name, at: p.attributes.created_at };
    }),
  );
  return { shown, count: applied.length, more: pending.meta.pagination.has_more };
}

async function loadOverview(range: Range, signal: AbortSignal) {
  const [now, before, top, referrals, commissions, applications] = await Promise.all([
    api.GET('/v1/stats', { params: { query: statsQuery(range, { interval: range.interval }) }, signal }),
    api.GET('/v1/stats', { params: { query: statsQuery(range.previous, { interval: range.interval }) }, signal }),
    api.GET('/v1/stats/partners', { params: { query: statsQuery(range, { sort: 'revenue', per_page: 5 }) }, signal }),
    api.GET('/v1/referrals', { params: { query: { per_page: 5 } }, signal }),
    api.GET('/v1/commissions', { params: { query: { per_page: 5 } }, signal }),
    loadApplications(signal),
  ]);
  return {
    now: now.data.attributes,
    before: before.data.attributes,
    top: top.data,
    referrals: referrals.data,
    commissions: commissions.data,
    applications,
  };
}

/** New applications, first on the page: each partner's page is where to accept or decline them. */
function Applications({ applications: a }: { applications: Awaited<ReturnType<typeof loadApplications>> }) {
  if (a.count === 0) return null;
  return (
    <section class="panel applications">
      <h2>{a.more ? t('overview.applicationsMore', { count: a.count }) : t('overview.applications', { count: a.count })}</h2>
      <ul class="activity">
        {a.shown.map((p) => (
          <li key={p.id}>
            <time>{dateTime(p.at)}</time> {tx('overview.applied', { name: <a href={href(`/partners/${p.id}`)}>{p.name}</a> })}
          </li>
        ))}
      </ul>
      {a.count > a.shown.length && <p>{tx('overview.seeEvery', { link: <a href={href('/partners')}>{t('overview.everyPartner')}</a> })}</p>}
    </section>
  );
}

export function Overview() {
  const picked = useRange();
  const { range } = picked;
  const loaded = useLoad((signal) => loadOverview(range, signal), `${range.from}/${range.to}`);
  return (
    <section>
      <div class="page-head">
        <h1>{t('overview.title')}</h1>
        <RangePicker {...picked} />
      </div>
      <Show loaded={loaded}>
        {({ now, before, top, referrals, commissions, applications }) => {
          const n = now.totals;
          const b = before.totals;
          const currency = mainCurrency(n.revenue, n.commissions, b.revenue);
          const rate = (x: Totals) => (x.clicks ? x.referrals / x.clicks : 0);
          if (top.length === 0 && applications.count === 0) {
            return (
              <Empty title={t('overview.noPartners')}>
                <p>
                  {t('overview.noPartnersText')}{' '}
                  {tx('overview.addFirst', { link: <a href={href('/partners?new=1')}>{t('overview.addFirstLink')}</a> })}
                </p>
              </Empty>
            );
          }
          const recent = [
            ...referrals.map((r) => ({
              id: r.id,
              at: r.attributes.created_at,
              text: t('overview.newReferral', { state: stateWord(`referralState.${r.attributes.state}`, r.attributes.state) }),
            })),
            ...commissions.map((c) => ({
              id: c.id,
              at: c.attributes.created_at,
              text: t('overview.commission', {
                amount: money(c.attributes.amount, c.attributes.currency),
                state: stateWord(`commissionState.${c.attributes.state}`, c.attributes.state),
              }),
            })),
          ]
            .sort((x, y) => y.at - x.at)
            .slice(0, 8);
          return (
            <>
              <Applications applications={applications} />
              <dl class="figures">
                <Figure label={t('overview.clicks')} value={int(n.clicks)} now={n.clicks} before={b.clicks} />
                <Figure label={t('overview.referrals')} value={int(n.referrals)} now={n.referrals} before={b.referrals} />
                <Figure label={t('overview.referralsPerClick')} value={perClick(rate(n))} now={rate(n)} before={rate(b)} />
                <Figure
                  label={t('overview.revenue')}
                  value={moneyMap(n.revenue)}
                  now={sumMoney(n.revenue, currency)}
                  before={sumMoney(b.revenue, currency)}
                />
                <Figure
                  label={t('overview.commissions')}
                  value={moneyMap(n.commissions)}
                  now={sumMoney(n.commissions, currency)}
                  before={sumMoney(b.commissions, currency)}
                />
                <Figure label={t('overview.owed')} value={moneyMap(now.owed)} now={0} before={0} />
              </dl>
              {n.clicks === 0 && n.referrals === 0 && (
                <Empty title={t('overview.noClicks')}>
                  <p>
                    {t('overview.noClicksText')}{' '}
                    {tx('overview.getSnippet', {
                      link: <a href={href('/settings#snippet')}>{t('overview.getSnippetLink')}</a>,
                      call: <code>{TRACK_CALL}</code>,
                    })}
                  </p>
                </Empty>
              )}
              <MeasureChart stats={now} />
              <div class="columns">
                <Funnel totals={n} />
                <section class="panel">
                  <h2>{t('overview.topPartners')}</h2>
                  <ol class="top-partners">
                    {top.map((p) => (
                      <li>
                        <a href={href(`/partners/${p.id}`)}>{p.attributes.name}</a>
                        <span>{moneyMap(p.attributes.revenue)}</span>
                      </li>
                    ))}
                  </ol>
                </section>
              </div>
              <section class="panel">
                <h2>{t('overview.recent')}</h2>
                {recent.length === 0 ? (
                  <p>{t('overview.nothingYet')}</p>
                ) : (
                  <ul class="activity">
                    {recent.map((r) => (
                      <li key={r.id}>
                        <time>{dateTime(r.at)}</time> {r.text}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            </>
          );
        }}
      </Show>
    </section>
  );
}
