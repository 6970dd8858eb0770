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
import { href, usePortal, type Partnership } from '../session.js';

function LinkCard({ p }: { p: Partnership }) {
  const a = p.attributes;
  if (a.state !== 'accepted' || !a.referral_link) {
    return (
      <section class="panel">
        <h2>Your application to {a.program_name}</h2>
        <p role="status">
          {a.state === 'pending'
            ? `It is waiting for ${a.program_name} to accept it. Your link appears here as soon as they do.`
            : `${a.program_name} declined it: there is no link to share, and visits through one no longer count.`}
        </p>
      </section>
    );
  }
  const base = new URL(a.referral_link);
  const others = a.competitor_slugs.map((slug) => `${base.origin}${base.pathname}?red=${slug}`);
  return (
    <section class="panel link-card">
      <h2>Your link</h2>
      <p>
        <code class="referral-link">{a.referral_link}</code> <CopyButton text={a.referral_link} label="Copy link" />
      </p>
      <p class="hint">
        Add <code>?red={a.key}</code> to any page of the site and it counts too{others.length > 0 ? ', and so do these:' : '.'}
      </p>
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
      <h2 id="group-title">What you earn</h2>
      <p>
        You are in the <strong>{a.group.name}</strong> group of {a.program_name}
        {a.state === 'pending' ? '; once they accept you, you earn:' : ':'}
      </p>
      {a.group.rewards.length ? (
        <ul class="terms">
          {a.group.rewards.map((r) => (
            <li>{r}</li>
          ))}
        </ul>
      ) : (
        <p>Its rewards are not set yet: {a.program_name} adds them.</p>
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
  const later = e.next_payable_at ? ` More becomes payable from ${dateTime(e.next_payable_at)}.` : '';
  const words =
    reason === 'below_minimum'
      ? `${payable} is payable, below the minimum payout of ${money(minimum, currency)}: it waits until you reach it.`
      : reason === 'clawbacks_exceed_earnings'
        ? e.payable < 0
          ? `Refunds taken back exceed what is payable by ${money(-e.payable, currency)}: your next commissions make that up first.`
          : 'Refunds taken back cancel out what is payable.'
        : reason === 'no_paypal_email'
          ? `${payable} is payable, but there is no PayPal address to pay it to.`
          : reason === 'not_accepted'
            ? `${payable} is payable, but payouts go only to accepted partners.`
            : amount > 0
              ? 'Paid to your PayPal address with the next payout.'
              : 'Nothing is payable now.';
  return (
    <dd>
      <span class="value">{money(amount, currency)}</span>
      <span class="hint">
        {words}
        {later}
        {reason === 'no_paypal_email' && (
          <>
            {' '}
            <a href={href('/settings', current?.id)}>Add yours in Settings</a>.
          </>
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
      <h2>Your money</h2>
      <dl class="figures">
        {rows.map(([currency, e]) => (
          <>
            <div class="figure">
              <dt>Pending ({currency})</dt>
              <dd>
                <span class="value">{money(e.pending, currency)}</span>
              </dd>
            </div>
            <div class="figure next-payout">
              <dt>Next payout ({currency})</dt>
              <NextPayout e={e} currency={currency} />
            </div>
            <div class="figure">
              <dt>Paid ({currency})</dt>
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
        <h1>Welcome</h1>
        <Empty title="No program yet">
          <p>Apply on a program's page, or ask the company for an invitation: your link appears here.</p>
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
              const t = s.totals;
              const currency = mainCurrency(t.commissions);
              const earned = sumMoney(t.commissions, currency);
              return t.clicks === 0 && t.referrals === 0 ? (
                <Empty title="No clicks yet">
                  <p>
                    Share your link above: in a post, a newsletter, a video description. Every visit through it counts here, and every
                    signup after it.
                  </p>
                </Empty>
              ) : (
                <>
                  <dl class="figures">
                    {[
                      ['Clicks', int(t.clicks)],
                      ['Referrals', int(t.referrals)],
                      ['Paying customers', int(t.customers)],
                      ['Referrals per click', t.clicks ? perClick(t.referrals / t.clicks) : '—'],
                      ['Earnings per click', t.clicks && currency ? money(Math.round(earned / t.clicks), currency) : '—'],
                      ['Earned', moneyMap(t.commissions)],
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
