// The partner's home: the link first (with a copy button and its short forms), their
// promotion codes beside it (codes.tsx), their group and its rewards in words, then, for a
// date range, clicks, referrals, paying customers, referrals per click, earnings per click
// and what was earned, with a chart; and what is pending and paid, and what the next payout
// pays (or why it pays nothing, in words).

import { api } from '../../common/api.js';
import { dateTime, int, mainCurrency, money, moneyMap, perClick } from '../../common/format.js';
import { MeasureChart, sumMoney } from '../../common/measures.js';
import { RangePicker, statsQuery, useRange } from '../../common/range.js';
import { useLoad } from '../../common/use-api.js';
import { CopyButton, Empty, Show } from '../../common/ui.js';
import { CodesCard } from '../codes.js';
import { t, tx } from '../language.js';
import { href, usePortal, type Partnership } from '../session.js';
import { type RewardTerms, rewardWords } from '../rewards/words.js';

function LinkCard({ p }: { p: Partnership }) {
  const a = p.attributes;
  if (a.state !== 'accepted' || !a.referral_link) {
    return (
      <section class="panel">
        <h2>{t('home.application', { program: a.program_name })}</h2>
        <p role="status">{t(a.state === 'pending' ? 'home.pending' : 'home.declined', { program: a.program_name })}</p>
      </section>
    );
  }
  const base = new URL(a.referral_link);
  const others = a.competitor_slugs.map((slug) => `${base.origin}${base.pathname}?red=${slug}`);
  return (
    <section class="panel link-card">
      <h2>{t('home.link')}</h2>
      <p>
        <code class="referral-link">{a.referral_link}</code> <CopyButton text={a.referral_link} label={t('home.copyLink')} />
      </p>
      <p class="hint">{tx(others.length > 0 ? 'home.anyPageAndThese' : 'home.anyPage', { param: <code>?red={a.key}</code> })}</p>
      {others.length > 0 && (
        <ul class="short-forms">
          {others.map((s) => (
            <li>
              <code>{s}</code>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The partner's group and what it pays, each reward in words; a declined partnership earns nothing, and says nothing of it. */
function GroupCard({ p }: { p: Partnership }) {
  const a = p.attributes;
  if (a.state === 'declined') return null;
  return (
    <section class="panel group-card" aria-labelledby="group-title">
      <h2 id="group-title">{t('home.earn')}</h2>
      <p>
        {tx(a.state === 'pending' ? 'home.groupPending' : 'home.group', {
          group: <strong>{a.group.name}</strong>,
          program: a.program_name,
        })}
      </p>
      {a.group.terms.length ? (
        <ul class="terms">
          {a.group.terms.map((r) => (
            <li>{rewardWords(r as RewardTerms, a.group.own_rate)}</li>
          ))}
        </ul>
      ) : (
        <p>{t('home.noRewards', { program: a.program_name })}</p>
      )}
    </section>
  );
}

type Money = Partnership['attributes']['earnings'][string];

/** What the next payout pays, in words: the amount, or why it pays nothing (the API's reason) and what to do. */
function NextPayout({ e, currency }: { e: Money; currency: string }) {
  const { current } = usePortal();
  const { amount, reason, minimum } = e.next_payout;
  const payable = money(e.payable, currency);
  const later = e.next_payable_at ? ` ${t('payout.later', { date: dateTime(e.next_payable_at) })}` : '';
  const words =
    reason === 'below_minimum'
      ? t('payout.below_minimum', { payable, minimum: money(minimum, currency) })
      : reason === 'clawbacks_exceed_earnings'
        ? e.payable < 0
          ? t('payout.clawbacks_exceed_earnings', { amount: money(-e.payable, currency) })
          : t('payout.clawbacks_cancel')
        : reason === 'no_paypal_email' || reason === 'no_tax_form' || reason === 'not_accepted'
          ? t(`payout.${reason}`, { payable })
          : t(amount > 0 ? 'payout.next' : 'payout.nothing');
  return (
    <dd>
      <span class="value">{money(amount, currency)}</span>
      <span class="hint">
        {words}
        {later}
        {reason === 'no_paypal_email' && (
          <> {tx('payout.addPaypal', { link: <a href={href('/earnings', current?.id)}>{t('payout.addPaypalLink')}</a> })}</>
        )}
      </span>
    </dd>
  );
}

function Earnings({ p }: { p: Partnership }) {
  const rows = Object.entries(p.attributes.earnings);
  if (rows.length === 0) return null;
  return (
    <section class="panel">
      <h2>{t('home.money')}</h2>
      <dl class="figures">
        {rows.map(([currency, e]) => (
          <>
            <div class="figure">
              <dt>{t('home.pendingIn', { currency })}</dt>
              <dd>
                <span class="value">{money(e.pending, currency)}</span>
              </dd>
            </div>
            <div class="figure next-payout">
              <dt>{t('home.nextPayoutIn', { currency })}</dt>
              <NextPayout e={e} currency={currency} />
            </div>
            <div class="figure">
              <dt>{t('home.paidIn', { currency })}</dt>
              <dd>
                <span class="value">{money(e.paid, currency)}</span>
              </dd>
            </div>
          </>
        ))}
      </dl>
    </section>
  );
}

export function Home() {
  const { current } = usePortal();
  const picked = useRange();
  const { range } = picked;
  const id = current?.id ?? '';
  const stats = useLoad(
    current
      ? (signal) =>
          api.GET('/v1/portal/partnerships/{id}/stats', {
            params: { path: { id }, query: statsQuery(range, { interval: range.interval }) },
            signal,
          })
      : null,
    `${id}/${range.from}/${range.to}`,
  );
  if (!current) {
    return (
      <section>
        <h1>{t('home.welcome')}</h1>
        <Empty title={t('app.noProgram')}>
          <p>{t('home.noProgram')}</p>
        </Empty>
      </section>
    );
  }
  return (
    <section>
      <h1>{current.attributes.program_name}</h1>
      <LinkCard p={current} />
      {current.attributes.state === 'accepted' && <CodesCard key={current.id} p={current} />}
      <GroupCard p={current} />
      <Earnings p={current} />
      {current.attributes.state === 'accepted' && (
        <>
          <RangePicker {...picked} />
          <Show loaded={stats}>
            {({ data: { attributes: s } }) => {
              const n = s.totals;
              const currency = mainCurrency(n.commissions);
              const earned = sumMoney(n.commissions, currency);
              return n.clicks === 0 && n.referrals === 0 ? (
                <Empty title={t('home.noClicks')}>
                  <p>{t('home.share')}</p>
                </Empty>
              ) : (
                <>
                  <dl class="figures">
                    {[
                      [t('home.clicks'), int(n.clicks)],
                      [t('home.referrals'), int(n.referrals)],
                      [t('home.customers'), int(n.customers)],
                      [t('home.perClick'), n.clicks ? perClick(n.referrals / n.clicks) : '—'],
                      [t('home.earningsPerClick'), n.clicks && currency ? money(Math.round(earned / n.clicks), currency) : '—'],
                      [t('home.earned'), moneyMap(n.commissions)],
                    ].map(([label, value]) => (
                      <div class="figure">
                        <dt>{label}</dt>
                        <dd>
                          <span class="value">{value}</span>
                        </dd>
                      </div>
                    ))}
                  </dl>
                  <MeasureChart stats={s} only={['clicks', 'referrals', 'customers', 'commissions']} />
                </>
              );
            }}
          </Show>
        </>
      )}
    </section>
  );
}
